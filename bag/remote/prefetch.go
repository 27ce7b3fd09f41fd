package remote

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Prefetching many small ranges: a ROS 1 bag's chunk headers lie one at
// the start of each chunk, all over the file. Read one by one they would
// cost a request (and a block) each; Prefetch fetches just their bytes,
// over HTTP in a few multi-range requests (Range: bytes=a-b,c-d,…, which
// nginx, Apache and most CDNs answer with multipart/byteranges), from S3
// (which answers one range per request) in parallel requests. The bytes
// are kept with the file until it closes.

// Range is a byte range of a file: Len bytes at Off.
type Range struct {
	Off, Len int64
}

const (
	// extentBudget bounds the bytes a file keeps from Prefetch.
	extentBudget = 16 << 20
	// mergeGap joins ranges this close into one.
	mergeGap = 4 << 10
	// rangesPerRequest bounds a multi-range request: servers answer at
	// most so many ranges in parts (Apache's MaxRanges and Go's default
	// are 200; beyond, the whole file) and take a Range header of a few kB.
	rangesPerRequest = 100
	// smallInFlight is how many single-range requests Prefetch keeps in
	// flight (each small: a server takes many).
	smallInFlight = 16
	// multiInFlight is how many multi-range requests one prefetch keeps
	// in flight (a .db3 leaf level read in parts asks for thousands of
	// ranges at once).
	multiInFlight = 16
)

// extent is prefetched bytes at off.
type extent struct {
	off  int64
	data []byte
}

// Prefetch fetches the given ranges (clipped to the file) ahead of reads
// that will need them, together, and keeps their bytes. Ranges already
// cached are skipped. An error leaves the reads to fetch what is missing.
func (f *File) Prefetch(ranges []Range) error {
	_, err := f.prefetch(ranges, mergeGap)
	return err
}

// PrefetchHeld is Prefetch for reads that soon end: release lets go of
// the bytes it fetched (not of any another Prefetch holds), so that a
// pass over many such spans (every chunk's message index) prefetches
// them batch by batch within the file's budget.
func (f *File) PrefetchHeld(ranges []Range) (release func(), err error) {
	parts, err := f.prefetch(ranges, mergeGap)
	return func() { f.drop(parts) }, err
}

// PrefetchHeldApart is PrefetchHeld for ranges that many bytes lie
// between, not to be fetched: over multi-range requests ranges are
// joined only when at most gap bytes apart, not mergeGap (a .db3's table
// pages, between which lie single pages of an index). Where each range
// is a request of its own (S3), they are joined as PrefetchHeld joins
// them.
func (f *File) PrefetchHeldApart(ranges []Range, gap int64) (release func(), err error) {
	parts, err := f.prefetch(ranges, gap)
	return func() { f.drop(parts) }, err
}

// prefetch is Prefetch joining ranges at most gap bytes apart over
// multi-range requests; it returns the extents it fetched.
func (f *File) prefetch(ranges []Range, gap int64) ([]extent, error) {
	multi := !f.loc.isS3() && !f.c.noMultiRange.Load()
	if !multi {
		gap = mergeGap
	}
	want := f.missingRanges(ranges, gap)
	if len(want) == 0 {
		return nil, nil
	}
	var err error
	var all []extent
	if multi {
		var parts []extent
		parts, err = f.fetchMultiRange(want)
		f.keep(parts)
		all = append(all, parts...)
		if errors.Is(err, errNoMultiRange) {
			f.c.noMultiRange.Store(true)
			err = nil
		}
		want = f.missingRanges(want, mergeGap)
	}
	if len(want) > 0 && err == nil {
		var parts []extent
		parts, err = f.fetchSingles(want)
		f.keep(parts)
		all = append(all, parts...)
	}
	f.mu.Lock()
	hook := f.onFetch
	f.mu.Unlock()
	if hook != nil {
		hook(f.stats.snapshot())
	}
	return all, err
}

// drop lets go of the extents among parts the file kept.
func (f *File) drop(parts []extent) {
	if len(parts) == 0 {
		return
	}
	mine := make(map[*byte]bool, len(parts))
	for _, p := range parts {
		if len(p.data) > 0 {
			mine[&p.data[0]] = true
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	kept := f.extents[:0]
	for _, x := range f.extents {
		if len(x.data) > 0 && mine[&x.data[0]] {
			f.extentBytes -= int64(len(x.data))
			continue
		}
		kept = append(kept, x)
	}
	clear(f.extents[len(kept):])
	f.extents = kept
}

// keep adds prefetched bytes to the file's. Many parts at once (a .db3
// leaf's cells: thousands) are merged into the sorted extents in one pass,
// as addExtent would add them one by one, which is quadratic.
func (f *File) keep(parts []extent) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(parts) <= 16 {
		for _, p := range parts {
			f.addExtent(p)
		}
		return
	}
	add := slices.Clone(parts)
	slices.SortFunc(add, func(a, b extent) int { return cmp.Compare(a.off, b.off) })
	// The new extents held whole by one kept (or by an earlier new one)
	// are not kept; those kept that a new one holds whole are dropped.
	fresh := add[:0]
	for _, e := range add {
		end := e.off + int64(len(e.data))
		if f.extentAt(e.off, end) != nil {
			continue
		}
		if n := len(fresh); n > 0 && end <= fresh[n-1].off+int64(len(fresh[n-1].data)) {
			continue
		}
		fresh = append(fresh, e)
	}
	held := func(x extent) bool {
		xend := x.off + int64(len(x.data))
		i := sort.Search(len(fresh), func(i int) bool { return fresh[i].off > x.off }) - 1
		for j := i; j >= 0 && j > i-maxOverlap; j-- {
			if xend <= fresh[j].off+int64(len(fresh[j].data)) {
				return true
			}
		}
		return false
	}
	merged := make([]extent, 0, len(f.extents)+len(fresh))
	i := 0
	for _, x := range f.extents {
		for ; i < len(fresh) && fresh[i].off < x.off; i++ {
			if f.extentBytes+int64(len(fresh[i].data)) <= extentBudget {
				merged = append(merged, fresh[i])
				f.extentBytes += int64(len(fresh[i].data))
			}
		}
		if held(x) {
			f.extentBytes -= int64(len(x.data))
			continue
		}
		merged = append(merged, x)
	}
	for ; i < len(fresh); i++ {
		if f.extentBytes+int64(len(fresh[i].data)) <= extentBudget {
			merged = append(merged, fresh[i])
			f.extentBytes += int64(len(fresh[i].data))
		}
	}
	f.extents = merged
}

// missingRanges clips, sorts and merges ranges at most gap bytes apart,
// dropping what the file already holds and what is beyond the budget.
func (f *File) missingRanges(ranges []Range, gap int64) []Range {
	var rs []Range
	for _, r := range ranges {
		if r.Off < 0 || r.Off >= f.size || r.Len <= 0 {
			continue
		}
		r.Len = min(r.Len, f.size-r.Off)
		if f.holds(r.Off, r.Off+r.Len) {
			continue
		}
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Off < rs[j].Off })
	var out []Range
	var total int64
	for _, r := range rs {
		if n := len(out); n > 0 && r.Off <= out[n-1].Off+out[n-1].Len+gap {
			last := &out[n-1]
			end := max(last.Off+last.Len, r.Off+r.Len)
			total += end - (last.Off + last.Len)
			last.Len = end - last.Off
		} else {
			out = append(out, r)
			total += r.Len
		}
		if total > extentBudget {
			break
		}
	}
	return out
}

// holds reports whether the file can serve [off, end) without a request.
func (f *File) holds(off, end int64) bool {
	if len(f.tail) > 0 && off >= f.tailOff {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.extentAt(off, end) != nil {
		return true
	}
	bs := f.c.opts.BlockSize
	for b := off / bs; b <= (end-1)/bs; b++ {
		if f.tailBlock(b) == nil && !f.c.cache.has(blockKey{f.id, b}) {
			return false
		}
	}
	return true
}

// extentAt returns the prefetched bytes [off, end), or nil (under f.mu).
// Extents may overlap where a later Prefetch asked for a span around an
// earlier one's (a window's chunks around the chunk headers read on
// open): the few that start at or before off are each tried.
func (f *File) extentAt(off, end int64) []byte {
	i := sort.Search(len(f.extents), func(i int) bool { return f.extents[i].off > off }) - 1
	for j := i; j >= 0 && j > i-maxOverlap; j-- {
		if e := f.extents[j]; end <= e.off+int64(len(e.data)) {
			return e.data[off-e.off : end-e.off]
		}
	}
	return nil
}

// maxOverlap bounds how many extents extentAt tries for one read.
const maxOverlap = 4

// addExtent keeps prefetched bytes, in order (under f.mu). An extent
// that an existing one holds whole is not kept; those it holds whole are
// dropped, so that overlaps stay few.
func (f *File) addExtent(e extent) {
	end := e.off + int64(len(e.data))
	for _, x := range f.extents {
		if x.off <= e.off && end <= x.off+int64(len(x.data)) {
			return // held already
		}
	}
	kept := f.extents[:0]
	for _, x := range f.extents {
		if xend := x.off + int64(len(x.data)); e.off <= x.off && xend <= end {
			f.extentBytes -= int64(len(x.data))
			continue
		}
		kept = append(kept, x)
	}
	f.extents = kept
	if f.extentBytes+int64(len(e.data)) > extentBudget {
		return
	}
	i := sort.Search(len(f.extents), func(i int) bool { return f.extents[i].off >= e.off })
	f.extents = append(f.extents, extent{})
	copy(f.extents[i+1:], f.extents[i:])
	f.extents[i] = e
	f.extentBytes += int64(len(e.data))
}

// errNoMultiRange: the server does not answer multi-range requests in
// parts.
var errNoMultiRange = errors.New("the server does not answer multi-range requests")

// fetchMultiRange fetches ranges in multi-range requests, several in
// flight.
func (f *File) fetchMultiRange(rs []Range) ([]extent, error) {
	var batches [][]Range
	for len(rs) > 0 {
		n := min(len(rs), rangesPerRequest)
		batches = append(batches, rs[:n])
		rs = rs[n:]
	}
	out := make([][]extent, len(batches))
	errs := make([]error, len(batches))
	var wg sync.WaitGroup
	sem := make(chan struct{}, multiInFlight)
	for i, b := range batches {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = f.multiRange(b)
		}()
	}
	wg.Wait()
	var all []extent
	for _, o := range out {
		all = append(all, o...)
	}
	return all, errors.Join(errs...)
}

// multiRange makes one multi-range request (retried as any request).
func (f *File) multiRange(rs []Range) ([]extent, error) {
	var spec []string
	for _, r := range rs {
		spec = append(spec, fmt.Sprintf("%d-%d", r.Off, r.Off+r.Len-1))
	}
	header := "bytes=" + strings.Join(spec, ",")
	// A request of small parts (a .db3 leaf's cells) is a round trip
	// more than bytes: it goes with the small requests, more in flight.
	attempt := f.c.attempt
	if total := rangesBytes(rs); total <= smallMulti {
		attempt = f.c.attemptSmall
	}
	var parts []extent
	err := attempt(f.ctx, "read", f.loc, &f.stats, func(actx context.Context) error {
		parts = parts[:0]
		req, err := http.NewRequestWithContext(actx, http.MethodGet, f.loc.raw, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Range", header)
		req.Header.Set("Accept-Encoding", "identity")
		if f.ver.strongETag() {
			req.Header.Set("If-Match", f.ver.etag)
		}
		resp, err := f.c.http.client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		got := version{etag: resp.Header.Get("ETag"), modTime: resp.Header.Get("Last-Modified")}
		if resp.StatusCode == http.StatusPartialContent && !f.ver.matches(got) {
			return &statusError{status: resp.StatusCode, err: ErrChanged}
		}
		switch resp.StatusCode {
		case http.StatusPartialContent:
		case http.StatusOK:
			return errNoMultiRange
		default:
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
			code, msg := xmlDetail(body)
			return classify(resp.StatusCode, code, msg, f.loc.raw)
		}
		body := f.c.watch(actx, resp.Body)
		mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if err != nil || !strings.HasPrefix(mt, "multipart/") {
			// One range back: the server merged them (or there was one).
			start, end, total, ok := contentRange(resp.Header.Get("Content-Range"))
			if !ok || total != f.size || end-start+1 > extentBudget {
				return errNoMultiRange
			}
			data := make([]byte, end-start+1)
			n, err := io.ReadFull(body, data)
			f.count(n)
			if err != nil {
				return err
			}
			parts = append(parts, extent{start, data})
			return nil
		}
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			start, end, total, ok := contentRange(p.Header.Get("Content-Range"))
			if !ok || total != f.size || end-start+1 > extentBudget {
				return &statusError{status: 206, err: ErrBadResponse, detail: "a part's Content-Range " + p.Header.Get("Content-Range")}
			}
			data := make([]byte, end-start+1)
			n, err := io.ReadFull(p, data)
			f.count(n)
			if err != nil {
				return err
			}
			parts = append(parts, extent{start, data})
		}
	})
	return parts, err
}

// smallMulti is the most bytes a multi-range request may ask for to go
// with the small requests.
const smallMulti = 512 << 10

// rangesBytes is the bytes of rs.
func rangesBytes(rs []Range) int64 {
	var n int64
	for _, r := range rs {
		n += r.Len
	}
	return n
}

// count adds n bytes received to the file's and the client's counters.
func (f *File) count(n int) {
	f.stats.bytes.Add(int64(n))
	f.c.stats.bytes.Add(int64(n))
}

// fetchSingles fetches ranges one request each, several in flight.
func (f *File) fetchSingles(rs []Range) ([]extent, error) {
	out := make([]extent, len(rs))
	errs := make([]error, len(rs))
	sem := make(chan struct{}, smallInFlight)
	var wg sync.WaitGroup
	for i, r := range rs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			blocks := [][]byte{make([]byte, r.Len)}
			// One block of the range's own length: fetch fills it.
			if err := f.fetchExact(r.Off, blocks[0]); err != nil {
				errs[i] = err
				return
			}
			out[i] = extent{r.Off, blocks[0]}
		}()
	}
	wg.Wait()
	var got []extent
	for i, e := range out {
		if errs[i] == nil {
			got = append(got, e)
		}
	}
	return got, errors.Join(errs...)
}

// fetchExact fills buf from off in one request (retried and resumed).
func (f *File) fetchExact(off int64, buf []byte) error {
	got := int64(0)
	end := off + int64(len(buf))
	return f.c.attemptSmall(f.ctx, "read", f.loc, &f.stats, func(actx context.Context) error {
		at := off + got
		a, err := f.c.backend(f.loc).get(actx, f.loc, at, end-at, &f.ver)
		if err != nil {
			return err
		}
		defer a.body.Close()
		if a.size != f.size {
			return &statusError{status: 206, err: ErrChanged, detail: fmt.Sprintf("the file is now %d bytes, it was %d", a.size, f.size)}
		}
		if a.start != at || a.n != end-at {
			return &statusError{status: 206, err: ErrBadResponse, detail: fmt.Sprintf("asked for bytes %d-%d, got %d-%d", at, end-1, a.start, a.start+a.n-1)}
		}
		n, err := io.ReadFull(f.c.watch(actx, a.body), buf[got:])
		got += int64(n)
		f.count(n)
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	})
}
