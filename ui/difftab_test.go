package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/ui/diffview"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/library"
)

// diffEqual runs `bagscope diff --json A B` and returns its verdict.
func diffEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"diff", "--json", a, b}, &out, &errb); code > 1 {
		t.Fatalf("diff %s %s: exit %d: %s", a, b, code, errb.String())
	}
	var d struct{ Equal bool }
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d.Equal
}

// Ctrl+Shift+D (File › Compare With…) asks for recording B in the Open
// dialog; a path typed there with Enter shows the Diff tab comparing the
// window's recording with it, as `bagscope diff` does.
func init() {
	keyChecks["Ctrl+Shift+D"] = func(t *testing.T, k *keysWindow) {
		uitest.PressShortcut(k.w, shortcutCompare)
		top := k.w.Canvas().Overlays().Top()
		if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Open this folder") || !strings.Contains(uitest.ShownLines(k.w), "Compare") {
			t.Fatalf("Ctrl+Shift+D showed no dialog asking for B:\n%s", uitest.ShownLines(k.w))
		}
		entry, ok := k.w.Canvas().Focused().(*widget.Entry)
		if !ok {
			t.Fatalf("the path field does not have the keyboard: %T does", k.w.Canvas().Focused())
		}
		// B: the sample (the window's recording) written to a file.
		b := filepath.Join(t.TempDir(), "b.bag")
		if err := os.WriteFile(b, assets.SampleBag, 0o644); err != nil {
			t.Fatal(err)
		}
		entry.SetText(b)
		entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if !strings.HasPrefix(k.tabs.Selected().Text, diffview.Title) {
			t.Fatalf("the %q tab shows, not Diff", k.tabs.Selected().Text)
		}
		st := k.v.views.diff.State()
		if st.Result == nil || st.Err != nil || st.B != b {
			t.Fatalf("the Diff tab shows %+v", st)
		}
		a := filepath.Join(t.TempDir(), "a.bag")
		if err := os.WriteFile(a, assets.SampleBag, 0o644); err != nil {
			t.Fatal(err)
		}
		if want := diffEqual(t, a, b); st.Result.Equal() != want || !want {
			t.Errorf("the tab says equal %v; the command %v", st.Result.Equal(), want)
		}
		closeOverlays(k.w)
	}
}

// Escape in the Diff tab stops the comparison running, as its Cancel
// button does: the tab says it was cancelled and shows no result, and the
// work, when it ends, changes nothing. On another tab Escape leaves the
// comparison running.
func init() {
	keyChecks["Diff: Escape"] = func(t *testing.T, k *keysWindow) {
		var queued []func()
		k.v.link.SetAsync(func(f func()) { queued = append(queued, f) })
		run := func() {
			for len(queued) > 0 {
				f := queued[0]
				queued = queued[1:]
				f()
			}
		}
		b := filepath.Join(t.TempDir(), "b.bag")
		if err := os.WriteFile(b, assets.SampleBag, 0o644); err != nil {
			t.Fatal(err)
		}
		dv := k.v.views.diff
		k.v.link.Actions().CompareWith(b)
		if !dv.State().Running {
			t.Fatalf("the comparison does not run: %+v", dv.State())
		}
		// Escape on another tab: the comparison goes on.
		k.v.link.SelectTab("Topics")
		typeKey(k.w, fyne.KeyEscape)
		if !dv.State().Running {
			t.Fatalf("Escape on the Topics tab stopped the comparison: %+v", dv.State())
		}
		k.v.link.SelectTab(diffview.Title)
		typeKey(k.w, fyne.KeyEscape)
		run()
		if st := dv.State(); st.Running || !st.Cancelled || st.Result != nil {
			t.Fatalf("after Escape in the Diff tab: %+v", st)
		}
		// Compare runs it again to the end.
		dv.Run()
		run()
		if st := dv.State(); st.Cancelled || st.Result == nil || !st.Result.Equal() {
			t.Fatalf("compared again: %+v", st)
		}
	}
}

// TestLibraryCompareOpensDiffTab: the library's comparison offers "Open A
// with a Diff tab", which opens A in a window of its own showing its Diff
// tab against B, with the verdict the command gives.
func TestLibraryCompareOpensDiffTab(t *testing.T) {
	c := newTestController(t)
	old := library.Background
	library.Background = uitest.SyncRun
	t.Cleanup(func() { library.Background = old })
	dir := t.TempDir()
	robot := uitest.Testdata(t, "robot.bag")
	data, err := os.ReadFile(robot)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.bag"), filepath.Join(dir, "b.mcap")
	if err := os.WriteFile(a, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"convert", a, b}, &out, &errb); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, errb.String())
	}
	var lw fyne.Window
	v := c.showLibrary(dir, func(_ *library.View, w fyne.Window) { lw = w })
	if lw == nil || v.Rows().Len() != 2 {
		t.Fatalf("the library did not load its two recordings")
	}
	lw.Resize(fyne.NewSize(1024, 640))
	for i := range 2 {
		v.Tap(i, i == 1)
	}
	test.Tap(uitest.FindButton(t, lw.Content(), "Compare"))
	top := lw.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Compare showed no comparison")
	}
	open := uitest.FindButton(t, top, "Open A with a Diff tab")
	test.Tap(open)
	if len(c.views) != 1 {
		t.Fatalf("%d bag windows opened, want 1", len(c.views))
	}
	sel := v.Selected()
	for bw, bv := range c.views {
		if bv.src.path != sel[0] || bv.views == nil || bv.views.diff == nil {
			t.Fatalf("opened %q (views %v), want %s", bv.src.path, bv.views, sel[0])
		}
		if tab := appTabs(t, bw).Selected(); !strings.HasPrefix(tab.Text, diffview.Title) {
			t.Errorf("the %q tab shows, not Diff", tab.Text)
		}
		st := bv.views.diff.State()
		if st.B != sel[1] || st.Result == nil || st.Result.Equal() != diffEqual(t, sel[0], sel[1]) || !st.Result.Equal() {
			t.Errorf("the Diff tab shows %+v against %s", st, sel[1])
		}
	}
}

// TestDiffTabOffersAddedRecordings: in a window showing A with B added
// (File › Add Recording…), the Diff tab offers B, compares A alone (not
// the window's combination) with it as `bagscope diff A B` does, and a
// click on the differing topic moves the window's time to the message.
func TestDiffTabOffersAddedRecordings(t *testing.T) {
	robot := uitest.Testdata(t, "robot.bag")
	b := filepath.Join(t.TempDir(), "b.bag")
	out, err := exec.Command("/usr/bin/python3", filepath.Join(uitest.Root(t), "testdata", "oracle", "diff_variant.py"), robot, b, "drop", "/scan", "3").Output()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("skipping (CI never skips this): the reference rosbag: %v", err)
		}
		t.Fatal(err)
	}
	var did struct {
		Topic string `json:"topic"`
		NS    int64  `json:"ns"`
	}
	if err := json.Unmarshal(out, &did); err != nil {
		t.Fatal(err)
	}
	_, v := openWithAdded(t, robot, b)
	tab := v.views.diff
	others := tab.Others()
	if len(others) != 1 || others[0].Doc.Path != b {
		t.Fatalf("the Diff tab offers %+v; want B", others)
	}
	sel := uitest.ShownObjects(tab.Content())
	var pick *ttwidget.Select
	for _, o := range sel {
		if s, ok := o.(*ttwidget.Select); ok {
			pick = s
		}
	}
	if pick == nil || len(pick.Options) != 1 {
		t.Fatalf("no choice of the window's recordings: %v", pick)
	}
	v.link.Actions().CompareWith(b) // shows the tab
	if pick.Selected != pick.Options[0] {
		t.Errorf("comparing with B, the choice shows %q", pick.Selected)
	}
	pick.SetSelected(pick.Options[0])
	st := tab.State()
	if st.Result == nil || st.B != b {
		t.Fatalf("the Diff tab shows %+v", st)
	}
	if want := diffEqual(t, robot, b); st.Result.Equal() != want || want {
		t.Fatalf("equal %v; the command says %v", st.Result.Equal(), want)
	}
	for _, tp := range st.Result.Topics {
		if strings.HasPrefix(tp.Name, "B:") {
			t.Errorf("the window's combination was compared: topic %s", tp.Name)
		}
		if tp.Name == did.Topic && (tp.First == nil || tp.First.Kind != "dropped" || tp.First.Time.Nanos() != did.NS) {
			t.Errorf("%s: first difference %+v; the reference dropped the message at %d", tp.Name, tp.First, did.NS)
		}
	}
	if !tab.SelectTopic(did.Topic) {
		t.Fatalf("no row of %s", did.Topic)
	}
	if cur, ok := v.link.Cursor(); !ok || cur != did.NS {
		t.Errorf("the window's time is %d after the click; want the dropped message's %d", cur, did.NS)
	}
}
