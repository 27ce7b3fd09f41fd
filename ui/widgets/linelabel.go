package widgets

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"
)

// LineLabel is one line of text drawn as a canvas.Raster, for texts that
// change with every message shown: the Message view's position line, the
// hex view's status line and the tree's values.
//
// Why: Fyne's GL painter keeps a texture for every distinct string a
// canvas.Text has drawn (its text texture cache, keyed by the string) for
// a minute after its last use. Playing images.bag with the Message tab
// showing drew a few new strings per frame (times, sizes, offsets), each a
// texture in Mesa's memory until it expired: the window grew from 180 to
// ~500 MB in the first 90 s of playback. A raster's texture belongs to
// its object and is replaced when it changes. Measuring the text with our
// own face also skips Fyne's shaping of every cut of a truncated label,
// which was most of playback's garbage after the pictures.
//
// The text sits as a widget.Label's does (padded by theme.InnerPadding
// unless Tight) and is cut with an ellipsis when it does not fit. It takes
// no pointer events; TipLine shows the whole text in a tooltip while cut.
type LineLabel struct {
	widget.BaseWidget

	Text      string
	TextStyle fyne.TextStyle
	// Color names the theme colour of the text (the foreground when "").
	Color fyne.ThemeColorName
	// Tight drops the padding: the text fills the widget's height (a
	// tree row's value).
	Tight bool
	// MinText, when set, is a text the label is at least as wide as (the
	// widest its text gets), so that a changing text keeps its place.
	MinText string

	raster *canvas.Raster
	img    *image.RGBA // reused between frames
	face   *glyphFace  // for the last pixel size and font
	fname  string      // the font resource the face was made from
	drawn  string      // the text the raster last painted, to skip repaints
	col    color.Color // the colour last painted
	units  *glyphFace  // at one pixel per unit, to measure in Fyne units
	uname  string      // its font
	cut    bool        // the text did not fit the last width
	lastSz fyne.Size   // the size last laid out
	onCut  func()      // after deciding cut
}

// NewLineLabel returns a line label of text in style.
func NewLineLabel(text string, style fyne.TextStyle) *LineLabel {
	l := &LineLabel{}
	l.init(text, style)
	l.ExtendBaseWidget(l)
	return l
}

func (l *LineLabel) init(text string, style fyne.TextStyle) {
	l.Text, l.TextStyle = text, style
	l.raster = canvas.NewRaster(l.paint)
}

// TipLine is a LineLabel whose whole text shows in a tooltip while it is
// cut.
type TipLine struct {
	LineLabel
	ttwidget.ToolTipWidgetExtend
}

// NewTipLine returns a line label whose whole text is its tooltip while
// it is cut.
func NewTipLine(text string, style fyne.TextStyle) *TipLine {
	t := &TipLine{}
	t.init(text, style)
	t.onCut = func() {
		if t.cut {
			t.SetToolTip(t.Text)
		} else {
			t.SetToolTip("")
		}
	}
	t.ExtendBaseWidget(t)
	t.ExtendToolTipWidget(t)
	return t
}

// SetText changes the text.
func (l *LineLabel) SetText(s string) {
	if s == l.Text {
		return
	}
	l.Text = s
	l.Refresh()
}

// Cut says whether the text did not fit the last layout.
func (l *LineLabel) Cut() bool { return l.cut }

// Shown is the text as the last layout shows it: whole, or cut with an
// ellipsis.
func (l *LineLabel) Shown() string {
	g := l.unitFace()
	if g == nil {
		return l.Text
	}
	rs := []rune(l.Text)
	if n := fitRunes(g, rs, float64(l.Size().Width-2*l.pad())); n < len(rs) {
		return string(rs[:n]) + "…"
	}
	return l.Text
}

func (l *LineLabel) pad() float32 {
	if l.Tight {
		return 0
	}
	return theme.InnerPadding()
}

func (l *LineLabel) font() fyne.Resource {
	switch {
	case l.TextStyle.Monospace:
		return theme.TextMonospaceFont()
	case l.TextStyle.Bold:
		return theme.TextBoldFont()
	}
	return theme.TextFont()
}

// unitFace is the face at one pixel per Fyne unit, for measuring.
func (l *LineLabel) unitFace() *glyphFace {
	res := l.font()
	size := float64(theme.TextSize())
	if l.units == nil || l.units.size != size || l.uname != res.Name() {
		f, err := monoFont(res)
		if err != nil {
			return nil
		}
		l.units, l.uname = newGlyphFace(f, size), res.Name()
	}
	return l.units
}

// MinSize is as tall as a label of the text size; the width is the
// padding alone, as a truncating label's.
func (l *LineLabel) MinSize() fyne.Size {
	h := fyne.MeasureText("Mg", theme.TextSize(), l.TextStyle).Height
	w := float32(0)
	if g := l.unitFace(); g != nil && l.MinText != "" {
		for _, r := range l.MinText {
			w += float32(g.advance(r))
		}
		w = float32(math.Ceil(float64(w)))
	}
	return fyne.NewSize(w+2*l.pad(), h+2*l.pad())
}

// Resize decides whether the text is cut at the new width.
func (l *LineLabel) Resize(s fyne.Size) {
	l.BaseWidget.Resize(s)
	l.updateCut()
}

// Refresh repaints the text and decides whether it is cut.
func (l *LineLabel) Refresh() {
	l.updateCut()
	l.BaseWidget.Refresh()
}

func (l *LineLabel) updateCut() {
	room := l.Size().Width - 2*l.pad()
	cut := false
	if g := l.unitFace(); g != nil && l.Text != "" {
		cut = fitRunes(g, []rune(l.Text), float64(room)) < len([]rune(l.Text))
	}
	l.cut = cut
	if l.onCut != nil {
		l.onCut()
	}
}

// advance is the width of r in the face's pixels.
func (g *glyphFace) advance(r rune) float64 {
	if g.Face == nil {
		return 0
	}
	a, ok := g.GlyphAdvance(r)
	if !ok {
		a, _ = g.GlyphAdvance('?')
	}
	return float64(a) / 64
}

// fitRunes is how many of rs fit in width pixels: all of them, or the
// longest start that fits with an ellipsis after it.
func fitRunes(g *glyphFace, rs []rune, width float64) int {
	w := 0.0
	for _, r := range rs {
		w += g.advance(r)
	}
	if w <= width+0.01 {
		return len(rs)
	}
	w = g.advance('…')
	n := 0
	for n < len(rs) && w+g.advance(rs[n]) <= width+0.01 {
		w += g.advance(rs[n])
		n++
	}
	return n
}

// CreateRenderer draws the raster.
func (l *LineLabel) CreateRenderer() fyne.WidgetRenderer {
	return &lineLabelRenderer{l: l}
}

type lineLabelRenderer struct{ l *LineLabel }

func (r *lineLabelRenderer) Destroy() {}

func (r *lineLabelRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.l.raster} }

func (r *lineLabelRenderer) MinSize() fyne.Size { return r.l.MinSize() }

func (r *lineLabelRenderer) Layout(s fyne.Size) {
	l := r.l
	if s != l.lastSz {
		l.lastSz = s
		l.raster.Resize(s)
		l.raster.Refresh()
	}
}

func (r *lineLabelRenderer) Refresh() {
	l := r.l
	r.Layout(l.Size())
	name := l.Color
	if name == "" {
		name = theme.ColorNameForeground
	}
	c := theme.Color(name)
	if l.Text == l.drawn && c == l.col && l.img != nil && l.face != nil && l.face.size == float64(theme.TextSize())*l.pxScale() {
		return // nothing changed: keep the texture
	}
	l.raster.Refresh()
}

// pxScale is the pixels per unit of the last paint (1 before it).
func (l *LineLabel) pxScale() float64 {
	if l.img == nil || l.Size().Width <= 0 {
		return 1
	}
	return float64(l.img.Rect.Dx()) / float64(l.Size().Width)
}

// paint is the raster's generator: w and h are in pixels.
func (l *LineLabel) paint(w, h int) image.Image {
	if l.img == nil || l.img.Rect.Dx() != w || l.img.Rect.Dy() != h {
		l.img = image.NewRGBA(image.Rect(0, 0, w, h))
	} else {
		clear(l.img.Pix)
	}
	name := l.Color
	if name == "" {
		name = theme.ColorNameForeground
	}
	l.col = theme.Color(name)
	l.drawn = l.Text
	size := l.Size()
	if size.Width <= 0 || size.Height <= 0 || l.Text == "" {
		return l.img
	}
	s := float64(w) / float64(size.Width)
	res := l.font()
	px := float64(theme.TextSize()) * s
	if l.face == nil || l.face.size != px || l.fname != res.Name() {
		f, err := monoFont(res)
		if err != nil {
			fyne.LogError("text font", err)
			return l.img
		}
		l.face, l.fname = newGlyphFace(f, px), res.Name()
	}
	g := l.face
	pad := float64(l.pad()) * s
	rs := []rune(l.Text)
	n := fitRunes(g, rs, float64(w)-2*pad)
	m := g.Metrics()
	// As Fyne places a text: its line box centred in the height without
	// the padding, the baseline one ascent below its top.
	lineH := float64(m.Height) / 64
	top := pad + math.Max(0, (float64(h)-2*pad-lineH)/2)
	base := math.Round(top) + math.Ceil(float64(m.Ascent)/64)
	src := image.NewUniform(l.col)
	x := pad
	draw := func(r rune) {
		if r != ' ' {
			g.draw(l.img, src, x, base, r)
		}
		x += g.advance(r)
	}
	for _, r := range rs[:n] {
		draw(r)
	}
	if n < len(rs) {
		draw('…')
	}
	return l.img
}
