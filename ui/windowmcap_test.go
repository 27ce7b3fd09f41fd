package ui

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// windowMCAPSeconds is the length of the remote windows' test MCAP
// (remotetest.WindowMCAP: 54 MB, 64 KiB zstd chunks): larger than what
// opening fetches and keeps (the index, the chunks shown and the file's
// read-ahead), with over 100 chunks.
const windowMCAPSeconds = 400

// windowMCAP is the one written for the whole test binary: writing it
// compresses it with zstd under -race (9 s of CPU at load 27, and
// TestRemoteWindow wrote another of 200 s).
var windowMCAP struct {
	once      sync.Once
	dir, path string
}

// linkWindowMCAP puts the test binary's window MCAP at dst (a hard link,
// or a copy where links fail), writing it on the first call.
func linkWindowMCAP(t *testing.T, dst string) {
	t.Helper()
	windowMCAP.once.Do(func() {
		dir, err := os.MkdirTemp("", "bagscope-ui-window")
		if err != nil {
			t.Fatal(err)
		}
		windowMCAP.dir = dir
		p := filepath.Join(dir, "w.mcap")
		remotetest.WindowMCAP(t, p, windowMCAPSeconds)
		windowMCAP.path = p
	})
	if windowMCAP.path == "" {
		t.Fatal("the window MCAP was not written (see the first test that asked for it)")
	}
	if os.Link(windowMCAP.path, dst) == nil {
		return
	}
	copyFile(t, windowMCAP.path, dst)
}

// TestMain removes the window MCAP after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if windowMCAP.dir != "" {
		os.RemoveAll(windowMCAP.dir)
	}
	os.Exit(code)
}
