package diag

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diag/diagtest"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

func open(t *testing.T, path string) bag.Storage {
	t.Helper()
	st, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// recordings are the generated recordings, ROS 1 and ROS 2, each with
// its messages as the reference reader gives them.
func recordings(t *testing.T) map[string]string {
	spec := diagtest.Spec()
	// testdata/diag.bag is the README picture's: the same spec, written
	// once.
	recs := map[string]string{"ROS 1 bag": diagtest.Bag(t, spec), "ROS 2 MCAP": diagtest.MCAP(t, spec), "testdata/diag.bag": "../../testdata/diag.bag"}
	// A shared recording with diagnostics, as rosbag and mcap-ros2-support
	// wrote it.
	for _, f := range []string{"test_sample.bag", "test_sample.mcap"} {
		p := "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/" + f
		if _, err := os.Stat(p); err != nil {
			reftest.SkipOrFail(t, err)
		}
		recs["shared "+f] = p
	}
	return recs
}

// TestTableMatchesReference reads the table at times through the
// recordings (before the first message, on a message, between messages,
// after a status stopped, the end, and each status's latest) and compares
// every row with each status's latest report at that time as the
// reference reader gives the raw messages; with the history's window and
// without it.
func TestTableMatchesReference(t *testing.T) {
	for name, path := range recordings(t) {
		t.Run(name, func(t *testing.T) {
			ref := diagtest.Reference(t, path)
			if !strings.HasPrefix(name, "shared") && len(ref) != len(diagtest.Spec()) {
				t.Fatalf("the reference reads %d messages, the spec has %d", len(ref), len(diagtest.Spec()))
			}
			if len(ref) == 0 {
				t.Fatal("the reference reads no diagnostics")
			}
			st := open(t, path)
			h, err := ReadHistory(context.Background(), st, Options{})
			if err != nil || h.Undecodable > 0 {
				t.Fatalf("history: %v, %d undecodable (%s)", err, h.Undecodable, h.First)
			}
			s := ref[0].TimeNS
			for _, at := range []int64{0, s, s + 1, s + 1_500_000_000, s + 3_250_000_000, s + 5_000_000_000, s + 5_100_000_000, s + 13_700_000_000, s + 19_600_000_000} {
				want := diagtest.Latest(ref, at)
				if at == 0 {
					want = diagtest.Latest(ref, 1<<62)
				}
				for _, hist := range []*History{h, nil} {
					tb, err := TableAt(context.Background(), st, hist, bag.TimeFromNanos(at), Options{})
					if err != nil || tb.Undecodable > 0 {
						t.Fatalf("at %d: %v, %d undecodable", at, err, tb.Undecodable)
					}
					compareTable(t, fmt.Sprintf("at +%.2fs (window %v)", float64(at-s)/1e9, hist != nil), tb, want)
				}
			}
		})
	}
}

func compareTable(t *testing.T, at string, tb *Table, want map[[2]string]diagtest.StatusSpec) {
	t.Helper()
	if len(tb.Rows) != len(want) {
		t.Errorf("%s: %d rows, the reference %d", at, len(tb.Rows), len(want))
	}
	for _, r := range tb.Rows {
		w, ok := want[[2]string{r.Topic, r.Name}]
		if !ok {
			t.Errorf("%s: row %s %q not in the reference", at, r.Topic, r.Name)
			continue
		}
		var vals [][2]string
		for _, kv := range r.Values {
			vals = append(vals, [2]string{kv.Key, kv.Value})
		}
		if uint8(r.Level) != w.Level || r.Message != w.Message || r.HardwareID != w.HardwareID || !slices.Equal(vals, w.Values) {
			t.Errorf("%s: %s %q: level %d %q hw %q %v, the reference level %d %q hw %q %v", at, r.Topic, r.Name,
				r.Level, r.Message, r.HardwareID, vals, w.Level, w.Message, w.HardwareID, w.Values)
		}
	}
}

// TestHistoryMatchesReference: each status's level intervals are the
// level changes in the reference's messages, the last ending at the
// recording's end; the lanes say the same, and stepping through the
// changes with model.NextChange visits every change time, both ways.
func TestHistoryMatchesReference(t *testing.T) {
	for name, path := range recordings(t) {
		t.Run(name, func(t *testing.T) {
			ref := diagtest.Reference(t, path)
			st := open(t, path)
			h, err := ReadHistory(context.Background(), st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, recEnd := model.TimeRange(st)
			end := recEnd.Nanos() // the recording's, which other topics may set
			type span struct {
				start, end int64
				level      uint8
				msg        string
			}
			want := map[Key][]span{}
			changes := map[int64]bool{}
			for _, m := range ref {
				for _, s := range m.Statuses {
					k := Key{m.Topic, s.Name}
					sp := want[k]
					if n := len(sp); n == 0 || sp[n-1].level != s.Level {
						if n > 0 {
							sp[n-1].end = m.TimeNS
						}
						sp = append(sp, span{start: m.TimeNS, end: end + 1, level: s.Level, msg: s.Message})
						changes[m.TimeNS] = true
					}
					want[k] = sp
				}
			}
			// A status that stopped reporting (no report for more than
			// twice its longest interval) ends one interval after its
			// last report.
			last, gap, reports := map[Key]int64{}, map[Key]int64{}, map[Key]int{}
			for _, m := range ref {
				for _, s := range m.Statuses {
					k := Key{m.Topic, s.Name}
					if reports[k] > 0 {
						gap[k] = max(gap[k], m.TimeNS-last[k])
					}
					last[k] = m.TimeNS
					reports[k]++
				}
			}
			stopped := 0
			for k, sp := range want {
				if reports[k] > 1 && end-last[k] > 2*gap[k] {
					sp[len(sp)-1].end = last[k] + gap[k]
					changes[last[k]+gap[k]] = true
					stopped++
				}
			}
			if stopped == 0 && !strings.HasPrefix(name, "shared") {
				t.Error("no status stops reporting: the test needs one")
			}
			if len(h.Tracks) != len(want) {
				t.Errorf("%d tracks, the reference %d statuses", len(h.Tracks), len(want))
			}
			lanes := h.Lanes()
			for i, tr := range h.Tracks {
				var got []span
				for _, s := range tr.Spans {
					got = append(got, span{s.Start, s.End, uint8(s.Level), s.Message})
				}
				if !slices.Equal(got, want[tr.Key]) {
					t.Errorf("%v: spans %v, the reference %v", tr.Key, got, want[tr.Key])
				}
				if len(lanes[i].Spans) != len(got) || lanes[i].Name != tr.Name {
					t.Errorf("lane %d %q: %d spans for %v", i, lanes[i].Name, len(lanes[i].Spans), tr.Key)
				}
				for j, s := range lanes[i].Spans {
					if s.Tone != tr.Spans[j].Level.Tone() || s.Start != tr.Spans[j].Start {
						t.Errorf("lane %q span %d: %+v", lanes[i].Name, j, s)
					}
				}
			}
			var wantSteps []int64
			for c := range changes {
				wantSteps = append(wantSteps, c)
			}
			slices.Sort(wantSteps)
			var steps []int64
			for at, ok := int64(0), true; ; {
				if at, ok = model.NextChange(lanes, at, true); !ok || at > end {
					break
				}
				steps = append(steps, at)
			}
			if !slices.Equal(steps, wantSteps) {
				t.Errorf("forward through the changes: %v, the reference %v", steps, wantSteps)
			}
			var back []int64
			for at, ok := end+1, true; ; {
				if at, ok = model.NextChange(lanes, at, false); !ok {
					break
				}
				back = append(back, at)
			}
			slices.Reverse(back)
			if !slices.Equal(back, wantSteps) {
				t.Errorf("backward through the changes: %v, the reference %v", back, wantSteps)
			}
		})
	}
}

// TestFilter filters the latest table by level and by a name's substring
// (any case), as the reference's statuses filtered the same way.
func TestFilter(t *testing.T) {
	path := diagtest.Bag(t, diagtest.Spec())
	ref := diagtest.Latest(diagtest.Reference(t, path), 1<<62)
	tb, err := TableAt(context.Background(), open(t, path), nil, bag.Time{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{
		{},
		{Name: "WHEEL"},
		{Levels: map[Level]bool{Warn: true, Error: true}},
		{Levels: map[Level]bool{OK: true}, Name: "robot"},
		{Name: "no such status"},
	} {
		var want []string
		for k, s := range ref {
			lvOK := len(f.Levels) == 0 || f.Levels[Level(s.Level)]
			if lvOK && (f.Name == "" || containsFold(s.Name, f.Name)) {
				want = append(want, k[0]+" "+k[1])
			}
		}
		var got []string
		for _, r := range tb.Filtered(f) {
			got = append(got, r.Topic+" "+r.Name)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("filter %+v: %v, want %v", f, got, want)
		}
	}
}

// containsFold is strings.Contains on upper-cased ASCII.
func containsFold(s, sub string) bool {
	up := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			if 'a' <= c && c <= 'z' {
				b[i] = c - 'a' + 'A'
			}
		}
		return string(b)
	}
	return strings.Contains(up(s), up(sub))
}

func TestLevelNames(t *testing.T) {
	for _, tc := range []struct {
		l    Level
		name string
	}{{OK, "OK"}, {Warn, "WARN"}, {Error, "ERROR"}, {Stale, "STALE"}, {7, "LEVEL 7"}} {
		if tc.l.String() != tc.name {
			t.Errorf("%d: %q", tc.l, tc.l.String())
		}
		if l, ok := ParseLevel(tc.name); ok != (tc.l <= Stale) || ok && l != tc.l {
			t.Errorf("ParseLevel(%q) = %v %v", tc.name, l, ok)
		}
	}
	if l, ok := ParseLevel("warn"); !ok || l != Warn {
		t.Errorf("ParseLevel(warn) = %v %v", l, ok)
	}
}
