package scene

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/tf"
)

// generated writes testdata/make_scene.py's recording (by the reference
// writer) and opens it with its message index.
func generated(t *testing.T) (*model.Document, *model.MessageIndex) {
	t.Helper()
	reftest.RequireRef(t)
	path := filepath.Join(t.TempDir(), "scene.bag")
	if out, err := exec.Command(reftest.Python, "testdata/make_scene.py", path).CombinedOutput(); err != nil {
		t.Fatalf("make_scene.py: %v\n%s", err, out)
	}
	return openIndexed(t, path)
}

func openIndexed(t *testing.T, path string) (*model.Document, *model.MessageIndex) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		reftest.SkipOrFail(t, err)
	}
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, x
}

func near3(a, b Vec, tol float64) bool {
	return math.Abs(a[0]-b[0]) <= tol && math.Abs(a[1]-b[1]) <= tol && math.Abs(a[2]-b[2]) <= tol
}

// apply maps p through t with tf's own quaternion composition: the
// translation of t composed with a pure translation to p.
func apply(t tf.Transform, p Vec) Vec {
	return Vec(tf.Mul(t, tf.Transform{Translation: p, Rotation: tf.Identity.Rotation}).Translation)
}

// TestGeneratedSceneByHand reads the generated scene (world -> a -> b -> c,
// quarter turns about z, x and y) and checks every drawn point against
// its place worked out by hand (make_scene.py's doc), in two fixed
// frames, and against tf's lookup of the same chain.
func TestGeneratedSceneByHand(t *testing.T) {
	d, x := generated(t)
	start := d.Summary.Start.Nanos()
	at := start + 550e6 // after the third message of each topic
	tree, err := tf.Read(context.Background(), d.Storage, bag.TimeFromNanos(at), tf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	topics := Topics(d)
	if len(topics) != 2 || topics[0].Name != "/cloud" || topics[0].Kind != KindCloud || topics[1].Kind != KindScan {
		t.Fatalf("drawable topics %+v", topics)
	}
	in := Input{Reader: model.NewMessageReader(d.Storage, nil), Index: x, Tree: tree}
	for _, tc := range []struct {
		fixed       string
		cloud, scan []Vec
	}{
		{"world", []Vec{{0, 4, 4}, {1, 4, 5}, {1, 5, 4}}, []Vec{{1, 3, 4}, {1, 2, 6}, {1, 2, 3.5}}},
		{"a", []Vec{{2, 1, 1}, {2, 0, 2}, {3, 0, 1}}, []Vec{{1, 0, 1}, {0, 0, 3}, {0, 0, 0.5}}},
		{"c", []Vec{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, []Vec{{0, 0, -1}, {0, 2, -2}, {0, -0.5, -2}}},
	} {
		t.Run(tc.fixed, func(t *testing.T) {
			s := Load(context.Background(), in, at, Options{Fixed: tc.fixed, Topics: topics, Axes: true, AxisSize: 1})
			if len(s.Clouds) != 2 {
				t.Fatalf("%d point sets, want 2; layers %+v", len(s.Clouds), s.Layers)
			}
			for i, want := range [][]Vec{tc.cloud, tc.scan} {
				p := s.Clouds[i]
				if p.Len() != len(want) {
					t.Fatalf("%s: %d points, want %d", p.Topic, p.Len(), len(want))
				}
				for k, w := range want {
					got := Vec{float64(p.X[k]), float64(p.Y[k]), float64(p.Z[k])}
					if !near3(got, w, 1e-5) {
						t.Errorf("%s point %d in %s: %v, by hand %v", p.Topic, k, tc.fixed, got, w)
					}
				}
			}
			// The cloud of 0.4 s (the third): intensity 30 for the third point.
			fs := s.Clouds[0].Source.Fields(2)
			if len(fs) != 5 || fs[0].Value != 2 || fs[4].Name != "intensity" || fs[4].Value != 90 {
				t.Errorf("picked fields %+v, want index 2 and intensity 90", fs)
			}
			// World, a, b, c and far: each frame connected to the fixed
			// one has three axes and a name.
			if len(s.Labels) != 5 {
				t.Errorf("%d frame labels, want 5: %+v", len(s.Labels), s.Labels)
			}
		})
	}
	// At 0.05 s far is still at world's origin: the two share a label.
	early, err := tf.Read(context.Background(), d.Storage, bag.TimeFromNanos(start+50e6), tf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := Load(context.Background(), Input{Reader: in.Reader, Index: x, Tree: early}, start+50e6, Options{Fixed: "world", Axes: true})
	var names []string
	for _, l := range s.Labels {
		names = append(names, l.Text)
	}
	if len(names) != 4 || !slices.Contains(names, "far, world") {
		t.Errorf("labels at 0.05 s %q, want far and world sharing one", names)
	}
	// The moving frame: 10 m/s along x, its transform at 0.5 s.
	p, err := FramePose(tree, "world", "far")
	if err != nil || !near3(p.T, Vec{5, 0, 0}, 1e-9) {
		t.Errorf("far at 0.55 s: %v %v, want x = 5", p.T, err)
	}
}

// TestChainsMatchLookup maps points through chains of three or more
// frames with FramePose's matrices and compares them with tf's lookup (its
// quaternions, compared with the reference reader in model/tf), on the
// generated scene and on testdata/tf.bag (map -> odom -> base_link -> arm
// -> tool, rotations in roll, pitch and yaw), at several times.
func TestChainsMatchLookup(t *testing.T) {
	gd, _ := generated(t)
	td, _ := openIndexed(t, "../../testdata/tf.bag")
	pts := []Vec{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-2.5, 3.25, 0.75}}
	for _, tc := range []struct {
		d     *model.Document
		pairs [][2]string
	}{
		{gd, [][2]string{{"world", "c"}, {"c", "world"}, {"far", "c"}, {"a", "c"}}},
		{td, [][2]string{{"map", "tool"}, {"tool", "map"}, {"odom", "cam_mount"}, {"laser", "tool"}}},
	} {
		start, end := model.TimeRange(tc.d.Storage)
		for _, f := range []float64{0.2, 0.5, 0.9} {
			at := bag.TimeFromNanos(start.Nanos() + int64(f*float64(end.Nanos()-start.Nanos())))
			tree, err := tf.Read(context.Background(), tc.d.Storage, at, tf.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, pr := range tc.pairs {
				want, err := tree.Lookup(pr[0], pr[1])
				if err != nil {
					t.Fatalf("lookup %v at %v: %v", pr, f, err)
				}
				pose, err := FramePose(tree, pr[0], pr[1])
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pts {
					if got, w := pose.Apply(p), apply(want, p); !near3(got, w, 1e-9) {
						t.Errorf("%s in %s at %.1f: %v maps to %v, tf's lookup %v", pr[1], pr[0], f, p, got, w)
					}
				}
			}
		}
	}
	if _, err := FramePose(nil, "map", "base_link"); err == nil {
		t.Error("no tree: want an error")
	}
}

func TestPoseCompose(t *testing.T) {
	h := math.Sqrt(0.5)
	yaw := PoseOf(tf.Transform{Translation: [3]float64{1, 2, 3}, Rotation: [4]float64{0, 0, h, h}})
	roll := PoseOf(tf.Transform{Translation: [3]float64{0, 0, 1}, Rotation: [4]float64{h, 0, 0, h}})
	for _, tc := range []struct {
		name string
		pose Pose
		in   Vec
		want Vec
	}{
		{"yaw", yaw, Vec{1, 0, 0}, Vec{1, 3, 3}},
		{"roll", roll, Vec{0, 1, 0}, Vec{0, 0, 2}},
		{"yaw after roll", yaw.Compose(roll), Vec{0, 1, 0}, Vec{1, 2, 5}},
		{"roll after yaw", roll.Compose(yaw), Vec{1, 0, 0}, Vec{1, -3, 4}},
		{"unnormalised quaternion", PoseOf(tf.Transform{Rotation: [4]float64{0, 0, 2, 2}}), Vec{1, 0, 0}, Vec{0, 1, 0}},
	} {
		if got := tc.pose.Apply(tc.in); !near3(got, tc.want, 1e-12) {
			t.Errorf("%s: %v -> %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}
