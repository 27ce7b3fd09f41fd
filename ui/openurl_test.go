package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// File › Open URL… (Ctrl+L) opens a recording served by nginx in place,
// and the signature of a presigned-style URL reaches neither the title,
// the window nor the recent files.
func TestOpenURL(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	web := remotetest.Nginx(t, "../testdata")
	const secret = "c2VjcmV0LXNpZ25hdHVyZQ"
	tests := []struct {
		name, rel, shows string
	}{
		{"ROS 1", "single-message.bag", "single-message.bag"},
		{"MCAP", "ros2-mixed.mcap", "ros2-mixed.mcap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestController(t)
			var saved string
			c.recent.Save = func(s string) { saved = s }
			var opened *bagView
			c.onOpened = func(v *bagView) { opened = v }
			w := test.NewTempWindow(t, widget.NewLabel(""))
			w.SetMainMenu(c.mainMenu(w)) // Ctrl+L reaches File › Open URL…
			uitest.PressShortcut(w, shortcutOpenURL)
			if w.Canvas().Overlays().Top() == nil {
				t.Fatal("Ctrl+L showed no dialog")
			}
			var entry *widget.Entry
			for _, o := range uitest.ShownObjects(w.Canvas().Overlays().Top()) {
				if e, ok := o.(*widget.Entry); ok {
					entry = e
				}
			}
			if entry == nil {
				t.Fatal("the Open URL dialog has no field")
			}
			if entry.Validator("/local/path.bag") == nil {
				t.Error("the URL field accepts a local path")
			}
			u := web.URL + tt.rel + "?X-Amz-Signature=" + secret + "&X-Amz-SignedHeaders=host"
			entry.SetText(u)
			test.Tap(uitest.FindButton(t, w.Canvas().Overlays().Top(), "Open"))
			if opened == nil || opened.err != nil || opened.link == nil {
				t.Fatalf("%s not opened: %+v", u, opened)
			}
			title := opened.win.Title()
			if !strings.Contains(title, tt.shows) || strings.Contains(title, secret) {
				t.Errorf("window title %q", title)
			}
			shown := uitest.Shown(opened.win)
			if strings.Contains(shown, secret) {
				t.Error("the window shows the URL's signature")
			}
			if !strings.Contains(shown, "fetched ") || !strings.Contains(shown, " request") {
				t.Error("the header does not say what opening the URL fetched")
			}
			if !strings.HasPrefix(saved, web.URL+tt.rel) || strings.Contains(saved, secret) || !strings.Contains(saved, "X-Amz-Signature=") {
				t.Errorf("recent files saved as %q, want the URL with its signature hidden", saved)
			}
		})
	}
}
