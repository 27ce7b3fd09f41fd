package bag

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/bagscope/bagscope/bag/remote"
)

// A remote recording file is opened in place: its format reads the index
// or summary through the remote reader, a few requests for a recording of
// any size. Reading a file without one means downloading all of it, so
// that is done only with the caller's consent.

// StageFetch is the progress stage of fetching a remote file's bytes
// while it opens; done counts the bytes fetched, total is its size.
const StageFetch = "fetching"

// ErrRemoteScan means a remote file could be opened only by reading it
// whole, which the caller did not allow.
var ErrRemoteScan = errors.New("reading the whole remote file needs consent")

// ScanConsentError says that a remote file has no usable index or summary
// and would be read whole to open it; it unwraps to ErrRemoteScan.
type ScanConsentError struct {
	// Path is the file's URL (redacted).
	Path string
	// Size is what would be downloaded.
	Size int64
	// Reason is why the file has to be scanned.
	Reason error
}

func (e *ScanConsentError) Error() string {
	return fmt.Sprintf("%s: %v; opening it means reading all %s of it: allow that with --allow-remote-scan (in the window: confirm the scan)", e.Path, e.Reason, humanBytes(e.Size))
}

// Unwrap returns ErrRemoteScan.
func (e *ScanConsentError) Unwrap() error { return ErrRemoteScan }

// humanBytes writes a size as "1.2 GB".
func humanBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// openRemoteFile opens a recording file at a URL in place.
func openRemoteFile(path string, o OpenOptions) (Storage, error) {
	ctx := o.context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rf, err := remote.Default().Open(ctx, path)
	if err != nil {
		// A folder: an S3 prefix, with or without its final "/".
		if st, serr := FSFor(path).Stat(path); serr == nil && st.IsDir() {
			return nil, fmt.Errorf("%s is %w", Shown(path), errIsDir)
		}
		return nil, pathErr("open", path, err)
	}
	size := rf.Size()
	if o.Progress != nil {
		stage := StageFetch + " " + Base(path)
		rf.SetProgress(func(s remote.Stats) { o.Progress(s.Bytes, size, stage) })
		defer rf.SetProgress(nil)
	}
	// Cancelling the open closes the file, which ends its requests.
	stop := context.AfterFunc(ctx, func() { rf.Close() })
	defer stop()
	fail := func(err error) (Storage, error) {
		rf.Close()
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	shown := Shown(path)
	if !o.AllowRemoteScan {
		if reason := needsScan(rf, size, path); reason != nil {
			return fail(&ScanConsentError{Path: shown, Size: size, Reason: reason})
		}
	}
	s, err := NewStorage(rf, size, shown)
	if err != nil {
		return fail(err)
	}
	return &fileStorage{Storage: s, f: rf}, nil
}

// needsScan asks the file's format whether opening it would read it whole.
func needsScan(r io.ReaderAt, size int64, path string) error {
	head := make([]byte, 16)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil // the open says what is wrong
	}
	f := Sniff(head[:n])
	if f == nil {
		f = FormatFor(Base(path))
	}
	if f == nil || f.NeedsScan == nil {
		return nil
	}
	return f.NeedsScan(r, size, path)
}

// Prefetch tells the file behind r that reads of n bytes at each of offs
// are coming (a ROS 1 bag's chunk headers), so that a remote file fetches
// them together: a few requests instead of one per read. For a local file
// it does nothing.
func Prefetch(r io.ReaderAt, offs []int64, n int64) {
	p, ok := r.(interface{ Prefetch([]remote.Range) error })
	if !ok || len(offs) == 0 {
		return
	}
	rs := make([]remote.Range, len(offs))
	for i, off := range offs {
		rs[i] = remote.Range{Off: off, Len: n}
	}
	p.Prefetch(rs) // a read that still misses fetches on its own
}

// Transfer is what reading a recording fetched from remote storage.
type Transfer struct {
	// Remote is false for a recording of local files only.
	Remote bool
	// Bytes and Requests count what its remote files fetched so far.
	Bytes, Requests int64
}

// TransferOf adds up what the remote files of an opened recording fetched
// so far (a folder's files each; its metadata.yaml and listing are the
// client's, see remote.Client.Stats).
func TransferOf(s Storage) Transfer {
	t := Transfer{Remote: IsURL(s.FileInfo().Path)}
	add := func(s Storage) {
		if r := RemoteOf(s); r != nil {
			st := r.Stats()
			t.Remote = true
			t.Bytes += st.Bytes
			t.Requests += st.Requests
		}
	}
	if m := AsMulti(s); m != nil {
		for _, p := range m.Parts() {
			add(p)
		}
		return t
	}
	add(s)
	return t
}

// IsRemote reports whether reads of r go over the network (a remote file
// opened through the seam), where a read's cost is a round trip rather
// than a page of the local file.
func IsRemote(r io.ReaderAt) bool {
	_, ok := r.(interface{ Prefetch([]remote.Range) error })
	return ok
}

// PrefetchHeld is PrefetchSpans whose bytes release lets go of, once the
// reads that needed them are done (see remote.File.PrefetchHeld). For a
// local file it does nothing.
func PrefetchHeld(r io.ReaderAt, offs, lens []int64) (release func()) {
	p, ok := r.(interface {
		PrefetchHeld([]remote.Range) (func(), error)
	})
	if !ok || len(offs) == 0 || len(offs) != len(lens) {
		return func() {}
	}
	rs := make([]remote.Range, len(offs))
	for i, off := range offs {
		rs[i] = remote.Range{Off: off, Len: lens[i]}
	}
	release, _ = p.PrefetchHeld(rs) // a read that still misses fetches on its own
	return release
}

// PrefetchHeldApart is PrefetchHeld for ranges with bytes between them
// not to be fetched: over multi-range requests, ranges more than gap
// bytes apart stay apart (see remote.File.PrefetchHeldApart). For a local
// file it does nothing.
func PrefetchHeldApart(r io.ReaderAt, offs, lens []int64, gap int64) (release func()) {
	p, ok := r.(interface {
		PrefetchHeldApart([]remote.Range, int64) (func(), error)
	})
	if !ok || len(offs) == 0 || len(offs) != len(lens) {
		return PrefetchHeld(r, offs, lens)
	}
	rs := make([]remote.Range, len(offs))
	for i, off := range offs {
		rs[i] = remote.Range{Off: off, Len: lens[i]}
	}
	release, _ = p.PrefetchHeldApart(rs, gap) // a read that still misses fetches on its own
	return release
}

// BlockIndexPrefetcher is a Storage that fetches what BlockIndex reads
// of many blocks together, ahead of the calls: for a remote file, a few
// multi-range requests instead of a round trip per block
// (model.BuildMessageIndex). It fetches those of a leading part of
// blocks, within its budget, and says how many blocks it covered (at
// least one of a non-empty blocks): the caller asks again from there.
// release lets go of the bytes; for a local file it fetches nothing and
// covers every block.
type BlockIndexPrefetcher interface {
	PrefetchBlockIndexes(blocks []*Block) (release func(), covered int)
}

// IndexPrefetcherOf returns the BlockIndexPrefetcher behind s (its
// format's own Storage, through the wrappers), or nil.
func IndexPrefetcherOf(s Storage) BlockIndexPrefetcher {
	for s != nil {
		if p, ok := s.(BlockIndexPrefetcher); ok {
			return p
		}
		u, ok := s.(interface{ Unwrap() Storage })
		if !ok {
			return nil
		}
		s = u.Unwrap()
	}
	return nil
}

// PrefetchSpans is Prefetch of spans of their own lengths: lens[i] bytes
// at offs[i].
func PrefetchSpans(r io.ReaderAt, offs, lens []int64) {
	p, ok := r.(interface{ Prefetch([]remote.Range) error })
	if !ok || len(offs) == 0 || len(offs) != len(lens) {
		return
	}
	rs := make([]remote.Range, len(offs))
	for i, off := range offs {
		rs[i] = remote.Range{Off: off, Len: lens[i]}
	}
	p.Prefetch(rs) // a read that still misses fetches on its own
}

// ReadAhead tells the remote file behind r that the bytes [off, off+n)
// will be read soon (a full read's next chunks): it starts fetching them
// in the background. For a local file it does nothing.
func ReadAhead(r io.ReaderAt, off, n int64) {
	if a, ok := r.(interface{ ReadAhead(off, n int64) }); ok {
		a.ReadAhead(off, n)
	}
}

// ReadAheadUpTo returns a reader of r for a read that touches nothing
// past end (a .db3 query of a time window): over a remote file its
// read-ahead stops at end (none when end is 0, no bound when end < 0) and
// its random reads fetch just their bytes (see remote.File.Bounded). For
// a local file it returns r.
func ReadAheadUpTo(r io.ReaderAt, end int64) io.ReaderAt {
	if b, ok := r.(interface{ Bounded(int64) io.ReaderAt }); ok {
		return b.Bounded(end)
	}
	return r
}
