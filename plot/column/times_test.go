package column

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// columns are the plain slices the compact column replaces, named by what
// they exercise.
func columns() map[string][]int64 {
	r := rand.New(rand.NewPCG(1, 2))
	steady := make([]int64, 1000)
	for i := range steady {
		steady[i] = 1_700_000_000_000_000_000 + int64(i)*10_000_000 // 100 Hz
	}
	jitter := make([]int64, 5000)
	t := int64(1_600_000_000_000_000_000)
	for i := range jitter {
		t += r.Int64N(50_000_000)
		jitter[i] = t
	}
	huge := []int64{0, 1, math.MaxUint32, math.MaxUint32 + 1, 1 << 40, 1<<40 + 3, math.MaxInt64}
	back := make([]int64, 700)
	for i := range back {
		back[i] = 1_000_000_000_000 + int64(i%300)*1_000_000 - int64(i/300)*5_000_000_000 // steps back
	}
	extremes := []int64{math.MinInt64, math.MaxInt64, math.MinInt64, -1, 0, 1, math.MaxInt64}
	random := make([]int64, 3000)
	for i := range random {
		random[i] = int64(r.Uint64())
	}
	mixed := slices.Concat(steady[:130], huge, steady[130:400], extremes, back[:200])
	equal := make([]int64, 300)
	for i := range equal {
		equal[i] = 42
	}
	return map[string][]int64{
		"empty": nil, "one": {-5}, "block": steady[:128], "block+1": steady[:129],
		"steady": steady, "jitter": jitter, "huge steps": huge, "steps back": back,
		"int64 extremes": extremes, "random bits": random, "mixed blocks": mixed, "equal times": equal,
	}
}

func TestTimesRoundTrip(t *testing.T) {
	for name, want := range columns() {
		t.Run(name, func(t *testing.T) {
			c := FromSlice(want)
			if c.Len() != len(want) {
				t.Fatalf("Len = %d, want %d", c.Len(), len(want))
			}
			for i, w := range want {
				if got := c.At(i); got != w {
					t.Fatalf("At(%d) = %d, want %d", i, got, w)
				}
			}
			if got := c.Decode(nil, 0, len(want)); !slices.Equal(got, want) {
				t.Fatalf("Decode differs")
			}
			for _, r := range [][2]int{{0, 0}, {1, 3}, {100, 260}, {127, 129}} {
				if r[1] <= len(want) {
					if got := c.Decode(nil, r[0], r[1]); !slices.Equal(got, want[r[0]:r[1]]) {
						t.Errorf("Decode(%d, %d) = %v, want %v", r[0], r[1], got, want[r[0]:r[1]])
					}
				}
			}
			var buf [128]int64
			var all []int64
			for k := 0; k*128 < len(want); k++ {
				n := c.DecodeBlock(&buf, k)
				all = append(all, buf[:n]...)
			}
			if !slices.Equal(all, want) && len(want) > 0 {
				t.Errorf("DecodeBlock differs")
			}
			if !c.Equal(FromSlice(slices.Clone(want))) {
				t.Errorf("not Equal to a copy")
			}
		})
	}
}

func TestTimesSearch(t *testing.T) {
	for name, ts := range columns() {
		if !slices.IsSorted(ts) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			c := FromSlice(ts)
			probe := []int64{math.MinInt64, math.MaxInt64}
			for _, v := range ts {
				probe = append(probe, v, v-1, v+1)
			}
			for _, p := range probe {
				want, _ := slices.BinarySearch(ts, p)
				if got := c.Search(p); got != want {
					t.Fatalf("Search(%d) = %d, want %d", p, got, want)
				}
			}
		})
	}
}

func TestTimesEqual(t *testing.T) {
	a := columns()["jitter"]
	b := slices.Clone(a)
	b[4000]++
	tests := []struct {
		name string
		x, y []int64
		want bool
	}{
		{"same", a, slices.Clone(a), true},
		{"one time differs", a, b, false},
		{"shorter", a, a[:4999], false},
		{"both empty", nil, []int64{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromSlice(tt.x).Equal(FromSlice(tt.y)); got != tt.want {
				t.Errorf("Equal = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTimesSize checks the bytes a time: 4.125 for a steady rate above
// 30 Hz, 8.125 (whole) for blocks spanning 4.29 s or more, and that Grow sizes exactly.
func TestTimesSize(t *testing.T) {
	tests := []struct {
		name string
		step int64
		max  float64
	}{
		{"1 kHz", 1_000_000, 4.2},
		{"10 Hz", 100_000_000, 8.2}, // 128 × 0.1 s = 12.8 s: whole
		{"30 Hz", 33_000_000, 4.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 100_000
			var b Builder
			b.Grow(n)
			for i := range n {
				b.Append(int64(i) * tt.step)
			}
			c := b.Times()
			if got := float64(c.Bytes()) / n; got > tt.max {
				t.Errorf("%.2f bytes a time, want at most %.2f", got, tt.max)
			}
		})
	}
}

func BenchmarkTimesDecodeBlock(b *testing.B) {
	ts := columns()["jitter"]
	c := FromSlice(ts)
	var buf [128]int64
	b.ReportAllocs()
	for b.Loop() {
		for k := 0; k*128 < len(ts); k++ {
			c.DecodeBlock(&buf, k)
		}
	}
	b.ReportMetric(float64(len(ts))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtimes/s")
}
