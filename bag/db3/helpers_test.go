package db3

import (
	"bytes"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/klauspost/compress/zstd"
)

const python = oracletest.Python

// needPython skips the test when python3 with sqlite3 is missing, unless
// CI is set.
func needPython(t testing.TB) {
	t.Helper()
	oracletest.RequirePython(t, "sqlite3")
}

// makeBag writes a .db3 with testdata/mkdb3.py.
func makeBag(t testing.TB, path string, n int, opts ...string) {
	t.Helper()
	db3test.Write(t, path, n, opts...)
}

// row is a messages row.
type row struct {
	id, topic, ts int64
	data          []byte
}

// oracle reads the rows of the .db3 at path (with its WAL) through
// python's sqlite3, from a copy in a temporary folder.
func oracle(t testing.TB, path string) []row {
	t.Helper()
	needPython(t)
	dir := t.TempDir()
	cp := filepath.Join(dir, filepath.Base(path))
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			if suffix == "" {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(cp+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(python, "testdata/dump.py", cp).Output()
	if err != nil {
		t.Fatalf("dump.py %s: %v", path, err)
	}
	var rows []row
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		var r row
		r.id, _ = strconv.ParseInt(f[0], 10, 64)
		r.topic, _ = strconv.ParseInt(f[1], 10, 64)
		r.ts, _ = strconv.ParseInt(f[2], 10, 64)
		if len(f) > 3 {
			r.data, _ = hex.DecodeString(f[3])
		} else {
			r.data = []byte{}
		}
		rows = append(rows, r)
	}
	return rows
}

// unzstd decompresses a zstd blob as the store does.
func unzstd(t testing.TB, b []byte) []byte {
	if !bytes.HasPrefix(b, zstdMagic) {
		return b
	}
	d, _ := zstd.NewReader(nil)
	defer d.Close()
	out, err := d.DecodeAll(b, nil)
	if err != nil {
		t.Fatalf("zstd: %v", err)
	}
	return out
}

// readAll reads every message of a store as rows.
func readAll(t testing.TB, s bag.Storage, f bag.MessageFilter) ([]row, error) {
	t.Helper()
	it := s.Messages(f)
	defer it.Close()
	var rows []row
	for it.Next() {
		m := it.Message()
		rows = append(rows, row{id: RowID(m.Loc), topic: int64(m.Conn.ID), ts: m.Time.Nanos(), data: bytes.Clone(m.Data)})
	}
	return rows, it.Err()
}

// openFile opens path through the seam.
func openFile(t testing.TB, path string) bag.Storage {
	t.Helper()
	s, err := bag.OpenFile(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// openBytes opens a file held in memory.
func openBytes(data []byte, path string) (*Store, error) {
	return Open(bytes.NewReader(data), int64(len(data)), path)
}

// snapshot lists the files under root with their size and mtime.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		out[p] = fi.ModTime().String() + " " + strconv.FormatInt(fi.Size(), 10) + " " + fi.Mode().String()
		return nil
	})
	return out
}

// sameSnapshot fails the test when two snapshots differ.
func sameSnapshot(t testing.TB, before, after map[string]string) {
	t.Helper()
	var diff []string
	for p, v := range after {
		if before[p] != v {
			diff = append(diff, p+": "+before[p]+" -> "+v)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			diff = append(diff, p+": removed")
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Errorf("files changed:\n%s", strings.Join(diff, "\n"))
	}
}

// byID indexes rows by row id.
func byID(rows []row) map[int64]row {
	m := make(map[int64]row, len(rows))
	for _, r := range rows {
		m[r.id] = r
	}
	return m
}
