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

func runPlot(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("plot", "FILE TOPIC.FIELD... [-o OUT.png|OUT.svg] [--csv OUT.csv] [--stats]\n\n"+
		"A FIELD's array elements are chosen by index [3], range [0:5], all [*], key [shoulder_pan]\n"+
		"(through a name/names/*_names array) or field [child_frame_id=base_link]; each element is a series.", stderr)
	out := fs.String("o", "", "image to write: .png or .svg (give -o, --csv, --stats or several)")
	csvOut := fs.String("csv", "", "write the points as CSV (one time column, one column per series)")
	stats := fs.Bool("stats", false, "print each series' point count, min, max, mean and sum")
	start := fs.String("start", "", "first receive time: seconds since the epoch, or +SECONDS from the bag's start")
	end := fs.String("end", "", "last receive time (inclusive), same forms as --start")
	base := fs.String("x", "receive", "time base: receive (the bag's message time) or stamp (header.stamp)")
	width := fs.Int("width", 1600, "image width in pixels")
	height := fs.Int("height", 900, "image height in pixels")
	absolute := fs.Bool("absolute", false, "label the time axis with UTC clock times (CSV: seconds since the epoch)")
	relative := fs.Bool("relative", false, "label the time axis in seconds from the bag's start (the default)")
	title := fs.String("title", "", "plot title (default: the file name)")
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
	for _, s := range pos[1:] {
		ref, err := model.ResolveField(b, &cache, s)
		if err != nil {
			return fail(stderr, path, err)
		}
		req.Fields = append(req.Fields, ref)
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
	series := make([]plot.Series, len(set.Series))
	for i, s := range set.Series {
		series[i] = plot.Series{Name: s.Name, T: s.T, V: s.V}
		if s.Missing > 0 {
			fmt.Fprintf(stderr, "bagscope: warning: %s: %d messages lack the field (no point drawn)\n", s.Name, s.Missing)
		}
	}
	win := plotWindow(req, tb, series, bagStart, bagEnd)
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
			_, err := plot.Write(w, format, series, win, plot.YRange{}, *width, *height, opt)
			return err
		}); err != nil {
			return fail(stderr, "", err)
		}
	}
	if *stats {
		writeStats(stdout, series, win)
	}
	if *csvOut != "" {
		if err := writeFile(*csvOut, func(w io.Writer) error {
			return plot.WriteCSV(w, series, win, plot.CSVOptions{Origin: opt.Origin, Absolute: *absolute})
		}); err != nil {
			return fail(stderr, "", err)
		}
	}
	return status
}

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
