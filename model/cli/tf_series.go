package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/tf"
)

// runTFSeries prints `tf --lookup TARGET SOURCE --over-time [--csv]`: the
// lookup at each stamp a transform on the chain changes.
func runTFSeries(b bag.Storage, path, target, source string, asCSV bool, stdout, stderr io.Writer) error {
	start, _ := model.TimeRange(b)
	w := bufio.NewWriter(stdout)
	var cw *csv.Writer
	if asCSV {
		cw = csv.NewWriter(w)
	}
	// The header comes with the first row: a mistake prints none.
	header := func() {
		if cw != nil {
			cw.Write([]string{"stamp", "seconds", "x", "y", "z", "qx", "qy", "qz", "qw", "roll", "pitch", "yaw", "error"})
			return
		}
		fmt.Fprintf(w, "%s in %s over time (each row: a stamp where a transform on the chain changes; seconds from the start; RPY in radians)\n", tf.StripSlash(source), tf.StripSlash(target))
		fmt.Fprintf(w, "%-20s  %10s  %10s %10s %10s  %8s %8s %8s %8s  %8s %8s %8s\n", "stamp", "seconds", "x", "y", "z", "qx", "qy", "qz", "qw", "roll", "pitch", "yaw")
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	pl := newProgress(stderr, "reading transforms")
	rows := 0
	info, err := tf.LookupSeries(context.Background(), b, target, source, tf.SeriesOptions{Progress: pl.update}, func(s tf.Sample) {
		if rows++; rows == 1 {
			header()
		}
		secs := secondsText(s.At.Nanos() - start.Nanos())
		tr := s.Transform
		r, p, y := tr.RPY()
		switch {
		case cw != nil && s.Err != nil:
			cw.Write([]string{s.At.String(), secs, "", "", "", "", "", "", "", "", "", "", s.Err.Error()})
		case cw != nil:
			row := []string{s.At.String(), secs}
			for _, v := range []float64{tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation[0], tr.Rotation[1], tr.Rotation[2], tr.Rotation[3], r, p, y} {
				row = append(row, num(v))
			}
			cw.Write(append(row, ""))
		case s.Err != nil:
			fmt.Fprintf(w, "%-20s  %10s  %s\n", s.At, secs, s.Err)
		default:
			fmt.Fprintf(w, "%-20s  %10s  %10.4f %10.4f %10.4f  %8.5f %8.5f %8.5f %8.5f  %8.5f %8.5f %8.5f\n", s.At, secs,
				tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation[0], tr.Rotation[1], tr.Rotation[2], tr.Rotation[3], r, p, y)
		}
	})
	pl.end()
	if cw != nil {
		cw.Flush()
	}
	if ferr := w.Flush(); ferr != nil {
		return status(fail(stderr, path, ferr))
	}
	if errors.Is(err, tf.ErrNoTF) {
		fmt.Fprintf(stderr, "bagscope: %s: %v\n", bag.Shown(path), err)
		return status(ExitProblems)
	}
	if err != nil {
		if info.Reads == 0 || errors.Is(err, tf.ErrNoFrame) {
			return usagef("%v", err)
		}
		return status(fail(stderr, path, err))
	}
	code := ExitOK
	if info.Samples == info.Failed {
		fmt.Fprintf(stderr, "bagscope: %s: %s cannot be looked up in %s at any time\n", bag.Shown(path), tf.StripSlash(source), tf.StripSlash(target))
		code = ExitProblems
	}
	if info.Undecodable > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %d transform messages could not be read\n", bag.Shown(path), info.Undecodable)
		code = ExitProblems
	}
	return status(code)
}
