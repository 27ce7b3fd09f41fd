package bag_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

func openShared(t *testing.T, rel string) bag.Storage {
	t.Helper()
	s, err := bag.Open(filepath.Join(sharedBags, rel))
	if err != nil {
		t.Skipf("shared bag: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// shifted is what reading b alone gives, as the combination should show
// it: topics prefixed, times moved by off.
func shifted(in []seen, prefix string, off int64, file int) []seen {
	out := make([]seen, len(in))
	for i, m := range in {
		m.topic = prefix + m.topic
		m.time = bag.ShiftTime(bag.Time{Sec: uint32(m.time >> 32), NSec: uint32(m.time)}, off).Key()
		m.file += file
		out[i] = m
	}
	return out
}

// TestCombineReadsEachRecordingShifted combines a bag with another bag and
// with a rosbag2 folder of five files: the combination's messages are
// each recording's own, read alone, B's under its prefix and at its time
// plus the offset; a filter on B's topics and a time window selects what
// the same filter, translated, selects of B alone; the index and a read at
// a location agree; the summary counts each topic as the recording does.
func TestCombineReadsEachRecordingShifted(t *testing.T) {
	for _, tc := range []struct{ name, a, b string }{
		{"bag+bag", "cra-ros-pkg__robot_localization/test/test2.bag", "cra-ros-pkg__robot_localization/test/test1.bag"},
		{"bag+folder", "cra-ros-pkg__robot_localization/test/test2.bag", "ros2__rosbag2/rosbag2_py/test/resources/mcap/wbag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := openShared(t, tc.a), openShared(t, tc.b)
			sa, _ := a.Summary()
			sb, _ := b.Summary()
			off := sa.Start.Nanos() - sb.Start.Nanos() + 1_500_000_000 // B starts 1.5 s after A
			c, err := bag.Combine([]bag.Member{{Storage: a}, {Storage: b, Prefix: "B:", Offset: off}})
			if err != nil {
				t.Fatal(err)
			}
			nA := len(a.FileInfo().Files)
			if nA == 0 {
				nA = 1
			}
			ownA, ownB := readAll(t, a, bag.MessageFilter{}), readAll(t, b, bag.MessageFilter{})
			want := append(append([]seen(nil), ownA...), shifted(ownB, "B:", off, nA)...)
			sort.SliceStable(want, func(i, j int) bool { return want[i].time < want[j].time })
			got := readAll(t, c, bag.MessageFilter{})
			if len(got) != len(want) {
				t.Fatalf("combined: %d messages, A and B alone %d", len(got), len(want))
			}
			for i := range got {
				if got[i].time != want[i].time || got[i].topic != want[i].topic || got[i].data != want[i].data {
					t.Fatalf("message %d: got %s %x, want %s %x", i, got[i].topic, got[i].time, want[i].topic, want[i].time)
				}
			}

			// B's topics in a window of A-time.
			var topicB string
			var most uint64
			for _, tp := range sb.Topics {
				if tp.Messages > most {
					topicB, most = tp.Topic, tp.Messages
				}
			}
			dur := sb.End.Nanos() - sb.Start.Nanos()
			lo := bag.ShiftTime(sb.Start, off+dur/4)
			hi := bag.ShiftTime(sb.End, off-dur/4)
			got = readAll(t, c, bag.MessageFilter{Topics: []string{"B:" + topicB, "/nowhere"}, Start: lo, End: hi})
			own := readAll(t, b, bag.MessageFilter{Topics: []string{topicB}, Start: bag.ShiftTime(lo, -off), End: bag.ShiftTime(hi, -off)})
			if len(got) == 0 || len(got) != len(own) {
				t.Fatalf("B:%s in a window: %d messages, B alone %d", topicB, len(got), len(own))
			}
			for i, m := range shifted(own, "B:", off, nA) {
				if got[i].time != m.time || got[i].topic != m.topic || got[i].data != m.data {
					t.Fatalf("windowed message %d differs", i)
				}
			}

			// Counts per topic, and B's index read back at its locations.
			sc, err := c.Summary()
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]uint64{}
			for _, tp := range sc.Topics {
				counts[tp.Topic] = tp.Messages
			}
			for _, pair := range []struct {
				s      *bag.Summary
				prefix string
			}{{sa, ""}, {sb, "B:"}} {
				for _, tp := range pair.s.Topics {
					if counts[pair.prefix+tp.Topic] != tp.Messages {
						t.Errorf("%s%s: %d messages combined, %d alone", pair.prefix, tp.Topic, counts[pair.prefix+tp.Topic], tp.Messages)
					}
				}
			}
			if sc.Messages != sa.Messages+sb.Messages || sc.Start != sa.Start {
				t.Errorf("summary: %d messages from %v, want %d from %v", sc.Messages, sc.Start, sa.Messages+sb.Messages, sa.Start)
			}
			blocks := c.Blocks()
			last := blocks[len(blocks)-1]
			es, err := c.BlockIndex(last)
			if err != nil || len(es) == 0 {
				t.Fatalf("B's last block index: %d entries, %v", len(es), err)
			}
			e := es[len(es)-1]
			m, err := c.ReadMessage(e.Conn, e.Loc)
			if err != nil {
				t.Fatal(err)
			}
			if m.Time != e.Time || m.Conn.Topic[:2] != "B:" || bag.ShiftTime(m.Time, -off).Key() > sb.End.Key() || e.Time.Key() < bag.ShiftTime(sb.Start, off).Key() {
				t.Errorf("read at B's last index entry: %s at %v, index says %v", m.Conn.Topic, m.Time, e.Time)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			// The members stay open.
			if _, err := b.Summary(); err != nil || len(readAll(t, b, bag.MessageFilter{Topics: []string{topicB}})) == 0 {
				t.Errorf("B after closing the combination: %v", err)
			}
		})
	}
}

// TestCombineReportsBsDamage cuts a copy of B: the combination's damage
// names B's file with the offsets B alone reports, and A loses nothing.
func TestCombineReportsBsDamage(t *testing.T) {
	a := openShared(t, "cra-ros-pkg__robot_localization/test/test2.bag")
	data, err := os.ReadFile(filepath.Join(sharedBags, "cra-ros-pkg__robot_localization/test/test1.bag"))
	if err != nil {
		t.Skipf("shared bag: %v", err)
	}
	cut := filepath.Join(t.TempDir(), "cut.bag")
	if err := os.WriteFile(cut, data[:len(data)*6/10], 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bag.Open(cut)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	alone := bag.DamageOf(b)
	if !alone.Lost() {
		t.Fatal("the cut copy reports no damage alone")
	}
	c, err := bag.Combine([]bag.Member{{Storage: a}, {Storage: b, Prefix: "B:", Offset: 5e9}})
	if err != nil {
		t.Fatal(err)
	}
	d := bag.DamageOf(c)
	var got []string
	for _, r := range d.Ranges {
		if r.File != cut {
			t.Errorf("a lost range in %s (%s), not in B's file", r.File, r.Why)
		}
		got = append(got, fmt.Sprintf("%d..%d", r.Start, r.End))
	}
	var want []string
	for _, r := range alone.Ranges {
		want = append(want, fmt.Sprintf("%d..%d", r.Start, r.End))
	}
	if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("combined: B lost %v, alone %v", got, want)
	}
}
