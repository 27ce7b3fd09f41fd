package ui

import (
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/internal/uitest"
)

func TestBagViewStates(t *testing.T) {
	const shared = "../../shared/bags/"
	tests := []struct {
		name string
		path string
		want []string // texts the window must show
	}{
		{"topics", "../testdata/two-conns-one-topic.bag", []string{"two-conns-one-topic.bag", "/chatter", "std_msgs/String, std_msgs/Int32", "Topics (2)"}},
		{"empty bag", "../testdata/empty.bag", []string{"This bag has no messages", "Topics (0)", "Records", "Findings"}},
		{"missing file", "../testdata/no-such.bag", []string{"Could not open no-such.bag", "does not exist"}},
		{"not a bag", "../go.mod", []string{"Could not open go.mod", "offset 0", "bagscope reads ROS 1 bags"}},
		{"unindexed: scanned", shared + "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", []string{"Read without its index: parsed to byte 9,988 of 9,988, 1 closed chunk.", "Save repaired copy…", "/rosout_agg"}},
		{"old version", "testdata/v1.2.bag", []string{"Could not open v1.2.bag", "offset 9", "Only version 2.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil && strings.HasPrefix(tt.path, shared) {
				t.Skip("shared bags missing")
			}
			c := newTestController(t)
			var opened *bagView
			c.onOpened = func(v *bagView) { opened = v }
			c.openPath(tt.path, nil)
			if opened == nil {
				t.Fatal("loading did not finish")
			}
			w := opened.win
			w.Resize(bagWindowSize.SubtractWidthHeight(80, 40)) // a new size lays out the table's cells
			got := uitest.Shown(w)
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("window does not show %q; it shows:\n%s", want, got)
				}
			}
			w.Close()
			if len(c.views) != 0 {
				t.Error("closed window still has a view")
			}
		})
	}
}

// TestDamagedWithoutMessages opens recordings none of whose messages can
// be read: they still get the Records and Findings tabs, Ctrl+8 and
// View › Findings show the findings, and the body says what the banner
// says.
func TestDamagedWithoutMessages(t *testing.T) {
	tests := []struct {
		path   string
		banner string // in the banner
		body   string // in the body
	}{
		// The loss first, then how the file was read.
		{"testdata/invalid.bag", "At offset 4,117: an unknown number of messages lost, 2.8 KiB unreadable. Read without its index: parse", "No message could be read"},
		{"testdata/invalid.mcap", "At offset 61: an unknown number of messages lost, 2.0 KiB unreadable. Read without its index: parsed", "No message could be read"},
		{"testdata/no-messages.db3", "This bag has connections but no messages", "/chatter"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			c := newTestController(t)
			var opened *bagView
			c.onOpened = func(v *bagView) { opened = v }
			c.openPath(tt.path, nil)
			if opened == nil || opened.err != nil {
				t.Fatalf("not opened: %+v", opened)
			}
			w := opened.win
			w.Resize(bagWindowSize)
			got := uitest.Shown(w)
			for _, want := range []string{tt.banner, tt.body, "Records", "Findings"} {
				if !strings.Contains(got, want) {
					t.Errorf("window does not show %q; it shows:\n%s", want, got)
				}
			}
			if loss, _, ok := strings.Cut(tt.banner, ". Read"); ok {
				// At 1024 px the line is cut at its end: where the loss
				// was and the loss stay whole, and the bytes unreadable
				// are said once.
				w.Resize(fyne.NewSize(1024, 640))
				if small := uitest.Shown(w); !strings.Contains(small, loss+".") {
					t.Errorf("at 1024x640 the banner does not show the loss %q whole; it shows:\n%s", loss, small)
				}
				w.Resize(bagWindowSize)
				if n := strings.Count(uitest.Shown(w), " unreadable"); n != 1 {
					t.Errorf("the banner says the bytes unreadable %d times:\n%s", n, uitest.Shown(w))
				}
			}
			if strings.Contains(got, "opened and closed without any message") && !strings.Contains(tt.path, "no-messages") {
				t.Error("the body says nothing was written, the banner that the file is damaged")
			}
			tabs := appTabs(t, w)
			uitest.PressShortcut(w, viewShortcut(slices.Index(viewNames, "Findings")))
			if got := tabs.Selected().Text; got != "Findings" {
				t.Errorf("Ctrl+8 shows %q", got)
			}
			tabs.SelectIndex(0)
			c.showView(w, "Records")
			if got := tabs.Selected().Text; !strings.HasPrefix(got, "Records") {
				t.Errorf("View › Records shows %q", got)
			}
		})
	}
}

func TestRecentAfterOpen(t *testing.T) {
	c := newTestController(t)
	var saved string
	c.recent.Save = func(s string) { saved = s }
	c.openPath("../testdata/single-message.bag", nil)
	if !strings.HasSuffix(saved, "testdata/single-message.bag") {
		t.Errorf("recent files saved as %q", saved)
	}
}

func TestCancelledLoading(t *testing.T) {
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	v := newBagView(c, w, source{path: "../testdata/lz4-multichunk.bag", name: "lz4-multichunk.bag"})
	w.SetContent(v.content)
	// Cancel from inside the job, as the Cancel button would while it runs.
	c.async = func(f func()) { v.cancel(); f() }
	v.load()
	if got := uitest.Shown(w); !strings.Contains(got, "was cancelled") {
		t.Fatalf("after cancel the window shows:\n%s", got)
	}
	c.async = func(f func()) { f() }
	test.Tap(uitest.FindButton(t, w.Content(), "Open again"))
	if v.doc == nil {
		t.Fatalf("retry did not open the bag: %v", v.err)
	}
}
