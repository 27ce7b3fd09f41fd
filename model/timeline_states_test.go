package model

import (
	"slices"
	"testing"
)

func TestStateLaneNormalizeAndAt(t *testing.T) {
	l := StateLane{Name: "motor", Spans: []StateSpan{
		{Start: 30, End: 50, Tone: ToneBad, Text: "c"},
		{Start: 10, End: 40, Tone: ToneWarn, Text: "b"}, // overlaps the next: cut at 30
		{Start: 0, End: 10, Tone: ToneGood, Text: "a"},
		{Start: 60, End: 60, Tone: ToneGood, Text: "empty"},
	}}
	l.Normalize()
	var got []string
	for _, s := range l.Spans {
		got = append(got, s.Text)
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) || l.Spans[1].End != 30 {
		t.Fatalf("normalized %+v", l.Spans)
	}
	for _, tc := range []struct {
		t    int64
		want string
	}{{-1, ""}, {0, "a"}, {9, "a"}, {10, "b"}, {29, "b"}, {30, "c"}, {49, "c"}, {50, ""}, {70, ""}} {
		s, ok := l.At(tc.t)
		if ok != (tc.want != "") || s.Text != tc.want {
			t.Errorf("At(%d) = %q %v, want %q", tc.t, s.Text, ok, tc.want)
		}
	}
}

// TestStateLaneColumns: a column takes the highest tone of the spans it
// overlaps, so a short error among OKs shows at any zoom.
func TestStateLaneColumns(t *testing.T) {
	l := StateLane{Spans: []StateSpan{
		{Start: 0, End: 500, Tone: ToneGood},
		{Start: 500, End: 501, Tone: ToneBad}, // 1 ns of error
		{Start: 501, End: 800, Tone: ToneGood},
	}}
	for _, tc := range []struct {
		t0, t1 int64
		cols   int
		want   []StateTone
	}{
		{0, 1000, 10, []StateTone{2, 2, 2, 2, 2, 6, 2, 2, 0, 0}},
		{0, 1000, 2, []StateTone{2, 6}},
		{400, 600, 4, []StateTone{2, 2, 6, 2}},
		{900, 1000, 3, []StateTone{0, 0, 0}},
		{0, 1000, 0, nil},
	} {
		if got := l.Columns(tc.t0, tc.t1, tc.cols); !slices.Equal(got, tc.want) {
			t.Errorf("Columns(%d, %d, %d) = %v, want %v", tc.t0, tc.t1, tc.cols, got, tc.want)
		}
	}
}

// TestNextChange steps through the edges of two lanes both ways: every
// start, and an end where the lane goes empty, never an end that the
// next span starts at.
func TestNextChange(t *testing.T) {
	lanes := []StateLane{
		{Spans: []StateSpan{{Start: 10, End: 20}, {Start: 20, End: 40}}},
		{Spans: []StateSpan{{Start: 15, End: 25}, {Start: 30, End: 50}}},
	}
	var fwd []int64
	for t0, ok := int64(0), true; ; {
		t0, ok = NextChange(lanes, t0, true)
		if !ok {
			break
		}
		fwd = append(fwd, t0)
	}
	if want := []int64{10, 15, 20, 25, 30, 40, 50}; !slices.Equal(fwd, want) {
		t.Errorf("forward %v, want %v", fwd, want)
	}
	var back []int64
	for t0, ok := int64(100), true; ; {
		t0, ok = NextChange(lanes, t0, false)
		if !ok {
			break
		}
		back = append(back, t0)
	}
	if want := []int64{50, 40, 30, 25, 20, 15, 10}; !slices.Equal(back, want) {
		t.Errorf("backward %v, want %v", back, want)
	}
}
