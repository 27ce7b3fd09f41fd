package db3

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"github.com/bagscope/bagscope/bag"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
	"modernc.org/sqlite/vfs"
)

// walHeaderSize is the size of a WAL file's header; a WAL no longer than
// this holds no frames.
const walHeaderSize = 32

// journalMagic starts a rollback journal's header when the journal is hot.
var journalMagic = []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}

// sqlOpen is how a file was opened through SQLite.
type sqlOpen struct {
	db *sql.DB
	// tmpDir is the private copy's folder ("" when the user's file was
	// opened in place); removed on Close.
	tmpDir string
	// vfs reads a file that is not a local path of these bytes (a remote
	// file, one in memory) through its io.ReaderAt; closed after db.
	vfs *vfs.FS
	// sidePath names the hot WAL or journal merged, if any.
	sidePath, sideKind string
	warnings           []error
}

// sideFiles looks beside path for a WAL (when the header says WAL mode)
// or a hot rollback journal with content. It returns the side file's path
// and kind ("WAL", "journal"), or "" when there is none.
func sideFiles(path string, h *header) (string, string) {
	if path == "" {
		return "", ""
	}
	fsys := bag.FSFor(path)
	if h.walMode() {
		w := bag.Sibling(path, "-wal")
		if st, err := fsys.Stat(w); err == nil && st.Mode().IsRegular() && st.Size() > walHeaderSize {
			return w, "WAL"
		}
	}
	if bag.IsURL(path) {
		// A remote recording was uploaded closed: a rollback journal
		// beside it is not looked for (a request per file opened).
		return "", ""
	}
	j := path + "-journal"
	if st, err := os.Stat(j); err == nil && st.Mode().IsRegular() && st.Size() >= int64(len(journalMagic)) {
		if f, err := os.Open(j); err == nil {
			head := make([]byte, len(journalMagic))
			_, err := io.ReadFull(f, head)
			f.Close()
			if err == nil && bytes.Equal(head, journalMagic) {
				return j, "journal"
			}
		}
	}
	return "", ""
}

// cacheDir makes a private folder under the user's cache directory.
func cacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	base = filepath.Join(base, "bagscope")
	if err := os.MkdirAll(base, 0o700); err != nil {
		base = os.TempDir()
	}
	return os.MkdirTemp(base, "db3-")
}

// copyFile copies src into dst.
func copyFile(dst string, src io.Reader) error {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, src); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fileDSN returns the SQLite URI of path with a query.
func fileDSN(path, query string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: query}
	if u.Path != "" && u.Path[0] != '/' { // Windows: file:///C:/...
		u.Path = "/" + u.Path
	}
	return u.String(), nil
}

// openSQL opens the file through SQLite without writing anything beside
// it or anywhere else: in place and immutable when there is nothing to
// merge; through a read-only VFS over r when path is not a local file of
// these bytes (a remote file is read page by page, no copy); as a private
// copy with its WAL or journal when one holds rows.
func openSQL(r io.ReaderAt, size int64, path string, h *header) (*sqlOpen, error) {
	o := &sqlOpen{}
	inPlace := path != "" && !bag.IsURL(path)
	if inPlace {
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() || st.Size() != size {
			inPlace = false // the path is not the bytes we were handed
		}
	}
	side, kind := "", ""
	if inPlace || bag.IsURL(path) {
		side, kind = sideFiles(path, h)
	}
	var dsn string
	switch {
	case inPlace && side == "":
		d, err := fileDSN(path, "mode=ro&immutable=1")
		if err != nil {
			return nil, err
		}
		dsn = d
	case side == "":
		name, fsys, err := vfs.New(readerFS{r: r, size: size})
		if err != nil {
			return nil, fmt.Errorf("reading the file through SQLite: %w", err)
		}
		o.vfs = fsys
		if h.walMode() && bag.IsURL(path) {
			// sideFiles found no WAL with frames beside it; say so when
			// it could not tell (a presigned URL names one object only).
			w := bag.Sibling(path, "-wal")
			if _, err := bag.FSFor(w).Stat(w); err != nil && !errors.Is(err, fs.ErrNotExist) {
				o.warnings = append(o.warnings, fmt.Errorf("the file is in WAL mode and its %s could not be looked for (%v): it is read as checkpointed, without rows a WAL may hold", bag.Base(w), err))
			}
		}
		// temp_store(2): a GROUP BY's sorter that outgrows its memory
		// spills to a temporary file, which the read-only VFS cannot
		// open (SQLite: disk I/O error); it stays in memory instead.
		dsn = "file:" + readerFSName + "?vfs=" + name + "&mode=ro&immutable=1&_pragma=temp_store(2)"
	default:
		dir, err := cacheDir()
		if err != nil {
			return nil, fmt.Errorf("private copy: %w", err)
		}
		o.tmpDir = dir
		name := "bag.db3"
		if path != "" {
			name = bag.Base(path)
		}
		cp := filepath.Join(dir, name)
		if err := copyFile(cp, io.NewSectionReader(r, 0, size)); err != nil {
			o.close()
			return nil, fmt.Errorf("private copy: %w", err)
		}
		query := "mode=ro&immutable=1"
		if side != "" {
			sf, err := bag.FSFor(side).Open(side)
			if err == nil {
				suffix := "-wal"
				if kind == "journal" {
					suffix = "-journal"
				}
				var st os.FileInfo
				if st, err = sf.Stat(); err == nil {
					err = copyFile(cp+suffix, io.NewSectionReader(sf, 0, st.Size()))
				}
				sf.Close()
			}
			if err != nil {
				o.warnings = append(o.warnings, fmt.Errorf("%s %s beside the file could not be read, its rows are missing: %w", kind, side, err))
			} else {
				o.sidePath, o.sideKind = side, kind
				// The copy is ours: let SQLite read the WAL (which needs
				// a -shm) or roll the journal back.
				query = ""
			}
		}
		d, err := fileDSN(cp, query)
		if err != nil {
			o.close()
			return nil, err
		}
		dsn = d
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		o.close()
		return nil, err
	}
	db.SetMaxOpenConns(4)
	o.db = db
	if o.sidePath != "" {
		o.warnings = append(o.warnings, fmt.Errorf("a hot %s (%s) lay beside the file: a private copy of both was read, so its rows are included", o.sideKind, bag.Base(o.sidePath)))
	}
	return o, nil
}

// close closes the database and removes the private copy.
func (o *sqlOpen) close() error {
	var err error
	if o.db != nil {
		err = o.db.Close()
		o.db = nil
	}
	if o.vfs != nil {
		if verr := o.vfs.Close(); err == nil {
			err = verr
		}
		o.vfs = nil
	}
	if o.tmpDir != "" {
		if rerr := os.RemoveAll(o.tmpDir); err == nil {
			err = rerr
		}
		o.tmpDir = ""
	}
	return err
}
