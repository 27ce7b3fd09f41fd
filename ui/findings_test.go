package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

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
	d := openSyncChecked(t, "../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag")
	w := test.NewTempWindow(t, nil)
	var shown int64 = -1
	p := newFindingsPanel(context.Background(), d, w, func(off int64) { shown = off }, findingsHooks{})
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
	d := openSyncChecked(t, "../testdata/bz2-multichunk.bag")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := test.NewTempWindow(t, nil)
	p := newFindingsPanel(ctx, d, w, func(int64) {}, findingsHooks{})
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

// TestScanBannerLinksToFindings taps the scan banner's "Show findings" and
// checks that the Findings tab is shown.
func TestScanBannerLinksToFindings(t *testing.T) {
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath("../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	test.Tap(uitest.FindButton(t, w.Content(), "Show findings"))
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	if tabs == nil || tabs.Selected().Text != "Findings" {
		t.Fatalf("selected tab: %v", tabs.Selected())
	}
}

// TestFindingShowsRecord follows a finding to its record: the Records tab
// comes up with the record holding the finding's offset selected.
func TestFindingShowsRecord(t *testing.T) {
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath("../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	var tabs *container.AppTabs
	var list *widget.List
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	selectTabNamed(tabs, "Findings")
	for _, o := range test.LaidOutObjects(w.Content()) {
		if l, ok := o.(*widget.List); ok && l.Visible() {
			list = l
		}
	}
	if list == nil || list.Length() == 0 {
		t.Fatal("no findings listed")
	}
	list.Select(0) // the bag header: index_pos 0
	if got := uitest.Shown(w); strings.Contains(got, "bag header record at 13") {
		t.Fatal("the Records tab shows before the button is tapped")
	}
	test.Tap(uitest.FindButton(t, w.Content(), "Show in Records"))
	if tabs.Selected().Text != "Records" {
		t.Fatalf("selected tab %q", tabs.Selected().Text)
	}
	if got := uitest.Shown(w); !strings.Contains(got, "bag header record at 13: header 69 bytes") {
		t.Fatalf("the bag header record is not selected; the window shows:\n%.3000s", got)
	}
}
