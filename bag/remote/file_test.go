package remote

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// origin serves one file with ranges, ETag and Last-Modified through
// net/http's ServeContent, and counts the requests. Its content can be
// replaced (a new version) while a client reads it.
type origin struct {
	mu       sync.Mutex
	data     []byte
	etag     string
	mod      time.Time
	requests atomic.Int64
	headers  []http.Header
	srv      *httptest.Server
	// fail, when set, answers a request with a status (0: serve it).
	fail func(n int64, r *http.Request) int
}

func newOrigin(t *testing.T, data []byte) *origin {
	o := &origin{data: data, etag: `"v1"`, mod: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := o.requests.Add(1)
		o.mu.Lock()
		data, etag, mod, fail := o.data, o.etag, o.mod, o.fail
		o.headers = append(o.headers, r.Header.Clone())
		o.mu.Unlock()
		if fail != nil {
			if code := fail(n, r); code != 0 {
				w.WriteHeader(code)
				io.WriteString(w, "<Error><Code>X</Code><Message>injected</Message></Error>")
				return
			}
		}
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "f.bin", mod, bytes.NewReader(data))
	}))
	t.Cleanup(o.srv.Close)
	return o
}

func (o *origin) replace(data []byte, etag string) {
	o.mu.Lock()
	o.data, o.etag, o.mod = data, etag, o.mod.Add(time.Hour)
	o.mu.Unlock()
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func testClient(o Options) *Client {
	if o.Backoff == 0 {
		o.Backoff = time.Millisecond
	}
	return NewClient(o)
}

func TestReadAtMatchesFile(t *testing.T) {
	for _, size := range []int{0, 1, 100, 64 << 10, 256<<10 + 1, 3<<20 + 12345} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			data := randomBytes(size, uint64(size))
			o := newOrigin(t, data)
			c := testClient(Options{})
			f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Size() != int64(size) {
				t.Fatalf("Size = %d, want %d", f.Size(), size)
			}
			if got := o.requests.Load(); got != 2 {
				t.Errorf("opening made %d requests, want 2 (the suffix and the head, together)", got)
			}
			r := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < 200; i++ {
				off := int64(0)
				if size > 0 {
					off = r.Int64N(int64(size) + 10)
				}
				n := r.IntN(200 << 10)
				p := make([]byte, n)
				got, err := f.ReadAt(p, off)
				want := 0
				if off < int64(size) {
					want = min(n, size-int(off))
				}
				if got != want {
					t.Fatalf("ReadAt(%d bytes at %d) = %d, want %d (err %v)", n, off, got, want, err)
				}
				if got < n && !errors.Is(err, io.EOF) {
					t.Fatalf("a short read at the end gave %v, want io.EOF", err)
				}
				if got == n && err != nil {
					t.Fatalf("a full read gave %v", err)
				}
				if got > 0 && !bytes.Equal(p[:got], data[off:off+int64(got)]) {
					t.Fatalf("ReadAt(%d bytes at %d): wrong bytes", n, off)
				}
			}
			st := f.Stats()
			if st.Requests != o.requests.Load() {
				t.Errorf("Stats.Requests = %d, the server saw %d", st.Requests, o.requests.Load())
			}
			if st.Bytes > int64(size)+(512<<10) {
				t.Errorf("fetched %d bytes of a %d-byte file", st.Bytes, size)
			}
		})
	}
}

func TestTailServesIndexWithoutRequests(t *testing.T) {
	data := randomBytes(10<<20, 7)
	o := newOrigin(t, data)
	c := testClient(Options{})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := make([]byte, 200<<10)
	if _, err := f.ReadAt(p, int64(len(data))-int64(len(p))); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p, data[len(data)-len(p):]) {
		t.Fatal("wrong tail bytes")
	}
	if got := o.requests.Load(); got != 2 {
		t.Errorf("reading within the last 256 KiB made %d requests, want the opening ones only", got)
	}
}

func TestSequentialReadAhead(t *testing.T) {
	data := randomBytes(16<<20, 9)
	o := newOrigin(t, data)
	c := testClient(Options{})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var got bytes.Buffer
	if _, err := io.Copy(&got, io.NewSectionReader(f, 0, f.Size())); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), data) {
		t.Fatal("wrong bytes")
	}
	blocks := int64(len(data)) / c.opts.BlockSize
	if n := o.requests.Load(); n > blocks/8 {
		t.Errorf("a sequential read of %d blocks made %d requests, want read-ahead to make at most %d", blocks, n, blocks/8)
	}
	// Read-ahead may run past what was read, but never twice over.
	if st := f.Stats(); st.Bytes > int64(len(data))+maxWindow {
		t.Errorf("fetched %d bytes for a %d-byte file", st.Bytes, len(data))
	}
}

func TestCacheIsBounded(t *testing.T) {
	data := randomBytes(8<<20, 11)
	o := newOrigin(t, data)
	c := testClient(Options{CacheBytes: 1 << 20})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(io.Discard, io.NewSectionReader(f, 0, f.Size())); err != nil {
		t.Fatal(err)
	}
	if got := c.cache.size(); got > 1<<20 {
		t.Errorf("the cache holds %d bytes, bound 1 MiB", got)
	}
}

func TestFaults(t *testing.T) {
	data := randomBytes(2<<20, 3)
	tests := []struct {
		name string
		fail func(n int64, r *http.Request) int
		url  string
		want error // nil: the read succeeds
	}{
		{"503 every other request", func(n int64, r *http.Request) int {
			if n%2 == 0 {
				return 503
			}
			return 0
		}, "/f.bin", nil},
		{"429 then served", func(n int64, r *http.Request) int {
			if n == 2 {
				return 429
			}
			return 0
		}, "/f.bin", nil},
		{"always 503", func(n int64, r *http.Request) int {
			if n > 1 {
				return 503
			}
			return 0
		}, "/f.bin", ErrUnavailable},
		{"404", func(n int64, r *http.Request) int { return 404 }, "/f.bin", ErrNotFound},
		{"403", func(n int64, r *http.Request) int { return 403 }, "/f.bin?X-Amz-Signature=topsecret", ErrForbidden},
		{"expired presigned", func(n int64, r *http.Request) int { return 403 }, "/f.bin?X-Amz-Date=20200101T000000Z&X-Amz-Expires=60&X-Amz-Signature=topsecret", ErrExpired},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := newOrigin(t, data)
			o.fail = tc.fail
			c := testClient(Options{MaxAttempts: 4})
			f, err := c.Open(context.Background(), o.srv.URL+tc.url)
			if err == nil {
				defer f.Close()
				p := make([]byte, 1<<20)
				_, err = f.ReadAt(p, 1000)
				if err == nil && !bytes.Equal(p, data[1000:1000+len(p)]) {
					t.Fatal("wrong bytes")
				}
			}
			if tc.want == nil {
				if err != nil {
					t.Fatalf("want the read to succeed after retries, got %v", err)
				}
				if c.Stats().Retries == 0 {
					t.Error("no retry counted")
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("the error shows the signature: %v", err)
			}
			var e *Error
			if !errors.As(err, &e) || e.URL == "" {
				t.Errorf("err is not an *Error naming the URL: %#v", err)
			}
		})
	}
}

func TestServerIgnoringRange(t *testing.T) {
	for _, tc := range []struct {
		size int
		want error
	}{{100 << 10, nil}, {3 << 20, ErrNoRanges}} {
		data := randomBytes(tc.size, 5)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(data) // 200 and the whole file, whatever was asked
		}))
		c := testClient(Options{})
		f, err := c.Open(context.Background(), srv.URL+"/f.bin")
		if !errors.Is(err, tc.want) {
			t.Errorf("%d bytes: Open err = %v, want %v", tc.size, err, tc.want)
		}
		if err == nil {
			p := make([]byte, 10)
			if _, err := f.ReadAt(p, 5); err != nil || !bytes.Equal(p, data[5:15]) {
				t.Errorf("%d bytes: read %v", tc.size, err)
			}
			f.Close()
		}
		srv.Close()
	}
}

func TestChangedFileIsAnError(t *testing.T) {
	data := randomBytes(4<<20, 13)
	o := newOrigin(t, data)
	c := testClient(Options{})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := make([]byte, 1000)
	if _, err := f.ReadAt(p, 0); err != nil {
		t.Fatal(err)
	}
	o.replace(randomBytes(4<<20, 14), `"v2"`)
	_, err = f.ReadAt(p, 2<<20)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("reading a replaced file: %v, want ErrChanged", err)
	}
	// Sticky: even a cached range is not mixed with the new version.
	if _, err := f.ReadAt(p, 0); !errors.Is(err, ErrChanged) {
		t.Errorf("after the change, a cached read gave %v, want ErrChanged", err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if last := o.headers[len(o.headers)-1]; last.Get("If-Match") != `"v1"` {
		t.Errorf("the read was not pinned: If-Match %q", last.Get("If-Match"))
	}
}

func TestCutBodiesResume(t *testing.T) {
	data := randomBytes(3<<20, 21)
	var cut atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"x"`)
		if r.Header.Get("Range") != "" && !strings.HasPrefix(r.Header.Get("Range"), "bytes=-") && cut.Add(1)%2 == 1 {
			// Promise the range, send half of it, drop the connection.
			var start, end int64
			parseRange(r.Header.Get("Range"), &start, &end)
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(int(start))+"-"+strconv.Itoa(int(end))+"/"+strconv.Itoa(len(data)))
			w.Header().Set("Content-Length", strconv.Itoa(int(end-start+1)))
			w.WriteHeader(206)
			w.Write(data[start : start+(end-start+1)/2])
			panic(http.ErrAbortHandler)
		}
		http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
	}))
	defer srv.Close()
	c := testClient(Options{})
	f, err := c.Open(context.Background(), srv.URL+"/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatal("wrong bytes after resumed answers")
	}
	if f.Stats().Retries == 0 {
		t.Error("no retry counted for the cut answers")
	}
}

func parseRange(h string, start, end *int64) {
	h = strings.TrimPrefix(h, "bytes=")
	a, b, _ := strings.Cut(h, "-")
	for _, ch := range a {
		*start = *start*10 + int64(ch-'0')
	}
	for _, ch := range b {
		*end = *end*10 + int64(ch-'0')
	}
}

func TestConcurrentReaders(t *testing.T) {
	data := randomBytes(6<<20, 17)
	o := newOrigin(t, data)
	c := testClient(Options{CacheBytes: 2 << 20})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(seed uint64) {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, 1))
			for i := 0; i < 50; i++ {
				off := r.Int64N(int64(len(data)))
				p := make([]byte, r.IntN(300<<10))
				n, err := f.ReadAt(p, off)
				if err != nil && !errors.Is(err, io.EOF) {
					errs <- err
					return
				}
				if !bytes.Equal(p[:n], data[off:off+int64(n)]) {
					errs <- errors.New("wrong bytes")
					return
				}
			}
		}(uint64(g))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func TestClosedFile(t *testing.T) {
	o := newOrigin(t, randomBytes(1<<20, 1))
	c := testClient(Options{})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := f.ReadAt(make([]byte, 10), 0); !errors.Is(err, ErrClosed) {
		t.Errorf("reading a closed file: %v, want ErrClosed", err)
	}
}

func TestDiskCache(t *testing.T) {
	data := randomBytes(2<<20, 23)
	o := newOrigin(t, data)
	dir := t.TempDir()
	read := func() (*Client, Stats) {
		c := testClient(Options{DiskCache: dir, DiskCacheBytes: 8 << 20})
		f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read: %v", err)
		}
		return c, f.Stats()
	}
	_, first := read()
	_, second := read()
	if second.DiskHits == 0 || second.Requests >= first.Requests {
		t.Errorf("a second run fetched %+v after a first %+v: want blocks from the disk cache", second, first)
	}
	// A new version is not served from the old one's blocks.
	o.replace(randomBytes(len(data), 24), `"v2"`)
	data = o.data
	_, third := read()
	if third.DiskHits != 0 {
		t.Errorf("a changed file was served %d blocks from the disk cache", third.DiskHits)
	}
}

func TestPrefetch(t *testing.T) {
	data := randomBytes(40<<20, 61)
	// 400 small ranges spread over the file, as a bag's chunk headers.
	var rs []Range
	for i := int64(0); i < 400; i++ {
		rs = append(rs, Range{Off: i * 100_000, Len: 128})
	}
	for _, tc := range []struct {
		name       string
		multi      bool // the server answers multi-range requests in parts
		maxFetches int64
	}{{"multi-range", true, 4}, {"single ranges", false, 404}} {
		t.Run(tc.name, func(t *testing.T) {
			var requests atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				if !tc.multi && strings.Contains(r.Header.Get("Range"), ",") {
					w.Header().Set("ETag", `"e"`)
					w.Write(data) // as a server without multi-range support
					return
				}
				w.Header().Set("ETag", `"e"`)
				http.ServeContent(w, r, "f", time.Time{}, bytes.NewReader(data))
			}))
			defer srv.Close()
			c := testClient(Options{})
			f, err := c.Open(context.Background(), srv.URL+"/f")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Prefetch(rs); err != nil {
				t.Fatal(err)
			}
			fetched := requests.Load()
			if fetched-2 > tc.maxFetches {
				t.Errorf("prefetching %d ranges made %d requests, want at most %d", len(rs), fetched-2, tc.maxFetches)
			}
			for _, r := range rs {
				p := make([]byte, r.Len)
				if _, err := f.ReadAt(p, r.Off); err != nil || !bytes.Equal(p, data[r.Off:r.Off+r.Len]) {
					t.Fatalf("reading prefetched bytes at %d: %v", r.Off, err)
				}
			}
			if n := requests.Load(); n != fetched {
				t.Errorf("reading the prefetched ranges made %d more requests", n-fetched)
			}
			if st := f.Stats(); st.Bytes > 2<<20+int64(len(rs))*(128+mergeGap) {
				t.Errorf("prefetching 400 ranges of 128 bytes fetched %d bytes", st.Bytes)
			}
		})
	}
}

// A Bounded reader's read-ahead stops at its end, where the File's runs up
// to maxWindow past the reads; with end 0 each small read fetches just its
// bytes. The bytes read are the file's either way.
func TestBoundedReadAhead(t *testing.T) {
	data := randomBytes(24<<20, 11)
	o := newOrigin(t, data)
	const from, to, end = 4 << 20, 6 << 20, 7<<20 + 100
	fetched := func(bounded bool) int64 {
		c := testClient(Options{})
		f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		before := f.Stats().Bytes
		var r io.ReaderAt = f
		if bounded {
			r = f.Bounded(end)
		}
		page := make([]byte, 4096)
		for off := int64(from); off < to; off += int64(len(page)) {
			if _, err := r.ReadAt(page, off); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(page, data[off:off+int64(len(page))]) {
				t.Fatalf("wrong bytes at %d", off)
			}
		}
		// Wait for the read-ahead under way.
		for {
			f.mu.Lock()
			n := f.prefetching
			f.mu.Unlock()
			if n == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		return f.Stats().Bytes - before
	}
	// At most: the first page on its own (a random read), then the blocks
	// from there to the one end falls in.
	bs := int64(64 << 10)
	most := (end+bs-1)/bs*bs - from + 4096
	if got := fetched(true); got > most {
		t.Errorf("bounded at %d, reads of [%d, %d) fetched %d bytes; want at most %d", end, from, to, got, most)
	}
	if got := fetched(false); got <= most {
		t.Errorf("unbounded, reads of [%d, %d) fetched %d bytes: the read-ahead did not run past %d", from, to, got, end)
	}

	c := testClient(Options{})
	f, err := c.Open(context.Background(), o.srv.URL+"/f.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := f.Stats()
	r := f.Bounded(0)
	page := make([]byte, 4096)
	offs := []int64{9 << 20, 9<<20 + 4096, 20<<20 + 8192, 1 << 20, 1<<20 + 4096}
	for _, off := range offs {
		if _, err := r.ReadAt(page, off); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(page, data[off:off+4096]) {
			t.Fatalf("wrong bytes at %d", off)
		}
	}
	if _, err := r.ReadAt(page, offs[0]); err != nil { // kept: no request
		t.Fatal(err)
	}
	st := f.Stats()
	if b, q := st.Bytes-before.Bytes, st.Requests-before.Requests; b != int64(len(offs))*4096 || q != int64(len(offs)) {
		t.Errorf("%d random page reads fetched %d bytes in %d requests; want %d in %d", len(offs), b, q, len(offs)*4096, len(offs))
	}
}
