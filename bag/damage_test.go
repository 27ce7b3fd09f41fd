package bag

import (
	"testing"
)

func TestCountWithin(t *testing.T) {
	cases := []struct {
		name      string
		c         Count
		lo, hi    uint64
		unbounded bool
		want      Count
	}{
		{"unknown takes the bounds", Count{}, 3, 9, false, Between(3, 9)},
		{"exact stays", Exactly(5), 3, 9, false, Exactly(5)},
		{"narrowed from both sides", Between(1, 20), 4, 12, false, Between(4, 12)},
		{"a floor without a ceiling", AtLeast(2), 7, 0, true, AtLeast(7)},
		{"contradicting evidence is left out", Exactly(5), 8, 9, false, Exactly(5)},
		{"pinned", Between(0, 21), 21, 21, false, Exactly(21)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Within(tc.lo, tc.hi, tc.unbounded); got != tc.want {
				t.Errorf("%v.Within(%d, %d, %v) = %v, want %v", tc.c, tc.lo, tc.hi, tc.unbounded, got, tc.want)
			}
		})
	}
}

func TestCountString(t *testing.T) {
	for c, want := range map[Count]string{Exactly(1240): "1240", Between(20, 21): "20 to 21", AtLeast(3): "at least 3", {}: "at least 0"} {
		if got := c.String(); got != want {
			t.Errorf("%#v: %q, want %q", c, got, want)
		}
	}
}

// TestNarrowRanges: a claim of the whole narrows each range by what the
// others can and must hold.
func TestNarrowRanges(t *testing.T) {
	cases := []struct {
		name   string
		in     []Count
		lo, hi uint64
		want   []Count
	}{
		{"one unknown range takes the rest", []Count{{}, Exactly(10)}, 50, 50, []Count{Exactly(40), Exactly(10)}},
		{"bounded ranges are pinned", []Count{Between(20, 21), Exactly(21)}, 41, 42, []Count{Between(20, 21), Exactly(21)}},
		{"two unknown ranges share it", []Count{{}, {}}, 30, 30, []Count{Between(0, 30), Between(0, 30)}},
		{"a floor narrows the other", []Count{Between(0, 21), AtLeast(1933)}, 1954, 1954, []Count{Between(0, 21), Between(1933, 1954)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs := make([]LostRange, len(tc.in))
			for i, c := range tc.in {
				rs[i].Messages = c
			}
			narrowRanges(rs, tc.lo, tc.hi)
			for i, r := range rs {
				if r.Messages != tc.want[i] {
					t.Errorf("range %d: %v, want %v", i, r.Messages, tc.want[i])
				}
			}
		})
	}
}

// TestMergeRanges: a read that meets a range the opening found merges
// with it (the narrower count, the messages recovered), others add up.
func TestMergeRanges(t *testing.T) {
	scan := []ByteRange{{Start: 42, End: 1000, Unit: UnitChunk, Messages: Between(1, 30), Why: "cut"}}
	read := []ByteRange{
		{Start: 42, End: 1000, Messages: Exactly(1), Recovered: 4, Why: "read: cut"},
		{Start: 2000, End: 2100, Unit: UnitRecord, Messages: AtLeast(0), Why: "other"},
	}
	got := MergeRanges(scan, read)
	if len(got) != 2 {
		t.Fatalf("%d ranges, want 2: %+v", len(got), got)
	}
	if m := got[0]; m.Messages != Exactly(1) || m.Recovered != 4 || m.Unit != UnitChunk || m.Why != "read: cut" {
		t.Errorf("merged range %+v", m)
	}
}

// TestSettleClaim: a claim narrows the total and each range, and a claim
// of more messages than found with no range to hold them gets one.
func TestSettleClaim(t *testing.T) {
	d := &Damage{Read: 4654, Suspect: 1, Claim: &Claim{Messages: 4695, By: "metadata.yaml"},
		Ranges: []LostRange{{ByteRange: ByteRange{Start: 0, End: 4096, Messages: Between(20, 21)}}, {ByteRange: ByteRange{Start: 4096, End: 8192, Messages: AtLeast(0)}}}}
	d.settle(nil, 0, "f")
	if d.Messages != Between(41, 42) {
		t.Errorf("total %v, want 41 to 42", d.Messages)
	}
	if d.Ranges[1].Messages != Between(20, 22) {
		t.Errorf("second range %v, want 20 to 22", d.Ranges[1].Messages)
	}
	if d.Bytes != 8192 {
		t.Errorf("bytes %d", d.Bytes)
	}
	e := &Damage{Read: 90, Claim: &Claim{Messages: 100, By: "metadata.yaml"}}
	e.settle(nil, 0, "f")
	if !e.Lost() || len(e.Ranges) != 1 || e.Messages != Exactly(10) {
		t.Errorf("unexplained loss: %+v", e)
	}
	h := &Damage{Read: 100, Claim: &Claim{Messages: 100}}
	h.settle(nil, 0, "f")
	if h.Lost() || h.Messages != Exactly(0) {
		t.Errorf("nothing lost: %+v", h)
	}
}
