package tf

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/bagscope/bagscope/model"
)

// makeLargeTFMCAP writes, as a ROS 2 MCAP by the npm oracles
// (make_tf_mcap.mjs), what makeLargeTF writes as a ROS 1 bag: n /tf
// messages of three dynamic frames (base_link reparented from odom to map
// halfway, every 5th of its stamps 30 ms late; imu stamped 2 s ahead), a
// chain odom/map → base_link → arm, every 7th message sent twice, and a
// static laser under base_link, sent twice (transient local).
func makeLargeTFMCAP(t *testing.T, n int) string {
	t.Helper()
	type tr struct {
		Parent string     `json:"parent"`
		Child  string     `json:"child"`
		Stamp  string     `json:"stamp_ns"`
		T      [3]float64 `json:"t"`
		Q      [4]float64 `json:"q"`
	}
	type msg struct {
		Topic      string `json:"topic"`
		Time       string `json:"time_ns"`
		Transforms []tr   `json:"transforms"`
	}
	const t0 = int64(1_700_000_000_000_000_005)
	mk := func(parent, child string, stamp int64, x float64) tr {
		return tr{parent, child, fmt.Sprint(stamp), [3]float64{x, -x, 0}, [4]float64{0, 0, 0.6, 0.8}}
	}
	static := msg{"/tf_static", fmt.Sprint(t0), []tr{mk("base_link", "laser", t0, 0.5)}}
	msgs := []msg{static}
	for i := 0; i < n; i++ {
		recv := t0 + int64(i+1)*1_000_000
		s := recv
		if i%5 == 0 {
			s -= 30_000_000
		}
		parent := "odom"
		if i >= n/2 {
			parent = "map"
		}
		m := msg{"/tf", fmt.Sprint(recv), []tr{mk(parent, "base_link", s, float64(i)*0.01), mk("base_link", "arm", recv, float64(i)*0.02)}}
		if i%3 == 0 {
			m.Transforms = append(m.Transforms, mk("base_link", "imu", recv+2_000_000_000, float64(i)*0.03))
		}
		msgs = append(msgs, m)
		if i%7 == 0 {
			again := m
			again.Time = fmt.Sprint(recv + 500_000)
			msgs = append(msgs, again)
		}
		if i == n/3 {
			again := static
			again.Time = fmt.Sprint(recv)
			msgs = append(msgs, again)
		}
	}
	b, err := json.Marshal(map[string]any{"messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec, out := filepath.Join(dir, "spec.json"), filepath.Join(dir, "large-tf.mcap")
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	oracletest.Run(t, "make_tf_mcap.mjs", spec, out)
	return out
}

// historySeries is the history's lookup series.
func historySeries(t *testing.T, h *History, target, source string, opt SeriesOptions) ([]Sample, SeriesInfo, error) {
	t.Helper()
	var got []Sample
	info, err := h.LookupSeries(context.Background(), target, source, opt, func(s Sample) { got = append(got, s) })
	if err == nil && info.Samples != len(got) {
		t.Fatalf("info says %d samples, %d emitted", info.Samples, len(got))
	}
	return got, info, err
}

// readSeries is LookupSeries' (the read of the recording).
func readSeries(st bag.Storage, target, source string, opt SeriesOptions) ([]Sample, SeriesInfo, error) {
	var got []Sample
	info, err := LookupSeries(context.Background(), st, target, source, opt, func(s Sample) { got = append(got, s) })
	return got, info, err
}

// equalSeries says where two series differ: every sample's time,
// transform (bit for bit) and error.
func equalSeries(a, b []Sample) string {
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if x.At != y.At || x.Transform != y.Transform || fmt.Sprint(x.Err) != fmt.Sprint(y.Err) {
			return fmt.Sprintf("sample %d: %s %v (%v), the read's %s %v (%v)", i, x.At, x.Transform, x.Err, y.At, y.Transform, y.Err)
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d samples, the read's %d", len(a), len(b))
	}
	return ""
}

// histSeriesEvery: without -long, TestHistoryLookupSeriesEqualsRead
// compares one in so many of each recording's pairs of frames (each pair
// reads the recording twice and the history four times: the whole test
// was 116 s under -race at load 13-15, model/tf's longest).
// BAGSCOPE_SAMPLE=K picks another fixed sample; go test -long (make
// test-long) compares every pair.
const histSeriesEvery = 3

// TestHistoryLookupSeriesEqualsRead checks that the lookup series computed
// from a history equals LookupSeries' read of the recording, sample for
// sample, for every pair of frames (and a frame not in the recording),
// unbounded and over a range: the generated trees (chains of three and
// five frames, a reparented frame, static and dynamic, repeats, stamps
// out of order and ahead), fixtures and real recordings, ROS 1 and ROS 2.
// A history holding every transform reads nothing; one past its bound
// (the frames read from windows) falls back to the read and gives the
// same. On the generated recordings the history's series is also checked
// against the reference readers at every stamp.
func TestHistoryLookupSeriesEqualsRead(t *testing.T) {
	sweeptest.Note(t, histSeriesEvery, "each recording's pairs of frames (and always a frame not in it and one named with a leading slash)")
	type rec struct {
		name   string
		path   func(t *testing.T) string
		oracle bool
	}
	file := func(p string) func(*testing.T) string { return func(*testing.T) string { return p } }
	for _, r := range []rec{
		{"tf.bag", file("../../testdata/tf.bag"), false},
		{"robot.bag", file("../../testdata/robot.bag"), false},
		{"ros2-mixed.mcap", file("../../testdata/ros2-mixed.mcap"), false},
		{"example.bag", file(shared + "cruise-automation__rosbag.js/fixtures/example.bag"), false},
		{"tilt_laser.bag", file(shared + "facontidavide__PlotJuggler/datasamples/tilt_laser.bag"), false},
		{"test_bag_mcap.mcap", file(shared + "geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap/test_bag_mcap.mcap"), false},
		{"generated ROS 1", func(t *testing.T) string { return makeLargeTF(t, 600) }, true},
		{"generated ROS 2", func(t *testing.T) string { return makeLargeTFMCAP(t, 600) }, true},
	} {
		t.Run(r.name, func(t *testing.T) {
			path := r.path(t)
			st := open(t, path)
			h, err := BuildHistory(context.Background(), st, HistoryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Windowed()) != 0 {
				t.Fatalf("windowed %v: the history should hold every transform", h.Windowed())
			}
			few, err := BuildHistory(context.Background(), st, HistoryOptions{MaxSamples: 1})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for n := range h.base.parents {
				names = append(names, n)
				for p := range h.base.parents[n] {
					names = append(names, p)
				}
			}
			sort.Strings(names)
			names = compactStrings(names)
			if len(names) < 2 {
				t.Fatalf("frames %v", names)
			}
			start, end := model.TimeRange(st)
			span := end.Nanos() - start.Nanos()
			ranges := []SeriesOptions{{}, {From: bag.TimeFromNanos(start.Nanos() + span/3), To: bag.TimeFromNanos(start.Nanos() + 2*span/3)}}
			type pair struct{ target, source string }
			pairs := []pair{{"no_such_frame", names[0]}, {names[0], "/" + names[1]}}
			for _, a := range names {
				for _, b := range names {
					if a != b {
						pairs = append(pairs, pair{a, b})
					}
				}
			}
			if len(pairs) > 60 {
				// Every frame in the first and the first in every frame,
				// and a spread of the others.
				var some []pair
				for i, p := range pairs {
					if i < 2 || p.target == names[0] || p.source == names[0] || i%17 == 0 {
						some = append(some, p)
					}
				}
				pairs = some
			}
			// make test compares the first two pairs (a frame not in
			// the recording, a leading slash) and one in 3 of the others
			// (histSeriesEvery); -long (make test-long) every pair.
			some := pairs[:2:2]
			for i, p := range pairs[2:] {
				if sweeptest.Keep(i, histSeriesEvery) {
					some = append(some, p)
				}
			}
			pairs = some
			compared, samples := 0, 0
			for _, p := range pairs {
				for _, opt := range ranges {
					want, _, werr := readSeries(st, p.target, p.source, opt)
					got, info, gerr := historySeries(t, h, p.target, p.source, opt)
					if fmt.Sprint(werr) != fmt.Sprint(gerr) {
						t.Fatalf("%s in %s %v: error %v, the read's %v", p.source, p.target, opt, gerr, werr)
					}
					if gerr == nil && info.Reads != 0 {
						t.Fatalf("%s in %s: the history read the recording %d times", p.source, p.target, info.Reads)
					}
					if d := equalSeries(got, want); d != "" {
						t.Fatalf("%s in %s %v: %s", p.source, p.target, opt, d)
					}
					back, info, berr := historySeries(t, few, p.target, p.source, opt)
					if fmt.Sprint(werr) != fmt.Sprint(berr) {
						t.Fatalf("%s in %s %v, windowed history: error %v, the read's %v", p.source, p.target, opt, berr, werr)
					}
					if d := equalSeries(back, want); d != "" {
						t.Fatalf("%s in %s %v, windowed history: %s", p.source, p.target, opt, d)
					}
					if berr == nil && info.Reads == 0 && len(few.Windowed()) > 0 {
						// Only when the lookup passes no windowed frame.
						for _, w := range few.Windowed() {
							for _, s := range []string{p.target, p.source} {
								if w == StripSlash(s) {
									t.Fatalf("%s in %s: windowed frame %s, yet no read", p.source, p.target, w)
								}
							}
						}
					}
					compared++
					samples += len(got)
				}
			}
			t.Logf("%d frames, %d series, %d samples equal", len(names), compared, samples)
			if samples == 0 {
				t.Fatal("no samples compared")
			}
			if r.oracle {
				src := oracleArgs(t, path)
				stamps := oracleStamps(t, src)
				for _, p := range []pair{{"odom", "arm"}, {"map", "laser"}, {"arm", "imu"}} {
					got, _, err := historySeries(t, h, p.target, p.source, SeriesOptions{})
					if err != nil {
						t.Fatal(err)
					}
					checkSeries(t, st, src, stamps, p.target, p.source, SeriesOptions{}, got)
				}
			}
		})
	}
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}
