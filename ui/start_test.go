package ui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/internal/uitest"
)

func TestStartPage(t *testing.T) {
	tests := []struct {
		name   string
		recent string
		golden string
	}{
		{"no recent files", "", "start_empty.xml"},
		{"recent files", "/data/run1.bag\n/data/old/run0.bag", "start_recent.xml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestController(t)
			c.recent.Load(tt.recent)
			w := test.NewTempWindow(t, widget.NewLabel(""))
			c.start = w
			w.SetContent(newStartPage(c, w))
			w.Resize(startWindowSize)
			uitest.AssertMarkup(t, tt.golden, w.Canvas())
			if tt.recent == "" && !strings.Contains(uitest.Shown(w), "No recent files yet.") {
				t.Error("empty recent list does not say so")
			}
			uitest.FindButton(t, w.Content(), "Open…")
		})
	}
}

func TestStartPageOpensSample(t *testing.T) {
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	c.start = w
	w.SetContent(newStartPage(c, w))
	test.Tap(uitest.FindButton(t, w.Content(), "ROS 1 sample"))
	v := c.views[w]
	if v == nil {
		t.Fatal("the sample did not open in the start page's window")
	}
	if v.err != nil || v.doc == nil || len(v.doc.Topics) == 0 {
		t.Fatalf("sample: doc %v, err %v", v.doc, v.err)
	}
	if c.start != nil {
		t.Error("window still counted as the start page")
	}
	if got := uitest.Shown(w); !strings.Contains(got, "sample.bag") || !strings.Contains(got, "embedded sample bag") {
		t.Errorf("window does not show the sample's header:\n%s", got)
	}
	if len(c.recent.Paths()) != 0 {
		t.Errorf("the embedded sample went into the recent files: %q", c.recent.Paths())
	}
}

// TestStartPageOpensROS2Sample opens the embedded ROS 2 sample, the MCAP
// rosbag2 wrote of its talker demo, from the start page.
func TestStartPageOpensROS2Sample(t *testing.T) {
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	c.start = w
	w.SetContent(newStartPage(c, w))
	test.Tap(uitest.FindButton(t, w.Content(), "ROS 2 sample"))
	v := c.views[w]
	if v == nil || v.err != nil || v.doc == nil {
		t.Fatalf("the ROS 2 sample did not open: %+v", v)
	}
	var topics []string
	for _, tp := range v.doc.Topics {
		topics = append(topics, tp.Topic+" "+tp.Type)
	}
	if got := strings.Join(topics, ", "); !strings.Contains(got, "/topic std_msgs/msg/String") || !strings.Contains(got, "/rosout rcl_interfaces/msg/Log") {
		t.Errorf("topics %s", got)
	}
	if v.doc.Summary.Messages != 20 {
		t.Errorf("%d messages, want the talker's 20", v.doc.Summary.Messages)
	}
	if got := uitest.Shown(w); !strings.Contains(got, "talker.mcap") {
		t.Error("the header does not name talker.mcap")
	}
}

// TestRecentKind names each recent path's kind and size as the start
// page shows it.
func TestRecentKind(t *testing.T) {
	dir := t.TempDir()
	r2 := filepath.Join(dir, "r2")
	if err := os.Mkdir(r2, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r2, "metadata.yaml"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"../testdata/single-message.bag": "ROS 1 bag, 4.",
		"../testdata/ros2-mixed.mcap":    "MCAP, 648 KiB",
		r2:                               "rosbag2 folder",
		dir:                              "folder",
		filepath.Join(r2, "gone.db3"):    "not found",
		"https://example.com/a.mcap":     "URL",
	} {
		if got := recentKind(path); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
}

func TestMenus(t *testing.T) {
	c := newTestController(t)
	c.recent.Load("/data/a.bag\nhttps://store.example/run42/b.mcap?X-Amz-Signature=…")
	w := test.NewTempWindow(t, widget.NewLabel(""))
	m := c.mainMenu(w)
	var labels []string
	for _, it := range m.Items[0].Items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, "|"); got != "Open…|Open URL…|Open Library…|Open Library at URL…|Open Recent|Open ROS 1 Sample|Open ROS 2 Sample||Add Recording…|Compare With…||Save Range/Topics As…|Save Repaired Copy…|Add Message Definition Folder…|Save Layout…|Load Layout…||Close|Quit" {
		t.Errorf("File menu = %q", got)
	}
	if sub := m.Items[0].Items[4].ChildMenu; sub == nil || !strings.HasPrefix(sub.Items[0].Label, "a.bag") ||
		sub.Items[1].Label != "b.mcap  —  https://store.example/run42/" {
		t.Errorf("Open Recent submenu = %+v", sub)
	}
	if m.Items[3].Label != "Help" || m.Items[3].Items[1].Label != "About bagscope" {
		t.Errorf("Help menu = %+v", m.Items[3])
	}
	for _, s := range []fyne.Shortcut{shortcutOpen, shortcutOpenURL, shortcutOpenLibrary, shortcutAddRecording, shortcutCompare, shortcutClose, shortcutQuit} {
		if s.ShortcutName() == "" {
			t.Errorf("shortcut %v has no name", s)
		}
	}
}

func TestDialogs(t *testing.T) {
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(bagWindowSize)
	c.start = w
	w.SetContent(newStartPage(c, w))
	test.Tap(uitest.FindButton(t, w.Content(), "Open…"))
	if w.Canvas().Overlays().Top() == nil {
		t.Fatal("Open… showed no file dialog")
	}
	w.Canvas().Overlays().Top().Hide()
	w.Canvas().Overlays().Remove(w.Canvas().Overlays().Top())
	c.showAbout(w)
	if top := w.Canvas().Overlays().Top(); top == nil || !strings.Contains(test.RenderObjectToMarkup(top), "bagscope "+Version) {
		t.Fatal("About shows no dialog with the version")
	}
}

// TestViewMenu opens a bag and shows each view from the View menu, which
// has a Ctrl+digit shortcut per view.
func TestViewMenu(t *testing.T) {
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openSample(nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	view := c.mainMenu(w).Items[1]
	// The views, Diagnostics, a separator, Previous and Next Message, a
	// separator, the playback items.
	if view.Label != "View" || len(view.Items) != len(viewNames)+5+len(c.playbackMenuItems(w)) || view.Items[len(viewNames)+3].Label != "Next Message" ||
		view.Items[len(viewNames)].Label != "Diagnostics" || view.Items[len(viewNames)].Shortcut != shortcutDiagnostics {
		t.Fatalf("View menu = %+v", view)
	}
	for i, it := range view.Items[:len(viewNames)] {
		it.Action()
		if got := tabs.Selected().Text; !strings.HasPrefix(got, viewNames[i]) {
			t.Errorf("%s shows tab %q", it.Label, got)
		}
		if it.Shortcut == nil || it.Shortcut.ShortcutName() == "" {
			t.Errorf("%s has no shortcut", it.Label)
		}
	}
}

// TestParseMsgs: --msgs folders are kept, in order, for the definitions a
// recording lacks.
func TestParseMsgs(t *testing.T) {
	o, _, ok := parseArgs([]string{"--msgs", "/a", "--msgs", "/b", "x.db3"}, io.Discard)
	if !ok || strings.Join(o.msgs, ",") != "/a,/b" || strings.Join(o.files, ",") != "x.db3" {
		t.Errorf("parseArgs = %+v, %v", o, ok)
	}
	if got := splitLines(" /a\n\n/b \n"); strings.Join(got, ",") != "/a,/b" {
		t.Errorf("splitLines = %q", got)
	}
}
