package bag

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bagscope/bagscope/bag/remote"
)

// Where a recording's files are: a path names a local file or folder, or a
// URL (http://, https://, s3://, gs://) names one in remote storage, read
// through bag/remote's default client without downloading it. Opening,
// folder layouts and formats that look beside a file reach files through
// FSFor and the path functions here (Dir, Base, Join), so a URL works
// wherever a path does.

// File is an opened file of a recording: *os.File, or a remote file.
type File interface {
	io.ReaderAt
	io.Closer
	Stat() (fs.FileInfo, error)
}

// FS reaches files by path.
type FS interface {
	// Stat describes the file or folder at name.
	Stat(name string) (fs.FileInfo, error)
	// ReadDir lists a folder (a remote folder only where the store can
	// list: an S3 prefix, not an HTTP one).
	ReadDir(name string) ([]fs.DirEntry, error)
	// Open opens a file for reading.
	Open(name string) (File, error)
}

// ErrNoListing means a remote folder cannot be listed (an HTTP server's):
// its files are known only from its metadata.yaml.
var ErrNoListing = remote.ErrNoListing

// IsURL reports whether name is a URL of a remote file or folder rather
// than a local path.
func IsURL(name string) bool { return remote.IsURL(name) }

// FSFor returns the file system that reaches name: the local one, or the
// remote store of a URL.
func FSFor(name string) FS {
	if remote.IsURL(name) {
		return remoteFS{remote.Default()}
	}
	return osFS{}
}

// Dir returns the folder of a path or URL (a URL's ends with "/").
func Dir(name string) string {
	if remote.IsURL(name) {
		return remote.Dir(name)
	}
	return filepath.Dir(name)
}

// Base returns the last element of a path or URL (a URL's without its
// query).
func Base(name string) string {
	if remote.IsURL(name) {
		return remote.Base(name)
	}
	return filepath.Base(name)
}

// Join returns the path or URL of elem (slash-separated) in the folder dir.
func Join(dir, elem string) string {
	if remote.IsURL(dir) {
		return remote.Join(dir, elem)
	}
	return filepath.Join(dir, filepath.FromSlash(elem))
}

// Shown returns a path or URL as it may be shown: a URL's signature,
// token and password parameters are hidden (see remote.Redact).
func Shown(name string) string {
	if remote.IsURL(name) {
		return remote.Redact(name)
	}
	return name
}

// Sibling returns the path or URL of the file named as path with suffix
// added ("x.db3" and "-wal": "x.db3-wal"); a URL's query is dropped.
func Sibling(path, suffix string) string {
	if remote.IsURL(path) {
		return remote.Join(remote.Dir(path), remote.Base(path)+suffix)
	}
	return path + suffix
}

// ReadSmallFile reads a small file (a metadata.yaml) at a path or URL,
// refusing one longer than limit.
func ReadSmallFile(name string, limit int64) ([]byte, error) {
	f, err := FSFor(name).Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d a %s may have", Shown(name), st.Size(), limit, Base(name))
	}
	b := make([]byte, st.Size())
	n, err := f.ReadAt(b, 0)
	if err != nil && !(errors.Is(err, io.EOF) && int64(n) == st.Size()) {
		return nil, err
	}
	return b[:n], nil
}

// Remote is what a remote file tells about itself (bag/remote's File
// implements it).
type Remote interface {
	// Name is the file's URL as it may be shown.
	Name() string
	// Size is its size in bytes.
	Size() int64
	// Stats are the bytes and requests fetched for it so far.
	Stats() remote.Stats
}

// RemoteOf returns the remote file behind r (a reader a format was
// handed, a Storage), or nil when it is local.
func RemoteOf(r any) Remote {
	for r != nil {
		switch v := r.(type) {
		case Remote:
			return v
		case interface{ RemoteFile() Remote }:
			return v.RemoteFile()
		case interface{ Unwrap() Storage }:
			r = v.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// osFS is the local file system.
type osFS struct{}

func (osFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Open(name string) (File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// remoteFS reaches URLs through a remote client.
type remoteFS struct{ c *remote.Client }

func (r remoteFS) Stat(name string) (fs.FileInfo, error) {
	info, err := r.c.Stat(context.Background(), name)
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return remote.NewFileInfo(remote.Base(name), info.Size, info.Dir), nil
}

func (r remoteFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := r.c.List(context.Background(), name)
	if err != nil {
		return nil, pathErr("readdir", name, err)
	}
	out := make([]fs.DirEntry, len(ents))
	for i, e := range ents {
		out[i] = fs.FileInfoToDirEntry(remote.NewFileInfo(e.Name, e.Size, e.Dir))
	}
	return out, nil
}

func (r remoteFS) Open(name string) (File, error) {
	f, err := r.c.Open(context.Background(), name)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	return f, nil
}

// pathErr makes a remote "not found" also fs.ErrNotExist, as os's
// errors are, so callers test both alike. (A remote error names its URL,
// redacted, itself.)
func pathErr(op, name string, err error) error {
	if errors.Is(err, remote.ErrNotFound) {
		return notExist{err}
	}
	return err
}

// notExist is a remote "not found" that is also fs.ErrNotExist.
type notExist struct{ err error }

func (n notExist) Error() string        { return n.err.Error() }
func (n notExist) Unwrap() []error      { return []error{n.err, fs.ErrNotExist} }
func (n notExist) Is(target error) bool { return target == fs.ErrNotExist }
