package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Client. The zero value is a sensible default.
type Options struct {
	// Endpoint is the S3-compatible store's URL (--endpoint-url): MinIO,
	// Ceph, R2, SeaweedFS, versitygw. "" uses AWS_ENDPOINT_URL (or
	// AWS_ENDPOINT_URL_S3) when set, else AWS itself.
	Endpoint string
	// Region is the S3 region; "" uses AWS_REGION or the profile's, else
	// us-east-1.
	Region string
	// GSEndpoint is where gs:// URLs go: Google Cloud Storage's
	// S3-compatible XML API, https://storage.googleapis.com, unless
	// BAGSCOPE_GS_ENDPOINT_URL names another (a test's S3 server, a
	// proxy).
	GSEndpoint string
	// BlockSize is the unit of the cache and of requests (64 KiB).
	BlockSize int64
	// TailBytes is the suffix read that opens a file (256 KiB): it
	// learns the size and holds most recordings' index or summary.
	TailBytes int64
	// CacheBytes bounds the memory the cached blocks of all the client's
	// files take (128 MiB).
	CacheBytes int64
	// MaxInFlight bounds the requests in flight at once (6).
	MaxInFlight int
	// MaxAttempts is how many times a request is tried when it fails
	// transiently (6), with backoff starting at Backoff (100 ms).
	MaxAttempts int
	Backoff     time.Duration
	// Stall is how long a request may go without receiving a byte before
	// it is abandoned and retried (30 s).
	Stall time.Duration
	// Transport makes the http(s) requests; nil is a keep-alive
	// transport of the client's own. (S3 requests go through the AWS
	// SDK's transport, which honours AWS_CA_BUNDLE.)
	Transport http.RoundTripper
	// DiskCache, when set, is a folder (under the user's cache folder)
	// where fetched blocks are kept between runs, up to DiskCacheBytes
	// (1 GiB). "" keeps blocks in memory only.
	DiskCache      string
	DiskCacheBytes int64
	// Progress, when set, is called after each request with the client's
	// counters (from the goroutine that made the request).
	Progress func(Stats)
}

func (o Options) withDefaults() Options {
	if o.BlockSize <= 0 {
		o.BlockSize = 64 << 10
	}
	if o.TailBytes <= 0 {
		o.TailBytes = 256 << 10
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 128 << 20
	}
	if o.MaxInFlight <= 0 {
		o.MaxInFlight = 6
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 6
	}
	if o.Backoff <= 0 {
		o.Backoff = 100 * time.Millisecond
	}
	if o.Stall <= 0 {
		o.Stall = 30 * time.Second
	}
	if o.DiskCacheBytes <= 0 {
		o.DiskCacheBytes = 1 << 30
	}
	if o.GSEndpoint == "" {
		o.GSEndpoint = os.Getenv("BAGSCOPE_GS_ENDPOINT_URL")
	}
	return o
}

// Stats count what a client or a file fetched.
type Stats struct {
	// Requests counts the requests made, retries and failures included.
	Requests int64 `json:"requests"`
	// Bytes counts the bytes received in answers' bodies.
	Bytes int64 `json:"bytes"`
	// Retries counts the requests that were repeated after a transient
	// failure.
	Retries int64 `json:"retries"`
	// DiskHits counts blocks read from the disk cache instead.
	DiskHits int64 `json:"disk_hits,omitempty"`
}

// counters are Stats updated concurrently.
type counters struct {
	requests, bytes, retries, diskHits atomic.Int64
}

func (c *counters) snapshot() Stats {
	return Stats{Requests: c.requests.Load(), Bytes: c.bytes.Load(), Retries: c.retries.Load(), DiskHits: c.diskHits.Load()}
}

// Client reads remote files. It is safe for concurrent use; one client
// serves a program (see Default).
type Client struct {
	opts  Options
	http  *httpBackend
	s3    *s3Backend
	gs    *s3Backend
	cache *blockCache
	disk  *diskCache
	sem   chan struct{}
	// smallSem bounds Prefetch's small requests, apart from sem.
	smallSem chan struct{}
	stats    counters
	// noMultiRange is set once a server answered a multi-range request
	// with the whole file: Prefetch then makes one request per range.
	noMultiRange atomic.Bool

	ids atomic.Uint64

	probeMu sync.Mutex
	probes  []*probed // recent Stat answers, for Open to reuse
}

// NewClient makes a client.
func NewClient(o Options) *Client {
	o = o.withDefaults()
	rt := o.Transport
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConns = 64
		t.MaxIdleConnsPerHost = 16
		t.ResponseHeaderTimeout = o.Stall
		t.DialContext = (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		rt = t
	}
	hc := &http.Client{Transport: rt}
	c := &Client{
		opts:  o,
		http:  &httpBackend{client: hc},
		s3:    &s3Backend{stall: o.Stall, endpoint: o.Endpoint, region: o.Region},
		gs:    &s3Backend{stall: o.Stall, endpoint: o.GSEndpoint, region: o.Region, gcs: true},
		cache: newBlockCache(o.CacheBytes),
		sem:   make(chan struct{}, o.MaxInFlight),

		smallSem: make(chan struct{}, smallInFlight),
	}
	if o.DiskCache != "" {
		c.disk = newDiskCache(o.DiskCache, o.DiskCacheBytes)
	}
	return c
}

var defaultClient atomic.Pointer[Client]

// Default returns the program's client, made with default Options on
// first use unless SetDefault set one.
func Default() *Client {
	if c := defaultClient.Load(); c != nil {
		return c
	}
	defaultClient.CompareAndSwap(nil, NewClient(Options{}))
	return defaultClient.Load()
}

// SetDefault makes c the program's client (the command line's
// --endpoint-url makes one).
func SetDefault(c *Client) { defaultClient.Store(c) }

// Stats returns what the client fetched so far, for all its files.
func (c *Client) Stats() Stats { return c.stats.snapshot() }

// Options returns the client's options, defaults filled in.
func (c *Client) Options() Options { return c.opts }

func (c *Client) backend(l location) backend {
	switch l.scheme {
	case "s3":
		return c.s3
	case "gs":
		return c.gs
	}
	return c.http
}

// probed is what the opening suffix read learned of a file.
type probed struct {
	raw     string
	at      time.Time
	size    int64
	ver     version
	tail    []byte // the file's last bytes
	tailOff int64
	// head is the file's first block, fetched beside the suffix (nil
	// when not), in headRequests requests.
	head         []byte
	headRequests int64
	// counted is set once a File has counted the requests in its Stats.
	counted bool
	// err is a refusal (no such file, access denied) remembered so that
	// looking beside a file again costs no request.
	err error
}

// cachedProbe makes the opening suffix read of a URL, or reuses one made
// a moment ago, a refusal included.
func (c *Client) cachedProbe(ctx context.Context, l location) (*probed, error) {
	if p := c.takeProbe(l.raw); p != nil {
		return p, p.err
	}
	p, err := c.probe(ctx, l)
	if err != nil {
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrForbidden) {
			c.keepProbe(&probed{raw: l.raw, at: time.Now(), err: err})
		}
		return nil, err
	}
	c.keepProbe(p)
	return p, nil
}

// Info describes a remote file or folder.
type Info struct {
	Size int64
	// Dir is set for a folder: an S3 prefix with objects below it, or a
	// URL ending with "/".
	Dir bool
	// ETag and LastModified are the file's validators, as the server
	// sent them.
	ETag, LastModified string
}

// Stat describes the file or folder a URL names. For a file it makes the
// suffix read that Open would make (and Open then reuses it), so a Stat
// then an Open cost one request. An s3:// URL without a final "/" that
// names no object but a prefix is a folder.
func (c *Client) Stat(ctx context.Context, name string) (Info, error) {
	l, err := parseLocation(name)
	if err != nil {
		return Info{}, err
	}
	if isFolderURL(l) {
		if !l.isS3() {
			return Info{Dir: true}, nil
		}
		ents, err := c.List(ctx, name)
		if err != nil {
			return Info{}, err
		}
		if len(ents) == 0 {
			return Info{}, &Error{Op: "list", URL: Redact(name), Err: ErrNotFound, Detail: "no object below this prefix"}
		}
		return Info{Dir: true}, nil
	}
	p, err := c.cachedProbe(ctx, l)
	if err != nil {
		if errors.Is(err, ErrNotFound) && l.isS3() {
			if ents, lerr := c.List(ctx, name+"/"); lerr == nil && len(ents) > 0 {
				return Info{Dir: true}, nil
			}
		}
		return Info{}, err
	}
	return Info{Size: p.size, ETag: p.ver.etag, LastModified: p.ver.modTime}, nil
}

func isFolderURL(l location) bool {
	if l.isS3() {
		return l.key == "" || strings.HasSuffix(l.key, "/")
	}
	p, _, _ := strings.Cut(l.raw, "?")
	p, _, _ = strings.Cut(p, "#")
	return strings.HasSuffix(p, "/")
}

// keepProbe remembers a Stat's or an Open's answer for a moment, for
// Open.
func (c *Client) keepProbe(p *probed) {
	c.probeMu.Lock()
	defer c.probeMu.Unlock()
	kept := c.probes[:0]
	for _, q := range c.probes {
		if q.raw != p.raw && time.Since(q.at) < probeLife {
			kept = append(kept, q)
		}
	}
	c.probes = append(kept, p)
	if len(c.probes) > 64 {
		c.probes = c.probes[len(c.probes)-64:]
	}
}

// probeLife is how long a Stat's answer serves later Opens of its URL:
// opening a folder stats, then opens, then reads its metadata.yaml again
// from the format beside it, all within a moment.
const probeLife = 30 * time.Second

// takeProbe returns a recent Stat's answer for a URL, or nil.
func (c *Client) takeProbe(raw string) *probed {
	c.probeMu.Lock()
	defer c.probeMu.Unlock()
	for _, q := range c.probes {
		if q.raw == raw && time.Since(q.at) < probeLife {
			return q
		}
	}
	return nil
}

// List lists the files (and sub-folders) directly in the folder a URL
// names. Only S3 stores list: an http(s) folder is ErrNoListing.
func (c *Client) List(ctx context.Context, name string) ([]Entry, error) {
	l, err := parseLocation(name)
	if err != nil {
		return nil, err
	}
	if !l.isS3() {
		// No request: an HTTP server has no listing to ask for.
		return nil, &Error{Op: "list", URL: Redact(name), Err: ErrNoListing}
	}
	var ents []Entry
	err = c.attempt(ctx, "list", l, nil, func(actx context.Context) error {
		var err error
		ents, err = c.backend(l).list(actx, l)
		return err
	})
	return ents, err
}

// ListAll lists every file below the S3 prefix a URL names, at any depth
// (each Entry's Name is its path below the prefix): one request per 1,000
// files, where List asks once per folder. Only S3 stores list.
func (c *Client) ListAll(ctx context.Context, name string) ([]Entry, error) {
	l, err := parseLocation(name)
	if err != nil {
		return nil, err
	}
	if !l.isS3() {
		return nil, &Error{Op: "list", URL: Redact(name), Err: ErrNoListing}
	}
	var ents []Entry
	err = c.attempt(ctx, "list", l, nil, func(actx context.Context) error {
		var err error
		var pages int
		ents, pages, err = c.backend(l).(*s3Backend).listAll(actx, l)
		c.stats.requests.Add(int64(max(pages-1, 0))) // attempt counts one
		return err
	})
	return ents, err
}

// Open opens a remote file: one suffix request (none after a Stat or an
// Open of the same URL a moment ago) learns its size and version and keeps
// its last TailBytes.
func (c *Client) Open(ctx context.Context, name string) (*File, error) {
	l, err := parseLocation(name)
	if err != nil {
		return nil, err
	}
	if isFolderURL(l) {
		return nil, &Error{Op: "open", URL: Redact(name), Err: errors.New("the URL names a folder, not a file")}
	}
	p, err := c.cachedProbe(ctx, l)
	if err != nil {
		return nil, err
	}
	c.probeMu.Lock()
	count := !p.counted
	p.counted = true
	c.probeMu.Unlock()
	return newFile(c, l, p, count), nil
}

// smallFileName reports whether a URL names a file that is small by its
// kind (a metadata.yaml): its suffix read holds all of it, so its head is
// not asked for apart.
func smallFileName(l location) bool {
	name := strings.ToLower(Base(l.raw))
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".json")
}

// probe makes the opening suffix read, and the read of the first block
// beside it.
func (c *Client) probe(ctx context.Context, l location) (*probed, error) {
	// Every format reads a file's first bytes (its magic, its header)
	// right after: ask for them at once, in parallel with the suffix, so
	// opening costs one round trip, not two.
	type headResult struct {
		data     []byte
		ver      version
		requests int64
	}
	headc := make(chan headResult, 1)
	if !smallFileName(l) {
		go func() {
			var h headResult
			c.attempt(ctx, "open", l, nil, func(actx context.Context) error {
				h.requests++
				a, err := c.backend(l).get(actx, l, 0, c.opts.BlockSize, nil)
				if err != nil {
					return err
				}
				defer a.body.Close()
				if a.start != 0 || a.n > c.opts.BlockSize {
					return nil // not what was asked: the reads will fetch it
				}
				buf := make([]byte, a.n)
				n, err := io.ReadFull(c.watch(actx, a.body), buf)
				c.stats.bytes.Add(int64(n))
				if err == nil {
					h.data, h.ver = buf, a.ver
				}
				return err
			})
			headc <- h
		}()
	} else {
		close(headc)
	}
	var p *probed
	defer func() {
		h := <-headc
		if p == nil {
			return
		}
		p.headRequests = h.requests
		if h.data != nil && p.ver.matches(h.ver) && (int64(len(h.data)) == c.opts.BlockSize || int64(len(h.data)) == p.size) {
			p.head = h.data
		}
	}()
	err := c.attempt(ctx, "open", l, nil, func(actx context.Context) error {
		a, err := c.backend(l).get(actx, l, 0, -c.opts.TailBytes, nil)
		if err != nil {
			var se *statusError
			if errors.As(err, &se) && se.err == errEmptyRange {
				p = &probed{raw: l.raw, at: time.Now()}
				return nil
			}
			return err
		}
		defer a.body.Close()
		if a.n > c.opts.TailBytes || a.start+a.n != a.size {
			return &statusError{status: 206, err: ErrBadResponse, detail: fmt.Sprintf("asked for the last %d bytes, got %d bytes at %d of %d", c.opts.TailBytes, a.n, a.start, a.size)}
		}
		buf := make([]byte, a.n)
		n, err := io.ReadFull(c.watch(actx, a.body), buf)
		c.stats.bytes.Add(int64(n))
		if err != nil {
			return err
		}
		p = &probed{raw: l.raw, at: time.Now(), size: a.size, ver: a.ver, tail: buf, tailOff: a.start}
		return nil
	})
	return p, err
}

// attempt runs one request until it succeeds, fails for good, or has been
// tried MaxAttempts times, waiting between attempts; each attempt is
// counted. The error is an *Error.
func (c *Client) attempt(ctx context.Context, op string, l location, fc *counters, req func(context.Context) error) error {
	return c.attemptWith(ctx, c.sem, op, l, fc, req)
}

// attemptSmall is attempt for Prefetch's small requests, which have slots
// of their own.
func (c *Client) attemptSmall(ctx context.Context, op string, l location, fc *counters, req func(context.Context) error) error {
	return c.attemptWith(ctx, c.smallSem, op, l, fc, req)
}

func (c *Client) attemptWith(ctx context.Context, sem chan struct{}, op string, l location, fc *counters, req func(context.Context) error) error {
	var err error
	n := 0
	for {
		n++
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		err = c.oneRequest(ctx, sem, req)
		c.stats.requests.Add(1)
		if fc != nil {
			fc.requests.Add(1)
		}
		if c.opts.Progress != nil {
			c.opts.Progress(c.stats.snapshot())
		}
		if err == nil {
			return nil
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if !retryable(err) || n >= c.opts.MaxAttempts {
			break
		}
		c.stats.retries.Add(1)
		if fc != nil {
			fc.retries.Add(1)
		}
		d := c.opts.Backoff << (n - 1)
		d = min(d, 3*time.Second)
		d = d*4/5 + time.Duration(rand.Int64N(int64(d)*2/5+1))
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return c.wrap(op, l, err, n)
}

// oneRequest runs req with a slot among the requests in flight. The
// request's context is cancelled when Stall passes without a byte (see
// watch): a dropped connection that never closes is retried instead of
// hanging.
func (c *Client) oneRequest(ctx context.Context, sem chan struct{}, req func(context.Context) error) error {
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-sem }()
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	sw := &stallWatch{d: c.opts.Stall}
	sw.t = time.AfterFunc(sw.d, func() {
		sw.stalled.Store(true)
		cancel()
	})
	defer sw.t.Stop()
	err := req(context.WithValue(actx, stallKey{}, sw))
	if err != nil && sw.stalled.Load() && ctx.Err() == nil {
		return fmt.Errorf("no data for %s: %w", sw.d, errTransient)
	}
	return err
}

type stallKey struct{}

// stallWatch cancels a request that goes Stall without receiving a byte.
type stallWatch struct {
	t       *time.Timer
	d       time.Duration
	stalled atomic.Bool
}

// watch wraps a body so that each read that receives bytes restarts the
// request's stall timer.
func (c *Client) watch(ctx context.Context, body io.Reader) io.Reader {
	sw, _ := ctx.Value(stallKey{}).(*stallWatch)
	if sw == nil {
		return body
	}
	return &stallReader{r: body, sw: sw}
}

type stallReader struct {
	r  io.Reader
	sw *stallWatch
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 {
		s.sw.t.Reset(s.sw.d)
	}
	return n, err
}

// wrap makes the final *Error of a request.
func (c *Client) wrap(op string, l location, err error, attempts int) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	out := &Error{Op: op, URL: Redact(l.raw), Attempts: attempts}
	var se *statusError
	switch {
	case errors.As(err, &se):
		out.Status, out.Detail, out.Err = se.status, se.detail, se.err
		if se.err == errTransient {
			out.Err = ErrUnavailable
		}
		if se.status == 0 && se.err != errTransient {
			out.Err = se.err
		}
	case retryable(err):
		out.Err = fmt.Errorf("%w: %w", ErrUnavailable, redactErr(err))
	default:
		out.Err = redactErr(err)
	}
	return out
}
