package plots

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// passCounter is a storage that counts the passes over one topic's
// messages: an extraction, or the Fields list's sample, which the tests
// let finish before counting.
type passCounter struct {
	bag.Storage
	byTopic map[string]int
	// onTopic, if set, is called on each pass over one topic.
	onTopic func()
}

func (c *passCounter) Messages(f bag.MessageFilter) bag.MessageIter {
	if len(f.Topics) == 1 {
		c.byTopic[f.Topics[0]]++
		if c.onTopic != nil {
			c.onTopic()
		}
	}
	return c.Storage.Messages(f)
}

func TestPlotFieldsOfOneTopicReadInOnePass(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, plotBag)
	c := &passCounter{Storage: d.Storage, byTopic: map[string]int{}}
	d.Storage = c
	g, _ := newTestPlotsDoc(t, d)
	clear(c.byTopic) // the Fields list's sample
	g.PlotPaths([]string{"/imu.linear_acceleration.x,/imu.linear_acceleration.y,deriv(/imu.angular_velocity.z)", "/odom.twist.twist.linear.x"})
	if c.byTopic["/imu"] != 1 || c.byTopic["/odom"] != 1 {
		t.Errorf("passes by topic %v, want one each", c.byTopic)
	}
	want := [][]int{{150, 150, 149}, {30}}
	for i, p := range g.panels {
		for k, s := range p.series {
			if !s.ready() || s.points() != want[i][k] || s.err != nil {
				t.Errorf("panel %d: %s has %d points (err %v), want %d", i+1, s.name(), s.points(), s.err, want[i][k])
			}
		}
	}
	// Fields of one topic read in one pass share their times.
	x, y := g.panels[0].series[0].ms, g.panels[0].series[1].ms
	if x.C == nil || x.C != y.C {
		t.Error("x and y keep separate time columns")
	}
}

// Plots asked for while the message index is being built are read after
// it, and those of one topic together even when added one by one. The
// background work runs latest first, so a read started early would run
// before the index.
func TestPlotExtractionWaitsForIndex(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, plotBag)
	c := &passCounter{Storage: d.Storage, byTopic: map[string]int{}}
	d.Storage = c
	var queued []func()
	l := link.NewHub(d, func(f func()) { queued = append(queued, f) })
	t.Cleanup(l.Close)
	g := New(l)
	test.NewTempWindow(t, g.content)
	queued[0]() // the Fields list's sample
	queued = queued[1:]
	clear(c.byTopic)
	c.onTopic = func() {
		if l.Index() == nil {
			t.Error("a series is read before the index is built")
		}
	}
	l.WithIndex(func(*model.MessageIndex) {}) // the window starts the index
	l.Actions().AddSeries("/imu.linear_acceleration.x")
	l.Actions().AddSeries("/imu.linear_acceleration.y")
	for len(queued) > 0 {
		f := queued[len(queued)-1]
		queued = queued[:len(queued)-1]
		f()
	}
	if l.Index() == nil || c.byTopic["/imu"] != 1 {
		t.Errorf("index built %v, passes by topic %v; want one over /imu", l.Index() != nil, c.byTopic)
	}
	for _, s := range g.panels[0].series {
		if s.ms == nil || s.ms.Len() != 150 || s.loading() {
			t.Errorf("%s: %v (loading %v), want 150 points", s.name(), s.ms, s.loading())
		}
	}
}
