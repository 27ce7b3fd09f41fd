package series

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/plot"
)

// summary is what a caller of Extract's points summarises of them: per
// series, its figures, its counts, and the points' extent in time.
type summary struct {
	stats          map[string]plot.Stats
	points, miss   map[string]int
	beforeClock    map[string]int
	empty          []string
	t0, t1         int64
	messages       int64
	skipped        []string
	series, fields []string
}

// TestExtractUnorderedAddsUpToExtract checks ExtractUnordered against
// Extract in time order, on the ROS 2 fixture rewritten in chunks of 64
// KiB (so that every core reads some) whole, with bytes overwritten in
// three chunks, and cut: each series' figures merged from the sinks of the
// reading goroutines must be Extract's bit for bit (exact sum, mean, min,
// max), and so must the points, the messages that lack the field, the
// messages read, the ranges skipped and the points' extent in time, on
// every time base (on the clock base, the messages received before the
// first /clock too) and inside a window, and so must the series of paths
// of several elements and their order (the elements' first appearance in
// time order) and the paths that select nothing. The fields include a header
// stamp, a latency series and a path that fails on some messages.
func TestExtractUnorderedAddsUpToExtract(t *testing.T) {
	dir := t.TempDir()
	src, err := OpenStorage("../../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "small-chunks.mcap")
	f, err := os.Create(whole)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcap.Write(f, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 64 << 10}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src.Close()
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"whole": whole}
	s, err := OpenStorage(whole)
	if err != nil {
		t.Fatal(err)
	}
	blocks := s.Blocks()
	start, end := timeRange(s)
	s.Close()
	if len(blocks) < 8 {
		t.Fatalf("%d chunks; the test needs 8", len(blocks))
	}
	damaged := slices.Clone(data)
	for _, b := range []*bag.Block{blocks[1], blocks[len(blocks)/2], blocks[len(blocks)-2]} {
		at := b.Offset + b.Len*9/10
		for k := range int64(256) {
			damaged[at+k] ^= 0x5a
		}
	}
	files["damaged"] = filepath.Join(dir, "damaged.mcap")
	files["cut"] = filepath.Join(dir, "cut.mcap")
	for name, d := range map[string][]byte{"damaged": damaged, "cut": data[:len(data)*6/10]} {
		if err := os.WriteFile(files[name], d, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fields := []FieldRef{
		{"/imu", "linear_acceleration.x"}, {"/imu", "angular_velocity.z"}, {"/odom", "pose.pose.position.y"},
		{"/odom", "twist.covariance[35]"}, {"/cmd", "linear.x"}, {"/tf", "transforms[0].transform.translation.x"},
		{"/tf", "transforms[1].transform.rotation.w"}, // one transform in some messages: missing there
		{"/imu", LatencyPath},
		// Paths of several elements: transforms that come and go, a
		// range, and one that selects nothing.
		{"/tf", "transforms[*].transform.translation.x"}, {"/odom", "twist.covariance[0:3]"},
		{"/tf", "transforms[4:].transform.translation.x"},
	}
	span := end.Nanos() - start.Nanos()
	requests := map[string]Request{
		"receive": {Fields: fields},
		"stamp":   {Fields: fields[:4], Base: HeaderStamp},
		"publish": {Fields: fields, Base: PublishTime},
		// A /clock from a third of the way in: the messages before it
		// have no point.
		"clock": {Fields: fields, Base: ClockTime, Clock: halfClock{start.Nanos() + span/3}},
		"window": {Fields: fields, Start: bag.TimeFromUnixNanos(uint64(start.Nanos() + span/3)),
			End: bag.TimeFromUnixNanos(uint64(start.Nanos() + span/2))},
	}
	var cache rosmsg.Cache
	compared := 0
	for fname, path := range files {
		s, err := OpenStorage(path)
		if err != nil {
			t.Fatalf("%s: %v", fname, err)
		}
		if !bag.ParallelVisit(s) {
			t.Fatalf("%s: the MCAP reader does not visit in parallel", fname)
		}
		for rname, req := range requests {
			want, wantLast, err := orderedSummary(s, &cache, req)
			if err != nil {
				t.Fatalf("%s %s: Extract: %v", fname, rname, err)
			}
			if wantLast[0] != want.messages || wantLast[1] < wantLast[0] || fname == "whole" && rname == "receive" && wantLast[1] != want.messages {
				t.Errorf("%s %s: Extract's last progress %d of %d; %d messages read", fname, rname, wantLast[0], wantLast[1], want.messages)
			}
			got, sinks, last, err := unorderedSummary(s, &cache, req)
			if err != nil {
				t.Fatalf("%s %s: ExtractUnordered: %v", fname, rname, err)
			}
			// The last progress: every message read, out of the index's
			// count (counted beside the read), which is the messages read
			// on the whole file.
			if last[0] != got.messages || last[1] < last[0] || fname == "whole" && rname == "receive" && last[1] != got.messages {
				t.Errorf("%s %s: last progress %d of %d; %d messages read", fname, rname, last[0], last[1], got.messages)
			}
			compared++
			if sinks == 0 {
				t.Errorf("%s %s: no sink made", fname, rname)
			}
			if msg := sameSummary(got, want); msg != "" {
				t.Errorf("%s %s: %s", fname, rname, msg)
			}
			if elements := len(slices.DeleteFunc(slices.Clone(want.series), func(n string) bool {
				return !strings.HasPrefix(n, "/tf.transforms[child_frame_id=")
			})); rname == "receive" && elements < 2 {
				t.Errorf("%s: %d series of /tf's transforms: the test means several", fname, elements)
			}
			if rname == "clock" && want.beforeClock[want.series[0]] == 0 {
				t.Errorf("%s: no message before the first /clock: the test does not check their count", fname)
			}
			if fname != "whole" && rname == "receive" && len(want.skipped) == 0 {
				t.Errorf("%s: the read skipped nothing: the file is not damaged where the test means it to be", fname)
			}
		}
		s.Close()
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// orderedSummary summarises Extract's points, handed in time order, and
// returns the last progress it reported (done, total).
func orderedSummary(s bag.Storage, cache *rosmsg.Cache, req Request) (*summary, [2]int64, error) {
	accs := map[*Series]*plot.StatsAcc{}
	var t0, t1 int64 = math.MaxInt64, math.MinInt64
	req.Points = func(_ int, se *Series, t int64, v float64) {
		if accs[se] == nil {
			accs[se] = &plot.StatsAcc{}
		}
		accs[se].Add(v)
		t0, t1 = min(t0, t), max(t1, t)
	}
	var last [2]int64
	set, err := Extract(context.Background(), s, cache, req, func(done, total int64, _ string) { last = [2]int64{done, total} })
	if err != nil {
		return nil, last, err
	}
	return summarise(set, accs, t0, t1), last, nil
}

// unorderedSummary summarises ExtractUnordered's points, merging its
// sinks', and returns how many sinks it made and the last progress it
// reported (done, total).
func unorderedSummary(s bag.Storage, cache *rosmsg.Cache, req Request) (*summary, int, [2]int64, error) {
	type share struct {
		accs   map[*Series]*plot.StatsAcc
		t0, t1 int64
	}
	var mu sync.Mutex
	var shares []*share
	var last [2]int64
	progress := func(done, total int64, _ string) {
		mu.Lock()
		last = [2]int64{done, total}
		mu.Unlock()
	}
	set, err := ExtractUnordered(context.Background(), s, cache, req, func() func(int, *Series, int64, float64) {
		sh := &share{accs: map[*Series]*plot.StatsAcc{}, t0: math.MaxInt64, t1: math.MinInt64}
		mu.Lock()
		shares = append(shares, sh)
		mu.Unlock()
		return func(_ int, se *Series, t int64, v float64) {
			if sh.accs[se] == nil {
				sh.accs[se] = &plot.StatsAcc{}
			}
			sh.accs[se].Add(v)
			sh.t0, sh.t1 = min(sh.t0, t), max(sh.t1, t)
		}
	}, progress)
	if err != nil {
		return nil, 0, last, err
	}
	accs := map[*Series]*plot.StatsAcc{}
	var t0, t1 int64 = math.MaxInt64, math.MinInt64
	for _, sh := range shares {
		for se, a := range sh.accs {
			if accs[se] == nil {
				accs[se] = &plot.StatsAcc{}
			}
			accs[se].Merge(a)
		}
		t0, t1 = min(t0, sh.t0), max(t1, sh.t1)
	}
	return summarise(set, accs, t0, t1), len(shares), last, nil
}

func summarise(set *Set, accs map[*Series]*plot.StatsAcc, t0, t1 int64) *summary {
	out := &summary{stats: map[string]plot.Stats{}, points: map[string]int{}, miss: map[string]int{}, beforeClock: map[string]int{},
		t0: t0, t1: t1, messages: set.Messages}
	for i, se := range set.Series {
		a := accs[se]
		if a == nil {
			a = &plot.StatsAcc{}
		}
		out.stats[se.Name] = a.Stats()
		out.points[se.Name], out.miss[se.Name], out.beforeClock[se.Name] = se.Points, se.Missing, se.BeforeClock
		out.series = append(out.series, se.Name)
		out.fields = append(out.fields, fmt.Sprint(set.Field[i]))
	}
	for _, r := range set.Empty {
		out.empty = append(out.empty, r.String())
	}
	for _, r := range set.Skipped {
		out.skipped = append(out.skipped, fmt.Sprintf("%d-%d %s", r.Start, r.End, r.Why))
	}
	slices.Sort(out.skipped)
	return out
}

// sameSummary says how got differs from want, or "".
func sameSummary(got, want *summary) string {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	if !slices.Equal(got.series, want.series) || !slices.Equal(got.fields, want.fields) {
		return fmt.Sprintf("series %v (fields %v), want %v (%v)", got.series, got.fields, want.series, want.fields)
	}
	for _, name := range want.series {
		g, w := got.stats[name], want.stats[name]
		if g.Points != w.Points || g.NonFinite != w.NonFinite || !same(g.Min, w.Min) || !same(g.Max, w.Max) || !same(g.Mean, w.Mean) || !same(g.Sum, w.Sum) {
			return fmt.Sprintf("%s: %+v, want %+v", name, g, w)
		}
		if got.points[name] != want.points[name] || got.miss[name] != want.miss[name] || got.beforeClock[name] != want.beforeClock[name] {
			return fmt.Sprintf("%s: %d points, %d missing, %d before the clock; want %d, %d, %d", name, got.points[name], got.miss[name],
				got.beforeClock[name], want.points[name], want.miss[name], want.beforeClock[name])
		}
		if w.Points == 0 {
			return fmt.Sprintf("%s: no point: the test reads nothing of it", name)
		}
	}
	if got.t0 != want.t0 || got.t1 != want.t1 || got.messages != want.messages {
		return fmt.Sprintf("extent %d..%d, %d messages; want %d..%d, %d", got.t0, got.t1, got.messages, want.t0, want.t1, want.messages)
	}
	if !slices.Equal(got.empty, want.empty) {
		return fmt.Sprintf("empty %v, want %v", got.empty, want.empty)
	}
	if !slices.Equal(got.skipped, want.skipped) {
		return fmt.Sprintf("skipped %v, want %v", got.skipped, want.skipped)
	}
	return ""
}
