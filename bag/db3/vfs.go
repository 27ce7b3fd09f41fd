package db3

import (
	"io"
	"io/fs"
	"time"
)

// readerFS is a file system of one file, the database read from an
// io.ReaderAt, for modernc.org/sqlite's read-only VFS: SQLite reads a
// remote .db3 (or one in memory) page by page through it, and can write
// nothing, not even a journal.
type readerFS struct {
	r    io.ReaderAt
	size int64
}

// readerFSName is the database's name in a readerFS.
const readerFSName = "bag.db3"

func (f readerFS) Open(name string) (fs.File, error) {
	if name != readerFSName {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &readerFile{SectionReader: io.NewSectionReader(f.r, 0, f.size)}, nil
}

// readerFile is one SQLite connection's handle on the file: its own read
// position over the shared io.ReaderAt.
type readerFile struct {
	*io.SectionReader
}

func (f *readerFile) Stat() (fs.FileInfo, error) { return readerInfo{size: f.Size()}, nil }
func (f *readerFile) Close() error               { return nil }

type readerInfo struct{ size int64 }

func (i readerInfo) Name() string       { return readerFSName }
func (i readerInfo) Size() int64        { return i.size }
func (i readerInfo) Mode() fs.FileMode  { return 0o444 }
func (i readerInfo) ModTime() time.Time { return time.Time{} }
func (i readerInfo) IsDir() bool        { return false }
func (i readerInfo) Sys() any           { return nil }
