package scene

import (
	"context"
	"image/color"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/tf"
)

// navScene loads one topic of testdata/make_nav.py's recording at t
// seconds from its start, in world.
func navScene(t *testing.T, d *model.Document, x *model.MessageIndex, topic string, sec float64) (*Scene, Layer) {
	t.Helper()
	at := d.Summary.Start.Nanos() + int64(sec*1e9)
	tree, err := tf.Read(context.Background(), d.Storage, bag.TimeFromNanos(at), tf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tp []Topic
	for _, tt := range Topics(d) {
		if tt.Name == topic {
			tp = append(tp, tt)
		}
	}
	if len(tp) != 1 {
		t.Fatalf("%s is not a drawable topic: %+v", topic, Topics(d))
	}
	s := Load(context.Background(), Input{Reader: model.NewMessageReader(d.Storage, nil), Index: x, Tree: tree}, at, Options{Fixed: "world", Topics: tp})
	return s, s.Layers[0]
}

func hasLine(s *Scene, a, b Vec) bool {
	for _, l := range s.Lines {
		if near3(l.A, a, 1e-9) && near3(l.B, b, 1e-9) {
			return true
		}
	}
	return false
}

// TestNavAndMarkers reads make_nav.py's displays and markers (a map
// frame turned a quarter and moved 10 m in world: map's (x, y, z) is
// world's (10 - y, x, z)) and checks what each draws where, by hand:
// the path's and the odometry trail's lines, the pose's arrow, the grid's
// cells (rendered and read back), and the markers live at each time as
// rviz keeps them (replaced by namespace and id, DELETE, DELETEALL).
func TestNavAndMarkers(t *testing.T) {
	reftest.RequireRef(t)
	path := filepath.Join(t.TempDir(), "nav.bag")
	if out, err := exec.Command(reftest.Python, "testdata/make_nav.py", path).CombinedOutput(); err != nil {
		t.Fatalf("make_nav.py: %v\n%s", err, out)
	}
	d, x := openIndexed(t, path)
	w := func(x, y, z float64) Vec { return Vec{10 - y, x, z} }

	s, ly := navScene(t, d, x, "/path", 0.3)
	if ly.Count != 3 || len(s.Lines) != 2 || !hasLine(s, w(0, 0, 0), w(1, 0, 0)) || !hasLine(s, w(1, 0, 0), w(1, 1, 0)) || ly.Frame != "map" {
		t.Errorf("path: %+v, lines %+v", ly, s.Lines)
	}

	s, ly = navScene(t, d, x, "/pose", 0.3)
	if ly.Count != 1 || len(s.Lines) != 1 || !near3(s.Lines[0].A, w(2, 0, 0), 1e-9) || len(s.Tris) != 2 || !near3(s.Tris[0].C, w(3, 0, 0), 1e-9) {
		t.Errorf("pose: %+v, lines %+v, tris %+v", ly, s.Lines, s.Tris)
	}

	s, ly = navScene(t, d, x, "/amcl", 0.3)
	if ly.Count != 1 || len(s.Lines) != 1 || !near3(s.Lines[0].A, w(0, 2, 0), 1e-9) || !near3(s.Tris[0].C, w(1, 2, 0), 1e-9) {
		t.Errorf("pose with covariance: %+v, lines %+v, tris %+v", ly, s.Lines, s.Tris)
	}

	// The odometry at 0.3 s: its trail through x = 3, 2, 1, 0 and an
	// arrow from its latest pose.
	s, ly = navScene(t, d, x, "/odom", 0.3)
	if ly.Count != 4 || !hasLine(s, w(3, 0, 0), w(2, 0, 0)) || !hasLine(s, w(1, 0, 0), w(0, 0, 0)) || hasLine(s, w(4, 0, 0), w(3, 0, 0)) {
		t.Errorf("odometry trail: %+v, lines %+v", ly, s.Lines)
	}
	if len(s.Tris) != 2 || !near3(s.Tris[0].C, w(4, 0, 0), 1e-9) {
		t.Errorf("odometry arrow: %+v", s.Tris)
	}

	// The grid: rendered from above, each cell's middle shows its
	// occupancy (0 light, 100 black, 50 between, -1 not drawn).
	s, ly = navScene(t, d, x, "/map", 0.3)
	if len(s.Grids) != 1 || ly.Count != 8 {
		t.Fatalf("grid: %+v", ly)
	}
	c := DefaultCamera()
	c.Top()
	c.Target, c.Dist = w(1, 0.5, 0), 4
	var r Renderer
	img := r.Render(s, &c, 400, 300)
	for _, tc := range []struct {
		cx, cy int
		want   uint8
	}{{0, 0, 230}, {1, 0, 0}, {3, 0, 115}, {0, 1, 230}, {3, 1, 0}, {2, 0, 48}} {
		px, py, _, _ := c.Project(w(0.5*float64(tc.cx)+0.25, 0.5*float64(tc.cy)+0.25, 0), 400, 300)
		if got := img.RGBAAt(int(px), int(py)); got != (color.RGBA{tc.want, tc.want, tc.want, 255}) {
			t.Errorf("grid cell (%d, %d) drawn %v, want grey %d", tc.cx, tc.cy, got, tc.want)
		}
	}

	// Markers: at 0.3 s the cube, the text and the arrow (the sphere was
	// deleted); at 0.5 s only the line strip (after a DELETEALL).
	s, ly = navScene(t, d, x, "/markers", 0.3)
	if ly.Count != 3 || len(s.Tris) != 12+2 || len(s.Labels) != 1 || s.Labels[0].Text != "hello" || !near3(s.Labels[0].At, w(0, 0, 2), 1e-9) {
		t.Errorf("markers at 0.3 s: %+v, %d triangles, labels %+v", ly, len(s.Tris), s.Labels)
	}
	if lo, hi, _ := s.Bounds(); !near3(lo, Vec{9.5, 0, -0.5}, 1e-9) || !near3(hi, Vec{10.5, 1.5, 0.5}, 1e-9) { // the labels are not in the box
		t.Errorf("markers at 0.3 s span %v..%v", lo, hi)
	}
	s, ly = navScene(t, d, x, "/markers", 0.5)
	if ly.Count != 1 || len(s.Tris) != 0 || len(s.Lines) != 2 || !hasLine(s, w(0, 0, 0), w(0, 1, 0)) || !hasLine(s, w(0, 1, 0), w(0, 2, 0)) {
		t.Errorf("markers at 0.5 s: %+v, lines %+v", ly, s.Lines)
	}
	// Single markers: m/1 replaced by its later self; m/3 gone when its
	// lifetime ends.
	for _, tc := range []struct {
		sec    float64
		n      int
		lo, hi Vec
	}{
		{0.15, 2, Vec{8.5, -0.5, -0.5}, Vec{10.5, 0.5, 0.5}},
		// The sphere m/3 at map (0, -1, 0), world (11, 0, 0), lives 0.1 s.
		{0.25, 3, Vec{8.5, -0.5, -0.5}, Vec{11.5, 5.5, 0.5}},
		{0.35, 2, Vec{8.5, -0.5, -0.5}, Vec{10.5, 5.5, 0.5}},
	} {
		s, ly = navScene(t, d, x, "/marker", tc.sec)
		lo, hi, _ := s.Bounds()
		if ly.Count != tc.n || !near3(lo, tc.lo, 1e-9) || !near3(hi, tc.hi, 1e-9) {
			t.Errorf("marker at %gs: %+v, span %v..%v, want %v..%v", tc.sec, ly, lo, hi, tc.lo, tc.hi)
		}
	}
}
