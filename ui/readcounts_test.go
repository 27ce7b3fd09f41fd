package ui

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestCountsAreWhatWasRead: a ROS 1 bag with a page of its first chunk
// zeroed opens through its intact index, which counts every message
// recorded. Once the window's read of every message ends, the header's
// Messages figure and the Topics table give what was read, each with
// what the index counts beside it ("4,079 of 4,093"). The index's
// numbers are the intact original's counts; the read's are a read of the
// damaged copy.
func TestCountsAreWhatWasRead(t *testing.T) {
	src := uitest.SharedBags(t, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	clear(data[397312 : 397312+4096])
	p := filepath.Join(t.TempDir(), "zeroed.bag")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	count := func(path string) (int, map[string]int) {
		s, err := model.OpenStorage(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		n, per := 0, map[string]int{}
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
			n++
			per[it.Message().Conn.Topic]++
		}
		it.Close()
		return n, per
	}
	origN, orig := count(src)
	readN, read := count(p)
	if readN >= origN {
		t.Fatalf("the zeroed copy reads %d of %d messages: nothing lost", readN, origN)
	}
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath(p, nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %+v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	got := uitest.Shown(w)
	if want := human.Count(uint64(readN)) + " of " + human.Count(uint64(origN)); !strings.Contains(got, want) {
		t.Errorf("the header does not say %q:\n%.2000s", want, got)
	}
	// The table is sorted by topic, and shows its first five rows at
	// this size.
	topics := slices.Sorted(maps.Keys(orig))
	differ := 0
	for _, topic := range topics[:5] {
		n := orig[topic]
		want := human.Count(uint64(read[topic]))
		if read[topic] != n {
			want += " of " + human.Count(uint64(n))
			differ++
		}
		if !strings.Contains(got, want) {
			t.Errorf("%s: the Topics table does not say %q", topic, want)
		}
	}
	if differ == 0 {
		t.Error("no topic shown lost a message: the test checks nothing")
	}
}
