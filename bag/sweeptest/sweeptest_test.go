package sweeptest

import (
	"fmt"
	"testing"
)

// TestKeepOneInEvery: without -long, each run of every consecutive cases
// keeps exactly one, the middle one for BAGSCOPE_SAMPLE unset, another for
// each other value, and the values 0..every-1 together keep every case.
func TestKeepOneInEvery(t *testing.T) {
	if Long() {
		t.Skip("-long keeps every case")
	}
	for _, every := range []int{2, 3, 4, 20, 40} {
		seen := map[int]int{}
		for k := range every {
			t.Setenv("BAGSCOPE_SAMPLE", fmt.Sprint(k))
			for start := 0; start < 5*every; start += every {
				var kept []int
				for i := start; i < start+every; i++ {
					if Keep(i, every) {
						kept = append(kept, i)
						seen[i]++
					}
				}
				if len(kept) != 1 {
					t.Fatalf("every %d, BAGSCOPE_SAMPLE=%d: cases %d..%d keep %v, want one", every, k, start, start+every-1, kept)
				}
				if k == 0 && kept[0]-start != every/2 {
					t.Errorf("every %d: keeps case %d of %d..%d, want the middle one", every, kept[0], start, start+every-1)
				}
			}
		}
		for i := range 5 * every {
			if seen[i] != 1 {
				t.Errorf("every %d: case %d kept by %d of the samples, want 1", every, i, seen[i])
			}
		}
	}
	for _, every := range []int{0, 1} {
		if !Keep(7, every) {
			t.Errorf("every %d drops a case", every)
		}
	}
}
