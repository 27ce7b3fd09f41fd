package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/library"
)

// TestOpenLibraryFromTheWindow: Ctrl+Shift+O (File › Open Library…) asks
// for a folder; a library window on a folder of real recordings opens the
// one chosen with Enter in a bag window of its own.
func TestOpenLibraryFromTheWindow(t *testing.T) {
	c := newTestController(t)
	old := library.Background
	library.Background = uitest.SyncRun
	t.Cleanup(func() { library.Background = old })
	w := c.newWindow("start")
	w.Resize(fyne.NewSize(1024, 640))
	w.Show()
	uitest.PressShortcut(w, shortcutOpenLibrary)
	if top := w.Canvas().Overlays().Top(); top == nil || !strings.Contains(uitest.ShownLines(w), "Open Library") {
		t.Errorf("Ctrl+Shift+O shows no folder dialog:\n%s", uitest.ShownLines(w))
	}

	dir := t.TempDir()
	src := uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example.bag")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bagPath := filepath.Join(dir, "run1", "example.bag")
	if err := os.MkdirAll(filepath.Dir(bagPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bagPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var lw fyne.Window
	v := c.showLibrary(dir, func(_ *library.View, w fyne.Window) { lw = w })
	if lw == nil || v.Rows().Len() != 1 {
		t.Fatalf("the library did not load its one recording (window %v)", lw)
	}
	v.Tap(0, false)
	lw.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(c.views) != 1 {
		t.Fatalf("Enter opened %d bag windows, want 1", len(c.views))
	}
	for bw, bv := range c.views {
		if bv.src.path != bagPath || !strings.HasPrefix(bw.Title(), "example.bag") {
			t.Errorf("opened %q in %q, want %s", bv.src.path, bw.Title(), bagPath)
		}
	}
}

// TestOpenLibraryAtURL: File › Open Library at URL… takes an S3 prefix
// (served by versitygw) and shows its recordings, a ROS 1 bag in a
// subfolder and a rosbag2 prefix as one recording, named below the
// prefix, with what their indexes say.
func TestOpenLibraryAtURL(t *testing.T) {
	c := newTestController(t)
	old := library.Background
	library.Background = uitest.SyncRun
	t.Cleanup(func() { library.Background = old })
	s3 := remotetest.Versity(t, "fleet")
	s3.Env(t, false)
	remote.SetDefault(remote.NewClient(remote.Options{Endpoint: s3.Endpoint}))
	t.Cleanup(func() { remote.SetDefault(nil) })
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "wbag"), os.DirFS(uitest.SharedBags(t, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag"))); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example.bag"))
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "run1"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "run1", "example.bag"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	s3.Upload(t, "fleet", "runs/", dir)

	w := c.newWindow("start")
	w.Resize(fyne.NewSize(1024, 640))
	w.Show()
	c.showOpenLibraryURLDialog(w)
	top := w.Canvas().Overlays().Top()
	var entry *widget.Entry
	for _, o := range uitest.ShownObjects(top) {
		if e, ok := o.(*widget.Entry); ok {
			entry = e
		}
	}
	if entry == nil {
		t.Fatal("the Open Library at URL dialog has no field")
	}
	if entry.Validator("/local/folder") == nil {
		t.Error("the URL field accepts a local path")
	}
	before := len(fyne.CurrentApp().Driver().AllWindows())
	entry.SetText("s3://fleet/runs/")
	test.Tap(uitest.FindButton(t, top, "Open Library"))
	wins := fyne.CurrentApp().Driver().AllWindows()
	if len(wins) != before+1 {
		t.Fatalf("%d windows after Open Library, want %d", len(wins), before+1)
	}
	lw := wins[len(wins)-1]
	if lw.Title() != "Library: runs — bagscope" {
		t.Errorf("library window title %q", lw.Title())
	}
	shown := uitest.ShownLines(lw)
	for _, want := range []string{"run1/example.bag", "wbag", "2 recordings"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the library does not show %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "s3://fleet/runs/run1") {
		t.Errorf("the library names a recording by its whole URL:\n%s", shown)
	}
}
