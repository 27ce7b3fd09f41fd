package findings

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// openSyncChecked opens a bag for a Findings test, in a test app, with the
// panels' background work run synchronously.
func openSyncChecked(t *testing.T, path string) *model.Document {
	t.Helper()
	test.NewTempApp(t)
	old := link.Background
	link.Background = func(f func()) { f() }
	t.Cleanup(func() { link.Background = old })
	return uitest.OpenDoc(t, path)
}

// TestFindingsTab opens a cut, unindexed bag and checks that the Findings
// tab lists the doctor's findings, most severe first, and shows a selected
// one whole.
func TestFindingsTab(t *testing.T) {
	d := openSyncChecked(t, "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag")
	w := test.NewTempWindow(t, nil)
	var shown int64 = -1
	p := New(context.Background(), d, w, func(off int64) { shown = off }, Hooks{})
	w.SetContent(p.content)
	if len(p.findings) != 3 {
		t.Fatalf("%d findings: %v", len(p.findings), p.findings)
	}
	if got := p.status.Text; !strings.HasPrefix(got, "2 errors, 1 warning, 0 notes.") {
		t.Errorf("status %q", got)
	}
	if p.findings[0].Severity < p.findings[2].Severity {
		t.Errorf("not most severe first: %v", p.findings)
	}
	p.list.Select(1)
	if !strings.Contains(p.detail.Text, "at byte offset 5892") {
		t.Errorf("detail %q", p.detail.Text)
	}
	test.Tap(p.showBtn)
	if shown != 5892 {
		t.Errorf("Show in Records asked for offset %d", shown)
	}
}

// TestFindingsCheckStopped runs the check with its window's context already
// ended: it stops, says so, and can be run again.
func TestFindingsCheckStopped(t *testing.T) {
	d := openSyncChecked(t, "../../testdata/bz2-multichunk.bag")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := test.NewTempWindow(t, nil)
	p := New(ctx, d, w, func(int64) {}, Hooks{})
	w.SetContent(p.content)
	if !strings.HasPrefix(p.status.Text, "The check was stopped") || p.findings != nil {
		t.Errorf("status %q, findings %v", p.status.Text, p.findings)
	}
	if p.checkBtn.Disabled() || p.progress.Visible() || p.stopBtn.Visible() {
		t.Errorf("after stopping: Check disabled %v, progress shown %v, Stop shown %v", p.checkBtn.Disabled(), p.progress.Visible(), p.stopBtn.Visible())
	}
	// Run again in a live window: it finishes, with the bar at the end.
	p.ctx = context.Background()
	test.Tap(p.checkBtn)
	if !strings.HasPrefix(p.status.Text, "No errors") || p.progress.Value != 1 {
		t.Errorf("status %q, progress %v", p.status.Text, p.progress.Value)
	}
}
