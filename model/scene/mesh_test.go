package scene

import (
	"context"
	"encoding/binary"
	"image/color"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// meshMarkers is a MarkerArray the reference writer writes in map at
// 1700000000: one marker per argument "type uri x y z sx sy sz r g b a".
const meshMarkers = `
import sys, rosbag, rospy
from visualization_msgs.msg import Marker, MarkerArray
out, specs = sys.argv[1], sys.argv[2:]
arr = MarkerArray()
for i, spec in enumerate(specs):
    f = spec.split(' ')
    m = Marker()
    m.header.stamp, m.header.frame_id = rospy.Time(1700000000, 0), 'map'
    m.ns, m.id, m.type, m.action = 'm', i, int(f[0]), Marker.ADD
    m.mesh_resource = f[1] if f[1] != '-' else ''
    m.pose.position.x, m.pose.position.y, m.pose.position.z = [float(v) for v in f[2:5]]
    m.pose.orientation.w = 1.0
    m.scale.x, m.scale.y, m.scale.z = [float(v) for v in f[5:8]]
    m.color.r, m.color.g, m.color.b, m.color.a = [float(v) for v in f[8:12]]
    arr.markers.append(m)
with rosbag.Bag(out, 'w') as b:
    b.write('/markers', arr, rospy.Time(1700000000, 0))
`

// A triangle and a quad (two triangles) in the meshes' own frames.
var (
	meshTri  = [3]Vec{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	meshQuad = [4]Vec{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
)

func writeBinarySTL(t *testing.T, path string, tris ...[3]Vec) {
	t.Helper()
	b := make([]byte, 80, 84+50*len(tris))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(tris)))
	for _, tr := range tris {
		b = append(b, make([]byte, 12)...) // the normal, unused
		for _, v := range tr {
			for _, c := range v {
				b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(c)))
			}
		}
		b = append(b, 0, 0)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Mesh markers: a binary STL by file://, an ASCII STL and an OBJ by
// package:// (through ROS_PACKAGE_PATH) are drawn as their triangles,
// scaled and posed; a mesh that cannot be found as its scaled box outlined
// (12 edges) and labelled; color.a is kept on surfaces (a translucent
// mesh and cube). The markers are written by the reference writer.
func TestMeshMarkers(t *testing.T) {
	reftest.RequireRef(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	meshes := filepath.Join(ws, "my_robot", "meshes")
	if err := os.MkdirAll(meshes, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROS_PACKAGE_PATH", filepath.Join(dir, "elsewhere")+":"+ws)
	writeBinarySTL(t, filepath.Join(dir, "bin.stl"), meshTri)
	ascii := "solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n"
	obj := "# a quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\n"
	for name, text := range map[string]string{"part.stl": ascii, "part.obj": obj} {
		if err := os.WriteFile(filepath.Join(meshes, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "mesh.bag")
	specs := []string{
		"10 file://" + filepath.Join(dir, "bin.stl") + " 1 0 0 2 2 2 1 0 0 1", // red, scaled 2
		"10 package://my_robot/meshes/part.stl 0 1 0 1 1 1 0 1 0 0.5",         // green, half transparent
		"10 package://my_robot/meshes/part.obj 0 0 1 1 3 1 0 0 1 1",           // blue, y scaled 3
		"10 package://nope/meshes/x.stl 5 5 5 1 2 3 1 1 0 1",                  // yellow, not found
		"1 - -3 0 0 1 1 1 1 0 1 0.25",                                         // a magenta cube, a quarter opaque
	}
	if out, err := exec.Command(reftest.Python, append([]string{"-c", meshMarkers, path}, specs...)...).CombinedOutput(); err != nil {
		t.Fatalf("reference writer: %v\n%s", err, out)
	}
	d, x := openIndexed(t, path)
	s := Load(context.Background(), Input{Reader: model.NewMessageReader(d.Storage, nil), Index: x}, d.Summary.Start.Nanos(),
		Options{Fixed: "map", Topics: Topics(d)})
	ly := s.Layers[0]
	if ly.Problem != "" || ly.Count != 5 || ly.Frame != "map" {
		t.Fatalf("layer %+v", ly)
	}
	// Without transforms, in no frame (as the 3D view asks for a fixed
	// frame to pick): nothing drawn, and the markers' frame is named.
	if ly := Load(context.Background(), Input{Reader: model.NewMessageReader(d.Storage, nil), Index: x}, d.Summary.Start.Nanos(),
		Options{Fixed: "\x00", Topics: Topics(d)}).Layers[0]; ly.Count != 0 || ly.Frame != "map" {
		t.Errorf("in no frame: %+v", ly)
	}
	byColor := map[color.NRGBA][]Tri{}
	for _, tr := range s.Tris {
		byColor[tr.Color] = append(byColor[tr.Color], tr)
	}
	scaled := func(v, sc, at Vec) Vec { return Vec{v[0]*sc[0] + at[0], v[1]*sc[1] + at[1], v[2]*sc[2] + at[2]} }
	check := func(what string, c color.NRGBA, want [][3]Vec) {
		t.Helper()
		got := byColor[c]
		if len(got) != len(want) {
			t.Fatalf("%s: %d triangles in %v, want %d (colours %v)", what, len(got), c, len(want), len(byColor))
		}
		for i, w := range want {
			if !near3(got[i].A, w[0], 1e-6) || !near3(got[i].B, w[1], 1e-6) || !near3(got[i].C, w[2], 1e-6) {
				t.Errorf("%s triangle %d: %v %v %v, want %v", what, i, got[i].A, got[i].B, got[i].C, w)
			}
		}
	}
	tri := func(sc, at Vec) [3]Vec {
		return [3]Vec{scaled(meshTri[0], sc, at), scaled(meshTri[1], sc, at), scaled(meshTri[2], sc, at)}
	}
	check("binary STL", color.NRGBA{255, 0, 0, 255}, [][3]Vec{tri(Vec{2, 2, 2}, Vec{1, 0, 0})})
	check("ASCII STL", color.NRGBA{0, 255, 0, 128}, [][3]Vec{tri(Vec{1, 1, 1}, Vec{0, 1, 0})})
	q := func(i int) Vec { return scaled(meshQuad[i], Vec{1, 3, 1}, Vec{0, 0, 1}) }
	check("OBJ", color.NRGBA{0, 0, 255, 255}, [][3]Vec{{q(0), q(1), q(2)}, {q(0), q(2), q(3)}})
	if cube := byColor[color.NRGBA{255, 0, 255, 64}]; len(cube) != 12 {
		t.Errorf("the translucent cube: %d triangles in its colour with alpha 64", len(cube))
	}
	// The mesh not found: its box (1 × 2 × 3 about (5, 5, 5)) outlined.
	if len(s.Labels) != 1 || s.Labels[0].Text != "mesh not found: package://nope/meshes/x.stl" || !near3(s.Labels[0].At, Vec{5, 5, 5}, 1e-9) {
		t.Errorf("labels %+v", s.Labels)
	}
	if len(s.Lines) != 12 || !hasLine(s, Vec{4.5, 4, 3.5}, Vec{5.5, 4, 3.5}) || !hasLine(s, Vec{5.5, 6, 3.5}, Vec{5.5, 6, 6.5}) {
		t.Errorf("outline %+v", s.Lines)
	}
}

// A translucent surface is blended over what is behind it (standard
// alpha compositing), and does not hide what is behind it from later
// drawing: a green square at half alpha above a red one, seen from above.
func TestRenderBlendsTranslucent(t *testing.T) {
	sq := func(z float64, c color.NRGBA) []Tri {
		a, b, cc, d := Vec{-1, -1, z}, Vec{1, -1, z}, Vec{1, 1, z}, Vec{-1, 1, z}
		return []Tri{{A: a, B: b, C: cc, Color: c}, {A: a, B: cc, C: d, Color: c}}
	}
	green := color.NRGBA{0, 255, 0, 128}
	s := &Scene{Tris: append(sq(1, green), sq(0, color.NRGBA{255, 0, 0, 255})...)}
	c := DefaultCamera()
	c.Top()
	c.Dist = 5
	var r Renderer
	img := r.Render(s, &c, 100, 100)
	got := img.RGBAAt(50, 50)
	a := 128.0 / 255
	want := [3]float64{255 * (1 - a), 255 * a, 0}
	for i, g := range []uint8{got.R, got.G, got.B} {
		if math.Abs(float64(g)-want[i]) > 1 {
			t.Fatalf("blended pixel %v, want %v", got, want)
		}
	}
	// Opaque, the green one hides the red one.
	s = &Scene{Tris: append(sq(1, color.NRGBA{0, 255, 0, 255}), sq(0, color.NRGBA{255, 0, 0, 255})...)}
	if got := r.Render(s, &c, 100, 100).RGBAAt(50, 50); got != (color.RGBA{0, 255, 0, 255}) {
		t.Fatalf("opaque pixel %v", got)
	}
}
