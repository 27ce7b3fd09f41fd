package plots

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap/mcaptest"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestPlotMarksChunkFoundByRead: plotting a field of a recording with a
// chunk that only a read of its messages finds damaged (an MCAP whose
// first chunk is overwritten near its end, its summary intact) marks the
// points read from that chunk hollow (SuspectT) and their ticks, though
// every one of them decodes whole: the plot's own read finds the damage
// and tells the window (link.LearnDamage), which marks the unit for every
// view. The oracle is the damaged copy's messages on the topic read from
// the chunk mcaptest damaged; no other point is marked.
func TestPlotMarksChunkFoundByRead(t *testing.T) {
	src, err := bag.OpenFile(uitest.SharedBags(t, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag"))
	if err != nil {
		t.Fatal(err)
	}
	_, damaged, chunk, err := mcaptest.ChunkDamaged(src, t.TempDir())
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, damaged)
	const topic = "/imu_data"
	var want []int64
	it := d.Storage.Messages(bag.MessageFilter{Topics: []string{topic}})
	for it.Next() {
		if m := it.Message(); m.Loc.Block == chunk {
			want = append(want, m.Time.Nanos())
		}
	}
	it.Close()
	if len(want) == 0 {
		t.Fatalf("no %s message read from the damaged chunk", topic)
	}
	g, _ := newTestPlotsDoc(t, d)
	var ticks []int64
	g.l.(*link.Hub).OnMarks(func(ms []link.Mark) {
		for _, m := range ms {
			if m.Kind == link.Suspect && m.Topic == topic && !slices.Contains(ticks, m.T) {
				ticks = append(ticks, m.T)
			}
		}
	})
	g.l.Actions().AddSeries(topic + ".linear_acceleration.x")
	p := g.current
	if len(p.series) != 1 || p.series[0].ms == nil {
		t.Fatalf("the series is not read: %+v", p.series)
	}
	got := slices.Clone(p.series[0].ms.SuspectT)
	slices.Sort(got)
	slices.Sort(ticks)
	if !slices.Equal(got, want) {
		t.Errorf("%d points marked hollow, want the %d read from the damaged chunk", len(got), len(want))
	}
	if !slices.Equal(ticks, want) {
		t.Errorf("%d ticks marked, want the %d read from the damaged chunk", len(ticks), len(want))
	}
}
