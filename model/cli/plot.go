package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// plotLong is plot's description of a series.
const plotLong = `plot renders decoded fields over time, derived series and XY paths to a PNG or SVG image (-o),
CSV (--csv) or a table of statistics (--stats), without a window. Give at least one of them.

A SERIES is what the window's Plots view accepts (quote it for the shell):

  TOPIC.FIELD       a field over time. An array element is chosen by index [3],
                    range [0:5], all [*], key [shoulder_pan] (through a name, names
                    or *_names array) or field [child_frame_id=base_link]; each
                    element is a series.
  deriv(P)          the derivative of P per second
  integ(P)          the running integral of P over seconds, 0 at its first point
  diff(P, Q)        P - Q, Q taken at P's times (its point nearest in time)
  scale(P, k[, c])  k*P + c
  offset(P, c)      P + c
  avg(P, n)         the moving average of P over its last n points
                    P and Q are field paths that name one value (an index or a
                    key, no [*] or range) or functions, as in
                    deriv(avg(/odom.twist.twist.linear.x, 5)); they are computed
                    from the points between --start and --end.
  X vs Y            an XY plot of Y against X (paths or functions): fields of one
                    topic pair message by message, of two topics on the nearest
                    time. Several XY plots share one image; time series cannot.
                    The CSV has each path's x and y columns.

Series come in the order given, except that when paths with [*] or ranges
are given both before and after a function, the paths' series come first.`

// plotOptions are plot's flags.
type plotOptions struct {
	out, csvOut, base, title, axes string
	stats, absolute, relative      bool
	json                           bool
	width, height                  int
	sel                            *selection
	open                           bag.OpenOptions
}

func newPlot(e *env) *cobra.Command {
	o := &plotOptions{}
	c := &cobra.Command{
		Use:   "plot [flags] FILE SERIES...",
		Short: "render fields, derived series (deriv, integ, diff, ...) and XY paths to PNG or SVG (and CSV) without a window",
		Long:  plotLong,
		Example: `  bagscope plot robot.bag 'deriv(/odom.pose.pose.position.x)' -o vx.png --stats
  bagscope plot robot.bag '/odom.pose.pose.position.x vs /odom.pose.pose.position.y' \
      -o path.svg --csv path.csv
  bagscope plot x.bag /imu.linear_acceleration.x --range 10:20 -o imu.png`,
		ValidArgsFunction: completeSeries,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usagef("plot: missing FILE and SERIES (bagscope %s)", cmd.Use)
			case len(args) == 1:
				return usagef("plot: missing SERIES: name at least one field, such as /imu.linear_acceleration.x (bagscope %s)", cmd.Use)
			case o.out == "" && o.csvOut == "" && !o.stats && !o.json:
				return usagef("plot: missing an output: give -o OUT.png (or .svg), --csv OUT.csv or --stats")
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&o.out, "output", "o", "", "image to write: `OUT.png` or OUT.svg (give -o, --csv, --stats or several)")
	f.StringVar(&o.csvOut, "csv", "", "write the points as CSV to `OUT.csv` (one time column, one column per series; x and y columns per XY path)")
	f.BoolVar(&o.stats, "stats", false, "print each series' (each XY coordinate's) point count, min, max, mean and sum")
	f.BoolVar(&o.json, "json", false, "print the statistics (--stats) as one JSON object: the time window, each series' figures, what was lost")
	f.StringVarP(&o.base, "x", "x", "receive", "time base: receive (the bag's message time), stamp (header.stamp), publish (MCAP's publish time, where rosbag2 writes the send time; ROS 1 and .db3 keep none, so it is the receive time there) or clock (the sim time of /clock when the message was received)")
	f.IntVar(&o.width, "width", 1600, "image width in pixels")
	f.IntVar(&o.height, "height", 900, "image height in pixels")
	f.BoolVar(&o.absolute, "absolute", false, "label the time axis with UTC clock times (CSV: seconds since the epoch)")
	f.BoolVar(&o.relative, "relative", false, "label the time axis in seconds from the bag's start (the default)")
	f.StringVar(&o.title, "title", "", "plot title (default: the file name)")
	f.StringVar(&o.axes, "axes", "auto", "XY plots: equal (one unit as long on both axes), free, or auto: equal when x and y are sibling fields (position.x vs position.y), as the window does")
	o.sel = addRange(c)
	// Each SERIES names its topic, so --topics and --exclude have nothing
	// to choose: they are refused with the reason, not as unknown flags.
	f.StringSlice("topics", nil, "")
	f.StringSlice("exclude", nil, "")
	f.MarkHidden("topics")
	f.MarkHidden("exclude")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		for _, name := range []string{"topics", "exclude"} {
			if cmd.Flags().Changed(name) {
				return usagef("plot takes no --%s: each SERIES names its topic (/imu.linear_acceleration.x); --range selects the time", name)
			}
		}
		msgDirs(cmd)
		o.open = e.openOptions()
		return runPlot(o, args, e.stdout, e.stderr)
	}
	return c
}

func runPlot(o *plotOptions, pos []string, stdout, stderr io.Writer) error {
	out, csvOut, stats, absolute, axes, title := &o.out, &o.csvOut, &o.stats, &o.absolute, &o.axes, &o.title
	width, height := &o.width, &o.height
	if o.absolute && o.relative {
		return usagef("--absolute and --relative exclude each other")
	}
	if o.axes != "auto" && o.axes != "equal" && o.axes != "free" {
		return usagef("--axes %q: want auto, equal or free", o.axes)
	}
	var format plot.Format
	if o.out != "" {
		f, err := plot.FormatOf(o.out)
		if err != nil {
			return usagef("%v", err)
		}
		format = f
	}
	if o.width < plot.MinSize || o.height < plot.MinSize || o.width > 16384 || o.height > 16384 {
		return usagef("--width and --height must be between %d and 16384", plot.MinSize)
	}
	if o.out != "" && (WriteImage == nil || WriteXYImage == nil) {
		// The image is drawn by the full binary (render_hook.go).
		if FullBinary == nil {
			return status(fail(stderr, "", errNoRenderer))
		}
		return status(FullBinary())
	}
	tb, err := series.ParseTimeBase(o.base)
	if err != nil {
		return usagef("%v", err)
	}
	path := pos[0]
	b, err := model.OpenStorageWith(path, o.open)
	if err != nil {
		return status(failOpen(stderr, path, err))
	}
	defer b.Close()
	vouchReads(b) // for the doctor after the read (rangesLoss)
	bagStart, bagEnd := model.TimeRange(b)
	req := series.Request{Base: tb}
	var cache rosmsg.Cache
	origin := bagStart.Nanos()
	if tb == series.ClockTime {
		clock, err := query.ReadClock(context.Background(), b, &cache)
		if errors.Is(err, query.ErrNoClock) {
			return usagef("%s: --x clock: %v", path, err)
		}
		if err != nil {
			return status(fail(stderr, path, err))
		}
		req.Clock = clock
		// Sim time starts where /clock does: 0 s on a relative axis.
		origin, _ = clock.First()
	}
	rf, err := o.sel.resolve(b)
	if err != nil {
		return err
	}
	req.Start, req.End = rf.Start, rf.End
	var pargs []*plotArg
	xy := 0
	for _, s := range pos[1:] {
		a, err := parsePlotArg(b, &cache, s)
		if err != nil {
			return usagef("%s: %v", path, err)
		}
		if a.isXY() {
			xy++
		}
		pargs = append(pargs, a)
	}
	if xy > 0 && xy < len(pargs) {
		return usagef("an XY plot (X vs Y) and time series cannot share one image: plot them in two runs")
	}
	// One read: the fields given as paths in order, then the leaves of the
	// functions and XY paths, each once. A leaf names one value, so it
	// has exactly one series: the leaves' series are the last ones.
	var leafRefs []series.FieldRef
	leafAt := map[string]int{}
	for _, a := range pargs {
		if a.isPath() {
			req.Fields = append(req.Fields, a.ref)
		}
	}
	for _, a := range pargs {
		for _, ref := range a.refs {
			if _, ok := leafAt[ref.String()]; !ok {
				leafAt[ref.String()] = len(leafRefs)
				leafRefs = append(leafRefs, ref)
			}
		}
	}
	req.Fields = append(req.Fields, leafRefs...)
	if o.json {
		*stats = true
	}
	if *csvOut == "" && !*stats {
		// Only an image: a field read as a path keeps at most
		// imagePoints points, reduced per time bucket as the window's
		// plots are (drawn the same at a bucket a pixel or finer), so
		// the image's memory does not grow with the bag; the operands
		// of functions and XY paths are read whole.
		req.MaxPoints = imagePoints
		req.Whole = make([]bool, len(req.Fields))
		for i := len(req.Fields) - len(leafRefs); i < len(req.Fields); i++ {
			req.Whole[i] = true
		}
	}
	if streamable(o, pargs, tb, b, &cache) {
		return runPlotStream(o, path, b, &cache, req, tb, origin, stdout, stderr)
	}
	pl := newProgress(stderr, "reading")
	set, err := series.Extract(context.Background(), b, &cache, req, func(done, total int64, _ string) { pl.update(done, total) })
	pl.end()
	if errors.Is(err, series.ErrUnknownField) || errors.Is(err, series.ErrUnknownTopic) {
		return usagef("%s: %v", path, err)
	}
	if err != nil {
		return status(fail(stderr, path, err))
	}
	// What could not be read is said, and makes the exit status 1 once the
	// outputs are written.
	// A quick check of a remote recording would fetch all of it, where
	// the plot fetched only the chunks of its topics in its range: it
	// says what its own read met (`check URL` reads the whole file).
	lost := rangesLoss(b, set.Skipped, !bag.TransferOf(b).Remote)
	lost.print(stderr, path)
	code := ExitOK
	if lost.any() {
		code = ExitProblems
	}
	for _, ref := range set.Empty {
		fmt.Fprintf(stderr, "bagscope: warning: %s: no message holds an element it selects (no series)\n", ref)
	}
	nPlain := len(set.Series) - len(leafRefs)
	leaves := map[string]plot.Series{}
	for i, ref := range leafRefs {
		if nPlain < 0 || set.Series[nPlain+i].Ref != ref {
			return status(fail(stderr, path, fmt.Errorf("internal error: the series of %s are not where expected", ref)))
		}
		s := set.Series[nPlain+i]
		leaves[ref.String()] = plot.Series{Name: s.Name, T: s.T, V: s.V, SuspectT: s.SuspectT, SuspectV: s.SuspectV}
	}
	for _, s := range set.Series {
		if s.Missing > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages lack the field (no point drawn)\n", s.Name, s.Missing)
		}
		if s.BeforeClock > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages were received before the first /clock (no sim time, no point drawn)\n", s.Name, s.BeforeClock)
		}
	}
	plain := make([]plot.Series, nPlain)
	for i, s := range set.Series[:nPlain] {
		plain[i] = plot.Series{Name: s.Name, T: s.T, V: s.V}
	}
	// Series in the order of the arguments.
	counts := segmentCounts(b, &cache, pargs, nPlain)
	inOrder := counts != nil
	var series []plot.Series
	var paths []plot.XY
	next, inRun := 0, false
	for _, a := range pargs {
		if a.isPath() {
			if inOrder && !inRun {
				series = append(series, plain[next:next+counts[0]]...)
				next += counts[0]
				counts = counts[1:]
			}
			inRun = true
			continue
		}
		inRun = false
		s, p, err := evalArg(a, leaves)
		if err != nil {
			return usagef("%s: %s: %v", path, a.text, err)
		}
		if a.isXY() {
			if len(p.T) == 0 {
				fmt.Fprintf(stderr, "bagscope: warning: %s: no points\n", p.Name)
			}
			paths = append(paths, p)
			continue
		}
		if len(s.T) == 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: no points\n", s.Name)
		}
		series = append(series, s)
	}
	if !inOrder { // the paths' series first, then the functions'
		series = append(plain, series...)
	}
	extent := series
	for _, p := range paths {
		x, y := p.Series()
		extent = append(extent, x, y)
	}
	win := plotWindow(req, tb, extent, bagStart, bagEnd)
	opt := plot.Options{
		Title:    *title,
		Origin:   origin,
		Absolute: *absolute,
		XLabel:   xLabel(tb, *absolute, bagStart, origin),
	}
	if opt.Title == "" {
		opt.Title = filepath.Base(path)
	}
	if *out != "" {
		if err := writeFile(*out, func(w io.Writer) error {
			if len(paths) > 0 {
				equal := *axes == "equal" || *axes == "auto" && plot.EqualAxes(pargs[0].x, pargs[0].y)
				return WriteXYImage(w, format, paths, win, *width, *height, plot.XYOptions{Title: opt.Title, Equal: equal})
			}
			_, err := WriteImage(w, format, series, win, plot.YRange{}, *width, *height, opt)
			return err
		}); err != nil {
			return status(fail(stderr, "", err))
		}
	}
	if o.sel.active() && !anyPoints(extent, win) {
		o.sel.noteEmpty(stderr, path, 0)
	}
	if o.json {
		if err := writeJSON(stdout, plotStatsReport(path, tb, extent, win, lost)); err != nil {
			return status(fail(stderr, "", err))
		}
	} else if *stats {
		writeStats(stdout, extent, win)
	}
	if *csvOut != "" {
		if err := writeFile(*csvOut, func(w io.Writer) error {
			copt := plot.CSVOptions{Origin: opt.Origin, Absolute: *absolute}
			if len(paths) > 0 {
				return plot.WriteXYCSV(w, paths, win, copt)
			}
			return plot.WriteCSV(w, series, win, copt)
		}); err != nil {
			return status(fail(stderr, "", err))
		}
	}
	return status(code)
}

// segmentCounts returns how many of the first n extracted series (those
// of the arguments given as paths, in order) each run of consecutive path
// arguments has, so that the functions' series can go between the runs.
// It returns nil when that cannot be told: more than one run holds a path
// with [*] or a range, whose element counts are not known in advance.
func segmentCounts(b bag.Storage, cache *rosmsg.Cache, pargs []*plotArg, n int) []int {
	var counts []int
	unknown := -1
	known, inRun := 0, false
	for _, a := range pargs {
		if !a.isPath() {
			inRun = false
			continue
		}
		if !inRun {
			counts = append(counts, 0)
			inRun = true
		}
		k := len(counts) - 1
		if singleValued(b, cache, a.ref) {
			counts[k]++
			known++
			continue
		}
		if unknown >= 0 && unknown != k {
			return nil
		}
		unknown = k
	}
	if unknown >= 0 {
		counts[unknown] += n - known
	}
	return counts
}

// imagePoints bounds the points an image-only plot keeps of a field
// (series.Request.MaxPoints): 32,768 buckets, eight or more a pixel at any
// --width up to 4096. A variable for tests.
var imagePoints = 1 << 17

// plotWindow is the time window shown: the --start/--end bounds on the
// receive time base, else the data's extent, else the bag's time range.
func plotWindow(req series.Request, tb series.TimeBase, curves []plot.Series, bagStart, bagEnd bag.Time) plot.Window {
	w := plot.Window{T0: bagStart.Nanos(), T1: bagEnd.Nanos()}
	if tb != series.ReceiveTime {
		if e, ok := plot.Extent(curves); ok {
			w = e
		}
		return w
	}
	if !req.Start.IsZero() {
		w.T0 = req.Start.Nanos()
	}
	if !req.End.IsZero() {
		w.T1 = req.End.Nanos()
	}
	return w
}

// writeStats prints a table of each series' summary inside w; values in the
// shortest form that reads back exactly.
func writeStats(stdout io.Writer, series []plot.Series, w plot.Window) {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "series\tpoints\tnon-finite\tmin\tmax\tmean\tsum")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, s := range series {
		st := s.Stats(w)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\n", s.Name, st.Points, st.NonFinite, g(st.Min), g(st.Max), g(st.Mean), g(st.Sum))
	}
	tw.Flush()
}

// writeStatsRows prints the table of writeStats from each named series'
// figures.
func writeStatsRows(stdout io.Writer, names []string, stats []plot.Stats) {
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "series\tpoints\tnon-finite\tmin\tmax\tmean\tsum")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for i, st := range stats {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\n", names[i], st.Points, st.NonFinite, g(st.Min), g(st.Max), g(st.Mean), g(st.Sum))
	}
	tw.Flush()
}

// xLabel names the time axis; origin is 0 s on a relative one.
func xLabel(tb series.TimeBase, absolute bool, bagStart bag.Time, origin int64) string {
	what := map[series.TimeBase]string{series.ReceiveTime: "receive time", series.HeaderStamp: "header.stamp",
		series.PublishTime: "publish time", series.ClockTime: "sim time of /clock"}[tb]
	if absolute {
		if tb == series.ClockTime {
			return what + " (UTC)"
		}
		return what + " (UTC, " + bagStart.Std().Format("2006-01-02") + ")"
	}
	if tb == series.ClockTime {
		return what + " (s since its first value, " + strconv.FormatFloat(float64(origin)/1e9, 'f', -1, 64) + " s)"
	}
	return what + " (s since the bag's start, " + bagStart.Std().Format("2006-01-02 15:04:05 UTC") + ")"
}

// writeFile creates path and writes it with fn, removing it on failure.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
