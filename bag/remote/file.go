package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"
)

// File is an opened remote file: an io.ReaderAt whose reads are served
// from the client's block cache, fetching what is missing. It is safe for
// concurrent use.
type File struct {
	c       *Client
	loc     location
	id      uint64
	size    int64
	ver     version
	tail    []byte
	tailOff int64
	opened  time.Time

	ctx    context.Context
	cancel context.CancelFunc

	mu          sync.Mutex
	loading     map[int64]*load // block -> the load that fetches it
	streams     [4]stream
	clock       int64
	prefetching int
	broken      error // a sticky failure: the file changed on the server
	closed      bool
	onFetch     func(Stats)
	// extents are the bytes Prefetch fetched, sorted by offset.
	extents     []extent
	extentBytes int64

	stats counters
}

// load is one request's worth of blocks being fetched.
type load struct {
	first    int64
	count    int64
	prefetch bool
	done     chan struct{}
	blocks   [][]byte // set with err before done closes
	err      error
}

// stream is a run of sequential reads, for read-ahead.
type stream struct {
	next   int64 // where the next sequential read starts
	run    int64 // bytes read in sequence so far
	window int64 // bytes read ahead
	used   int64 // clock of the last read
}

const (
	// maxRequest bounds the bytes one demanded request asks for; a longer
	// read is split into requests in flight together.
	maxRequest = 8 << 20
	// prefetchPiece is the size of one read-ahead request.
	prefetchPiece = 2 << 20
	// maxWindow bounds the read-ahead of one sequential stream.
	maxWindow = 16 << 20
	// gapBlocks is how many cached blocks between two missing runs of one
	// read are fetched again to make one request of the two.
	gapBlocks = 2
	// minRun is how much a stream reads in sequence before it is read
	// ahead: a header's few small reads in a row are not a stream.
	minRun = 256 << 10
)

// newFile makes the File of a probed URL; count says whether the probe's
// request is this file's to count (the first File made from it).
func newFile(c *Client, l location, p *probed, count bool) *File {
	ctx, cancel := context.WithCancel(context.Background())
	f := &File{
		c: c, loc: l, id: c.ids.Add(1), size: p.size, ver: p.ver, tail: p.tail, tailOff: p.tailOff,
		opened: time.Now(), ctx: ctx, cancel: cancel, loading: map[int64]*load{},
	}
	if count {
		f.stats.bytes.Add(int64(len(p.tail) + len(p.head)))
		f.stats.requests.Add(1 + p.headRequests)
	}
	if p.head != nil && p.tailOff > 0 {
		c.cache.put(blockKey{f.id, 0}, p.head)
	}
	return f
}

// Size returns the file's size in bytes.
func (f *File) Size() int64 { return f.size }

// Name returns the file's URL, redacted: what may be shown.
func (f *File) Name() string { return Redact(f.loc.raw) }

// URL returns the file's URL as given, secrets included: never show it
// (see Name).
func (f *File) URL() string { return f.loc.raw }

// Client returns the client the file was opened with.
func (f *File) Client() *Client { return f.c }

// Stats returns what reading this file fetched so far (the opening
// request included).
func (f *File) Stats() Stats { return f.stats.snapshot() }

// ETag returns the version the file is pinned to ("" when the server sent
// no ETag).
func (f *File) ETag() string { return f.ver.etag }

// SetProgress sets a function called after each request made for this
// file, with its counters; nil stops it.
func (f *File) SetProgress(fn func(Stats)) {
	f.mu.Lock()
	f.onFetch = fn
	f.mu.Unlock()
}

// Stat describes the file as a fs.FileInfo (its base name, its size).
func (f *File) Stat() (fs.FileInfo, error) { return NewFileInfo(Base(f.loc.raw), f.size, false), nil }

// Close stops the file's requests in flight and forgets its cached blocks.
func (f *File) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	f.mu.Unlock()
	f.cancel()
	f.c.cache.drop(f.id)
	return nil
}

// ReadAt reads len(p) bytes at off, as io.ReaderAt says: fewer only at the
// file's end, with io.EOF.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	return f.readAt(p, off, hint{limit: -1})
}

// hint is what a reader of the file knows of its reads (see Bounded).
type hint struct {
	// limit, when >= 0, is where the read-ahead stops: nothing past it
	// is fetched ahead of a read.
	limit int64
	// exact is set when a read that continues no sequential stream and
	// finds none of its blocks fetches just its own bytes.
	exact bool
}

// Bounded returns a reader of the file for a read that knows where it
// ends (a .db3 query of a time window, which knows the last page it can
// touch): its reads share the file's cache, but its read-ahead never
// goes past end (no bound when end < 0), and a read of less than a block
// that continues no sequential stream (an interior page of a b-tree, the
// first page of a run) fetches just its own bytes, not whole blocks. With
// end 0 every read of less than a block is taken as random: just its
// bytes, no read-ahead (a walk down b-trees). What it fetches is counted
// as the file's.
func (f *File) Bounded(end int64) io.ReaderAt { return bounded{f, hint{limit: end, exact: true}} }

// bounded is a File read with a hint.
type bounded struct {
	f *File
	h hint
}

func (b bounded) ReadAt(p []byte, off int64) (int, error) { return b.f.readAt(p, off, b.h) }

// readAt is ReadAt with a hint.
func (f *File) readAt(p []byte, off int64, h hint) (int, error) {
	if off < 0 {
		return 0, &Error{Op: "read", URL: f.Name(), Err: fmt.Errorf("negative offset %d", off)}
	}
	if off >= f.size {
		if len(p) == 0 {
			return 0, nil
		}
		return 0, io.EOF
	}
	n := min(int64(len(p)), f.size-off)
	var err error
	for try := 0; try < 2; try++ {
		var retry bool
		if retry, err = f.read(p[:n], off, h); err == nil || !retry {
			break
		}
	}
	if err != nil {
		return 0, err
	}
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// source is where one block of a read comes from.
type source struct {
	data []byte
	ld   *load
	i    int64
}

// read fills p from off (within the file). retry is set when it failed on
// a read-ahead's error, which a demanded request may get past.
func (f *File) read(p []byte, off int64, h hint) (retry bool, err error) {
	end := off + int64(len(p))
	if off >= f.tailOff && len(f.tail) > 0 {
		copy(p, f.tail[off-f.tailOff:])
		f.mu.Lock()
		ra := f.readahead(off, end, h.limit)
		f.mu.Unlock()
		for _, ld := range ra {
			go f.run(ld)
		}
		return false, nil
	}
	bs := f.c.opts.BlockSize
	first, last := off/bs, (end-1)/bs
	srcs := make([]source, last-first+1)
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return false, &Error{Op: "read", URL: f.Name(), Err: ErrClosed}
	}
	if f.broken != nil {
		f.mu.Unlock()
		return false, f.broken
	}
	if d := f.extentAt(off, end); d != nil {
		copy(p, d)
		f.mu.Unlock()
		return false, nil
	}
	var missing []int64
	for b := first; b <= last; b++ {
		s := &srcs[b-first]
		if d := f.tailBlock(b); d != nil {
			s.data = d
		} else if d := f.c.cache.get(blockKey{f.id, b}); d != nil {
			s.data = d
		} else if ld := f.loading[b]; ld != nil {
			s.ld, s.i = ld, b-ld.first
		} else {
			missing = append(missing, b)
		}
	}
	if h.exact && len(missing) == len(srcs) && int64(len(p)) < bs && (h.limit == 0 || !f.inStream(off)) {
		// A random read: just its bytes, kept with the file as a
		// prefetch's are (a b-tree's interior page is read again).
		if h.limit != 0 {
			f.readahead(off, end, h.limit) // a stream may start here
		}
		f.mu.Unlock()
		parts, err := f.prefetch([]Range{{Off: off, Len: end - off}}, mergeGap)
		if err != nil {
			return false, err
		}
		for _, x := range parts {
			if x.off <= off && end <= x.off+int64(len(x.data)) {
				copy(p, x.data[off-x.off:])
				return false, nil
			}
		}
		f.mu.Lock()
		if d := f.extentAt(off, end); d != nil {
			copy(p, d)
			f.mu.Unlock()
			return false, nil
		}
		f.mu.Unlock()
		return f.read(p, off, hint{limit: h.limit}) // fetched meanwhile, or dropped: read it as blocks
	}
	var start []*load
	for _, r := range coalesce(missing, gapBlocks, maxRequest/bs) {
		ld := f.register(r[0], r[1], false)
		start = append(start, ld)
		for b := r[0]; b < r[0]+r[1]; b++ {
			if b >= first && b <= last && srcs[b-first].data == nil && srcs[b-first].ld == nil {
				srcs[b-first] = source{ld: ld, i: b - r[0]}
			}
		}
	}
	start = append(start, f.readahead(off, end, h.limit)...)
	f.mu.Unlock()
	for _, ld := range start {
		go f.run(ld)
	}
	for i := range srcs {
		s := &srcs[i]
		if s.ld != nil {
			<-s.ld.done
			if s.ld.err != nil {
				return s.ld.prefetch && !errors.Is(s.ld.err, ErrChanged), s.ld.err
			}
			s.data = s.ld.blocks[s.i]
		}
	}
	for i, s := range srcs {
		bstart := (first + int64(i)) * bs
		lo := max(off, bstart)
		hi := min(end, bstart+int64(len(s.data)))
		if hi > lo {
			copy(p[lo-off:hi-off], s.data[lo-bstart:hi-bstart])
		}
	}
	return false, nil
}

// tailBlock returns block b when the opening read holds all of it.
func (f *File) tailBlock(b int64) []byte {
	bs := f.c.opts.BlockSize
	lo, hi := b*bs, min((b+1)*bs, f.size)
	if len(f.tail) == 0 || lo < f.tailOff || hi > f.tailOff+int64(len(f.tail)) {
		return nil
	}
	return f.tail[lo-f.tailOff : hi-f.tailOff]
}

// coalesce groups sorted block numbers into runs [first, count], joining
// runs at most gap blocks apart and cutting runs longer than most.
func coalesce(blocks []int64, gap, most int64) [][2]int64 {
	var runs [][2]int64
	for _, b := range blocks {
		if n := len(runs); n > 0 {
			r := &runs[n-1]
			if next := r[0] + r[1]; b >= next && b-next <= gap && b-r[0] < most {
				r[1] = b - r[0] + 1
				continue
			}
		}
		runs = append(runs, [2]int64{b, 1})
	}
	return runs
}

// register makes a load of count blocks from first (under f.mu).
func (f *File) register(first, count int64, prefetch bool) *load {
	ld := &load{first: first, count: count, prefetch: prefetch, done: make(chan struct{})}
	for b := first; b < first+count; b++ {
		if f.loading[b] == nil {
			f.loading[b] = ld
		}
	}
	if prefetch {
		f.prefetching++
	}
	return ld
}

// inStream reports whether a read at off continues a sequential stream
// (under f.mu).
func (f *File) inStream(off int64) bool { return f.streamAt(off) != nil }

// streamAt returns the stream a read at off continues, or nil (under
// f.mu).
func (f *File) streamAt(off int64) *stream {
	bs := f.c.opts.BlockSize
	for i := range f.streams {
		t := &f.streams[i]
		if t.used > 0 && off >= t.next-bs && off <= t.next+2*bs {
			return t
		}
	}
	return nil
}

// readahead notes a read of [off, end) and, when it continues a
// sequential stream that has read minRun already, registers loads of the
// blocks after it that are not there yet: the window doubles with each
// sequential read up to maxWindow, in pieces fetched in parallel, and
// stops at limit when that is >= 0 (under f.mu).
func (f *File) readahead(off, end, limit int64) []*load {
	bs := f.c.opts.BlockSize
	f.clock++
	s := f.streamAt(off)
	if s == nil {
		s = &f.streams[0]
		for i := range f.streams {
			if f.streams[i].used < s.used {
				s = &f.streams[i]
			}
		}
		*s = stream{next: end, run: end - off, used: f.clock}
		return nil
	}
	s.run += max(0, end-max(off, s.next))
	s.next, s.used = max(s.next, end), f.clock
	if s.run < minRun {
		return nil
	}
	s.window = min(max(4*bs, s.window*2), maxWindow)
	if f.closed || f.broken != nil {
		return nil
	}
	to := (end + s.window + bs - 1) / bs
	if limit >= 0 {
		to = min(to, (limit+bs-1)/bs)
	}
	return f.loadsAhead((end+bs-1)/bs, to)
}

// ReadAhead starts fetching the bytes [off, off+n) in the background, in
// pieces of prefetchPiece, as many at once as the client allows beside
// demanded reads, into the block cache: a reader that knows what it will
// read next (a full read's next chunks) keeps the link busy ahead of
// itself. What is cached or being fetched is skipped, and what finds no
// free slot is left to the reads; the memory it takes is the cache's.
func (f *File) ReadAhead(off, n int64) {
	if n <= 0 || off >= f.size {
		return
	}
	bs := f.c.opts.BlockSize
	f.mu.Lock()
	var out []*load
	if !f.closed && f.broken == nil {
		out = f.loadsAhead(max(0, off)/bs, (off+n+bs-1)/bs)
	}
	f.mu.Unlock()
	for _, ld := range out {
		go f.run(ld)
	}
}

// loadsAhead registers read-ahead loads of the blocks [from, to) that are
// neither cached nor being fetched, in pieces, while the client has
// read-ahead slots (under f.mu).
func (f *File) loadsAhead(from, to int64) []*load {
	bs := f.c.opts.BlockSize
	maxPrefetch := max(1, f.c.opts.MaxInFlight-1)
	to = min(to, (f.size+bs-1)/bs)
	var out []*load
	piece := max(1, prefetchPiece/bs)
	for b := from; b < to && f.prefetching < maxPrefetch; {
		if f.loading[b] != nil || f.tailBlock(b) != nil || f.c.cache.has(blockKey{f.id, b}) {
			b++
			continue
		}
		n := int64(1)
		for b+n < to && n < piece && f.loading[b+n] == nil && f.tailBlock(b+n) == nil && !f.c.cache.has(blockKey{f.id, b + n}) {
			n++
		}
		out = append(out, f.register(b, n, true))
		b += n
	}
	return out
}

// run fetches a load's blocks, stores them in the cache and wakes its
// readers.
func (f *File) run(ld *load) {
	bs := f.c.opts.BlockSize
	off := ld.first * bs
	end := min((ld.first+ld.count)*bs, f.size)
	blocks := make([][]byte, ld.count)
	for i := range blocks {
		lo := off + int64(i)*bs
		blocks[i] = make([]byte, min(bs, end-lo))
	}
	err := f.fetch(off, end, blocks)
	if err == nil {
		for i, b := range blocks {
			f.c.cache.put(blockKey{f.id, ld.first + int64(i)}, b)
		}
	}
	f.mu.Lock()
	for b := ld.first; b < ld.first+ld.count; b++ {
		if f.loading[b] == ld {
			delete(f.loading, b)
		}
	}
	if ld.prefetch {
		f.prefetching--
	}
	if err != nil && errors.Is(err, ErrChanged) && f.broken == nil {
		f.broken = err
	}
	hook := f.onFetch
	f.mu.Unlock()
	ld.blocks, ld.err = blocks, err
	close(ld.done)
	if hook != nil {
		hook(f.stats.snapshot())
	}
}

// fetch fills blocks with the bytes [off, end), in requests that resume
// where a cut answer stopped.
func (f *File) fetch(off, end int64, blocks [][]byte) error {
	if f.c.disk != nil && f.c.disk.read(f, off, blocks) {
		f.stats.diskHits.Add(int64(len(blocks)))
		f.c.stats.diskHits.Add(int64(len(blocks)))
		return nil
	}
	got := int64(0)
	err := f.c.attempt(f.ctx, "read", f.loc, &f.stats, func(actx context.Context) error {
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
		body := f.c.watch(actx, a.body)
		for got < end-off {
			bi := got / f.c.opts.BlockSize
			bo := got % f.c.opts.BlockSize
			n, err := io.ReadFull(body, blocks[bi][bo:])
			got += int64(n)
			f.stats.bytes.Add(int64(n))
			f.c.stats.bytes.Add(int64(n))
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = io.ErrUnexpectedEOF
				}
				return err
			}
		}
		return nil
	})
	if err == nil && f.c.disk != nil {
		f.c.disk.write(f, off, blocks)
	}
	return err
}

// NewFileInfo is the fs.FileInfo of a remote file or folder: its name, its
// size, read-only, no modification time.
func NewFileInfo(name string, size int64, dir bool) fs.FileInfo {
	return fileInfo{name: name, size: size, dir: dir}
}

// fileInfo is a remote file's fs.FileInfo.
type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (i fileInfo) Name() string { return i.name }
func (i fileInfo) Size() int64  { return i.size }
func (i fileInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (i fileInfo) ModTime() time.Time { return time.Time{} }
func (i fileInfo) IsDir() bool        { return i.dir }
func (i fileInfo) Sys() any           { return nil }
