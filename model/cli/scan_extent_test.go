package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// parsedLine matches info's "parsed to byte X of Y", with the file it
// names, if any.
var parsedLine = regexp.MustCompile(`(?m)(?:(\S+): )?parsed to byte (\d+) of (\d+)$`)

// TestInfoScanOfAFolderSaysTheFileItParsed: in a split set of .db3 files
// (the reference's wbag) whose second file is cut, info says how far the
// read of that file got against that file's own size, naming it, and not
// against the folder's size; it words what a .db3 loses in pages, not in
// chunks. The file opened alone says the same without naming it.
func TestInfoScanOfAFolderSaysTheFileItParsed(t *testing.T) {
	src := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	const cut = 50000
	folder := copyRecording(t, src, t.TempDir())
	file := filepath.Join(folder, "wbag_1.db3")
	if err := os.Truncate(file, cut); err != nil {
		t.Fatal(err)
	}
	var folderSize int64
	ents, _ := os.ReadDir(folder)
	for _, e := range ents {
		if st, err := os.Stat(filepath.Join(folder, e.Name())); err == nil && strings.HasSuffix(e.Name(), ".db3") {
			folderSize += st.Size()
		}
	}
	for _, c := range []struct {
		path, named string
	}{{folder, "wbag_1.db3"}, {file, ""}} {
		out, stderr, code := run("info", c.path)
		if code != 1 {
			t.Errorf("info %s: exit %d, want 1 (messages were lost): %s", c.path, code, stderr)
		}
		ms := parsedLine.FindAllStringSubmatch(out, -1)
		if len(ms) != 1 {
			t.Fatalf("info %s: %d lines say how far the read got, want 1:\n%s", c.path, len(ms), out)
		}
		m := ms[0]
		to, _ := strconv.ParseInt(m[2], 10, 64)
		of, _ := strconv.ParseInt(m[3], 10, 64)
		if m[1] != c.named || of != cut || to <= 0 || to > of {
			t.Errorf("info %s says %q: want the file %q parsed to a byte in (0, %d] of its own %d bytes (the folder's files hold %d)", c.path, m[0], c.named, cut, cut, folderSize)
		}
		if strings.Contains(out, "chunk") {
			t.Errorf("info %s speaks of chunks, which a .db3 does not have:\n%s", c.path, out)
		}
	}
}
