package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// streamable reports whether a plot's outputs can be made as its points
// are read, keeping none (runPlotStream): no image, only fields given as
// paths (no function, no XY path), and for --csv the receive time base
// (read in time order) and paths of one value each (the columns are known
// before the read).
func streamable(o *plotOptions, pargs []*plotArg, tb series.TimeBase, b bag.Storage, cache *rosmsg.Cache) bool {
	if o.out != "" || o.csvOut == "" && !o.stats {
		return false
	}
	for _, a := range pargs {
		if !a.isPath() {
			return false
		}
	}
	if o.csvOut != "" {
		if tb != series.ReceiveTime {
			return false
		}
		for _, a := range pargs {
			if !singleValued(b, cache, a.ref) {
				return false
			}
		}
	}
	return true
}

// runPlotStream makes --stats and --csv of the fields req names as the
// points are read: the figures in an accumulator per series (plot.StatsAcc)
// and the CSV rows as their times end (plot.CSVStream), so that the memory
// does not grow with the points. It prints and writes what runPlot does.
func runPlotStream(o *plotOptions, path string, b bag.Storage, cache *rosmsg.Cache, req series.Request, tb series.TimeBase,
	origin int64, stdout, stderr io.Writer) error {
	bagStart, bagEnd := model.TimeRange(b)
	win := plotWindow(req, tb, nil, bagStart, bagEnd)
	receive := tb == series.ReceiveTime
	// The figures gather in shares: one for a read in order (--csv),
	// one per reading goroutine for --stats alone (no order needed: see
	// series.ExtractUnordered), merged after the read.
	var (
		sharesMu sync.Mutex
		shares   []*statsShare
	)
	newShare := func() *statsShare {
		sh := &statsShare{accs: map[*series.Series]*plot.StatsAcc{}}
		sharesMu.Lock()
		shares = append(shares, sh)
		sharesMu.Unlock()
		return sh
	}
	add := func(sh *statsShare, s *series.Series, t int64, v float64) bool {
		if receive && (t < win.T0 || t > win.T1) {
			return false
		}
		if !sh.seen {
			sh.ext, sh.seen = plot.Window{T0: t, T1: t}, true
		}
		sh.ext.T0, sh.ext.T1 = min(sh.ext.T0, t), max(sh.ext.T1, t)
		if o.stats {
			a := sh.accs[s]
			if a == nil {
				a = &plot.StatsAcc{}
				sh.accs[s] = a
			}
			a.Add(v)
		}
		return true
	}
	// The CSV is created at the first point (or after the read), so
	// that a field that does not exist leaves a file of that name alone.
	var f *os.File
	var cs *plot.CSVStream
	var csvErr error
	openCSV := func() {
		if f, csvErr = os.Create(o.csvOut); csvErr != nil {
			f = nil
			return
		}
		names := make([]string, len(req.Fields))
		for i, ref := range req.Fields {
			names[i] = series.SeriesName(ref)
		}
		cs = plot.NewCSVStream(f, names, plot.CSVOptions{Origin: origin, Absolute: o.absolute})
	}
	dropCSV := func() {
		if f != nil {
			f.Close()
			os.Remove(o.csvOut)
		}
	}
	inOrder := newShare()
	req.Points = func(field int, s *series.Series, t int64, v float64) {
		if !add(inOrder, s, t, v) {
			return
		}
		if o.csvOut != "" && csvErr == nil {
			if cs == nil {
				openCSV()
			}
			if csvErr == nil {
				csvErr = cs.Add(field, t, v)
			}
		}
	}
	pl := newProgress(stderr, "reading")
	progress := func(done, total int64, _ string) { pl.update(done, total) }
	if !pl.on() {
		progress = nil // no line to show: the read counts no messages ahead
	}
	var set *series.Set
	var err error
	if o.csvOut == "" {
		set, err = series.ExtractUnordered(context.Background(), b, cache, req, func() func(int, *series.Series, int64, float64) {
			sh := newShare()
			return func(_ int, s *series.Series, t int64, v float64) { add(sh, s, t, v) }
		}, progress)
	} else {
		set, err = series.Extract(context.Background(), b, cache, req, progress)
	}
	pl.end()
	var ext plot.Window
	seen := false
	accs := map[*series.Series]*plot.StatsAcc{}
	for _, sh := range shares {
		if sh.seen {
			if !seen {
				ext, seen = sh.ext, true
			}
			ext.T0, ext.T1 = min(ext.T0, sh.ext.T0), max(ext.T1, sh.ext.T1)
		}
		for s, a := range sh.accs {
			if accs[s] == nil {
				accs[s] = &plot.StatsAcc{}
			}
			accs[s].Merge(a)
		}
	}
	if err != nil {
		dropCSV()
		if errors.Is(err, series.ErrUnknownField) || errors.Is(err, series.ErrUnknownTopic) {
			return usagef("%s: %v", path, err)
		}
		return status(fail(stderr, path, err))
	}
	lost := rangesLoss(b, set.Skipped, !bag.TransferOf(b).Remote)
	lost.print(stderr, path)
	code := ExitOK
	if lost.any() {
		code = ExitProblems
	}
	for _, ref := range set.Empty {
		fmt.Fprintf(stderr, "bagscope: warning: %s: no message holds an element it selects (no series)\n", ref)
	}
	names := make([]string, len(set.Series))
	stats := make([]plot.Stats, len(set.Series))
	for i, s := range set.Series {
		if s.Missing > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages lack the field (no point drawn)\n", s.Name, s.Missing)
		}
		if s.BeforeClock > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages were received before the first /clock (no sim time, no point drawn)\n", s.Name, s.BeforeClock)
		}
		names[i] = s.Name
		a := accs[s]
		if a == nil {
			a = &plot.StatsAcc{}
		}
		stats[i] = a.Stats()
	}
	if !receive && seen {
		win = ext // the data's extent, as plotWindow takes it
	}
	if o.sel.active() && !seen {
		o.sel.noteEmpty(stderr, path, 0)
	}
	if o.json {
		js := plotStatsReport(path, tb, nil, win, lost)
		for i, st := range stats {
			js.Series = append(js.Series, seriesStat(names[i], st))
		}
		if err := writeJSON(stdout, js); err != nil {
			dropCSV()
			return status(fail(stderr, "", err))
		}
	} else if o.stats {
		writeStatsRows(stdout, names, stats)
	}
	if o.csvOut != "" && cs == nil && csvErr == nil {
		openCSV() // no point: the header alone
	}
	if csvErr != nil && f == nil {
		return status(fail(stderr, "", csvErr)) // not created
	}
	if cs != nil {
		err := csvErr
		if cerr := cs.Close(); err == nil {
			err = cerr
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(o.csvOut)
			return status(fail(stderr, "", fmt.Errorf("%s: %w", o.csvOut, err)))
		}
	}
	return status(code)
}

// statsShare is what one share of plot's points gathered: each series'
// figures and the points' extent in time.
type statsShare struct {
	accs map[*series.Series]*plot.StatsAcc
	ext  plot.Window
	seen bool
}
