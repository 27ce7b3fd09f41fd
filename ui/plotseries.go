package ui

import (
	"context"
	"image/color"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/plot"
)

// plotSeries is one series of a plot panel: the path as the user gave it,
// the extracted columns once they are in, and how it is shown.
type plotSeries struct {
	path   string
	ref    model.FieldRef
	ms     *model.Series // nil until extracted
	color  color.RGBA
	hidden bool
	// dec is the decimation buffer, reused between redraws.
	dec plot.Series

	// Extraction: gen tells a finished job whether it is still wanted;
	// cancel is set while one runs.
	gen         int
	cancel      context.CancelFunc
	done, total int64
	err         error
}

// loading reports whether the series is being extracted.
func (s *plotSeries) loading() bool { return s.cancel != nil }

// name is the series' label.
func (s *plotSeries) name() string {
	if s.ms != nil {
		return s.ms.Name
	}
	return s.ref.String()
}

// data is the extracted columns as a plot series (shared, not copied).
func (s *plotSeries) data() plot.Series {
	if s.ms == nil {
		return plot.Series{Name: s.name(), Color: s.color}
	}
	return plot.Series{Name: s.ms.Name, T: s.ms.T, V: s.ms.V, Color: s.color}
}

// stop cancels a running extraction.
func (s *plotSeries) stop() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.gen++
}
