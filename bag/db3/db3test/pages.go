package db3test

import (
	"database/sql"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver
	"modernc.org/sqlite/vfs"
)

// PagesRead opens the .db3 at path with SQLite itself, through a VFS that
// notes every read, runs query with args and reads every row it gives,
// and returns how many distinct pages SQLite read to answer it and their
// bytes: the leaf, interior and overflow pages of the file's own b-trees
// that hold the answer, which a reader of the query cannot read less of.
// The pages of the opening (the header, the schema) are not counted.
func PagesRead(path, query string, args ...any) (pages int, bytes int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	log := &readLog{r: f}
	name, fsys, err := vfs.New(logFS{log: log, size: st.Size()})
	if err != nil {
		return 0, 0, err
	}
	defer fsys.Close()
	db, err := sql.Open("sqlite", "file:"+logName+"?vfs="+name+"&mode=ro&immutable=1")
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var pageSize int64
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		return 0, 0, err
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		return 0, 0, err
	}
	log.reset()
	rows, err := db.Query(query, args...)
	if err != nil {
		return 0, 0, err
	}
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, 0, err
		}
	}
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	rows.Close()
	seen := map[int64]bool{}
	for _, r := range log.spans() {
		for p := r[0] / pageSize; p*pageSize < r[1]; p++ {
			seen[p] = true
		}
	}
	return len(seen), int64(len(seen)) * pageSize, nil
}

// WindowQuery is the query of one topic's messages over a time window, as
// bagscope's SQL path asks it, for PagesRead: its arguments are the
// topic's name and the window's first and last nanosecond.
const WindowQuery = "SELECT id, topic_id, timestamp, data FROM messages WHERE topic_id IN (SELECT id FROM topics WHERE name = ?) AND timestamp >= ? AND timestamp <= ? ORDER BY timestamp, id"

// logName is the database's name in a logFS.
const logName = "pages.db3"

// readLog is an io.ReaderAt that notes the spans read from it.
type readLog struct {
	r    io.ReaderAt
	mu   sync.Mutex
	read [][2]int64
}

func (l *readLog) ReadAt(p []byte, off int64) (int, error) {
	n, err := l.r.ReadAt(p, off)
	l.mu.Lock()
	l.read = append(l.read, [2]int64{off, off + int64(n)})
	l.mu.Unlock()
	return n, err
}

func (l *readLog) reset() { l.mu.Lock(); l.read = nil; l.mu.Unlock() }

func (l *readLog) spans() [][2]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([][2]int64(nil), l.read...)
}

// logFS is a file system of one file read through a readLog.
type logFS struct {
	log  *readLog
	size int64
}

func (f logFS) Open(name string) (fs.File, error) {
	if name != logName {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return logFile{io.NewSectionReader(f.log, 0, f.size)}, nil
}

type logFile struct{ *io.SectionReader }

func (f logFile) Stat() (fs.FileInfo, error) { return logInfo{f.Size()}, nil }
func (f logFile) Close() error               { return nil }

type logInfo struct{ size int64 }

func (i logInfo) Name() string       { return logName }
func (i logInfo) Size() int64        { return i.size }
func (i logInfo) Mode() fs.FileMode  { return 0o444 }
func (i logInfo) ModTime() time.Time { return time.Time{} }
func (i logInfo) IsDir() bool        { return false }
func (i logInfo) Sys() any           { return nil }
