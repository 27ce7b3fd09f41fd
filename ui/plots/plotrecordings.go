package plots

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/link"
)

// A window of several recordings (File › Add Recording…) names B's topics
// "B:/imu". A field of a topic that the other recordings have too is
// offered from each of them, in the same plot, and as the difference
// B − A (diff(B:/x, /x): at B's times, A's nearest point, the join XY
// plots use).

// counterparts returns the same field of the same topic in each other
// recording of the window that has the topic, first the window's own
// recording's: the paths to plot, and the recording's prefix of each.
func (g *View) counterparts(ref series.FieldRef) (paths, prefixes []string) {
	d := g.l.Doc()
	recs := link.Recordings(d)
	if len(recs) < 2 {
		return nil, nil
	}
	_, own := link.RecordingOf(d, ref.Topic)
	have := map[string]bool{}
	for _, t := range d.Topics {
		have[t.Topic] = true
	}
	for _, r := range recs {
		if have[r.Prefix+own] {
			paths = append(paths, r.Prefix+own+"."+ref.Path)
			prefixes = append(prefixes, r.Prefix)
		}
	}
	if len(paths) < 2 {
		return nil, nil
	}
	return paths, prefixes
}

// newOffer builds the line under the toolbar that offers a field from
// each recording; hidden until a field is added that others have.
func (g *View) newOffer() fyne.CanvasObject {
	g.offerText = widget.NewLabel("")
	g.offerEach = widget.NewButtonWithIcon("Add from each recording", theme.ContentAddIcon(), nil)
	g.offerDiff = widget.NewButtonWithIcon("Add difference", theme.ContentAddIcon(), nil)
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { g.offer.Hide() })
	closeBtn.Importance = widget.LowImportance
	g.offer = container.NewBorder(nil, nil, nil, container.NewHBox(g.offerEach, g.offerDiff, closeBtn), g.offerText)
	g.offer.Hide()
	return g.offer
}

// offerFor shows the offer for the field just added to p, when the other
// recordings have its topic.
func (g *View) offerFor(p *plotPanel, ref series.FieldRef) {
	if g.offer == nil {
		return
	}
	paths, prefixes := g.counterparts(ref)
	if len(paths) == 0 {
		g.offer.Hide()
		return
	}
	var names []string
	for _, pre := range prefixes {
		if pre == "" {
			pre = "A:"
		}
		names = append(names, strings.TrimSuffix(pre, ":"))
	}
	_, own := link.RecordingOf(g.l.Doc(), ref.Topic)
	g.offerText.SetText(fmt.Sprintf("%s.%s is in recordings %s", own, ref.Path, strings.Join(names, ", ")))
	field := ref.String()
	g.offerEach.OnTapped = func() {
		g.offer.Hide()
		g.AddFromEachRecording(p, field)
	}
	g.offerDiff.OnTapped = func() {
		g.offer.Hide()
		g.AddDifferences(p, field)
	}
	g.offer.Show()
}

// AddFromEachRecording adds field (TOPIC.FIELD of any recording of the
// window) from each recording that has its topic, to panel p (nil: the
// selected plot).
func (g *View) AddFromEachRecording(p *plotPanel, field string) {
	if p == nil {
		p = g.current
	}
	ref, err := series.ResolveField(g.l.Doc().Storage, &g.cache, field)
	if err != nil {
		p.setError("Cannot plot " + field + ": " + err.Error() + ".")
		return
	}
	paths, _ := g.counterparts(ref)
	for _, path := range paths {
		if !p.has(path) {
			g.add(p, path)
		}
	}
}

// AddDifferences adds, for each added recording that has field's topic,
// the difference of its field and the first recording's (diff(B:/x, /x)),
// to panel p (nil: the selected plot).
func (g *View) AddDifferences(p *plotPanel, field string) {
	if p == nil {
		p = g.current
	}
	ref, err := series.ResolveField(g.l.Doc().Storage, &g.cache, field)
	if err != nil {
		p.setError("Cannot plot " + field + ": " + err.Error() + ".")
		return
	}
	paths, prefixes := g.counterparts(ref)
	if len(paths) == 0 || prefixes[0] != "" {
		p.setError("The first recording has no " + field + " to take a difference from.")
		return
	}
	for _, path := range paths[1:] {
		g.add(p, DifferencePath(path, paths[0]))
	}
}

// DifferencePath is the expression of b − a, a's value taken at each of
// b's points from its point nearest in time.
func DifferencePath(b, a string) string { return "diff(" + b + ", " + a + ")" }

// has reports whether the panel plots field path (as resolved).
func (p *plotPanel) has(path string) bool {
	for _, s := range p.series {
		if s.ref.String() == path || s.path == path {
			return true
		}
	}
	return false
}

// Points returns the points of the plotted series named name (a field
// path or an expression, as its legend names it), in full where it was
// extracted whole; ok is false when no plot shows it.
func (g *View) Points(name string) (s plot.Series, ok bool) {
	for _, p := range g.panels {
		for _, ps := range p.series {
			if ps.name() == name || ps.key() == name {
				return ps.data().Plain(), true
			}
		}
	}
	return plot.Series{}, false
}
