package db3

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestPageCheckersAgreeWithTheWalk: a page map built with its pages
// checked on other goroutines finds what the walk finds checking each page
// itself (the same unsound pages and why, the same damaged trees, the same
// damage), on a healthy file and on files with a page reached twice and
// unsound leaves, for a survey and for a rescue's map.
func TestPageCheckersAgreeWithTheWalk(t *testing.T) {
	healthy := filepath.Join(t.TempDir(), "healthy.db3")
	makeBag(t, healthy, 4000, "--small")
	data, err := os.ReadFile(healthy)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"healthy": data}
	for _, unsound := range []int{3, 30} {
		b, _ := twiceReached(t, data, unsound)
		files[fmt.Sprintf("%d unsound leaves", unsound)] = b
	}
	build := func(b []byte, workers int, checkOnly bool) *pageMap {
		defer func(f func() int) { pageCheckWorkers = f }(pageCheckWorkers)
		pageCheckWorkers = func() int { return workers }
		pm := newPageMap(bytes.NewReader(b), int64(len(b)), parseHeader(b[:HeaderSize]))
		pm.checkOnly = checkOnly
		pm.build(nil)
		return pm
	}
	for name, b := range files {
		for _, checkOnly := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, survey %v", name, checkOnly), func(t *testing.T) {
				want := build(b, 0, checkOnly)
				if name != "healthy" && len(want.unsound) == 0 {
					t.Fatal("the damaged file has no unsound page")
				}
				for _, workers := range []int{1, 3} {
					got := build(b, workers, checkOnly)
					if !maps.Equal(got.unsound, want.unsound) {
						t.Errorf("%d checkers: unsound pages %v, the walk alone finds %v", workers, got.unsound, want.unsound)
					}
					if !maps.Equal(got.treeDamaged, want.treeDamaged) {
						t.Errorf("%d checkers: damaged trees %v, the walk alone finds %v", workers, got.treeDamaged, want.treeDamaged)
					}
					if !reflect.DeepEqual(got.damaged, want.damaged) || !reflect.DeepEqual(got.pages, want.pages) {
						t.Errorf("%d checkers: %d damaged pages and the page kinds differ from the walk alone's (%d)", workers, len(got.damaged), len(want.damaged))
					}
				}
			})
		}
	}
}
