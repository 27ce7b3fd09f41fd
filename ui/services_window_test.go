package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/services/servicestest"
)

// TestServicesTabInWindow: a recording with service events and an action
// opens with a Services tab after the others, and the action's goals
// show as state lanes on the window's timeline.
func TestServicesTabInWindow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "actions.mcap")
	if err := servicestest.WriteMCAP(path); err != nil {
		t.Fatal(err)
	}
	kw := openKeysWindow(t, newTestController(t), path)
	last := kw.tabs.Items[len(kw.tabs.Items)-1]
	if last.Text != "Services" {
		t.Fatalf("last tab %q", last.Text)
	}
	if !kw.v.link.SelectTab("Services") || kw.tabs.Selected() != last {
		t.Errorf("selecting Services left %q selected", kw.tabs.Selected().Text)
	}
	lanes := kw.v.views.timeline.View().StateLanes()
	goals := 0
	for _, l := range lanes {
		if strings.HasPrefix(l.Name, "/fibonacci goals") {
			goals += len(l.Spans)
		}
	}
	if goals != 4 {
		t.Errorf("%d goal spans on the timeline (%d lanes), want the 4 goals", goals, len(lanes))
	}
}
