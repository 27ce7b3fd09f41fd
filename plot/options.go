package plot

import "io"

// MinSize is the smallest width and height, in pixels, that Render draws a
// plot into; smaller images are left blank and get a zero Frame.
const MinSize = 48

// Options control a rendering. The zero value draws an untitled plot with the
// x axis in seconds from time 0.
type Options struct {
	Title  string
	XLabel string // default: "time (s)" or "time (UTC)"
	YLabel string
	// Origin is the time shown as 0 s on a relative axis (usually the bag's
	// start), in nanoseconds since the epoch.
	Origin int64
	// Absolute labels the time axis with UTC clock times instead.
	Absolute bool
	// Scale is the device pixels per logical pixel (a HiDPI canvas scale);
	// fonts and lines grow with it. 0 means 1.
	Scale float64
}

// XYOptions control the rendering of an XY plot.
type XYOptions struct {
	Title          string
	XLabel, YLabel string // default: the first path's coordinate names
	// Bounds to show; invalid (the zero value) fits the points in the
	// window.
	Bounds Bounds
	// Equal gives one unit the same length on both axes.
	Equal bool
	// Cursor, when HasCursor, marks each path's position at that time.
	Cursor    int64
	HasCursor bool
	// Scale is the device pixels per logical pixel; 0 means 1.
	Scale float64
}

// WriteXYCSV writes the points of paths inside w as CSV: a time column and
// each path's x and y columns (WriteCSV of their coordinates).
func WriteXYCSV(out io.Writer, paths []XY, w Window, opt CSVOptions) error {
	var series []Series
	for _, p := range paths {
		x, y := p.Series()
		series = append(series, x, y)
	}
	return WriteCSV(out, series, w, opt)
}
