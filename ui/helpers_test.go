package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/link"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// assertMarkup compares c's markup with testdata/name, or rewrites it with -update.
func assertMarkup(t *testing.T, name string, c fyne.Canvas) {
	t.Helper()
	if *update {
		path := filepath.Join("testdata", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(test.RenderToMarkup(c)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	test.AssertRendersToMarkup(t, name, c)
}

// newTestController returns a controller on a test app that opens bags
// synchronously.
func newTestController(t *testing.T) *controller {
	c := newController(test.NewTempApp(t))
	c.async = func(f func()) { f() }
	old := link.Background
	link.Background = func(f func()) { f() }
	t.Cleanup(func() { link.Background = old })
	return c
}

// findButton returns the visible button whose text starts with prefix.
func findButton(t *testing.T, o fyne.CanvasObject, prefix string) *widget.Button {
	t.Helper()
	for _, obj := range test.LaidOutObjects(o) {
		if b, ok := obj.(*widget.Button); ok && b.Visible() && strings.HasPrefix(b.Text, prefix) {
			return b
		}
	}
	t.Fatalf("no button %q", prefix)
	return nil
}

// shown returns the markup of what w shows, to search for texts.
func shown(w fyne.Window) string { return test.RenderToMarkup(w.Canvas()) }

// appTabs returns the bag window's tabs.
func appTabs(t *testing.T, w fyne.Window) *container.AppTabs {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			return at
		}
	}
	t.Fatal("no tabs")
	return nil
}

// pressShortcut delivers s as the desktop driver does: to the window's
// menu first, then to the focused widget if it takes shortcuts, else to
// the canvas.
func pressShortcut(w fyne.Window, s fyne.Shortcut) {
	if m := w.MainMenu(); m != nil && menuShortcut(m.Items, s) {
		return
	}
	if f, ok := w.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	w.Canvas().(fyne.Shortcutable).TypedShortcut(s)
}

func menuShortcut(menus []*fyne.Menu, s fyne.Shortcut) bool {
	for _, m := range menus {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() && it.Action != nil {
				it.Action()
				return true
			}
			if it.ChildMenu != nil && menuShortcut([]*fyne.Menu{it.ChildMenu}, s) {
				return true
			}
		}
	}
	return false
}
