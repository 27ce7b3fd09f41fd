package stats_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/stats"
)

// sharedBags is the shared bags from this folder.
const sharedBags = "../../../shared/bags"

// refFigures is one topic's or connection's figures from testdata/ref_freq.py.
type refFigures struct {
	Messages  int        `json:"messages"`
	First     int64      `json:"first"`
	Last      int64      `json:"last"`
	Frequency *float64   `json:"frequency"`
	Min       int64      `json:"min"`
	Median    int64      `json:"median"`
	Max       int64      `json:"max"`
	Jitter    float64    `json:"jitter"`
	Gaps      [][2]int64 `json:"gaps"`
	Info      *string    `json:"info"`
	YAML      *string    `json:"yaml"`
	// Unsorted: the reference's entries were out of time order (see
	// ref_freq.py); the figures are of the sorted ones.
	Unsorted bool     `json:"unsorted"`
	RefFreq  *float64 `json:"reference_frequency"`
}

type refBag struct {
	Path   string                 `json:"path"`
	Error  string                 `json:"error"`
	Topics map[string]*refFigures `json:"topics"`
	Conns  map[string]*refFigures `json:"conns"`
}

// refFreq runs testdata/ref_freq.py on paths, one JSON line per bag.
func refFreq(t *testing.T, paths []string) map[string]*refBag {
	t.Helper()
	out, err := exec.Command(reftest.Python, append([]string{"../../testdata/ref_freq.py"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("ref_freq.py: %v", err)
	}
	refs := map[string]*refBag{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r refBag
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("ref_freq.py output: %v", err)
		}
		refs[r.Path] = &r
	}
	return refs
}

// compareFigures checks our statistics against the reference's figures:
// the rate bit for bit and as `rosbag info --freq` and `--yaml` print it,
// the intervals and gaps exactly, the jitter to 1e-9.
func compareFigures(t *testing.T, what string, got *stats.Topic, want *refFigures) {
	t.Helper()
	if got == nil {
		if want.Messages != 0 {
			t.Errorf("%s: no statistics, the reference has %d messages", what, want.Messages)
		}
		return
	}
	if got.Messages != want.Messages || got.First != want.First || got.Last != want.Last {
		t.Errorf("%s: %d messages %d..%d, reference %d messages %d..%d", what, got.Messages, got.First, got.Last, want.Messages, want.First, want.Last)
	}
	switch {
	case want.Frequency == nil && got.HasRate:
		t.Errorf("%s: rate %v, the reference shows none", what, got.Rate)
	case want.Frequency != nil && !got.HasRate:
		t.Errorf("%s: no rate, the reference shows %v", what, *want.Frequency)
	case want.Frequency != nil && got.Rate != *want.Frequency:
		t.Errorf("%s: rate %v, the reference computes %v", what, got.Rate, *want.Frequency)
	}
	if want.Unsorted {
		// The reference merges each connection's index in file order:
		// with chunks out of time order its intervals go negative and
		// its rate is not one. Ours is of the sorted times.
		t.Logf("%s: entries out of time order; the reference's rate %v, ours (sorted) %v", what, fmtRate(want.RefFreq), got.Rate)
	} else if want.Info != nil && (!got.HasRate || stats.RosbagFrequency(got.Rate) != *want.Info) {
		t.Errorf("%s: rosbag info --freq prints %q, ours %q", what, *want.Info, stats.RosbagFrequency(got.Rate))
	}
	if !want.Unsorted && want.YAML != nil && (!got.HasRate || fmt.Sprintf("%.4f", got.Rate) != *want.YAML) {
		t.Errorf("%s: rosbag info --yaml --freq prints %q, ours %.4f", what, *want.YAML, got.Rate)
	}
	if got.MinInterval != want.Min || got.MedianInterval != want.Median || got.MaxInterval != want.Max {
		t.Errorf("%s: intervals min/median/max %d/%d/%d, reference %d/%d/%d", what, got.MinInterval, got.MedianInterval, got.MaxInterval, want.Min, want.Median, want.Max)
	}
	if d := math.Abs(got.Jitter - want.Jitter); d > 1e-9*max(1, want.Jitter) {
		t.Errorf("%s: jitter %v, reference %v", what, got.Jitter, want.Jitter)
	}
	if got.GapCount != len(want.Gaps) {
		t.Errorf("%s: %d gaps, reference %d", what, got.GapCount, len(want.Gaps))
	}
	for i := range min(len(got.Gaps), len(want.Gaps)) {
		if g := got.Gaps[i]; g.Start != want.Gaps[i][0] || g.End != want.Gaps[i][1] {
			t.Errorf("%s: gap %d %d..%d, reference %v", what, i, g.Start, g.End, want.Gaps[i])
			break
		}
	}
}

func fmtRate(f *float64) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprint(*f)
}

// TestStatsMatchReference compares every topic's and connection's
// statistics of every ROS 1 bag the reference reads (the shared bags and
// the project's fixtures) with the reference's `rosbag info --freq`
// arithmetic (testdata/ref_freq.py).
func TestStatsMatchReference(t *testing.T) {
	reftest.RequireRef(t)
	paths := reftest.SharedBagPaths(t, sharedBags)
	fixtures, _ := filepath.Glob("../../testdata/*.bag")
	paths = append(paths, fixtures...)
	refs := refFreq(t, paths)
	compared, rates := 0, 0
	for _, p := range paths {
		ref := refs[p]
		if ref == nil {
			t.Errorf("%s: no reference output", p)
			continue
		}
		if ref.Error != "" {
			continue // the reference cannot read it
		}
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			d, err := model.Open(context.Background(), p, nil)
			if err != nil {
				t.Fatalf("the reference reads it, bagscope cannot: %v", err)
			}
			defer d.Close()
			x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			set, err := model.ComputeStats(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			for topic, want := range ref.Topics {
				compareFigures(t, topic, set.Topic(topic), want)
				if want.Frequency != nil {
					rates++
				}
			}
			for id, want := range ref.Conns {
				var n uint32
				fmt.Sscan(id, &n)
				compareFigures(t, "connection "+id, set.Conn(n), want)
			}
			for topic := range set.Topics {
				if ref.Topics[topic] == nil {
					t.Errorf("%s: not a topic of the reference", topic)
				}
			}
			compared++
		})
	}
	t.Logf("%d bags, %d topic rates compared with the reference", compared, rates)
	if compared == 0 {
		t.Fatal("no bag compared")
	}
}

// naiveStats is the definition, by sorting: what ComputeStats must equal.
func naiveStats(times []int64) *stats.Topic {
	s := &stats.Topic{Messages: len(times)}
	if len(times) == 0 {
		return s
	}
	s.First, s.Last = times[0], times[len(times)-1]
	if len(times) < 2 {
		return s
	}
	var iv []int64
	var periods []float64
	for i := 1; i < len(times); i++ {
		iv = append(iv, times[i]-times[i-1])
		periods = append(periods, stats.RosSec(times[i])-stats.RosSec(times[i-1]))
	}
	sorted := slices.Clone(iv)
	slices.Sort(sorted)
	slices.Sort(periods)
	n := len(sorted)
	s.MinInterval, s.MaxInterval = sorted[0], sorted[n-1]
	var med float64
	if n%2 == 1 {
		s.MedianInterval, med = sorted[n/2], periods[n/2]
	} else {
		s.MedianInterval = (sorted[n/2-1] + sorted[n/2]) / 2
		med = (periods[n/2-1] + periods[n/2]) / 2
	}
	if med > 0 {
		s.Rate, s.HasRate = 1/med, true
	}
	var mean float64
	for _, d := range iv {
		mean += float64(d)
	}
	mean /= float64(n)
	var ss float64
	for _, d := range iv {
		ss += (float64(d) - mean) * (float64(d) - mean)
	}
	s.Jitter = math.Sqrt(ss / float64(n))
	for i, d := range iv {
		if s.MedianInterval > 0 && d > stats.GapFactor*s.MedianInterval {
			s.GapCount++
			s.Gaps = append(s.Gaps, stats.Gap{times[i], times[i+1]})
		}
	}
	return s
}

func sameStats(t *testing.T, name string, got, want *stats.Topic) {
	t.Helper()
	jit := math.Abs(got.Jitter-want.Jitter) <= 1e-6*max(1, want.Jitter)
	g, w := *got, *want
	g.Jitter, w.Jitter = 0, 0
	if len(g.Gaps) == 0 {
		g.Gaps = nil
	}
	if len(w.Gaps) == 0 {
		w.Gaps = nil
	}
	if !jit || fmt.Sprint(g) != fmt.Sprint(w) {
		t.Errorf("%s:\n got %+v\nwant %+v", name, *got, *want)
	}
}

// TestStatsSynthetic checks the figures on made-up times: uniform,
// bursty, with gaps, one message, equal times.
func TestStatsSynthetic(t *testing.T) {
	const ms = int64(1e6)
	base := int64(1_700_000_000_123_456_789)
	uniform := func(n int, step int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = base + int64(i)*step
		}
		return out
	}
	var bursty []int64 // bursts of 5 messages 1 ms apart, every 100 ms
	for b := range 20 {
		for k := range 5 {
			bursty = append(bursty, base+int64(b)*100*ms+int64(k)*ms)
		}
	}
	gaps := uniform(50, 10*ms)
	for i := 20; i < 50; i++ {
		gaps[i] += 500 * ms // a 510 ms interval after message 19
	}
	for i := 40; i < 50; i++ {
		gaps[i] += 31 * ms // and a 41 ms one (> 30 ms) after message 39
	}

	cases := []struct {
		name  string
		times []int64
		check func(*testing.T, *stats.Topic)
	}{
		{"empty", nil, func(t *testing.T, s *stats.Topic) {
			if s.HasRate || s.Messages != 0 || s.RateText() != "—" {
				t.Errorf("%+v", s)
			}
		}},
		{"single", []int64{base}, func(t *testing.T, s *stats.Topic) {
			if s.HasRate || s.Messages != 1 || s.Span() != 0 || s.RateText() != "—" || s.MaxInterval != 0 {
				t.Errorf("%+v", s)
			}
		}},
		{"equal times", []int64{base, base, base, base}, func(t *testing.T, s *stats.Topic) {
			if s.HasRate || s.MedianInterval != 0 || s.GapCount != 0 || s.RateText() != "—" {
				t.Errorf("%+v", s)
			}
		}},
		{"two", []int64{base, base + 250*ms}, func(t *testing.T, s *stats.Topic) {
			if !s.HasRate || s.RateText() != "4.0" || s.Jitter != 0 {
				t.Errorf("%+v %q", s, s.RateText())
			}
		}},
		{"uniform 10 Hz", uniform(77, 100*ms), func(t *testing.T, s *stats.Topic) {
			if stats.RosbagFrequency(s.Rate) != "10.0 Hz" || s.MedianInterval != 100*ms || s.Jitter != 0 || s.GapCount != 0 || s.Span() != 7600*ms {
				t.Errorf("%+v", s)
			}
		}},
		{"uniform 2 kHz", uniform(1000, ms/2), func(t *testing.T, s *stats.Topic) {
			// The reference's float seconds hold 1.7e9 s to 238 ns: its
			// median interval is 499.964 µs, not 500 µs.
			if stats.RosbagFrequency(s.Rate) != "2.0 kHz" || s.RateText() != "2000.1" || s.MedianInterval != ms/2 {
				t.Errorf("%+v %s", s, stats.RosbagFrequency(s.Rate))
			}
		}},
		{"slow", uniform(4, 40*1000*ms), func(t *testing.T, s *stats.Topic) {
			if s.RateText() != "0.025" || stats.RosbagFrequency(s.Rate) != "0.0 Hz" {
				t.Errorf("%+v %q", s, s.RateText())
			}
		}},
		{"bursty", bursty, func(t *testing.T, s *stats.Topic) {
			// 80 intervals of 1 ms, 19 of 96 ms: the median is 1 ms, so
			// each pause between bursts is a gap.
			if s.MedianInterval != ms || s.MinInterval != ms || s.MaxInterval != 96*ms || s.GapCount != 19 {
				t.Errorf("%+v", s)
			}
			if got := stats.RosbagFrequency(s.Rate); got != "1000.0 Hz" && got != "1.0 kHz" {
				t.Errorf("rate %s", got)
			}
		}},
		{"gaps", gaps, func(t *testing.T, s *stats.Topic) {
			want := []stats.Gap{{gaps[19], gaps[20]}, {gaps[39], gaps[40]}}
			if s.GapCount != 2 || !slices.Equal(s.Gaps, want) || s.MaxInterval != 510*ms {
				t.Errorf("%+v", s)
			}
			if !strings.Contains(s.Detail(), "2 gaps > 3× median (longest 510 ms)") {
				t.Errorf("detail %q", s.Detail())
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := stats.OfTimes(c.times)
			sameStats(t, c.name, got, naiveStats(c.times))
			c.check(t, got)
		})
	}
}

// TestStatsRandom checks the radix selection against sorting on random
// times: many ties, an even and an odd number of intervals, huge spans;
// over intervals copied to slices and streamed from the index.
func TestStatsRandom(t *testing.T) {
	for _, buffered := range []int{1 << 20, 0, 20} {
		t.Run(fmt.Sprintf("buffered %d", buffered), func(t *testing.T) {
			defer stats.SetMaxBuffered(buffered)()
			statsRandom(t)
		})
	}
}

func statsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		n := r.IntN(60)
		times := make([]int64, n)
		spread := []int64{3, 1000, 1e9, 1e15}[i%4]
		base := r.Int64N(2e18)
		for k := range times {
			times[k] = base + r.Int64N(spread)
		}
		slices.Sort(times)
		sameStats(t, fmt.Sprintf("case %d (%d times)", i, n), stats.OfTimes(times), naiveStats(times))
	}
}

// TestStatsPerConnection checks that a topic's connections get their own
// figures, and that a topic with one connection shares its topic's.
func TestStatsPerConnection(t *testing.T) {
	const ms = int64(1e6)
	x := model.NewMessageIndex(
		model.NewTopicMessages("/a", []msgref.Ref{{T: 0}, {T: 10 * ms}, {T: 20 * ms}}),
		model.NewTopicMessages("/b", []msgref.Ref{
			{T: 0, Loc: msgref.Loc{Conn: 1}}, {T: 5 * ms, Loc: msgref.Loc{Conn: 2}},
			{T: 100 * ms, Loc: msgref.Loc{Conn: 1}}, {T: 105 * ms, Loc: msgref.Loc{Conn: 2}},
			{T: 200 * ms, Loc: msgref.Loc{Conn: 1}}, {T: 205 * ms, Loc: msgref.Loc{Conn: 2}},
		}),
	)
	set, err := model.ComputeStats(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if set.Conn(0) != set.Topic("/a") {
		t.Error("a topic's only connection does not share its statistics")
	}
	if s := set.Conn(1); s.Messages != 3 || s.MedianInterval != 100*ms || s.RateText() != "10.0" {
		t.Errorf("connection 1: %+v", s)
	}
	if s := set.Conn(2); s.Messages != 3 || s.First != 5*ms {
		t.Errorf("connection 2: %+v", s)
	}
	if s := set.Topic("/b"); s.Messages != 6 || s.MedianInterval != 5*ms {
		t.Errorf("/b: %+v", s)
	}
}

// TestStatsOtherFormats computes the statistics of an MCAP and a .db3
// recording from the message index and checks them against the
// definition applied to the times the message iterator yields.
func TestStatsOtherFormats(t *testing.T) {
	for _, p := range []string{
		sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap",
		sharedBags + "/facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3",
	} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			d, err := model.Open(context.Background(), p, nil)
			if err != nil {
				reftest.SkipOrFail(t, err)
			}
			defer d.Close()
			x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			set, err := model.ComputeStats(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			times := map[string][]int64{}
			it := d.Storage.Messages(bag.MessageFilter{})
			for it.Next() {
				m := it.Message()
				times[m.Conn.Topic] = append(times[m.Conn.Topic], m.Time.Nanos())
			}
			it.Close()
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			rates := 0
			for topic, ts := range times {
				slices.Sort(ts)
				got := set.Topic(topic)
				if got == nil {
					t.Fatalf("%s: no statistics", topic)
				}
				sameStats(t, topic, got, naiveStats(ts))
				if got.HasRate {
					rates++
				}
			}
			if rates == 0 {
				t.Error("no topic with a rate")
			}
			t.Logf("%d topics, %d with a rate", len(times), rates)
		})
	}
}

func BenchmarkComputeStats(b *testing.B) {
	refs := make([]msgref.Ref, 1_000_000)
	r := rand.New(rand.NewPCG(3, 4))
	t := int64(1_700_000_000e9)
	for i := range refs {
		t += 10e6 + r.Int64N(1e6)
		refs[i].T = t
	}
	x := model.NewMessageIndex(model.NewTopicMessages("/a", refs))
	b.ReportAllocs()
	for b.Loop() {
		model.ComputeStats(context.Background(), x)
	}
}
