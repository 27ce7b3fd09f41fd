package ui

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// arrange sets up window k as a user would: followed topic, two plots of
// plots, the second panel's value range fixed, the plots zoomed to
// [1 s, 2 s] after the start, the Plots tab's fields divider dragged to
// divider, and the Message tab shown.
func arrange(t *testing.T, k *keysWindow, topic string, plots []string, divider float64) {
	t.Helper()
	dv := k.v.views
	dv.link.SetTopics([]string{topic})
	dv.plots.PlotPaths(plots)
	n := len(dv.plots.Series())
	dv.plots.SetYRange(n-1, plot.YRange{Fixed: true, Min: -0.5, Max: 2.25})
	start := dv.link.Doc().Summary.Start.Nanos()
	dv.plots.SetZoom(start+1e9, start+2e9)
	dragged := false
	for _, o := range uitest.ShownObjects(k.w.Content()) {
		if s, ok := o.(*container.Split); ok && s.Horizontal { // the fields list beside the plots
			s.SetOffset(divider)
			dragged = true
			break
		}
	}
	if !dragged {
		t.Fatal("no fields divider in the Plots tab")
	}
	dv.link.SelectTab("Message")
}

// sameLayout fails unless got arranges a window as want does (the x
// range to a microsecond: it is kept in seconds from the start).
func sameLayout(t *testing.T, what string, got, want winLayout) {
	t.Helper()
	if math.Abs(got.PlotX.Lo-want.PlotX.Lo) > 1e-6 || math.Abs(got.PlotX.Hi-want.PlotX.Hi) > 1e-6 || got.PlotX.Set != want.PlotX.Set {
		t.Errorf("%s: x range %+v, want %+v", what, got.PlotX, want.PlotX)
	}
	got.PlotX, want.PlotX = axisRange{}, axisRange{}
	var g, w bytes.Buffer
	writeLayout(&g, got)
	writeLayout(&w, want)
	if g.String() != w.String() {
		t.Errorf("%s: layout\n%s\nwant\n%s", what, g.String(), w.String())
	}
}

// TestLastLayoutPerKind arranges a window of each kind of recording,
// closes it, opens another recording of the same kind and finds it
// arranged the same: tab, followed topic, plots, their x and y ranges, the
// divider. A recording of another kind opens as it would have anyway.
func TestLastLayoutPerKind(t *testing.T) {
	shared := "../../shared/bags/"
	// Another recording of the same kind, with the same topics: copies.
	tmp := t.TempDir()
	cdr := shared + "ros2__rosbag2/rosbag2_tests/resources/mcap/cdr_test"
	mcapCopy, cdrCopy := filepath.Join(tmp, "copy.mcap"), filepath.Join(tmp, "cdr_copy")
	copyFile(t, "../testdata/ros2-mixed.mcap", mcapCopy)
	copyFile(t, cdr+"/metadata.yaml", cdrCopy+"/metadata.yaml")
	copyFile(t, cdr+"/cdr_test_0.mcap", cdrCopy+"/cdr_test_0.mcap")
	kinds := []struct {
		kind, first, second, topic string
		plots                      []string
	}{
		{"ros1", "../testdata/arm7.bag", "../testdata/robot.bag", "/joint_states",
			[]string{"/joint_states.position[0]", "/joint_states.velocity[0]"}},
		{"mcap", "../testdata/ros2-mixed.mcap", mcapCopy, "/imu",
			[]string{"/imu.linear_acceleration.x", "/odom.pose.pose.position.x,/odom.pose.pose.position.y"}},
		{"rosbag2-db3", shared + "facontidavide__PlotJuggler/datasamples/rosbag2_test",
			shared + "facontidavide__PlotJuggler/@7365c822/datasamples/rosbag2_test", "/imu",
			[]string{"/imu.angular_velocity.z", "/battery.voltage"}},
		{"rosbag2-mcap", cdr, cdrCopy, "/test_topic",
			[]string{"/array_topic.float64_values[*]", "/test_topic.int32_value"}},
	}
	c := newTestController(t)
	var kept []winLayout
	for i, k := range kinds {
		a := openKeysWindow(t, c, k.first)
		div := 0.25 + 0.03*float64(i)
		if got := layoutKind(a.v.views.link.Doc()); got != k.kind {
			t.Fatalf("%s is a %q, want %q", k.first, got, k.kind)
		}
		arrange(t, a, k.topic, k.plots, div)
		want := layoutOf(a.v.views)
		if len(want.Plots) != 2 || !want.PlotX.Set || want.PlotY[1] != (axisRange{Set: true, Lo: -0.5, Hi: 2.25}) || want.PlotY[0].Set ||
			want.Dividers["plots.fields"] != div || want.Tab != "Message" {
			t.Fatalf("%s: the arranged window's layout is %+v", k.kind, want)
		}
		c.closeWindow(a.w)
		kept = append(kept, want)

		b := openKeysWindow(t, c, k.second)
		sameLayout(t, k.kind+": "+k.second, layoutOf(b.v.views), want)
		c.closeWindow(b.w)
	}
	// Each kind kept its own: the ROS 1 bag's plots did not follow the
	// folders and files opened since.
	for i, k := range kinds {
		b := openKeysWindow(t, c, k.first)
		got := layoutOf(b.v.views)
		sameLayout(t, k.kind+" again", got, kept[i])
		c.closeWindow(b.w)
	}
	// The command line says what to show: no last layout then.
	c.tab = "Topics"
	b := openKeysWindow(t, c, kinds[0].second)
	if got := layoutOf(b.v.views); len(got.Plots) != 0 || got.Tab != "Topics" {
		t.Errorf("--tab Topics: the last layout was applied: %+v", got)
	}
}

// TestLayoutFileRanges reads and writes the plots' ranges ("auto" or
// [low, high]) and the dividers, and refuses a range upside down.
func TestLayoutFileRanges(t *testing.T) {
	in := `{"version": 1, "plots": [["/imu.linear_acceleration.x"], ["/odom.twist.twist.linear.x"]],
	  "plot_x": [0.5, 3], "plot_y": ["auto", [-1, 1.5]], "dividers": {"timeline": 0.25}}`
	lay, err := readLayout(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if lay.PlotX != (axisRange{true, 0.5, 3}) || !slices.Equal(lay.PlotY, []axisRange{{}, {true, -1, 1.5}}) || lay.Dividers["timeline"] != 0.25 {
		t.Fatalf("read %+v", lay)
	}
	var buf bytes.Buffer
	if err := writeLayout(&buf, lay); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"plot_x": [`, `"plot_y": [`, `"auto"`, `"timeline": 0.25`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("written layout lacks %s:\n%s", want, buf.String())
		}
	}
	if again, err := readLayout(&buf); err != nil || again.PlotX != lay.PlotX || !slices.Equal(again.PlotY, lay.PlotY) {
		t.Errorf("read back %+v, %v", again, err)
	}
	for _, bad := range []string{`{"version": 1, "plot_x": [3, 1]}`, `{"version": 1, "plot_y": ["wide"]}`, `{"version": 1, "plot_x": 7}`} {
		if _, err := readLayout(strings.NewReader(bad)); err == nil {
			t.Errorf("%s read as a layout", bad)
		}
	}
}

// copyFile copies file from to to, making to's folder.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestScreenshotShowsNoLocalFolder: --screenshot opens a path as given, so
// the README's pictures show "../testdata/arm7.bag", not the folder the
// repository sits in; the window otherwise shows the absolute path.
func TestScreenshotShowsNoLocalFolder(t *testing.T) {
	wd, _ := os.Getwd()
	for _, shot := range []bool{true, false} {
		c := newTestController(t)
		c.screenshotting = shot
		k := openKeysWindowSized(t, c, "../testdata/arm7.bag")
		// The header shows the document's path, the banners its
		// storage's.
		if shown := k.v.doc.Path + " " + k.v.doc.Summary.Path; shot && (k.v.src.path != "../testdata/arm7.bag" || strings.Contains(shown, wd)) {
			t.Errorf("--screenshot opened %q, showing %q", k.v.src.path, shown)
		}
		if !shot && k.v.src.path != filepath.Join(filepath.Dir(wd), "testdata/arm7.bag") {
			t.Errorf("the window opened %q, want the absolute path", k.v.src.path)
		}
	}
}
