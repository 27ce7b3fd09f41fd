package sceneview

import (
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/scene"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// generated writes model/scene's generated scene (make_scene.py: frames
// world -> a -> b -> c and a moving frame far, a cloud in c and a scan in
// b) and opens its 3D view in a window.
func generated(t *testing.T) (*View, *link.Hub, fyne.Window) {
	t.Helper()
	// The reference writer (Debian's python3-rosbag) writes it.
	path := filepath.Join(t.TempDir(), "scene.bag")
	if out, err := exec.Command("/usr/bin/python3", "../../model/scene/testdata/make_scene.py", path).CombinedOutput(); err != nil {
		t.Fatalf("make_scene.py: %v\n%s", err, out)
	}
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, path)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1000, 700))
	return v, l, w
}

// TestSceneFollowsTime moves the current time and checks the scene shown:
// the fixed frame picked (world: the generated tree has no map or odom),
// the cloud's and scan's points where model/scene's test works them out
// by hand, the moving frame's axes where it is at the time, and the tab
// offered only for recordings with something to draw.
func TestSceneFollowsTime(t *testing.T) {
	v, l, _ := generated(t)
	start := l.Doc().Summary.Start.Nanos()
	for i, at := range []float64{0.25, 0.75} {
		l.SetCursor(start + int64(at*1e9))
		if v.TreeReads != i+1 {
			t.Errorf("at %gs: %d reads of the transforms, want %d", at, v.TreeReads, i+1)
		}
		s := v.Scene()
		if s == nil || s.At != start+int64(at*1e9) {
			t.Fatalf("at %gs: the scene shown is %+v", at, s)
		}
		if s.Frame != "world" || v.fixedSel.Selected != "world" {
			t.Errorf("fixed frame %q (select %q), want world", s.Frame, v.fixedSel.Selected)
		}
		if len(s.Clouds) != 2 || s.Clouds[0].Len() != 3 || s.Clouds[1].Len() != 3 {
			t.Fatalf("at %gs: clouds %+v", at, s.Layers)
		}
		if p := s.Clouds[0]; math.Abs(float64(p.X[0])) > 1e-5 || math.Abs(float64(p.Y[0])-4) > 1e-5 || math.Abs(float64(p.Z[0])-4) > 1e-5 {
			t.Errorf("the cloud's first point at (%g, %g, %g), want (0, 4, 4)", p.X[0], p.Y[0], p.Z[0])
		}
		// far moves at 10 m/s: its label is at its latest transform.
		want := math.Floor(at*10) / 10 * 10
		found := false
		for _, lb := range s.Labels {
			if lb.Text == "far" {
				found = true
				if math.Abs(lb.At[0]-want) > 1e-9 {
					t.Errorf("at %gs: far drawn at x %g, want %g", at, lb.At[0], want)
				}
			}
		}
		if !found {
			t.Errorf("at %gs: no axes for far", at)
		}
	}
	// The title gives the colour field's span: at 0.75 s the cloud of
	// 0.6 s, the fourth, intensities 40, 80, 120 (the NaN point's 160 is
	// not drawn, so not in the span).
	if got := v.title.Text; !strings.Contains(got, "/cloud by intensity, blue 40 to red 120") {
		t.Errorf("title %q lacks the colour scale", got)
	}
	// Another fixed frame places the same points elsewhere, without
	// reading the transforms again (the time did not move).
	reads := v.TreeReads
	v.fixedSel.SetSelected("a")
	if v.TreeReads != reads {
		t.Errorf("a change of fixed frame read the transforms again (%d reads, then %d)", reads, v.TreeReads)
	}
	if s := v.Scene(); s.Frame != "a" || math.Abs(float64(s.Clouds[0].X[0])-2) > 1e-5 || math.Abs(float64(s.Clouds[0].Y[0])-1) > 1e-5 || math.Abs(float64(s.Clouds[0].Z[0])-1) > 1e-5 {
		t.Errorf("in a: frame %s, first point (%g, %g, %g), want (2, 1, 1)", s.Frame, s.Clouds[0].X[0], s.Clouds[0].Y[0], s.Clouds[0].Z[0])
	}
	// Unticking a topic leaves it out; decimation reads every 2nd point.
	v.decSel.SetSelected(decimations[1])
	if s := v.Scene(); s.Clouds[0].Len() != 2 || s.Layers[0].Info.Stride != 2 {
		t.Errorf("every 2nd point: %d points, stride %d", s.Clouds[0].Len(), s.Layers[0].Info.Stride)
	}
	v.shown["/scan"] = false
	v.reload()
	if s := v.Scene(); len(s.Clouds) != 1 || s.Clouds[0].Topic != "/cloud" {
		t.Errorf("with /scan unticked: %+v", s.Layers)
	}

	test.NewTempApp(t)
	if it := Tab(link.NewHub(uitest.OpenDoc(t, "../../testdata/arm7.bag"), uitest.SyncRun)); it != nil {
		t.Error("a recording without clouds, scans or transforms has a 3D tab")
	}
}

// TestMouseAndViews drags, scrolls and taps the view's canvas and its view
// buttons, and checks the camera each time: a drag orbits by the drag's
// length, a right-drag pans, the wheel zooms, Top and Side look down and
// along y, following a frame puts the camera on it, and a click on a point
// shows its fields.
func TestMouseAndViews(t *testing.T) {
	v, l, w := generated(t)
	start := l.Doc().Summary.Start.Nanos()
	l.SetCursor(start + 550e6)
	c := v.canvas
	mid := uitest.Centre(c)

	before := c.Camera()
	test.Drag(w.Canvas(), mid, 50, 0)
	after := c.Camera()
	if math.Abs(math.Remainder(before.Yaw-after.Yaw-50*scene.OrbitRate, 2*math.Pi)) > 1e-6 || after.Target != before.Target {
		t.Errorf("a 50-unit drag turned the yaw from %g to %g (target %v -> %v)", before.Yaw, after.Yaw, before.Target, after.Target)
	}

	before = after
	c.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonSecondary})
	c.Dragged(&fyne.DragEvent{Dragged: fyne.Delta{DX: 30, DY: 0}})
	c.DragEnd()
	after = c.Camera()
	if after.Target == before.Target || after.Yaw != before.Yaw {
		t.Errorf("a right-drag: target %v -> %v, yaw %g -> %g; want a pan", before.Target, after.Target, before.Yaw, after.Yaw)
	}

	before = after
	test.Scroll(w.Canvas(), mid, 0, wheelNotch)
	if after = c.Camera(); math.Abs(after.Dist-before.Dist/wheelStep) > 1e-9 {
		t.Errorf("a wheel notch up: distance %g -> %g, want %g", before.Dist, after.Dist, before.Dist/wheelStep)
	}

	test.Tap(uitest.FindButton(t, v.content, "Top"))
	if cam := c.Camera(); cam.Pitch != scene.MaxPitch {
		t.Errorf("Top: pitch %g", cam.Pitch)
	}
	test.Tap(uitest.FindButton(t, v.content, "Side"))
	if cam := c.Camera(); cam.Pitch != 0 || math.Abs(cam.Yaw+math.Pi/2) > 1e-12 {
		t.Errorf("Side: pitch %g yaw %g", cam.Pitch, cam.Yaw)
	}

	v.followSel.SetSelected("far")
	if cam := c.Camera(); cam.Target != (scene.Vec{5, 0, 0}) {
		t.Errorf("following far at 0.55 s: target %v, want (5, 0, 0)", cam.Target)
	}
	l.SetCursor(start + 850e6)
	if cam := c.Camera(); cam.Target != (scene.Vec{8, 0, 0}) {
		t.Errorf("following far at 0.85 s: target %v, want (8, 0, 0)", cam.Target)
	}
	v.followSel.SetSelected(noFollow)

	// Click the cloud's third point (intensity 30 × 5 at 0.85 s: the
	// fifth message).
	p := v.Scene().Clouds[0]
	cam := c.Camera()
	size := c.Size()
	x, y, _, ok := cam.Project(scene.Vec{float64(p.X[2]), float64(p.Y[2]), float64(p.Z[2])}, int(size.Width), int(size.Height))
	if !ok {
		t.Fatal("the point is behind the camera")
	}
	test.TapAt(c, fyne.NewPos(float32(x), float32(y)))
	if got := v.readout.Text; !strings.HasPrefix(got, "/cloud") || !strings.Contains(got, "intensity 150") {
		t.Errorf("picked: %q, want /cloud's point with intensity 150", got)
	}
}
