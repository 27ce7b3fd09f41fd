package tfview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// tfCommand runs `bagscope tf ARGS...` and returns its stdout.
func tfCommand(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(append([]string{"tf"}, args...), &out, &errb); code > 1 {
		t.Fatalf("bagscope tf %v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// TestTFViewMatchesCommand moves the current time over recordings with
// transforms and compares the TF tab with `bagscope tf --at T --json`
// (itself checked against the reference rosbag and @mcap/core with the
// transforms composed as matrices): every frame's parent, kind and
// staleness, the findings, and the lookup's text with `tf --lookup`.
func TestTFViewMatchesCommand(t *testing.T) {
	const shared = "../../../shared/bags/"
	for _, tc := range []struct {
		path   string
		at     []float64 // seconds from the start
		target string
		source string
	}{
		{"../../testdata/tf.bag", []float64{0, 1, 4.2, 5.3, 6.5, 9.9}, "map", "tool"},
		{"../../testdata/ros2-mixed.mcap", []float64{0.5, 5}, "odom", "laser"},
		{shared + "cruise-automation__rosbag.js/fixtures/example.bag", []float64{1, 3}, "world", "turtle2"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal(err)
				}
				t.Skip(err)
			}
			test.NewTempApp(t)
			d := uitest.OpenDoc(t, tc.path)
			l := link.NewHub(d, uitest.SyncRun)
			t.Cleanup(l.Close)
			v := New(l)
			w := test.NewTempWindow(t, v.Content())
			w.Resize(fyne.NewSize(1200, 700))
			start := d.Summary.Start.Nanos()
			for _, at := range tc.at {
				l.SetCursor(start + int64(at*1e9))
				tr := v.Tree()
				if tr == nil || tr.At.Nanos() != start+int64(at*1e9) {
					t.Fatalf("at %gs: the tab shows the tree at %v", at, tr)
				}
				var want struct {
					Frames []struct {
						Frame, Parent string
						Root, Static  bool
						Stale         bool
					}
					Findings []struct{ Kind, Message string }
				}
				atArg := fmt.Sprintf("@%d.%09d", (start+int64(at*1e9))/1e9, (start+int64(at*1e9))%1e9)
				if err := json.Unmarshal([]byte(tfCommand(t, tc.path, "--at", atArg, "--json")), &want); err != nil {
					t.Fatal(err)
				}
				if len(want.Frames) != len(tr.Frames) {
					t.Errorf("at %gs: %d frames, the command %d", at, len(tr.Frames), len(want.Frames))
				}
				for _, wf := range want.Frames {
					f := tr.Frames[wf.Frame]
					if f == nil || f.Parent != wf.Parent || f.Root != wf.Root || f.Static != wf.Static || f.Stale != wf.Stale {
						t.Errorf("at %gs: frame %s: %+v, the command %+v", at, wf.Frame, f, wf)
						continue
					}
					if row := v.rows[wf.Frame]; !strings.HasPrefix(row, wf.Frame+"   ") || wf.Stale != strings.Contains(row, "STALE") {
						t.Errorf("at %gs: the row of %s is %q", at, wf.Frame, row)
					}
				}
				for _, f := range want.Findings {
					if !strings.Contains(v.issues.Text, f.Kind+": "+f.Message) {
						t.Errorf("at %gs: the problems lack %s: %s:\n%s", at, f.Kind, f.Message, v.issues.Text)
					}
				}
				if tr.Frames[tc.target] == nil || tr.Frames[tc.source] == nil {
					continue // not yet published at this time
				}
				v.target.SetSelected(tc.target)
				v.source.SetSelected(tc.source)
				echo := strings.TrimSuffix(tfCommand(t, tc.path, "--at", atArg, "--lookup", tc.target, tc.source), "\n")
				if v.echo.Text != echo {
					t.Errorf("at %gs: the lookup shows\n%s\nthe command prints\n%s", at, v.echo.Text, echo)
				}
			}
			if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
				if err := widgets.WritePNG(filepath.Join(dir, "tf-"+filepath.Base(tc.path)+".png"), uitest.Capture(w.Canvas())); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestTFTab checks the tab shows only for recordings with transforms.
func TestTFTab(t *testing.T) {
	test.NewTempApp(t)
	for path, want := range map[string]bool{"../../testdata/tf.bag": true, "../../testdata/single-message.bag": false} {
		l := link.NewHub(uitest.OpenDoc(t, path), uitest.SyncRun)
		if got := Tab(l) != nil; got != want {
			t.Errorf("%s: a TF tab %v, want %v", path, got, want)
		}
		l.Close()
	}
}

// TestTFReadsOnlyWhenShown: a hidden tab reads nothing as the time moves,
// and reads the tree at the current time once shown again.
func TestTFReadsOnlyWhenShown(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, "../../testdata/tf.bag")
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l)
	test.NewTempWindow(t, v.Content())
	start := d.Summary.Start.Nanos()
	l.SetCursor(start + 2e9)
	if tr := v.Tree(); tr == nil || tr.At.Nanos() != start+2e9 {
		t.Fatalf("shown: the tree is at %v", tr)
	}
	reads := 0
	v.OnRead = func() { reads++ }
	v.Content().Hide()
	for k := int64(3); k <= 9; k++ {
		l.SetCursor(start + k*1e9)
	}
	if reads != 0 || v.Tree().At.Nanos() != start+2e9 {
		t.Fatalf("hidden: %d reads, the tree at %v", reads, v.Tree().At)
	}
	v.Content().Show()
	l.CatchUp(false) // as the window does when a tab is selected
	if reads != 1 || v.Tree().At.Nanos() != start+9e9 {
		t.Errorf("shown again: %d reads, the tree at %v, want one read at +9 s", reads, v.Tree().At)
	}
}

// TestTFHistoryStopAndRetry shows the transform history's read in the
// tab (its progress, then Stop pressed while it reads), the stopped state
// (no tree, "TF history stopped" and Retry), and Retry reading it again to
// the tree at the current time.
func TestTFHistoryStopAndRetry(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, "../../testdata/tf.bag") // 903 transform messages
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1024, 640))
	var seen []string
	var last, total int64
	stop := true
	l.OnTFHistoryProgress(func(done, tot int64) {
		seen = append(seen, v.job.Text())
		last, total = done, tot
		if !v.job.Running() || !l.TFHistoryReading() {
			t.Errorf("at %d of %d: the line shows no read running", done, tot)
		}
		if stop {
			stop = false
			if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
				if err := widgets.WritePNG(filepath.Join(dir, "tf-history-reading.png"), uitest.Capture(w.Canvas())); err != nil {
					t.Fatal(err)
				}
			}
			v.job.TapStop()
		}
	})
	start := d.Summary.Start.Nanos()
	l.SetCursor(start + 6e9)
	if len(seen) == 0 || seen[0] != link.TFHistoryProgressText(0, 903) || total != 903 {
		t.Fatalf("progress %q (%d of %d), want %q first", seen, last, total, link.TFHistoryProgressText(0, 903))
	}
	if v.Tree() != nil || v.title.Text != "TF history stopped" || v.job.Text() != link.TFHistoryStoppedText || v.job.Running() || !v.job.Content().Visible() || l.TFHistoryReading() {
		t.Fatalf("after Stop: tree %v, title %q, line %q (running %v, shown %v), reading %v", v.Tree(), v.title.Text, v.job.Text(), v.job.Running(), v.job.Content().Visible(), l.TFHistoryReading())
	}
	if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
		if err := widgets.WritePNG(filepath.Join(dir, "tf-history-stopped.png"), uitest.Capture(w.Canvas())); err != nil {
			t.Fatal(err)
		}
	}
	seen = nil
	v.job.TapRetry()
	if tr := v.Tree(); tr == nil || tr.At.Nanos() != start+6e9 {
		t.Fatalf("after Retry: the tree %v, want at +6 s", tr)
	}
	if last != 903 || total != 903 || len(seen) < 2 || seen[len(seen)-1] != link.TFHistoryProgressText(903, 903) {
		t.Errorf("after Retry: progress %q, the last at %d of %d", seen, last, total)
	}
	if v.job.Content().Visible() || strings.HasPrefix(v.title.Text, "TF history") {
		t.Errorf("after Retry: the line %q still shows, title %q", v.job.Text(), v.title.Text)
	}
}
