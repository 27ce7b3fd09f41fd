package bag

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// ErrUnknownFormat means no registered format recognises the file.
var ErrUnknownFormat = errors.New("not a recording bagscope reads")

// Format is one storage format: how to recognise a file of it and how to
// open one.
type Format struct {
	// Name is the format's name as users know it ("ROS 1 bag", "MCAP").
	Name string
	// Magic is what the file's first bytes are.
	Magic []byte
	// Open opens a file of the format from r, which holds size bytes.
	// path is the file's path ("" for one in memory). It reads the index
	// or summary, and scans the file when they are missing or damaged.
	Open func(r io.ReaderAt, size int64, path string) (Storage, error)
	// Extensions are the file name endings of the format (".bag").
	Extensions []string
	// Write writes every message of src, with its connections, as a new
	// file of this format on out; compression "" is the format's default.
	// nil when the format cannot be written.
	Write func(out io.WriteSeeker, src Storage, compression string) (*RepairReport, error)
	// Check runs the doctor on a file without opening it first, so a file
	// too damaged to open still gets its findings. nil: open, then check.
	Check func(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*CheckReport, error)
	// NeedsScan says, from a few reads (the header, the footer), why Open
	// would have to read the whole file: no index or summary, a cut one.
	// nil when the index is there. path is the file's path or URL, to look
	// beside it (a WAL). A remote file is opened only when this
	// says nil or the caller allowed the scan (OpenOptions.AllowRemoteScan).
	// A format without it is taken as indexed.
	NeedsScan func(r io.ReaderAt, size int64, path string) error
}

var (
	formatsMu sync.Mutex
	formats   []Format
)

// RegisterFormat makes a format known to Open. Formats register themselves
// from an init function; a program imports the formats it reads.
func RegisterFormat(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats = append(formats, f)
}

// Sniff returns the format whose magic starts head, or nil.
func Sniff(head []byte) *Format {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	for i := range formats {
		if len(formats[i].Magic) > 0 && bytes.HasPrefix(head, formats[i].Magic) {
			f := formats[i]
			return &f
		}
	}
	return nil
}

// FormatFor returns the format whose extension ends path, or nil.
func FormatFor(path string) *Format {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	lower := strings.ToLower(path)
	for i := range formats {
		for _, ext := range formats[i].Extensions {
			if strings.HasSuffix(lower, ext) {
				f := formats[i]
				return &f
			}
		}
	}
	return nil
}

// Formats lists the registered formats' names.
func Formats() []string {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	return names
}

// NewStorage opens a recording held in r (size bytes), choosing the format
// from its first bytes.
func NewStorage(r io.ReaderAt, size int64, path string) (Storage, error) {
	head := make([]byte, 16)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	f := Sniff(head[:n])
	if f == nil && path != "" && size > 0 && !IsZstd(head[:n]) {
		// The first bytes may be what is damaged: the name says the
		// format, whose reader may still get the rest (a .db3 whose
		// header was zeroed).
		if f = FormatFor(path); f != nil {
			if s, err := f.Open(r, size, path); err == nil {
				return WithMessageDecompression(s), nil
			}
			f = nil
		}
	}
	if f == nil {
		return nil, &UnknownFormatError{Head: head[:n], Size: size}
	}
	s, err := f.Open(r, size, path)
	if err != nil {
		return nil, err
	}
	return WithMessageDecompression(s), nil
}

// CheckReader runs the doctor of the format of the file held in r.
func CheckReader(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*CheckReport, error) {
	head := make([]byte, 16)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	f := Sniff(head[:n])
	if named, ok := r.(interface{ Name() string }); ok && f == nil && size > 0 && !IsZstd(head[:n]) {
		// As NewStorage: the name says the format when the first bytes
		// are damaged, if its reader gets something of the rest.
		if f = FormatFor(named.Name()); f != nil {
			s, err := f.Open(r, size, named.Name())
			if err != nil {
				f = nil
			} else {
				s.Close()
			}
		}
	}
	if f == nil {
		return nil, &UnknownFormatError{Head: head[:n], Size: size}
	}
	if f.Check != nil {
		return f.Check(ctx, r, size, progress)
	}
	s, err := f.Open(r, size, "")
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Check(ctx, progress)
}

// OpenFile opens the recording file at path on its own. Closing the
// Storage closes the file. A folder or a rosbag2 metadata.yaml opens the
// whole recording, as Open does; a zstd-compressed file (rosbag2's FILE
// mode) is decompressed into the user's cache folder and the copy opened.
func OpenFile(path string) (Storage, error) { return OpenFileWith(path, OpenOptions{}) }

// OpenFileWith is OpenFile with a context, progress and, for a URL, the
// consent to read a file without an index whole.
func OpenFileWith(path string, o OpenOptions) (Storage, error) {
	if Base(path) == "metadata.yaml" || strings.HasSuffix(strings.ToLower(Base(path)), ".zstd") {
		return OpenWith(path, o)
	}
	s, err := openPlainFile(path, o)
	if errors.Is(err, errIsDir) {
		return OpenWith(path, o)
	}
	var uf *UnknownFormatError
	if errors.As(err, &uf) && IsZstd(uf.Head) {
		return openZstdFile(path, o)
	}
	return s, err
}

var errIsDir = errors.New("a directory, not a recording file")

// openPlainFile opens one recording file as it is.
func openPlainFile(path string, o OpenOptions) (Storage, error) {
	if IsURL(path) {
		return openRemoteFile(path, o)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is %w", path, errIsDir)
	}
	s, err := NewStorage(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileStorage{Storage: s, f: f}, nil
}

// fileStorage closes its file with the storage.
type fileStorage struct {
	Storage
	f File
}

// RemoteFile returns the remote file read, or nil for a local one.
func (s *fileStorage) RemoteFile() Remote {
	r, _ := s.f.(Remote)
	return r
}

func (s *fileStorage) Close() error {
	err := s.Storage.Close()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Unwrap returns the format's own Storage, so callers can reach what only
// that format has (its records, its repair) with a type assertion.
func (s *fileStorage) Unwrap() Storage { return s.Storage }

// Underlying returns the format's own Storage behind s.
func Underlying(s Storage) Storage {
	for {
		u, ok := s.(interface{ Unwrap() Storage })
		if !ok {
			return s
		}
		s = u.Unwrap()
	}
}

// UnknownFormatError says that a file starts with bytes no format claims.
type UnknownFormatError struct {
	Head []byte
	Size int64
}

func (e *UnknownFormatError) Error() string {
	if e.Size == 0 {
		return "offset 0: empty file: a recording has at least its magic bytes"
	}
	return fmt.Sprintf("offset 0: the file starts with %q, which is not a ROS 1 bag (\"#ROSBAG V2.0\"), an MCAP file (\"\\x89MCAP0\\r\\n\") or another format bagscope reads", e.Head)
}

// Unwrap returns ErrUnknownFormat.
func (e *UnknownFormatError) Unwrap() error { return ErrUnknownFormat }
