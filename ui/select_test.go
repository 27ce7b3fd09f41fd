package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/plots"
)

// TestParseSelectionAndRange reads --select and --range values, good and
// bad.
func TestParseSelectionAndRange(t *testing.T) {
	const start = int64(1_600_000_000_000_000_000)
	sels := []struct {
		in    string
		ok    bool
		topic string
		nanos int64
	}{
		{"/imu@12.5", true, "/imu", start + 12_500_000_000},
		{"/a@b@3s", true, "/a@b", start + 3_000_000_000},
		{"/imu@1600000001", true, "/imu", 1_600_000_001_000_000_000},
		{"/imu@", false, "", 0},
		{"@3", false, "", 0},
		{"/imu@-1", false, "", 0},
		{"/imu@NaN", false, "", 0},
	}
	for _, tc := range sels {
		s, err := parseSelection(tc.in)
		if (err == nil) != tc.ok || tc.ok && (s.topic != tc.topic || s.nanos(start) != tc.nanos) {
			t.Errorf("--select %q: %+v, %v", tc.in, s, err)
		}
	}
	ranges := []struct {
		in     string
		ok     bool
		t0, t1 int64
	}{
		{"100:110", true, start + 100e9, start + 110e9},
		{"0:0.5s", true, start, start + 5e8},
		{"1600000001:1600000002", true, 1_600_000_001e9, 1_600_000_002e9},
		{"110:100", false, 0, 0},
		{"5:5", false, 0, 0},
		{"-1:3", false, 0, 0},
		{"3", false, 0, 0},
		{"a:b", false, 0, 0},
		{"1:Inf", false, 0, 0},
	}
	for _, tc := range ranges {
		r, err := parseRange(tc.in)
		if (err == nil) != tc.ok || tc.ok && (r.a.nanos(start) != tc.t0 || r.b.nanos(start) != tc.t1) {
			t.Errorf("--range %q: %+v, %v", tc.in, r, err)
		}
	}
}

// TestApplyRange: --range shows its window in the plots (and the
// timeline, through the link's range).
func TestApplyRange(t *testing.T) {
	uitest.NewApp(t)
	l := link.NewHub(uitest.OpenDoc(t, "../testdata/lz4-multichunk.bag"), uitest.SyncRun)
	t.Cleanup(l.Close)
	g := plots.New(l)
	test.NewTempWindow(t, g.Content()).Resize(fyne.NewSize(1200, 700))
	r, err := parseRange("1:2")
	if err != nil {
		t.Fatal(err)
	}
	applyRange(l, r)
	start := l.Doc().Summary.Start.Nanos()
	t0, t1, ok := l.Range()
	if !ok || t0 != start+1e9 || t1 != start+2e9 {
		t.Errorf("link range %d..%d (%v), want %d..%d", t0, t1, ok, start+1e9, start+2e9)
	}
	if w0, w1 := g.Window(); w0 != start+1e9 || w1 != start+2e9 {
		t.Errorf("plots show %d..%d, want 1..2 s from the start", w0, w1)
	}
}
