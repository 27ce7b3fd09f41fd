package tf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

const shared = "../../../shared/bags/"

// refTree is one line of testdata/oracle/tf_lookup.py.
type refTree struct {
	At      string                     `json:"at"`
	Denorm  float64                    `json:"denorm"`
	Parents map[string]string          `json:"parents"`
	Static  map[string]bool            `json:"static"`
	Lookup  map[string]json.RawMessage `json:"lookup"`
}

type refTransform struct {
	T     []float64   `json:"t"`
	M     [][]float64 `json:"m"`
	Error string      `json:"error"`
}

// reference runs the oracle: the reference rosbag for a ROS 1 bag, the
// MCAP oracle (@mcap/core, @foxglove/rosmsg2-serialization) for MCAP,
// then the oracle's own matrix composition.
func reference(t *testing.T, path string, times []string) []refTree {
	t.Helper()
	args := []string{"../../testdata/oracle/tf_lookup.py"}
	if strings.HasSuffix(path, ".bag") {
		reftest.RequireRef(t)
		args = append(args, path)
	} else {
		args = append(args, "--jsonl", mcapLines(t, path))
	}
	cmd := exec.Command(reftest.Python, append(args, times...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tf oracle: %v\n%s", err, errb.String())
	}
	var trees []refTree
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r refTree
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("oracle line %q: %v", l, err)
		}
		trees = append(trees, r)
	}
	if len(trees) != len(times) {
		t.Fatalf("oracle gave %d trees for %d times", len(trees), len(times))
	}
	return trees
}

// rotation is q's rotation matrix (the textbook formula for a unit
// quaternion).
func rotation(q [4]float64) [3][3]float64 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
		{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
		{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
	}
}

func open(t *testing.T, path string) bag.Storage {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		reftest.SkipOrFail(t, err)
	}
	st, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestTreeAndLookupMatchReference compares the tree (each frame's parent,
// static or dynamic) and the lookup of every frame in every other with the
// oracle, at the latest transforms and at times through the recording, on
// the generated tree (chains of five frames, a reparented frame, stamps
// out of order, leading slashes, two roots), the fixtures' and real
// recordings' /tf, ROS 1 and ROS 2.
func TestTreeAndLookupMatchReference(t *testing.T) {
	for _, path := range []string{
		"../../testdata/tf.bag",
		"../../testdata/robot.bag",
		"../../testdata/none-multichunk.bag",
		shared + "cruise-automation__rosbag.js/fixtures/example.bag",
		shared + "facontidavide__PlotJuggler/datasamples/tilt_laser.bag",
		"../../testdata/ros2-mixed.mcap",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			st := open(t, path)
			start, end := model.TimeRange(st)
			at := []bag.Time{{}}
			for _, f := range []float64{0, 0.13, 0.5, 0.77, 1} {
				at = append(at, bag.TimeFromNanos(start.Nanos()+int64(f*float64(end.Nanos()-start.Nanos()))))
			}
			times := make([]string, len(at))
			for i, a := range at {
				times[i] = "latest"
				if !a.IsZero() {
					times[i] = fmt.Sprint(a.Nanos())
				}
			}
			refs := reference(t, path, times)
			pairs := 0
			for i, a := range at {
				tree, err := Read(context.Background(), st, a, Options{})
				if err != nil {
					t.Fatal(err)
				}
				compareTree(t, times[i], tree, refs[i])
				pairs += len(refs[i].Lookup)
			}
			if pairs == 0 {
				t.Fatal("the oracle found no frames")
			}
		})
	}
}

func compareTree(t *testing.T, at string, tree *Tree, ref refTree) {
	t.Helper()
	children := 0
	for name, f := range tree.Frames {
		if f.Root {
			continue
		}
		children++
		if ref.Parents[name] != f.Parent {
			t.Errorf("at %s: %s has parent %q, the oracle %q", at, name, f.Parent, ref.Parents[name])
		}
		if ref.Static[name] != f.Static {
			t.Errorf("at %s: %s static %v, the oracle %v", at, name, f.Static, ref.Static[name])
		}
	}
	if children != len(ref.Parents) {
		t.Errorf("at %s: %d frames with a parent, the oracle %d (%v)", at, children, len(ref.Parents), ref.Parents)
	}
	// The roots: the oracle's parents that have no parent themselves, each
	// once, and the tree's children lists the inverse of its parents.
	var wantRoots []string
	for _, p := range ref.Parents {
		if _, child := ref.Parents[p]; !child && !slices.Contains(wantRoots, p) {
			wantRoots = append(wantRoots, p)
		}
	}
	slices.Sort(wantRoots)
	if !slices.Equal(tree.Roots, wantRoots) {
		t.Errorf("at %s: roots %q, the oracle %q", at, tree.Roots, wantRoots)
	}
	for name, f := range tree.Frames {
		for _, c := range f.Children {
			if cf := tree.Frames[c]; cf == nil || cf.Root || cf.Parent != name {
				t.Errorf("at %s: %q lists %q as a child, whose parent is not %q", at, name, c, name)
			}
		}
	}
	for key, raw := range ref.Lookup {
		var want refTransform
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		target, source, _ := strings.Cut(key, " ")
		got, err := tree.Lookup(target, source)
		if want.Error != "" {
			if err == nil {
				t.Errorf("at %s: lookup %s: %v, the oracle: %s", at, key, got, want.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("at %s: lookup %s: %v", at, key, err)
			continue
		}
		// tf2 (and the tree) compose the quaternions as recorded, the
		// oracle normalises them: where they are not unit, the two differ
		// by a few times the largest |1 - |q|²|.
		tol := 1e-9 + 8*ref.Denorm
		r := rotation(got.Rotation)
		ttol := tol * math.Max(1, math.Abs(want.T[0])+math.Abs(want.T[1])+math.Abs(want.T[2]))
		for i := 0; i < 3; i++ {
			if math.Abs(got.Translation[i]-want.T[i]) > ttol {
				t.Errorf("at %s: lookup %s: translation %v, the oracle %v", at, key, got.Translation, want.T)
				break
			}
			for j := 0; j < 3; j++ {
				if math.Abs(r[i][j]-want.M[i][j]) > tol {
					t.Errorf("at %s: lookup %s: rotation %v, the oracle %v", at, key, r, want.M)
					i = 3
					break
				}
			}
		}
	}
}
