package plots

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/widgets"
)

// legendPlace is where the panels show their legends.
type legendPlace int

const (
	legendSide   legendPlace = iota // a column at the plot's right
	legendBelow                     // rows of entries under the plot
	legendHidden                    // none: the plot takes the panel
)

// legendPlaces are the toolbar's choices, in legendPlace order.
var legendPlaces = []string{"Legend at the side", "Legend below", "No legend"}

// Legend geometry: a row is one line of caption text; the side column is
// as wide as its longest name, within these bounds.
const (
	legendRowH     = 20
	legendSideMin  = 120
	legendSideMax  = 260
	legendBelowW   = 190 // an entry's width in the rows below the plot
	legendSwatchSz = 12
)

// setLegendPlace moves every panel's legend.
func (g *View) setLegendPlace(at legendPlace) {
	if g.legendAt == at {
		return
	}
	g.legendAt = at
	for _, p := range g.panels {
		p.placeLegend()
	}
}

// placeLegend lays the panel's plot out with its legend where the view
// wants it.
func (p *plotPanel) placeLegend() {
	var side, below fyne.CanvasObject
	switch p.g.legendAt {
	case legendSide:
		p.legend.Layout = widgets.TightVBox{}
		side = p.legendBox
	case legendBelow:
		p.legend.Layout = layout.NewGridWrapLayout(fyne.NewSize(legendBelowW, legendRowH))
		below = p.legendBox
	}
	p.legendBox.Direction = container.ScrollVerticalOnly
	p.legendBox.SetMinSize(p.legendSize())
	p.body.Objects = []fyne.CanvasObject{p.plotArea}
	p.body.Layout = layout.NewBorderLayout(nil, below, nil, side)
	for _, o := range []fyne.CanvasObject{below, side} {
		if o != nil {
			p.body.Objects = append(p.body.Objects, o)
		}
	}
	p.body.Refresh()
}

// legendSize is the least size of the legend's scroll: at the side, as wide
// as the longest entry (within bounds) and any height; below, up to three
// rows of entries.
func (p *plotPanel) legendSize() fyne.Size {
	if p.g.legendAt == legendBelow {
		rows := min(3, max(1, len(p.legend.Objects)))
		return fyne.NewSize(0, float32(rows)*legendRowH)
	}
	w := float32(legendSideMin)
	size := theme.Size(theme.SizeNameCaptionText)
	for _, o := range p.legend.Objects {
		if r, ok := o.(*legendRow); ok {
			tw := fyne.MeasureText(r.label.Text, size, fyne.TextStyle{}).Width
			w = max(w, tw+2*legendRowH+3*theme.InnerPadding())
		}
	}
	return fyne.NewSize(min(w, legendSideMax), 0)
}

// fillLegend makes the legend's entries: a line with the topic when every
// series of the panel reads one topic, then one line per series.
func (p *plotPanel) fillLegend() {
	p.legend.Objects = nil
	topic := sharedTopic(p.series)
	if topic != "" {
		head := widgets.NewClipLabel(topic, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		head.SizeName = theme.SizeNameCaptionText
		p.legend.Add(newLegendLine(head))
	}
	for _, s := range p.series {
		p.legend.Add(p.newLegendRow(s, topic))
	}
	p.legendBox.SetMinSize(p.legendSize())
	p.legend.Refresh()
}

// sharedTopic is the topic every series reads, or "".
func sharedTopic(list []*plotSeries) string {
	topic := ""
	for _, s := range list {
		for _, r := range s.fields() {
			switch {
			case topic == "":
				topic = r.Topic
			case r.Topic != topic:
				return ""
			}
		}
	}
	return topic
}

// legendName is a series' name in the legend: without the topic every
// series of the panel shares (which the legend shows once).
func legendName(s *plotSeries, topic string) string {
	name := s.name()
	if !s.isXY() && !s.isDerived() {
		ref := s.ref
		if s.ms != nil {
			ref = s.ms.Ref
		}
		if ref.IsLatency() {
			name = ref.Topic + " latency (stamp − receive, s)"
			if topic != "" {
				name = "latency (stamp − receive, s)"
			}
			return name
		}
	}
	if topic == "" {
		return name
	}
	if strings.HasPrefix(name, topic+".") && !s.isXY() && !s.isDerived() {
		return strings.TrimPrefix(name, topic+".")
	}
	return strings.ReplaceAll(name, topic+".", "")
}

// legendState is what a series' entry says of it beside its name: why it
// failed, that it is being read, or its points (and the messages that lack
// its field).
func legendState(s *plotSeries) (text string, failed bool) {
	switch {
	case s.err != nil:
		return s.err.Error(), true
	case s.loading():
		return "extracting…", false
	}
	text = human.Count(uint64(s.points())) + " points"
	missing := 0
	for _, ms := range append([]*series.Series{s.ms}, s.leaves...) {
		if ms != nil {
			missing = max(missing, ms.Missing)
		}
	}
	if missing > 0 {
		text += ", " + human.Count(uint64(missing)) + " messages lack a field"
	}
	return text, false
}

// legendRow is one series' line of the legend: its colour as a swatch
// that hides or shows it when clicked (hollow while hidden), its name cut
// with an ellipsis (the whole name, its points or its error in the
// tooltip), and × to remove it.
type legendRow struct {
	widget.BaseWidget
	s      *plotSeries
	swatch *swatchToggle
	label  *widgets.ClipLabel
	del    *iconTap
}

func (p *plotPanel) newLegendRow(s *plotSeries, topic string) *legendRow {
	r := &legendRow{s: s}
	name := legendName(s, topic)
	state, failed := legendState(s)
	text := name
	switch {
	case failed:
		text = name + ": " + state
	case s.loading():
		text = name + " (" + state + ")"
	}
	r.label = widgets.NewClipLabel(text, fyne.TextAlignLeading, fyne.TextStyle{})
	r.label.SizeName = theme.SizeNameCaptionText
	if failed {
		r.label.Importance = widget.DangerImportance
	}
	tip := s.name() + "\n" + state
	if s.ms != nil && s.ms.Reduced() {
		tip += "\n" + reducedNote(s.ms)
	}
	r.label.SetTip(tip)
	r.swatch = newSwatchToggle(s.color, !s.hidden, func(on bool) {
		s.hidden = !on
		p.canvas.Refresh()
		if p.xy != nil {
			p.xy.Refresh()
		}
	})
	r.del = newIconTap(theme.CancelIcon(), func() { p.remove(s) })
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the swatch, the name and × out on one line.
func (r *legendRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.New(legendLineLayout{}, r.swatch, r.label, r.del))
}

// newLegendLine is a line of the legend holding only label (the topic).
func newLegendLine(label *widgets.ClipLabel) fyne.CanvasObject {
	return container.New(legendLineLayout{}, layout.NewSpacer(), label, layout.NewSpacer())
}

// legendLineLayout places a legend line's three objects in legendRowH: a
// square at the left, the label between and a square at the right; the
// label keeps its own height, centred (its padding overlaps the lines
// around it, so the text lines sit close).
type legendLineLayout struct{}

func (legendLineLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(2*legendRowH+40, legendRowH)
}

func (legendLineLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	left, label, right := objs[0], objs[1], objs[2]
	left.Move(fyne.NewPos(0, 0))
	left.Resize(fyne.NewSize(legendRowH, size.Height))
	right.Move(fyne.NewPos(size.Width-legendRowH, 0))
	right.Resize(fyne.NewSize(legendRowH, size.Height))
	pad := theme.InnerPadding()
	h := label.MinSize().Height
	label.Move(fyne.NewPos(legendRowH-pad+2, (size.Height-h)/2))
	label.Resize(fyne.NewSize(max(0, size.Width-2*legendRowH+2*pad-4), h))
}

// swatchToggle is a series' colour: filled while the series is shown,
// hollow while it is hidden; a click toggles it.
type swatchToggle struct {
	widget.BaseWidget
	c        color.Color
	on       bool
	onChange func(on bool)
	rect     *canvas.Rectangle
}

var (
	_ fyne.Tappable      = (*swatchToggle)(nil)
	_ desktop.Cursorable = (*swatchToggle)(nil)
)

func newSwatchToggle(c color.Color, on bool, onChange func(bool)) *swatchToggle {
	t := &swatchToggle{c: c, on: on, onChange: onChange}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped hides or shows the series.
func (t *swatchToggle) Tapped(*fyne.PointEvent) {
	t.on = !t.on
	t.Refresh()
	if t.onChange != nil {
		t.onChange(t.on)
	}
}

// Cursor is the pointing hand: the swatch is a button.
func (t *swatchToggle) Cursor() desktop.Cursor { return desktop.PointerCursor }

// CreateRenderer draws the swatch centred in the widget.
func (t *swatchToggle) CreateRenderer() fyne.WidgetRenderer {
	t.rect = canvas.NewRectangle(t.c)
	t.rect.StrokeColor = t.c
	t.rect.StrokeWidth = 2
	t.rect.CornerRadius = 3
	t.paint()
	return &swatchRenderer{t: t}
}

// paint fills the swatch while on.
func (t *swatchToggle) paint() {
	if t.on {
		t.rect.FillColor = t.c
	} else {
		t.rect.FillColor = color.Transparent
	}
}

type swatchRenderer struct{ t *swatchToggle }

func (r *swatchRenderer) Layout(size fyne.Size) {
	s := float32(legendSwatchSz)
	r.t.rect.Move(fyne.NewPos((size.Width-s)/2, (size.Height-s)/2))
	r.t.rect.Resize(fyne.NewSquareSize(s))
}
func (r *swatchRenderer) MinSize() fyne.Size { return fyne.NewSquareSize(legendSwatchSz) }
func (r *swatchRenderer) Refresh() {
	r.t.paint()
	r.t.rect.Refresh()
}
func (r *swatchRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.t.rect} }
func (r *swatchRenderer) Destroy()                     {}

// iconTap is a small icon that does something when clicked (a legend
// row's ×), without a button's padding.
type iconTap struct {
	widget.BaseWidget
	icon   fyne.Resource
	tapped func()
}

var _ fyne.Tappable = (*iconTap)(nil)

func newIconTap(icon fyne.Resource, tapped func()) *iconTap {
	t := &iconTap{icon: icon, tapped: tapped}
	t.ExtendBaseWidget(t)
	return t
}

// Tapped calls the action.
func (t *iconTap) Tapped(*fyne.PointEvent) {
	if t.tapped != nil {
		t.tapped()
	}
}

// Cursor is the pointing hand.
func (t *iconTap) Cursor() desktop.Cursor { return desktop.PointerCursor }

// CreateRenderer draws the icon, dimmed, at the caption text's size.
func (t *iconTap) CreateRenderer() fyne.WidgetRenderer {
	img := canvas.NewImageFromResource(theme.NewDisabledResource(t.icon))
	img.FillMode = canvas.ImageFillContain
	return widget.NewSimpleRenderer(container.NewCenter(sized(img, 14)))
}

// sized gives o a fixed square size.
func sized(o *canvas.Image, side float32) fyne.CanvasObject {
	o.SetMinSize(fyne.NewSquareSize(side))
	return o
}
