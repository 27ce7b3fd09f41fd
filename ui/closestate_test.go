package ui

import (
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestFileState checks the window state file: a value is on disk as soon
// as it is set (read back by a fresh reader, as the next run reads it),
// values an older bagscope left in the preferences are read until the
// file has its own, a damaged file is an empty one, and no temporary file
// is left beside it.
func TestFileState(t *testing.T) {
	a := test.NewTempApp(t)
	prefs := a.Preferences()
	prefs.SetString("window.old", "1 2 900 600")
	prefs.SetString("window.both", "from prefs")

	for _, tc := range []struct {
		name    string
		initial string // the file's content before, "" for none
		set     map[string]string
		want    map[string]string
	}{
		{"fresh", "", map[string]string{"window.a": "5 10 1280 800"},
			map[string]string{"window.a": "5 10 1280 800", "window.old": "1 2 900 600", "window.both": "from prefs"}},
		{"the file wins over the preferences", `{"window.both":"from file"}`, map[string]string{"layout.last.bag": "x"},
			map[string]string{"window.both": "from file", "layout.last.bag": "x", "window.old": "1 2 900 600"}},
		{"a damaged file is empty", `{"window.a": `, map[string]string{"window.b": "7 8 1000 700"},
			map[string]string{"window.a": "", "window.b": "7 8 1000 700", "window.both": "from prefs"}},
		{"set twice, the last stays", "", map[string]string{"window.a": "1 1 900 600"},
			map[string]string{"window.a": "1 1 900 600"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "config", "app")
			path := filepath.Join(dir, closeStateFile)
			if tc.initial != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tc.initial), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s := openFileState(path, prefs)
			for k, v := range tc.set {
				s.SetString(k, "before "+v)
				s.SetString(k, v)
			}
			again := openFileState(path, prefs)
			for k, v := range tc.want {
				if got := again.String(k); got != v {
					t.Errorf("%s: read back %q, want %q", k, got, v)
				}
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].Name() != closeStateFile {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("the folder holds %v, want only %s", names, closeStateFile)
			}
		})
	}
}

// TestLastWindowClosed checks that closing the last bag window (Ctrl+W)
// arms the end of the process, and closing one of two does not.
func TestLastWindowClosed(t *testing.T) {
	c := newTestController(t)
	armed := 0
	c.lastClosed = func() { armed++ }
	a := openKeysWindowSized(t, c, "")
	b := openKeysWindowSized(t, c, "")
	c.closeWindow(a.w)
	if armed != 0 {
		t.Fatalf("closing one of two windows armed the exit %d times", armed)
	}
	c.closeWindow(b.w)
	if armed != 1 {
		t.Fatalf("closing the last window armed the exit %d times, want 1", armed)
	}
}
