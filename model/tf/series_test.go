package tf

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// oracleArgs is how tf_lookup.py reads path: the bag itself, or the MCAP
// oracle's messages as JSON lines.
func oracleArgs(t *testing.T, path string) []string {
	t.Helper()
	if strings.HasSuffix(path, ".bag") {
		reftest.RequireRef(t)
		return []string{path}
	}
	return []string{"--jsonl", mcapLines(t, path)}
}

// mcapLines writes the MCAP oracle's messages of path (mcap_cat.mjs) to a
// JSON lines file for tf_lookup.py --jsonl, and returns its path.
func mcapLines(t *testing.T, path string) string {
	t.Helper()
	lines := filepath.Join(t.TempDir(), "messages.jsonl")
	if err := os.WriteFile(lines, oracletest.Run(t, "mcap_cat.mjs", path), 0o644); err != nil {
		t.Fatal(err)
	}
	return lines
}

// oracleStamps is every distinct stamp of a dynamic transform of the
// recording, by the reference reader.
func oracleStamps(t *testing.T, src []string) []int64 {
	t.Helper()
	out, err := exec.Command(reftest.Python, append([]string{"../../testdata/oracle/tf_lookup.py", "--stamps"}, src...)...).Output()
	if err != nil {
		t.Fatalf("tf oracle --stamps: %v", err)
	}
	var r struct{ Stamps []int64 }
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return r.Stamps
}

// oraclePair is the oracle's lookup of source in target at each time.
func oraclePair(t *testing.T, src []string, target, source string, times []int64) []refTree {
	t.Helper()
	args := []string{"../../testdata/oracle/tf_lookup.py", "--pair", target, source}
	args = append(args, src...)
	for _, at := range times {
		args = append(args, fmt.Sprint(at))
	}
	out, err := exec.Command(reftest.Python, args...).Output()
	if err != nil {
		t.Fatalf("tf oracle --pair: %v", err)
	}
	var trees []refTree
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var r refTree
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		trees = append(trees, r)
	}
	if len(trees) != len(times) {
		t.Fatalf("the oracle gave %d lookups for %d times", len(trees), len(times))
	}
	return trees
}

// stretchEvery: without -long, TestLookupSeriesMatchesReference reads
// one in so many of each recording's pairs again in stretches (a read of
// tf.bag in stretches of 7 transforms is ~12 of the 14 CPU-s of its case
// under -race, pprof; the whole test was 188 s at load 13-15). Every pair
// is still read whole and checked against the oracle and Read.
// BAGSCOPE_SAMPLE=K picks the other pairs; go test -long (make test-long)
// reads every pair in stretches.
const stretchEvery = 2

// TestLookupSeriesMatchesReference checks the lookup over time against the
// oracle at every stamp of every dynamic transform of the recording (so
// the series, a step function of time, has a sample wherever the lookup
// changes and holds the right value between samples), and each sample
// against Read's tree at its time: chains of five frames, a reparented
// frame (cam_mount moves from base_link to arm at 5 s), frames under
// another root, stamps out of order, a frame that stops (gps), ROS 1 and
// ROS 2. Each is read whole and in stretches of a few transforms (many
// reads, stretches split again), which must give the same samples.
func TestLookupSeriesMatchesReference(t *testing.T) {
	sweeptest.Note(t, stretchEvery, "each recording's pairs read again in stretches (every pair is read whole and checked against the oracle and Read)")
	type pair struct{ target, source string }
	for _, tc := range []struct {
		path     string
		pairs    []pair
		from, to float64 // seconds from the start; 0: unbounded
		stretch  int     // MaxSamples of the read in stretches
	}{
		{"../../testdata/tf.bag", []pair{{"map", "tool"}, {"odom", "cam_mount"}, {"tool", "cam_mount"}, {"cam_mount", "gps"}, {"map", "beacon"}, {"laser", "imu_link"}}, 0, 0, 7},
		{"../../testdata/tf.bag", []pair{{"map", "cam_mount"}, {"camera_link", "tool"}}, 3.3, 6.5, 7},
		{"../../testdata/ros2-mixed.mcap", []pair{{"odom", "laser"}, {"laser", "base_link"}}, 0, 0, 1500},
		{shared + "facontidavide__PlotJuggler/datasamples/tilt_laser.bag", []pair{{"tilt_base", "laser"}, {"camera", "laser"}}, 0, 0, 100},
		{shared + "cruise-automation__rosbag.js/fixtures/example.bag", nil, 0, 0, 100},
	} {
		t.Run(fmt.Sprintf("%s_%g_%g", filepath.Base(tc.path), tc.from, tc.to), func(t *testing.T) {
			st := open(t, tc.path)
			src := oracleArgs(t, tc.path)
			stamps := oracleStamps(t, src)
			start, _ := model.TimeRange(st)
			var opt SeriesOptions
			if tc.from != 0 {
				opt.From = bag.TimeFromNanos(start.Nanos() + int64(tc.from*1e9))
				opt.To = bag.TimeFromNanos(start.Nanos() + int64(tc.to*1e9))
			}
			pairs := tc.pairs
			if pairs == nil {
				// The first root and the deepest frame under it.
				tree, err := Read(context.Background(), st, bag.Time{}, Options{})
				if err != nil {
					t.Fatal(err)
				}
				deep, depth := "", -1
				tree.Walk(func(f *Frame, d int) {
					if d > depth {
						deep, depth = f.Name, d
					}
				})
				pairs = []pair{{tree.Roots[0], deep}}
				t.Logf("pair %v", pairs)
			}
			for pi, p := range pairs {
				got := seriesOf(t, st, p.target, p.source, opt)
				if sweeptest.Keep(pi, min(stretchEvery, len(pairs))) {
					optN := opt
					optN.MaxSamples = tc.stretch
					if again := seriesOf(t, st, p.target, p.source, optN); !sameSamples(got, again) {
						t.Fatalf("%s in %s: read in stretches of %d transforms, %d samples, whole %d: not the same", p.source, p.target, tc.stretch, len(again), len(got))
					}
				}
				checkSeries(t, st, src, stamps, p.target, p.source, opt, got)
			}
		})
	}
}

func seriesOf(t *testing.T, st bag.Storage, target, source string, opt SeriesOptions) []Sample {
	t.Helper()
	var got []Sample
	info, err := LookupSeries(context.Background(), st, target, source, opt, func(s Sample) { got = append(got, s) })
	if err != nil {
		t.Fatal(err)
	}
	if info.Samples != len(got) {
		t.Fatalf("info says %d samples, %d emitted", info.Samples, len(got))
	}
	if opt.MaxSamples == 0 && info.Reads != 2 {
		t.Errorf("%d reads, want 2 (the frames, then their transforms)", info.Reads)
	}
	return got
}

func sameSamples(a, b []Sample) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].At != b[i].At || a[i].Transform != b[i].Transform || (a[i].Err == nil) != (b[i].Err == nil) {
			return false
		}
	}
	return true
}

func checkSeries(t *testing.T, st bag.Storage, src []string, stamps []int64, target, source string, opt SeriesOptions, got []Sample) {
	t.Helper()
	name := source + " in " + target
	if len(got) == 0 {
		t.Fatalf("%s: no samples", name)
	}
	valid := 0
	for i, s := range got {
		if i > 0 && !got[i-1].At.Before(s.At) {
			t.Fatalf("%s: sample %d at %s after %s: not in time order", name, i, s.At, got[i-1].At)
		}
		if s.Err == nil {
			valid++
		}
	}
	if valid == 0 && len(got) != 1 {
		t.Fatalf("%s: %d samples, none with a transform: a lookup that fails is emitted once", name, len(got))
	}
	first := got[0].At.Nanos()
	if !opt.From.IsZero() && first != opt.From.Nanos() {
		t.Errorf("%s: the first sample at %s, not at From %s", name, got[0].At, opt.From)
	}
	// Every sample after the first is at a stamp of a transform.
	isStamp := map[int64]bool{}
	for _, s := range stamps {
		isStamp[s] = true
	}
	for _, s := range got[1:] {
		if !isStamp[s.At.Nanos()] {
			t.Fatalf("%s: a sample at %s, not the stamp of any transform", name, s.At)
		}
	}
	// The oracle at every stamp from the first sample on (and at the
	// first sample), against the sample at or before it.
	times := []int64{first}
	last := stamps[len(stamps)-1]
	if !opt.To.IsZero() {
		last = opt.To.Nanos()
	}
	for _, s := range stamps {
		if s > first && s <= last {
			times = append(times, s)
		}
	}
	refs := oraclePair(t, src, target, source, times)
	key := target + " " + source
	bad := 0
	for k, at := range times {
		i := sort.Search(len(got), func(i int) bool { return got[i].At.Nanos() > at }) - 1
		s := got[i]
		var want refTransform
		if err := json.Unmarshal(refs[k].Lookup[key], &want); err != nil {
			t.Fatal(err)
		}
		switch {
		case want.Error != "" && s.Err == nil:
			t.Errorf("%s at %d: the series holds %v (from %s), the oracle: %s", name, at, s.Transform, s.At, want.Error)
			bad++
		case want.Error == "" && s.Err != nil:
			t.Errorf("%s at %d: the series fails (%v, from %s), the oracle %v", name, at, s.Err, s.At, want.T)
			bad++
		case want.Error == "":
			if !near(s.Transform, want, refs[k].Denorm) {
				t.Errorf("%s at %d: the series holds %v (from %s), the oracle %v %v", name, at, s.Transform, s.At, want.T, want.M)
				bad++
			}
		}
		if bad > 5 {
			t.Fatal("too many differences")
		}
	}
	// Each sample is Read's lookup at its time (at most 40 of them, spread
	// over the series: each is a read of the whole recording).
	step := max(1, len(got)/40)
	for i := 0; i < len(got); i += step {
		s := got[i]
		tree, err := Read(context.Background(), st, s.At, Options{})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := tree.Lookup(target, source)
		if (err == nil) != (s.Err == nil) || !reflect.DeepEqual(tr, s.Transform) {
			t.Errorf("%s at %s: the series %v (%v), Read's lookup %v (%v)", name, s.At, s.Transform, s.Err, tr, err)
		}
	}
}

// near reports whether tr is the oracle's transform, to the oracle's
// tolerance (see compareTree).
func near(tr Transform, want refTransform, denorm float64) bool {
	tol := 1e-9 + 8*denorm
	ttol := tol * max(1, abs(want.T[0])+abs(want.T[1])+abs(want.T[2]))
	r := rotation(tr.Rotation)
	for i := 0; i < 3; i++ {
		if abs(tr.Translation[i]-want.T[i]) > ttol {
			return false
		}
		for j := 0; j < 3; j++ {
			if abs(r[i][j]-want.M[i][j]) > tol {
				return false
			}
		}
	}
	return true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
