package tfview

import (
	"context"
	"fmt"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/tf"
	"github.com/bagscope/bagscope/plot"
)

// plotBuckets is how many time buckets the lookup over time keeps points
// of (at most 5 points a bucket and component): enough for a plot as wide
// as a screen, a few megabytes however long the recording.
const plotBuckets = 4096

// PlotOverTime reads the lookup of the source frame in the target frame
// over the time range (the whole recording without one), from the
// window's transform history once it is read, and plots its
// translation and its roll, pitch and yaw in two plots of the Plots tab,
// which it shows. A second press while it reads cancels the read.
func (v *View) PlotOverTime() {
	if v.plotting != nil {
		v.plotting()
		return
	}
	target, source := v.target.Selected, v.source.Selected
	add := v.l.Actions().AddComputed
	if target == "" || source == "" || target == source || add == nil {
		return
	}
	doc := v.l.Doc()
	lo, hi := doc.Summary.Start.Nanos(), doc.Summary.End.Nanos()
	var opt tf.SeriesOptions
	if t0, t1, ok := v.l.Range(); ok {
		lo, hi = t0, t1
		opt.From, opt.To = bag.TimeFromNanos(t0), bag.TimeFromNanos(t1)
	}
	ctx, cancel := context.WithCancel(v.l.Context())
	v.plotting = cancel
	v.plotBtn.SetText("Cancel")
	v.showPlotMsg(fmt.Sprintf("Reading %s in %s over time…", source, target))
	var mu sync.Mutex
	var cols *tf.Columns
	var err error
	var lastPct int
	opt.Progress = func(done, total int64) {
		if total <= 0 {
			return
		}
		pct := int(100 * done / total)
		if pct == lastPct {
			return
		}
		lastPct = pct
		fyne.Do(func() {
			if v.plotting != nil {
				v.showPlotMsg(fmt.Sprintf("Reading %s in %s over time… %d%%", source, target, min(pct, 99)))
			}
		})
	}
	// The window's transform history holds every transform the lookup
	// needs unless the read stopped on damage (then the read says where)
	// or a frame was past its memory bound (then it reads the recording).
	hist := v.hist
	if v.histErr != nil {
		hist = nil
	}
	v.l.Go(func(context.Context) {
		c := tf.NewColumns(lo, hi, plotBuckets)
		var e error
		if hist != nil {
			_, e = hist.LookupSeries(ctx, target, source, opt, c.Add)
		} else {
			_, e = tf.LookupSeries(ctx, doc.Storage, target, source, opt, c.Add)
		}
		mu.Lock()
		cols, err = c, e
		mu.Unlock()
	}, func() {
		cancel()
		v.plotting = nil
		v.plotBtn.SetText("Plot over time")
		v.lookup()
		mu.Lock()
		c, e := cols, err
		mu.Unlock()
		switch {
		case e != nil && ctx.Err() != nil:
			v.showPlotMsg("Cancelled.")
		case e != nil:
			v.showPlotMsg("Cannot plot the lookup: " + e.Error())
		case c.Samples == c.Failed:
			v.showPlotMsg(fmt.Sprintf("%s cannot be looked up in %s at any time in this range.", source, target))
		default:
			v.showPlotMsg(fmt.Sprintf("Plotted %s in %s: %s lookups, each where a transform on the chain changes.", source, target, human.Count(uint64(c.Samples))))
			v.plotSeries(target, source, c.Series())
		}
		if v.OnPlotted != nil {
			v.OnPlotted()
		}
	})
}

// plotSeries hands the components to the Plots tab: the translation in one
// plot, roll, pitch and yaw in another.
func (v *View) plotSeries(target, source string, cols []plot.Series) {
	name := func(s plot.Series, unit string) plot.Series {
		s.Name = fmt.Sprintf("%s in %s: %s (%s)", source, target, s.Name, unit)
		return s
	}
	add := v.l.Actions().AddComputed
	add([]plot.Series{name(cols[0], "m"), name(cols[1], "m"), name(cols[2], "m")})
	add([]plot.Series{name(cols[7], "rad"), name(cols[8], "rad"), name(cols[9], "rad")})
}

func (v *View) showPlotMsg(s string) {
	v.plotMsg.SetText(s)
	v.plotMsg.Show()
}
