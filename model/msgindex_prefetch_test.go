package model

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// coverStore is a Storage whose index prefetch covers at most per
// blocks a call, as a remote file's budget does; it records the calls and
// the blocks BlockIndex read outside the last one.
type coverStore struct {
	bag.Storage
	per     int
	calls   [][]int64 // each call's blocks' offsets
	current map[int64]bool
	outside []int64
}

func (s *coverStore) PrefetchBlockIndexes(blocks []*bag.Block) (func(), int) {
	n := min(s.per, len(blocks))
	var offs []int64
	s.current = map[int64]bool{}
	for _, b := range blocks[:n] {
		offs = append(offs, b.Offset)
		s.current[b.Offset] = true
	}
	s.calls = append(s.calls, offs)
	return func() { s.current = nil }, n
}

func (s *coverStore) BlockIndex(b *bag.Block) ([]bag.IndexEntry, error) {
	if !s.current[b.Offset] {
		s.outside = append(s.outside, b.Offset)
	}
	return s.Storage.BlockIndex(b)
}

// TestMessageIndexPrefetchesEveryBlock: however few blocks a prefetch
// covers (a remote file's budget), the message index asks again from the
// first block it did not cover, so every block's index is prefetched,
// once, in order, before it is read, and the index is the same as
// without prefetching.
func TestMessageIndexPrefetchesEveryBlock(t *testing.T) {
	d, err := Open(context.Background(), sharedBags+"/cra-ros-pkg__robot_localization/test/test1.bag", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	blocks := d.Storage.Blocks()
	if len(blocks) < 5 {
		t.Fatalf("the recording has %d blocks; the test wants several", len(blocks))
	}
	want, err := BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, per := range []int{1, 3, len(blocks) - 1, indexBatch + 1} {
		t.Run(fmt.Sprint(per), func(t *testing.T) {
			s := &coverStore{Storage: d.Storage, per: per}
			got, err := BuildMessageIndex(context.Background(), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			var seen []int64
			for _, c := range s.calls {
				seen = append(seen, c...)
			}
			var all []int64
			for _, b := range blocks {
				all = append(all, b.Offset)
			}
			if !reflect.DeepEqual(seen, all) {
				t.Errorf("prefetched blocks %v, want each of %v once in order", seen, all)
			}
			if wantCalls := (len(blocks) + min(per, indexBatch) - 1) / min(per, indexBatch); len(s.calls) != wantCalls {
				t.Errorf("%d prefetch calls, want %d", len(s.calls), wantCalls)
			}
			if len(s.outside) > 0 {
				t.Errorf("blocks %v read outside their prefetch", s.outside)
			}
			if !reflect.DeepEqual(got.Topics, want.Topics) {
				t.Error("the index differs from the one built without prefetching")
			}
		})
	}
}
