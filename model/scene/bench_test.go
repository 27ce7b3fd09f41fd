package scene

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/tf"
)

// lidarScene reads the first cloud of testdata/make_lidar.py's drive (a
// 64-ring lidar's 300,000 points in a room, written by the reference
// writer) in the map frame, through map -> odom -> base_link -> lidar.
func lidarScene(b *testing.B) (*Scene, Input, int64, Options) {
	b.Helper()
	reftest.RequireRef(b)
	path := filepath.Join(b.TempDir(), "lidar.bag")
	if out, err := exec.Command(reftest.Python, "testdata/make_lidar.py", path, "300000").CombinedOutput(); err != nil {
		b.Fatalf("make_lidar.py: %v\n%s", err, out)
	}
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		b.Fatal(err)
	}
	at := d.Summary.Start.Nanos() + 100e6
	tree, err := tf.Read(context.Background(), d.Storage, bag.TimeFromNanos(at), tf.Options{})
	if err != nil {
		b.Fatal(err)
	}
	in := Input{Reader: model.NewMessageReader(d.Storage, nil), Index: x, Tree: tree}
	opt := Options{Fixed: "map", Topics: Topics(d), Axes: true}
	s := Load(context.Background(), in, at, opt)
	if s.Count() < 200000 {
		b.Fatalf("%d points drawn: %+v", s.Count(), s.Layers)
	}
	return s, in, at, opt
}

// BenchmarkRender300k draws the lidar's 300,000 points (about 250,000
// hit something), the scan and the frames at 1280×800 with the ground
// grid, orbiting a little each frame as a drag does: frames/s is what the
// 3D tab can show while the user drags (Fyne's upload of the image comes
// on top).
func BenchmarkRender300k(b *testing.B) {
	s, _, _, _ := lidarScene(b)
	c := DefaultCamera()
	lo, hi, _ := s.Bounds()
	c.Fit(lo, hi, 1280, 800)
	r := Renderer{Grid: 10}
	r.Render(s, &c, 1280, 800)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c.Orbit(3, 0)
		r.Render(s, &c, 1280, 800)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(float64(s.Count()), "points")
}

// BenchmarkLoad300k reads the scene at a time: the cloud's message read,
// decoded, transformed and coloured, the scan, the frames' axes: what a
// move of the current time costs the 3D tab (the transform tree's read
// comes on top). B/op is the scene's memory (with the message's bytes,
// kept for picking).
func BenchmarkLoad300k(b *testing.B) {
	_, in, at, opt := lidarScene(b)
	var keep *Scene
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		keep = Load(context.Background(), in, at, opt)
	}
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
	runtime.KeepAlive(keep)
}
