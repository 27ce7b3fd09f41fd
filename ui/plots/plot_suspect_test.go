package plots

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestPlotMarksSuspectTicks: plotting a field of a recording whose
// messages are partly suspect (a .db3 page whose bytes no longer add up)
// marks each suspect message's tick on the timeline (link.Suspect marks at
// their times, on their topic) as soon as the plot has read them, without
// a read of every message. The oracle is the recording's own read.
func TestPlotMarksSuspectTicks(t *testing.T) {
	healthy, err := os.ReadFile(uitest.SharedBags(t, "facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3"))
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	data, page := db3test.UnsoundLeaf(healthy)
	if page == 0 {
		t.Fatal("no table leaf page")
	}
	path := filepath.Join(t.TempDir(), "damaged.db3")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, path)
	want := map[string][]int64{}
	it := d.Storage.Messages(bag.MessageFilter{})
	for it.Next() {
		if m := it.Message(); m.Suspect != "" {
			want[m.Conn.Topic] = append(want[m.Conn.Topic], m.Time.Nanos())
		}
	}
	it.Close()
	fields := map[string]string{"/battery": "voltage", "/imu": "linear_acceleration.x", "/pose": "pose.position.x"}
	topic := ""
	for tp := range want {
		if fields[tp] != "" {
			topic = tp
		}
	}
	if topic == "" {
		t.Fatalf("no suspect message on a plotted topic: %v", want)
	}
	g, _ := newTestPlotsDoc(t, d)
	var got []int64
	g.l.(*link.Hub).OnMarks(func(ms []link.Mark) {
		for _, m := range ms {
			if m.Kind == link.Suspect && m.Topic == topic {
				got = append(got, m.T)
			}
		}
	})
	g.l.Actions().AddSeries(topic + "." + fields[topic])
	slices.Sort(got)
	slices.Sort(want[topic])
	if !slices.Equal(got, want[topic]) {
		t.Errorf("%s: ticks marked at %v, the suspect messages are at %v", topic, got, want[topic])
	}
}
