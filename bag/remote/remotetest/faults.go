package remotetest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// Faults is an HTTP proxy on 127.0.0.1 in front of a server, which makes
// the failures a TCP proxy cannot: HTTP statuses (a 503 now and then), a
// server that ignores Range, bodies cut short. It counts the requests it
// forwards.
type Faults struct {
	// URL is the proxy's root, ending with "/".
	URL string

	mu sync.Mutex
	// Every503 makes every n-th request answer 503 (0: none).
	every503 int
	// ignoreRange drops the Range header, as a server without range
	// support does.
	ignoreRange bool
	// cutEvery cuts the body of every n-th answer after cutAfter bytes.
	cutEvery int
	cutAfter int64
	// status, when set, answers a request with a status of its choosing
	// (0: forward it).
	status func(n int, r *http.Request) int
	n      int
	ranges []string
}

// NewFaults starts a fault proxy in front of upstream (an http:// URL).
func NewFaults(t testing.TB, upstream string) *Faults {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	f := &Faults{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		f.mu.Lock()
		n, every, after := f.n, f.cutEvery, f.cutAfter
		f.mu.Unlock()
		if every > 0 && n%every == 0 {
			resp.Body = &cutBody{r: resp.Body, left: after}
		}
		return nil
	}
	rp.ErrorLog = nil
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.n++
		n := f.n
		f.ranges = append(f.ranges, r.Header.Get("Range"))
		every, ignore, status := f.every503, f.ignoreRange, f.status
		f.mu.Unlock()
		if every > 0 && n%every == 0 {
			http.Error(w, "injected 503", http.StatusServiceUnavailable)
			return
		}
		if status != nil {
			if code := status(n, r); code != 0 {
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(code)
				io.WriteString(w, "<Error><Code>Injected</Code><Message>injected failure</Message></Error>")
				return
			}
		}
		if ignore {
			r.Header.Del("Range")
			r.Header.Del("If-Range")
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.URL = srv.URL + "/"
	return f
}

// Every503 makes every n-th request answer 503 Service Unavailable.
func (f *Faults) Every503(n int) { f.mu.Lock(); f.every503 = n; f.mu.Unlock() }

// IgnoreRange makes the proxy drop Range, as a server without range
// support does.
func (f *Faults) IgnoreRange(on bool) { f.mu.Lock(); f.ignoreRange = on; f.mu.Unlock() }

// CutBodies cuts every n-th answer's body after `after` bytes (the
// connection drops).
func (f *Faults) CutBodies(n int, after int64) {
	f.mu.Lock()
	f.cutEvery, f.cutAfter = n, after
	f.mu.Unlock()
}

// Status answers requests with the status fn returns for them (0:
// forward the request).
func (f *Faults) Status(fn func(n int, r *http.Request) int) {
	f.mu.Lock()
	f.status = fn
	f.mu.Unlock()
}

// Requests returns how many requests came so far.
func (f *Faults) Requests() int { f.mu.Lock(); defer f.mu.Unlock(); return f.n }

// Ranges returns the Range header of each request so far.
func (f *Faults) Ranges() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ranges...)
}

// cutBody ends with an error after left bytes: the proxy then drops the
// connection mid-body.
type cutBody struct {
	r    io.ReadCloser
	left int64
}

var errCut = errors.New("remotetest: body cut")

func (c *cutBody) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errCut
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cutBody) Close() error { return c.r.Close() }
