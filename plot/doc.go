// Package plot turns time series into pictures and tables without a window:
// columnar series (nanosecond times and float64 values), decimation per pixel
// column that keeps every spike, rasterizing for the window, axis ticks, CSV
// export of a time window, and a small view model (window, zoom, pan, fit,
// nearest point) that a GUI wraps. Rendering to PNG or SVG with gonum/plot
// is in plot/render, apart, so that what does not draw images does not link
// gonum/plot (its package initialisers cost every process that does).
//
// Non-finite values (NaN, ±Inf) are gaps: lines stop before them and start
// again after them. Times are int64 nanoseconds since the epoch; the x axis
// shows seconds relative to an origin (usually the bag's start) or wall-clock
// UTC times.
//
// The package does not import Fyne and keeps no global state; Render is a
// pure function of its arguments and safe to call from any goroutine.
package plot
