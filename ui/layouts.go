package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
)

// winLayout is a bag window's arrangement: the tab shown, the plots (the
// series of each panel, the time range they show and each one's value
// range), the topics followed, where the dividers are, and whether the
// header and the timeline's lanes are folded. It is saved as a small JSON
// file a team can share, and loaded onto any recording with the same
// topics, as Foxglove's layouts are; what the recording lacks is left out
// and said. The last layout of each kind of recording is kept in the
// preferences and given to the next window of that kind (lastLayout).
type winLayout struct {
	Version int        `json:"version"`
	Tab     string     `json:"tab,omitempty"`
	Plots   [][]string `json:"plots,omitempty"`
	// PlotX is the plots' time range, in seconds from the recording's
	// start (so it fits another recording), or "auto" to show the data.
	PlotX axisRange `json:"plot_x"`
	// PlotY is each plot's value range, or "auto", in Plots' order.
	PlotY        []axisRange `json:"plot_y,omitempty"`
	Topics       []string    `json:"topics,omitempty"`
	HeaderFolded bool        `json:"header_folded,omitempty"`
	LanesHidden  bool        `json:"lanes_hidden,omitempty"`
	// Dividers are the split positions by name (a fraction of each
	// split: "timeline", "message.bytes", ...).
	Dividers map[string]float64 `json:"dividers,omitempty"`
}

// layoutVersion is the version of the layout files written.
const layoutVersion = 1

// layoutOf is window views dv's arrangement.
func layoutOf(dv *docViews) winLayout {
	lay := winLayout{Version: layoutVersion, Topics: slices.Clone(dv.link.Topics())}
	if dv.tabs != nil && dv.tabs.Selected() != nil {
		lay.Tab, _, _ = strings.Cut(dv.tabs.Selected().Text, " (")
	}
	if dv.plots != nil {
		ys := dv.plots.YRanges()
		for i, p := range dv.plots.Series() {
			if len(p) > 0 {
				lay.Plots = append(lay.Plots, p)
				lay.PlotY = append(lay.PlotY, yAxisRange(ys[i]))
			}
		}
		if t0, t1, fitted := dv.plots.Zoom(); !fitted {
			start := dv.link.Doc().Summary.Start.Nanos()
			lay.PlotX = axisRange{Set: true, Lo: float64(t0-start) / 1e9, Hi: float64(t1-start) / 1e9}
		}
	}
	lay.Dividers = dv.splits.Offsets()
	if dv.header != nil {
		lay.HeaderFolded = dv.header.Collapsed()
	}
	if dv.timeline != nil {
		lay.LanesHidden = dv.timeline.Collapsed()
	}
	return lay
}

// writeLayout writes lay as indented JSON.
func writeLayout(w io.Writer, lay winLayout) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(lay)
}

// readLayout reads a layout file; a newer version than bagscope knows is
// refused rather than half read.
func readLayout(r io.Reader) (winLayout, error) {
	var lay winLayout
	dec := json.NewDecoder(io.LimitReader(r, 1<<20))
	if err := dec.Decode(&lay); err != nil {
		return winLayout{}, fmt.Errorf("not a bagscope layout: %v", err)
	}
	if lay.Version < 1 || lay.Version > layoutVersion {
		return winLayout{}, fmt.Errorf("layout version %d: this bagscope reads version %d", lay.Version, layoutVersion)
	}
	return lay, nil
}

// applyLayout arranges window views dv as lay says, adding lay's plots
// after those shown. It returns what the recording lacks: topics it does
// not have (their plots are left out too).
func applyLayout(dv *docViews, lay winLayout) (missing []string) {
	have := map[string]bool{}
	for _, t := range dv.link.Doc().Topics {
		have[t.Topic] = true
	}
	// A layout saved for one recording applies to another: its topics
	// resolve with and without a recording's prefix ("B:/imu" in a
	// window of several recordings, "/imu" in B's own).
	prefixes := recordingPrefixes(dv.link.Doc())
	var topics []string
	for _, t := range lay.Topics {
		t = resolveTopic(t, have, prefixes)
		if have[t] {
			topics = append(topics, t)
		} else if !slices.Contains(missing, t) {
			missing = append(missing, t)
		}
	}
	dv.link.SetTopics(topics)
	// The dividers first: folding the lanes below keeps the timeline's
	// place to come back to.
	dv.splits.SetOffsets(lay.Dividers)
	if dv.plots != nil {
		var panels []string
		var ys []axisRange
		for i, p := range lay.Plots {
			var keep []string
			for _, s := range p {
				s = resolvePlotPath(s, have, prefixes)
				if topic := plotTopic(s, have); topic != "" && !have[topic] {
					if !slices.Contains(missing, topic) {
						missing = append(missing, topic)
					}
					continue
				}
				keep = append(keep, s)
			}
			if len(keep) > 0 {
				panels = append(panels, strings.Join(keep, ","))
				var y axisRange
				if i < len(lay.PlotY) {
					y = lay.PlotY[i]
				}
				ys = append(ys, y)
			}
		}
		if len(panels) > 0 {
			dv.plots.PlotPaths(panels)
			// The layout's plots are the last panels.
			first := len(dv.plots.Series()) - len(panels)
			for i, y := range ys {
				dv.plots.SetYRange(first+i, y.yRange())
			}
		}
		if x := lay.PlotX; x.Set {
			start := dv.link.Doc().Summary.Start.Nanos()
			dv.plots.SetZoom(start+int64(x.Lo*1e9), start+int64(x.Hi*1e9))
		}
	}
	if dv.header != nil && dv.header.Collapsed() != lay.HeaderFolded {
		dv.header.Toggle()
	}
	if dv.timeline != nil && dv.timeline.Collapsed() != lay.LanesHidden {
		dv.timeline.ToggleCollapsed()
	}
	if lay.Tab != "" {
		dv.link.SelectTab(lay.Tab)
	}
	return missing
}

// plotTopic is the topic a plain series path names ("/imu" of
// "/imu.linear_acceleration.x"): the longest of the recording's topics it
// starts with, else its part before the first dot. Expressions
// (deriv(…), X vs Y) give "", and are kept as they are.
func plotTopic(path string, have map[string]bool) string {
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "( ") {
		return ""
	}
	best := ""
	for t := range have {
		if strings.HasPrefix(path, t+".") && len(t) > len(best) {
			best = t
		}
	}
	if best != "" {
		return best
	}
	t, _, _ := strings.Cut(path, ".")
	return t
}

// saveLayout asks where to save window w's layout.
func (c *controller) saveLayout(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.views == nil || v.views.link == nil {
		return
	}
	lay := layoutOf(v.views)
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		defer wc.Close()
		if err := writeLayout(wc, lay); err != nil {
			dialog.ShowError(err, w)
		}
	}, w)
	d.SetFileName("layout.bagscope.json")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Show()
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}

// loadLayout asks for a layout file and arranges window w by it.
func (c *controller) loadLayout(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.views == nil || v.views.link == nil {
		return
	}
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			return
		}
		defer rc.Close()
		lay, err := readLayout(rc)
		if err != nil {
			dialog.ShowError(err, w)
			return
		}
		if missing := applyLayout(v.views, lay); len(missing) > 0 {
			dialog.ShowInformation("Layout", "This recording has no "+strings.Join(missing, ", ")+": what the layout shows of it is left out.", w)
		}
	}, w)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	d.Show()
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}
