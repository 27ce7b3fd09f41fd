package bag

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/bagscope/bagscope/bag/remote"
)

// rosbag2's FILE compression mode compresses each finished storage file
// whole (x_0.db3.zstd, x_0.mcap.zstd). Such a file is decompressed as a
// stream into the user's cache folder, never beside the recording, and the
// copy is opened; the copy is kept, keyed by the file's path, size and
// modification time, so the next open reuses it.

// StageDecompress is the progress stage of decompressing a file.
const StageDecompress = "decompressing"

// IsZstd reports whether head starts a zstd frame.
func IsZstd(head []byte) bool { return len(head) >= 4 && string(head[:4]) == string(zstdMagic) }

// ZstdCacheDir returns the folder below the user's cache folder that holds
// decompressed copies.
func ZstdCacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "bagscope", "zstd")
}

// DecompressedCopy decompresses the zstd file at path into the user's cache
// folder, or finds the copy an earlier call made of the same file (same
// path, size and modification time; for a URL, same ETag), and returns the
// copy's path. lost is
// non-nil when the stream breaks off (a file cut by a crash): the copy then
// holds what decompressed before the break and lost says what is missing.
// progress (may be nil) receives compressed bytes read out of the file's
// size; it stops with ctx's error when ctx is done.
func DecompressedCopy(ctx context.Context, path string, progress func(done, total int64)) (copyPath string, lost error, err error) {
	f, err := FSFor(path).Open(path)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	return decompressedCopy(ctx, f, path, progress)
}

// decompressedCopy is DecompressedCopy of the opened file f.
func decompressedCopy(ctx context.Context, f File, path string, progress func(done, total int64)) (copyPath string, lost error, err error) {
	st, err := f.Stat()
	if err != nil {
		return "", nil, err
	}
	sum := sha256.Sum256([]byte(copyKey(path, f, st)))
	dir := filepath.Join(ZstdCacheDir(), hex.EncodeToString(sum[:12]))
	name := Base(path)
	if n, ok := strings.CutSuffix(name, ".zstd"); ok && n != "" {
		name = n
	} else {
		name += ".out"
	}
	out := filepath.Join(dir, name)
	done := filepath.Join(dir, "done")
	if note, rerr := os.ReadFile(done); rerr == nil {
		if ost, serr := os.Stat(out); serr == nil && ost.Mode().IsRegular() {
			if len(note) > 0 {
				lost = errors.New(string(note))
			}
			if progress != nil {
				progress(st.Size(), st.Size())
			}
			return out, lost, nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("cache folder for the decompressed copy: %w", err)
	}
	tmp, err := os.CreateTemp(dir, name+".part-*")
	if err != nil {
		return "", nil, fmt.Errorf("cache folder for the decompressed copy: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	cr := &countReader{r: io.NewSectionReader(f, 0, st.Size()), ctx: ctx}
	dec, err := zstd.NewReader(cr, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<34))
	if err != nil {
		return "", nil, err
	}
	defer dec.Close()
	buf := make([]byte, 1<<20)
	var written int64
	for {
		n, rerr := dec.Read(buf)
		if n > 0 {
			if _, werr := tmp.Write(buf[:n]); werr != nil {
				return "", nil, fmt.Errorf("writing the decompressed copy: %w", werr)
			}
			written += int64(n)
			if progress != nil {
				progress(min(cr.n, st.Size()), st.Size())
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if cerr := ctx.Err(); cerr != nil {
				return "", nil, cerr
			}
			at := min(cr.n, st.Size())
			if written == 0 {
				lost = fmt.Errorf("offset %d: the zstd stream of %s breaks off (%v) before any of it decompresses: the whole file is lost", at, Base(path), rerr)
			} else {
				lost = fmt.Errorf("offset %d: the zstd stream of %s breaks off (%v): the %d bytes decompressed from the %d compressed bytes before it are read, the rest of the file is lost", at, Base(path), rerr, written, at)
			}
			break
		}
	}
	if err := tmp.Close(); err != nil {
		return "", nil, err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return "", nil, err
	}
	ok = true
	note := ""
	if lost != nil {
		note = lost.Error()
	}
	if err := os.WriteFile(done, []byte(note), 0o600); err != nil {
		return "", nil, err
	}
	if progress != nil {
		progress(st.Size(), st.Size())
	}
	return out, lost, nil
}

// copyKey names the version of a file whose copy is cached: its absolute
// path, size and modification time; for a URL (without its query), its
// size and ETag. A remote file without an ETag is never taken for an
// earlier copy.
func copyKey(path string, f File, st os.FileInfo) string {
	size := strconv.FormatInt(st.Size(), 10)
	if IsURL(path) {
		u, _, _ := strings.Cut(path, "?")
		tag := ""
		if e, ok := f.(interface{ ETag() string }); ok {
			tag = e.ETag()
		}
		if tag == "" {
			tag = "no etag " + strconv.FormatInt(time.Now().UnixNano(), 10)
		}
		return u + "\x00" + size + "\x00" + tag
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return abs + "\x00" + size + "\x00" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
}

// countReader counts the bytes read and stops when ctx is done.
type countReader struct {
	r   io.Reader
	n   int64
	ctx context.Context
}

func (c *countReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// zstdFile is a recording opened from the decompressed copy of a zstd
// file: it says the user's path, and what was lost when the stream broke.
type zstdFile struct {
	Storage
	path, copyPath string
	size           int64
	lost           error
	// fetched is what decompressing a remote file fetched; nil for a
	// local one.
	fetched *fetchedFile
}

// RemoteFile returns what decompressing a remote file fetched, or nil.
func (s *zstdFile) RemoteFile() Remote {
	if s.fetched == nil {
		return nil
	}
	return s.fetched
}

// fetchedFile is a remote file read whole and closed: its counters as
// they ended.
type fetchedFile struct {
	name  string
	size  int64
	stats remote.Stats
}

func (f *fetchedFile) Name() string        { return f.name }
func (f *fetchedFile) Size() int64         { return f.size }
func (f *fetchedFile) Stats() remote.Stats { return f.stats }

// Unwrap returns the format's storage of the copy.
func (s *zstdFile) Unwrap() Storage { return s.Storage }

// FileInfo describes the copy's recording under the user's path.
func (s *zstdFile) FileInfo() *FileInfo {
	fi := *s.Storage.FileInfo()
	fi.Path = s.path
	fi.Format += " (zstd file)"
	fi.Warnings = append([]error(nil), fi.Warnings...)
	if s.lost != nil {
		fi.Warnings = append(fi.Warnings, s.lost)
		fi.Indexed = false
		if fi.Scanned == nil {
			fi.Scanned = &ScanInfo{Reason: s.lost}
		}
	}
	if fi.Scanned != nil {
		sc := *fi.Scanned
		sc.Notes = append(append([]string(nil), sc.Notes...), "read from the decompressed copy "+s.copyPath)
		fi.Scanned = &sc
	}
	return &fi
}

// Summary is the copy's, under the user's path.
func (s *zstdFile) Summary() (*Summary, error) {
	sum, err := s.Storage.Summary()
	if sum != nil {
		sum.Path = s.path
		sum.Format += " (zstd file)"
	}
	return sum, err
}

// Check is the copy's doctor, with what the broken stream lost first.
func (s *zstdFile) Check(ctx context.Context, progress func(done, total int64)) (*CheckReport, error) {
	r, err := s.Storage.Check(ctx, progress)
	if err != nil || s.lost == nil {
		return r, err
	}
	out := *r
	out.Findings = append([]Finding{{Severity: Error, Offset: s.size, Message: s.lost.Error()}}, r.Findings...)
	return &out, nil
}

// openZstdFile decompresses the zstd file at path and opens the copy. A
// remote one is decompressed only with consent: all of it is read.
func openZstdFile(path string, o OpenOptions) (Storage, error) {
	ctx := o.context()
	if IsURL(path) && !o.AllowRemoteScan {
		st, err := FSFor(path).Stat(path)
		if err != nil {
			return nil, err
		}
		return nil, &ScanConsentError{Path: Shown(path), Size: st.Size(), Reason: errors.New("the file is compressed whole (rosbag2's FILE compression mode): it decompresses only from its start")}
	}
	var prog func(done, total int64)
	if o.Progress != nil {
		stage := StageDecompress + " " + Base(path)
		prog = func(done, total int64) { o.Progress(done, total, stage) }
	}
	f, err := FSFor(path).Open(path)
	if err != nil {
		return nil, err
	}
	cp, lost, err := decompressedCopy(ctx, f, path, prog)
	var fetched *fetchedFile
	if r, ok := f.(Remote); ok {
		fetched = &fetchedFile{name: r.Name(), size: r.Size(), stats: r.Stats()}
	}
	f.Close()
	if err != nil {
		return nil, err
	}
	s, err := openPlainFile(cp, OpenOptions{})
	if err != nil {
		if lost != nil {
			return nil, fmt.Errorf("%w; what decompressed does not open: %v", lost, err)
		}
		return nil, fmt.Errorf("%s decompressed to %s, which does not open: %w", Shown(path), cp, err)
	}
	st, _ := FSFor(path).Stat(path)
	var size int64
	if st != nil {
		size = st.Size()
	}
	return &zstdFile{Storage: s, path: Shown(path), copyPath: cp, size: size, lost: lost, fetched: fetched}, nil
}
