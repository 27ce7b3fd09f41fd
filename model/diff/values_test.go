package diff

import (
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

func TestFloatsEqual(t *testing.T) {
	tests := []struct {
		x, y, tol float64
		want      bool
	}{
		{1, 1, 0, true},
		{1, 1 + 1e-12, 0, false},
		{1, 1 + 1e-12, 1e-9, true},
		{1e9, 1e9 + 0.5, 1e-9, true}, // relative above 1
		{1e9, 1e9 + 2, 1e-9, false},
		{0, 1e-10, 1e-9, true}, // absolute below 1
		{0, 2e-9, 1e-9, false},
		{math.NaN(), math.NaN(), 0, true},
		{math.NaN(), 0, 1, false},
		{math.Inf(1), math.Inf(1), 0, true},
		{math.Inf(1), math.Inf(-1), 1e-9, false},
	}
	for _, tc := range tests {
		if got := FloatsEqual(tc.x, tc.y, tc.tol); got != tc.want {
			t.Errorf("FloatsEqual(%g, %g, %g) = %v; want %v", tc.x, tc.y, tc.tol, got, tc.want)
		}
	}
}

// TestCompareNodes decodes two messages of one definition and names the
// first field that differs.
func TestCompareNodes(t *testing.T) {
	plan, err := rosmsg.Compile("t/T", "float64 x\nint32[] v\nstring s\n")
	if err != nil {
		t.Fatal(err)
	}
	msg := func(x float64, v []int32, s string) *rosmsg.Node {
		b := make([]byte, 0, 64)
		b = appendLE(b, math.Float64bits(x), 8)
		b = appendLE(b, uint64(len(v)), 4)
		for _, e := range v {
			b = appendLE(b, uint64(uint32(e)), 4)
		}
		b = appendLE(b, uint64(len(s)), 4)
		b = append(b, s...)
		n, err := plan.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	tests := []struct {
		a, b  *rosmsg.Node
		tol   float64
		field string
	}{
		{msg(1, []int32{1, 2}, "a"), msg(1, []int32{1, 2}, "a"), 0, ""},
		{msg(1, []int32{1, 2}, "a"), msg(1+1e-12, []int32{1, 2}, "a"), 1e-9, ""},
		{msg(1, []int32{1, 2}, "a"), msg(1+1e-12, []int32{1, 2}, "a"), 0, "x"},
		{msg(1, []int32{1, 2}, "a"), msg(1, []int32{1, 3}, "a"), 1, "v[1]"},
		{msg(1, []int32{1, 2}, "a"), msg(1, []int32{1}, "a"), 1, "v"},
		{msg(1, nil, "a"), msg(1, nil, "b"), 1, "s"},
	}
	for i, tc := range tests {
		field, _, _, differ := compareNodes(tc.a, tc.b, "", tc.tol)
		if differ != (tc.field != "") || field != tc.field {
			t.Errorf("%d: field %q, differ %v; want %q", i, field, differ, tc.field)
		}
	}
}

func appendLE(b []byte, v uint64, n int) []byte {
	for i := range n {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}
