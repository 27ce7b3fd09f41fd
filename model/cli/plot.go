package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/plot"
)

// plotUsage is plot's usage line and its description of a series.
const plotUsage = `FILE SERIES... [-o OUT.png|OUT.svg] [--csv OUT.csv] [--stats]

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
are given both before and after a function, the paths' series come first.

  bagscope plot robot.bag 'deriv(/odom.pose.pose.position.x)' -o vx.png --stats
  bagscope plot robot.bag '/odom.pose.pose.position.x vs /odom.pose.pose.position.y' \
      -o path.svg --csv path.csv`

func runPlot(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("plot", plotUsage+"\n\nflags:", stderr)
	out := fs.String("o", "", "image to write: .png or .svg (give -o, --csv, --stats or several)")
	csvOut := fs.String("csv", "", "write the points as CSV (one time column, one column per series; x and y columns per XY path)")
	stats := fs.Bool("stats", false, "print each series' (each XY coordinate's) point count, min, max, mean and sum")
	start := fs.String("start", "", "first receive time: seconds since the epoch, or +SECONDS from the bag's start")
	end := fs.String("end", "", "last receive time (inclusive), same forms as --start")
	base := fs.String("x", "receive", "time base: receive (the bag's message time) or stamp (header.stamp)")
	width := fs.Int("width", 1600, "image width in pixels")
	height := fs.Int("height", 900, "image height in pixels")
	absolute := fs.Bool("absolute", false, "label the time axis with UTC clock times (CSV: seconds since the epoch)")
	relative := fs.Bool("relative", false, "label the time axis in seconds from the bag's start (the default)")
	title := fs.String("title", "", "plot title (default: the file name)")
	axes := fs.String("axes", "auto", "XY plots: equal (one unit as long on both axes), free, or auto: equal when x and y are sibling fields (position.x vs position.y), as the window does")
	pos, code, ok := parseInterleaved(fs, args)
	if !ok {
		return code
	}
	if len(pos) < 2 || (*out == "" && *csvOut == "" && !*stats) {
		fs.Usage()
		return 2
	}
	if *absolute && *relative {
		fmt.Fprintln(stderr, "bagscope: --absolute and --relative exclude each other")
		return 2
	}
	if *axes != "auto" && *axes != "equal" && *axes != "free" {
		fmt.Fprintf(stderr, "bagscope: --axes %q: want auto, equal or free\n", *axes)
		return 2
	}
	var format plot.Format
	if *out != "" {
		f, err := plot.FormatOf(*out)
		if err != nil {
			return fail(stderr, "", err)
		}
		format = f
	}
	if *width < plot.MinSize || *height < plot.MinSize || *width > 16384 || *height > 16384 {
		return fail(stderr, "", fmt.Errorf("--width and --height must be between %d and 16384", plot.MinSize))
	}
	tb, err := model.ParseTimeBase(*base)
	if err != nil {
		return fail(stderr, "", err)
	}
	path := pos[0]
	b, err := model.OpenStorage(path)
	if err != nil {
		return fail(stderr, path, err)
	}
	defer b.Close()
	bagStart, bagEnd := model.TimeRange(b)
	req := model.SeriesRequest{Base: tb}
	if req.Start, err = parseTimeArg(*start, bagStart); err != nil {
		return fail(stderr, "", err)
	}
	if req.End, err = parseTimeArg(*end, bagStart); err != nil {
		return fail(stderr, "", err)
	}
	var cache rosmsg.Cache
	var pargs []*plotArg
	xy := 0
	for _, s := range pos[1:] {
		a, err := parsePlotArg(b, &cache, s)
		if err != nil {
			return fail(stderr, path, err)
		}
		if a.isXY() {
			xy++
		}
		pargs = append(pargs, a)
	}
	if xy > 0 && xy < len(pargs) {
		return fail(stderr, "", fmt.Errorf("an XY plot (X vs Y) and time series cannot share one image: plot them in two runs"))
	}
	// One read: the fields given as paths in order, then the leaves of the
	// functions and XY paths, each once. A leaf names one value, so it
	// has exactly one series: the leaves' series are the last ones.
	var leafRefs []model.FieldRef
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
	pl := newProgress(stderr, "reading")
	set, err := model.ExtractSeries(context.Background(), b, &cache, req, func(done, total int64, _ string) { pl.update(done, total) })
	pl.end()
	if err != nil {
		return fail(stderr, path, err)
	}
	// What could not be read is said, and makes the exit status 1 once the
	// outputs are written.
	lost := fileLoss(b)
	lost.Ranges = append(lost.Ranges, set.Skipped...)
	lost.Messages += set.LostMessages
	lost.sort()
	lost.print(stderr, path)
	status := 0
	if lost.any() {
		status = 1
	}
	for _, ref := range set.Empty {
		fmt.Fprintf(stderr, "bagscope: warning: %s: no message holds an element it selects (no series)\n", ref)
	}
	nPlain := len(set.Series) - len(leafRefs)
	leaves := map[string]plot.Series{}
	for i, ref := range leafRefs {
		if nPlain < 0 || set.Series[nPlain+i].Ref != ref {
			return fail(stderr, path, fmt.Errorf("internal error: the series of %s are not where expected", ref))
		}
		s := set.Series[nPlain+i]
		leaves[ref.String()] = plot.Series{Name: s.Name, T: s.T, V: s.V}
	}
	for _, s := range set.Series {
		if s.Missing > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages lack the field (no point drawn)\n", s.Name, s.Missing)
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
			return fail(stderr, path, fmt.Errorf("%s: %w", a.text, err))
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
		Origin:   bagStart.Nanos(),
		Absolute: *absolute,
		XLabel:   xLabel(tb, *absolute, bagStart),
	}
	if opt.Title == "" {
		opt.Title = filepath.Base(path)
	}
	if *out != "" {
		if err := writeFile(*out, func(w io.Writer) error {
			if len(paths) > 0 {
				equal := *axes == "equal" || *axes == "auto" && plot.EqualAxes(pargs[0].x, pargs[0].y)
				return plot.WriteXY(w, format, paths, win, *width, *height, plot.XYOptions{Title: opt.Title, Equal: equal})
			}
			_, err := plot.Write(w, format, series, win, plot.YRange{}, *width, *height, opt)
			return err
		}); err != nil {
			return fail(stderr, "", err)
		}
	}
	if *stats {
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
			return fail(stderr, "", err)
		}
	}
	return status
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
// (SeriesRequest.MaxPoints): 32,768 buckets, eight or more a pixel at any
// --width up to 4096. A variable for tests.
var imagePoints = 1 << 17

// plotWindow is the time window shown: the --start/--end bounds on the
// receive time base, else the data's extent, else the bag's time range.
func plotWindow(req model.SeriesRequest, tb model.TimeBase, series []plot.Series, bagStart, bagEnd bag.Time) plot.Window {
	w := plot.Window{T0: bagStart.Nanos(), T1: bagEnd.Nanos()}
	if tb == model.HeaderStamp {
		if e, ok := plot.Extent(series); ok {
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

// xLabel names the time axis.
func xLabel(tb model.TimeBase, absolute bool, bagStart bag.Time) string {
	what := "receive time"
	if tb == model.HeaderStamp {
		what = "header.stamp"
	}
	if absolute {
		return what + " (UTC, " + bagStart.Std().Format("2006-01-02") + ")"
	}
	return what + " (s since the bag's start, " + bagStart.Std().Format("2006-01-02 15:04:05 UTC") + ")"
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, 0, false
			}
			return nil, 2, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
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
