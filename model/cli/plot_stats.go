package cli

import (
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// plotStatsJSON is the `plot --stats --json` object.
type plotStatsJSON struct {
	Path string `json:"path"`
	// TimeBase is what the times are: "receive", "stamp", "publish" or "clock"
	// (header.stamp).
	TimeBase string           `json:"time_base"`
	Window   windowJSON       `json:"window"`
	Series   []seriesStatJSON `json:"series"`
	Lost     lossJSON         `json:"lost"`
	// OK is true when nothing was lost.
	OK bool `json:"ok"`
}

// windowJSON is a time window: its ends and its length in seconds.
type windowJSON struct {
	Start    timeJSON `json:"start"`
	End      timeJSON `json:"end"`
	Duration float64  `json:"duration"`
}

// seriesStatJSON is one series' figures inside the window, as --stats
// prints them: min, max, mean and sum over the finite values ("NaN"
// when there are none).
type seriesStatJSON struct {
	Name      string    `json:"name"`
	Points    int       `json:"points"`
	NonFinite int       `json:"non_finite"`
	Min       jsonFloat `json:"min"`
	Max       jsonFloat `json:"max"`
	Mean      jsonFloat `json:"mean"`
	Sum       jsonFloat `json:"sum"`
}

// plotStatsReport is the figures of series inside w, read from path on the
// time base tb, and what the read lost.
func plotStatsReport(path string, tb series.TimeBase, curves []plot.Series, w plot.Window, lost *loss) plotStatsJSON {
	base := tb.String()
	out := plotStatsJSON{Path: path, TimeBase: base, Series: []seriesStatJSON{}, Lost: lost.json(), OK: !lost.any(),
		Window: windowJSON{toTimeJSON(bag.TimeFromNanos(w.T0)), toTimeJSON(bag.TimeFromNanos(w.T1)), float64(w.Duration()) / 1e9}}
	for _, s := range curves {
		st := s.Stats(w)
		out.Series = append(out.Series, seriesStat(s.Name, st))
	}
	return out
}

// seriesStat is the figures st of the series name.
func seriesStat(name string, st plot.Stats) seriesStatJSON {
	return seriesStatJSON{name, st.Points, st.NonFinite, jsonFloat(st.Min), jsonFloat(st.Max), jsonFloat(st.Mean), jsonFloat(st.Sum)}
}

// anyPoints reports whether a series has a point inside w.
func anyPoints(curves []plot.Series, w plot.Window) bool {
	for _, s := range curves {
		if i, j := s.Span(w); j > i {
			return true
		}
	}
	return false
}
