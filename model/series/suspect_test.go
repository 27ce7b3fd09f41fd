package series

import (
	"context"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// suspectStorage marks every seventh message suspect, as a format marks
// those read from a damaged chunk or page.
type suspectStorage struct{ bag.Storage }

func (s suspectStorage) Messages(f bag.MessageFilter) bag.MessageIter {
	return &suspectIter{MessageIter: s.Storage.Messages(f)}
}

type suspectIter struct {
	bag.MessageIter
	n int
	m bag.Message
}

func (it *suspectIter) Message() *bag.Message {
	it.m = *it.MessageIter.Message()
	if it.n++; it.n%7 == 0 {
		it.m.Suspect = "offset 1: test"
	}
	return &it.m
}

// TestExtractKeepsSuspectPoints: the points of suspect messages are the
// series' suspect points, every one of them and in time order, whether the
// series keeps every point or a reduction of them (the plots draw them
// hollow).
func TestExtractKeepsSuspectPoints(t *testing.T) {
	b := suspectStorage{openBag(t, multichunk)}
	ref := FieldRef{"/imu", "linear_acceleration.x"}
	var want []point
	it := b.Messages(bag.MessageFilter{Topics: []string{ref.Topic}})
	for it.Next() {
		if m := it.Message(); m.Suspect != "" {
			want = append(want, point{t: m.Time.Nanos()})
		}
	}
	it.Close()
	if len(want) == 0 {
		t.Fatal("no suspect message")
	}
	var cache rosmsg.Cache
	for _, max := range []int{0, 4} {
		set, err := Extract(context.Background(), b, &cache, Request{Fields: []FieldRef{ref}, MaxPoints: max}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := set.Series[0]
		if len(s.SuspectT) != len(want) || len(s.SuspectV) != len(want) || !slices.IsSorted(s.SuspectT) {
			t.Fatalf("max %d: %d suspect points, want %d", max, len(s.SuspectT), len(want))
		}
		for i, w := range want {
			if s.SuspectT[i] != w.t {
				t.Errorf("max %d: suspect point %d at %d, want %d", max, i, s.SuspectT[i], w.t)
			}
		}
		if max == 0 {
			for i, st := range s.SuspectT {
				j, _ := slices.BinarySearch(s.T, st)
				if s.V[j] != s.SuspectV[i] {
					t.Errorf("suspect point %d: value %v, the series has %v", i, s.SuspectV[i], s.V[j])
				}
			}
		}
	}
}
