package tf

import (
	"context"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// TestFindingsOfGeneratedTree reads testdata/tf.bag (made by
// testdata/make_tf.py, whose doc says what each frame does) at several
// times and checks each problem is found when, and only when, the
// recording has it.
func TestFindingsOfGeneratedTree(t *testing.T) {
	st := open(t, "../../testdata/tf.bag")
	start, _ := model.TimeRange(st)
	at := func(s float64) bag.Time { return bag.TimeFromNanos(start.Nanos() + int64(s*1e9)) }
	for _, tc := range []struct {
		name   string
		at     bag.Time
		want   []string // kind:frame
		parent map[string]string
	}{
		{"early", at(2), []string{"future-stamp:imu_link", "reparented:cam_mount", "several-roots:"},
			map[string]string{"cam_mount": "base_link", "arm": "base_link", "gps": "base_link"}},
		{"gps stopped", at(4), []string{"future-stamp:imu_link", "reparented:cam_mount", "several-roots:", "stale:gps"},
			map[string]string{"cam_mount": "base_link"}},
		{"after the reparenting", at(6), []string{"future-stamp:imu_link", "reparented:cam_mount", "several-roots:", "stale:gps"},
			map[string]string{"cam_mount": "arm", "tool": "arm"}},
		{"latest", bag.Time{}, []string{"future-stamp:imu_link", "reparented:cam_mount", "several-roots:", "stale:gps"},
			map[string]string{"cam_mount": "arm", "beacon": "world_alt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, err := Read(context.Background(), st, tc.at, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range tree.Findings {
				got = append(got, f.Kind+":"+f.Frame)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			for child, parent := range tc.parent {
				if f := tree.Frames[child]; f == nil || f.Parent != parent {
					t.Errorf("%s: %+v, want parent %s", child, f, parent)
				}
			}
			if got := strings.Join(tree.Roots, ","); got != "map,world_alt" {
				t.Errorf("roots %s", got)
			}
			// The static message is written twice (a latched repeat):
			// its transforms count once.
			if f := tree.Frames["laser"]; f == nil || !f.Static || f.Updates != 1 {
				t.Errorf("laser: %+v, want one static update", f)
			}
			// 100 messages at 10 Hz over 9.9 s.
			if f := tree.Frames["odom"]; f == nil || math.Abs(f.RateHz-10) > 0.01 || f.Publisher != "/localization" {
				t.Errorf("odom: %+v, want 10 Hz from /localization", f)
			}
		})
	}
}

// TestLoopsAndSeveralRoots builds trees from transforms directly: a loop
// of parents is found (and lookups through it fail), a tree with one root
// has no finding.
func TestLoopsAndSeveralRoots(t *testing.T) {
	conn := &bag.Connection{Topic: "/tf"}
	for _, tc := range []struct {
		name  string
		edges [][2]string // parent, child
		want  []string
	}{
		{"chain", [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}}, nil},
		{"two roots", [][2]string{{"a", "b"}, {"x", "y"}}, []string{"several-roots:"}},
		{"loop", [][2]string{{"a", "b"}, {"b", "c"}, {"c", "a"}}, []string{"loop:a"}},
		{"loop beside a tree", [][2]string{{"r", "s"}, {"p", "q"}, {"q", "p"}}, []string{"loop:p"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(bag.Time{})
			for i, e := range tc.edges {
				m := &bag.Message{Conn: conn, Time: bag.Time{Sec: 100, NSec: uint32(i)}}
				b.add(m, stamped{parent: e[0], child: e[1], stamp: m.Time, tr: Identity}, false)
			}
			tree := b.finish(emptyStorage{})
			var got []string
			for _, f := range tree.Findings {
				got = append(got, f.Kind+":"+f.Frame)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
			if tc.name == "loop" {
				if _, err := tree.Lookup("a", "c"); err == nil {
					t.Error("a lookup through a loop succeeded")
				}
			}
		})
	}
}

// emptyStorage is a storage with nothing in it, for builder tests.
type emptyStorage struct{ bag.Storage }

func (emptyStorage) Summary() (*bag.Summary, error) { return &bag.Summary{}, nil }

// TestRPY checks the roll, pitch and yaw tf2_echo prints against the
// angles the quaternions were built from (make_tf.py's formula), and
// Mul/Inverse against each other.
func TestRPY(t *testing.T) {
	quat := func(r, p, y float64) [4]float64 {
		cr, sr := math.Cos(r/2), math.Sin(r/2)
		cp, sp := math.Cos(p/2), math.Sin(p/2)
		cy, sy := math.Cos(y/2), math.Sin(y/2)
		return [4]float64{sr*cp*cy - cr*sp*sy, cr*sp*cy + sr*cp*sy, cr*cp*sy - sr*sp*cy, cr*cp*cy + sr*sp*sy}
	}
	for _, a := range [][3]float64{{0, 0, 0}, {0.3, -0.2, 1.1}, {-3, 1.2, -2.5}, {math.Pi / 2, 0.4, 0}, {0.1, -1.5, 3}} {
		tr := Transform{Translation: [3]float64{1, 2, 3}, Rotation: quat(a[0], a[1], a[2])}
		r, p, y := tr.RPY()
		if math.Abs(r-a[0]) > 1e-9 || math.Abs(p-a[1]) > 1e-9 || math.Abs(y-a[2]) > 1e-9 {
			t.Errorf("RPY of %v: %v %v %v", a, r, p, y)
		}
		id := Mul(tr, tr.Inverse())
		for i := 0; i < 3; i++ {
			if math.Abs(id.Translation[i]) > 1e-12 {
				t.Errorf("t * t⁻¹ = %v", id)
			}
		}
		if math.Abs(math.Abs(id.Rotation[3])-1) > 1e-12 {
			t.Errorf("t * t⁻¹ = %v", id)
		}
	}
}

// TestRefusedAsTF2Refuses: transforms tf2's setTransform refuses (an
// empty or self frame id, NaN, a quaternion far from unit) are left out
// of the tree and reported, and the frame's good transforms still count.
func TestRefusedAsTF2Refuses(t *testing.T) {
	conn := &bag.Connection{Topic: "/tf"}
	good := Identity
	for _, tc := range []struct {
		name string
		s    stamped
	}{
		{"empty child", stamped{parent: "a", child: "", tr: good}},
		{"self", stamped{parent: "b", child: "b", tr: good}},
		{"NaN", stamped{parent: "a", child: "b", tr: Transform{Translation: [3]float64{math.NaN(), 0, 0}, Rotation: good.Rotation}}},
		{"denormalized", stamped{parent: "a", child: "b", tr: Transform{Rotation: [4]float64{0, 0, 0, 1.01}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBuilder(bag.Time{})
			m := &bag.Message{Conn: conn, Time: bag.Time{Sec: 100}}
			b.add(m, stamped{parent: "a", child: "b", stamp: m.Time, tr: Transform{Translation: [3]float64{1, 0, 0}, Rotation: good.Rotation}}, false)
			m2 := &bag.Message{Conn: conn, Time: bag.Time{Sec: 101}}
			tc.s.stamp = m2.Time
			b.add(m2, tc.s, false)
			tree := b.finish(emptyStorage{})
			if len(tree.Findings) != 1 || tree.Findings[0].Kind != KindRejected {
				t.Fatalf("findings %+v", tree.Findings)
			}
			if f := tree.Frames["b"]; f == nil || f.Updates != 1 || f.Transform.Translation[0] != 1 {
				t.Errorf("b: %+v, want the one good transform", f)
			}
		})
	}
	// A quaternion within tf2's tolerance is taken as it is.
	b := newBuilder(bag.Time{})
	m := &bag.Message{Conn: conn, Time: bag.Time{Sec: 100}}
	b.add(m, stamped{parent: "a", child: "b", stamp: m.Time, tr: Transform{Rotation: [4]float64{0, 0, 0, 1.004}}}, false)
	if tree := b.finish(emptyStorage{}); len(tree.Findings) != 0 || tree.Frames["b"].Transform.Rotation[3] != 1.004 {
		t.Errorf("within tolerance: %+v", tree.Findings)
	}
}
