package tf

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// historyTimes are the times a history is checked at: each frame's stamps,
// a nanosecond before and after each (between samples), before the first,
// the recording's start and end, and zero (each frame's latest), thinned
// to at most n.
func historyTimes(t *testing.T, st bag.Storage, n int) []bag.Time {
	t.Helper()
	h, err := BuildHistory(context.Background(), st, HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start, end := model.TimeRange(st)
	set := map[int64]bool{start.Nanos(): true, end.Nanos(): true, 1: true}
	for _, f := range h.frames {
		for _, s := range f.samples {
			ns := s.stamp.Nanos()
			set[ns-1], set[ns], set[ns+1] = true, true, true
		}
		set[f.first.Nanos()-1] = true
	}
	var all []int64
	for ns := range set {
		if ns > 0 {
			all = append(all, ns)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	out := []bag.Time{{}}
	step := max(1, len(all)/n)
	for i := 0; i < len(all); i += step {
		out = append(out, bag.TimeFromNanos(all[i]))
	}
	return out
}

// readTrees reads the tree at each time with Read (the read of every
// transform): what a history is compared with. Read's tree does not depend
// on the history, so each test reads it once for the histories it builds
// (each Read is a pass over the recording under -race).
func readTrees(t *testing.T, st bag.Storage, times []bag.Time) []*Tree {
	t.Helper()
	wants := make([]*Tree, len(times))
	for i, at := range times {
		want, err := Read(context.Background(), st, at, Options{})
		if err != nil {
			t.Fatal(err)
		}
		wants[i] = want
	}
	return wants
}

// checkHistory compares the history's tree with Read's (wants, from
// readTrees) at each time, field by field, and the lookup of every frame
// in every other.
func checkHistory(t *testing.T, h *History, times []bag.Time, wants []*Tree) {
	t.Helper()
	for i, at := range times {
		want := wants[i]
		got, err := h.TreeAt(context.Background(), at)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			for name, wf := range want.Frames {
				if gf := got.Frames[name]; !reflect.DeepEqual(gf, wf) {
					t.Errorf("at %s: frame %s\n got %+v\nwant %+v", at, name, gf, wf)
				}
			}
			if !reflect.DeepEqual(got.Findings, want.Findings) {
				t.Errorf("at %s: findings\n got %v\nwant %v", at, got.Findings, want.Findings)
			}
			t.Fatalf("at %s: the history's tree differs from Read's", at)
		}
		names := want.Names()
		for _, a := range names {
			for _, b := range names {
				wt, werr := want.Lookup(a, b)
				gt, gerr := got.Lookup(a, b)
				if wt != gt || (werr == nil) != (gerr == nil) {
					t.Fatalf("at %s: lookup %s %s: %v %v, Read's %v %v", at, a, b, gt, gerr, wt, werr)
				}
			}
		}
		if len(names) > 1 {
			wt, werr := want.Lookup(names[0], names[len(names)-1])
			gt, gerr := h.Lookup(context.Background(), at, names[0], names[len(names)-1])
			if wt != gt || (werr == nil) != (gerr == nil) {
				t.Fatalf("at %s: History.Lookup %s %s: %v %v, Read's %v %v", at, names[0], names[len(names)-1], gt, gerr, wt, werr)
			}
		}
	}
}

// TestHistoryTreeEqualsRead builds the history of recordings with /tf
// (the generated tree: reparenting, static and dynamic, stamps out of
// order, future stamps, two roots; fixtures; real recordings; ROS 1 and
// ROS 2) and checks its tree at many times, between samples and before
// the first, equals the read of every message, holding every transform
// and holding few (the rest read from windows).
func TestHistoryTreeEqualsRead(t *testing.T) {
	for _, path := range []string{
		"../../testdata/tf.bag",
		"../../testdata/robot.bag",
		"../../testdata/none-multichunk.bag",
		"../../testdata/ros2-mixed.mcap",
		shared + "cruise-automation__rosbag.js/fixtures/example.bag",
		shared + "facontidavide__PlotJuggler/datasamples/tilt_laser.bag",
		shared + "cruise-automation__webviz/packages/webviz-core/public/fixtures/only-a-cube.bag",
		shared + "geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap/test_bag_mcap.mcap",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			st := open(t, path)
			times := historyTimes(t, st, 30)
			wants := readTrees(t, st, times)
			for _, maxSamples := range []int{0, 1} {
				h, err := BuildHistory(context.Background(), st, HistoryOptions{MaxSamples: maxSamples})
				if err != nil {
					t.Fatal(err)
				}
				if maxSamples > 0 && h.Samples() > maxSamples {
					t.Fatalf("holds %d transforms, over the bound %d", h.Samples(), maxSamples)
				}
				t.Logf("max %d: %d transforms held, windowed %v", maxSamples, h.Samples(), h.Windowed())
				checkHistory(t, h, times, wants)
			}
		})
	}
}

// TestHistoryMatchesReference compares the history's trees and lookups
// with the reference reader's (rosbag, the MCAP oracle), holding every
// transform and holding none.
func TestHistoryMatchesReference(t *testing.T) {
	for _, path := range []string{
		"../../testdata/tf.bag",
		shared + "cruise-automation__rosbag.js/fixtures/example.bag",
		"../../testdata/ros2-mixed.mcap",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			st := open(t, path)
			start, end := model.TimeRange(st)
			at := []bag.Time{{}}
			for _, f := range []float64{0, 0.21, 0.5, 0.63, 1} {
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
			for _, maxSamples := range []int{0, 1} {
				h, err := BuildHistory(context.Background(), st, HistoryOptions{MaxSamples: maxSamples})
				if err != nil {
					t.Fatal(err)
				}
				for i, a := range at {
					tree, err := h.TreeAt(context.Background(), a)
					if err != nil {
						t.Fatal(err)
					}
					compareTree(t, times[i], tree, refs[i])
				}
			}
		})
	}
}

// makeLargeTF writes a recording of n /tf messages by the reference
// writer: three dynamic frames at 1 kHz (one reparented halfway, one with
// every 5th stamp 30 ms late, one stamped 2 s ahead), every 7th message
// sent twice (the repeat is not a new transform) and a static one.
func makeLargeTF(t *testing.T, n int) string {
	t.Helper()
	reftest.RequireRef(t)
	out := filepath.Join(t.TempDir(), "large-tf.bag")
	script := `
import sys, rosbag, rospy
from geometry_msgs.msg import TransformStamped
from tf2_msgs.msg import TFMessage
out, n = sys.argv[1], int(sys.argv[2])
t0 = rospy.Time(1700000000, 5)
def tr(parent, child, stamp, x):
    m = TransformStamped()
    m.header.frame_id, m.child_frame_id, m.header.stamp = parent, child, stamp
    m.transform.translation.x, m.transform.translation.y = x, -x
    m.transform.rotation.z, m.transform.rotation.w = 0.6, 0.8
    return m
with rosbag.Bag(out, 'w') as b:
    b.write('/tf_static', TFMessage([tr('base_link', 'laser', t0, 0.5)]), t0)
    for i in range(n):
        recv = t0 + rospy.Duration(0, 1000000 * (i + 1))
        s = recv - rospy.Duration(0, 30000000) if i % 5 == 0 else recv
        parent = 'odom' if i < n // 2 else 'map'
        msg = TFMessage([tr(parent, 'base_link', s, i * 0.01), tr('base_link', 'arm', recv, i * 0.02)])
        if i % 3 == 0:
            msg.transforms.append(tr('base_link', 'imu', recv + rospy.Duration(2), i * 0.03))
        b.write('/tf', msg, recv)
        if i % 7 == 0:
            b.write('/tf', msg, recv + rospy.Duration(0, 500000))  # sent again: a repeat
`
	cmd := exec.Command(reftest.Python, "-c", script, out, fmt.Sprint(n))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing the recording: %v\n%s", err, b)
	}
	return out
}

// TestHistoryMemoryBounded builds the history of a large /tf with a
// bound below its transforms: it holds no more than the bound, gives up
// the frames holding the most, and its trees still equal Read's.
func TestHistoryMemoryBounded(t *testing.T) {
	st := open(t, makeLargeTF(t, 6000))
	const bound = 2400
	h, err := BuildHistory(context.Background(), st, HistoryOptions{MaxSamples: bound})
	if err != nil {
		t.Fatal(err)
	}
	if h.Samples() > bound || h.Bytes() > 2*bound*80 {
		t.Fatalf("holds %d transforms (%d bytes), over the bound %d", h.Samples(), h.Bytes(), bound)
	}
	if w := h.Windowed(); len(w) != 2 || w[0] != "arm" || w[1] != "base_link" {
		t.Fatalf("windowed %v, want the two frames with 6,000 transforms", w)
	}
	all, err := BuildHistory(context.Background(), st, HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if all.Samples() != 6000*2+(6000+2)/3 || len(all.Windowed()) != 0 {
		t.Fatalf("unbounded: %d transforms held, windowed %v", all.Samples(), all.Windowed())
	}
	times := historyTimes(t, st, 30)
	wants := readTrees(t, st, times)
	checkHistory(t, h, times, wants)
	checkHistory(t, all, times[:10], wants[:10])
}
