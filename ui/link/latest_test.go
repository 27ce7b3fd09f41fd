package link

import (
	"slices"
	"testing"
)

// TestLatestFoldsMoves asks for reads while one runs: only the newest time
// asked for is read after it, each read's result is applied, and a time
// asked for once all reads ended starts a read at once.
func TestLatestFoldsMoves(t *testing.T) {
	var started, applied []int64
	var finishes []func(func())
	r := NewLatest(func(t int64, finish func(apply func())) {
		started = append(started, t)
		finishes = append(finishes, func(apply func()) { finish(apply) })
	})
	end := func() {
		f := finishes[0]
		finishes = finishes[1:]
		at := started[len(started)-len(finishes)-1]
		f(func() { applied = append(applied, at) })
	}
	r.At(1)
	r.At(2)
	r.At(3)
	if !r.Reading() || r.Want() != 3 || !slices.Equal(started, []int64{1}) {
		t.Fatalf("while reading 1: started %v, reading %v, want %d", started, r.Reading(), r.Want())
	}
	end() // 1 ends: 3 starts, 2 is never read
	if !slices.Equal(started, []int64{1, 3}) || !slices.Equal(applied, []int64{1}) {
		t.Fatalf("after the first read: started %v, applied %v", started, applied)
	}
	end()
	if r.Reading() || !slices.Equal(applied, []int64{1, 3}) {
		t.Fatalf("after the second read: reading %v, applied %v", r.Reading(), applied)
	}
	r.At(4)
	if !slices.Equal(started, []int64{1, 3, 4}) {
		t.Fatalf("a time asked for when idle: started %v", started)
	}
	end()
	if !slices.Equal(applied, []int64{1, 3, 4}) {
		t.Fatalf("applied %v", applied)
	}
}
