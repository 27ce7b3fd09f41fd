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

// TestCountsAreWhatWasRead: a damaged copy whose recording still claims
// every message recorded (a ROS 1 bag's intact index, a rosbag2 folder's
// metadata.yaml). Once the window's read of every message ends, the
// header's Messages figure and the Topics table give what was read, each
// with what the recording claims beside it ("4,079 of 4,093"). The claims
// are the intact original's counts; the read's, a read of the damaged
// copy.
func TestCountsAreWhatWasRead(t *testing.T) {
	cases := []struct {
		name, src string
		// damage makes the damaged copy in dir and returns what to open.
		damage func(t *testing.T, src, dir string) string
	}{
		{"ROS 1, a page of a chunk zeroed", "facontidavide__PlotJuggler/datasamples/tilt_laser.bag", func(t *testing.T, src, dir string) string {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			clear(data[397312 : 397312+4096])
			p := filepath.Join(dir, "zeroed.bag")
			os.WriteFile(p, data, 0o644)
			return p
		}},
		{"rosbag2 folder, its .db3 cut in half", "facontidavide__PlotJuggler/datasamples/rosbag2_test", func(t *testing.T, src, dir string) string {
			out := filepath.Join(dir, "rosbag2_test")
			os.MkdirAll(out, 0o755)
			for _, f := range []string{"metadata.yaml", "rosbag2_test_0.db3"} {
				data, err := os.ReadFile(filepath.Join(src, f))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(f, ".db3") {
					data = data[:len(data)/2]
				}
				os.WriteFile(filepath.Join(out, f), data, 0o644)
			}
			return out
		}},
	}
	count := func(t *testing.T, path string) (int, map[string]int) {
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
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := uitest.SharedBags(t, tc.src)
			p := tc.damage(t, src, t.TempDir())
			origN, orig := count(t, src)
			readN, read := count(t, p)
			if readN >= origN {
				t.Fatalf("the damaged copy reads %d of %d messages: nothing lost", readN, origN)
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
			// The table is sorted by topic, and shows its first five rows
			// at this size.
			topics := slices.Sorted(maps.Keys(orig))
			differ := 0
			for _, topic := range topics[:min(5, len(topics))] {
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
		})
	}
}
