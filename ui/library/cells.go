package library

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/catalog"
)

// The table's columns: the catalogue's, then the timeline of durations.
const (
	colTimeline = int(catalog.NumColumns)
	numCols     = colTimeline + 1
)

// cell is one cell of the table: a text, a health badge before it (the
// Health column), or a duration bar (the Timeline column). A click
// selects its row, a double click opens it.
type cell struct {
	widget.BaseWidget
	v     *View
	row   int
	bg    *canvas.Rectangle
	label *widget.Label
	badge *canvas.Rectangle
	btext *canvas.Text
	bar   *canvas.Rectangle
	span  [2]float32 // the bar's start and end, fractions of the width
	box   *fyne.Container
	// path is the Path column's whole text, fitted to the cell's width
	// by cutting its middle (the file name at its end tells rows apart);
	// "" in other columns.
	path string
}

func newCell(v *View) *cell {
	c := &cell{v: v, row: -1}
	c.bg = canvas.NewRectangle(color.Transparent)
	c.label = widget.NewLabel("")
	c.label.Truncation = fyne.TextTruncateEllipsis
	c.badge = canvas.NewRectangle(color.Transparent)
	c.badge.CornerRadius = 4
	c.btext = canvas.NewText("", color.White)
	c.btext.TextSize = theme.CaptionTextSize()
	c.btext.TextStyle = fyne.TextStyle{Bold: true}
	c.btext.Alignment = fyne.TextAlignCenter
	c.bar = canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	c.bar.CornerRadius = 2
	c.box = &fyne.Container{Layout: &cellLayout{c}, Objects: []fyne.CanvasObject{c.bg, c.badge, c.btext, c.bar, c.label}}
	c.ExtendBaseWidget(c)
	return c
}

func (c *cell) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(c.box) }

// Tapped selects the row (with Ctrl or Shift: adds it to the selection).
func (c *cell) Tapped(*fyne.PointEvent) { c.v.Tap(c.row, addModifier()) }

// DoubleTapped opens the row's recording.
func (c *cell) DoubleTapped(*fyne.PointEvent) {
	c.v.Tap(c.row, false)
	c.v.OpenRow(c.row)
}

// badgeWidth is the Health column's badge's width.
const badgeWidth = 64

// cellLayout lays out a cell: the badge at its start (when shown), the
// label after it, the bar at its fraction of the width.
type cellLayout struct{ c *cell }

func (l *cellLayout) MinSize([]fyne.CanvasObject) fyne.Size { return l.c.label.MinSize() }

func (l *cellLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	c := l.c
	c.bg.Resize(size)
	c.bg.Move(fyne.NewPos(0, 0))
	x := float32(0)
	if c.badge.Visible() {
		p := theme.Padding()
		h := c.btext.MinSize().Height + p
		c.badge.Resize(fyne.NewSize(badgeWidth, h))
		c.badge.Move(fyne.NewPos(p*2, (size.Height-h)/2))
		c.btext.Resize(fyne.NewSize(badgeWidth, h))
		c.btext.Move(fyne.NewPos(p*2, (size.Height-h)/2))
		x = badgeWidth + p*2
	}
	c.label.Move(fyne.NewPos(x, 0))
	c.label.Resize(fyne.NewSize(size.Width-x, size.Height))
	if c.path != "" {
		if t := fitPath(c.path, size.Width-x-2*theme.InnerPadding(), theme.TextSize()); t != c.label.Text {
			c.label.SetText(t)
		}
	}
	if c.bar.Visible() {
		pad := theme.Padding() * 2
		w := size.Width - 2*pad
		x0, x1 := min(pad+c.span[0]*w, pad+w-3), pad+c.span[1]*w
		c.bar.Move(fyne.NewPos(x0, size.Height/2-4))
		c.bar.Resize(fyne.NewSize(max(x1-x0, 3), 8))
	}
}

// fitPath shortens a recording's path with an ellipsis in its middle until
// it fits w at size, keeping twice as much of its end as of its start:
// "site3/…/day12/run_0042.mcap". Paths of one library share their start;
// the file name at the end is what tells rows apart. A width not laid out
// yet (0) leaves the path whole.
func fitPath(s string, w, size float32) string {
	if w <= 0 || fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= w {
		return s
	}
	r := []rune(s)
	for keep := len(r) - 1; keep > 1; keep-- {
		head := keep / 3
		t := string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
		if fyne.MeasureText(t, size, fyne.TextStyle{}).Width <= w {
			return t
		}
	}
	return "…"
}

// badgeColor is each health badge's colour.
func badgeColor(b catalog.BadgeKind) (color.Color, string) {
	switch b {
	case catalog.BadgeDamaged:
		return theme.Color(theme.ColorNameWarning), "DAMAGED"
	case catalog.BadgeUnread:
		return theme.Color(theme.ColorNameDisabled), "NO INDEX"
	case catalog.BadgeFailed:
		return theme.Color(theme.ColorNameError), "FAILED"
	}
	// Healthy is the usual case: a calm green (the theme's success green
	// is as loud as the warnings, and a library of hundreds of OK rows
	// drowned the few damaged ones in it).
	return okGreen, "OK"
}

// okGreen is the OK badge's colour: a dark, muted green that white text
// reads on, in the dark and the light theme.
var okGreen = color.NRGBA{0x2e, 0x7d, 0x32, 0xff}

// badgeText is the colour of a badge's word: dark on the light (amber)
// badge, light on the others.
func badgeText(b catalog.BadgeKind) color.Color {
	if b == catalog.BadgeDamaged {
		return color.NRGBA{0x10, 0x10, 0x10, 0xff}
	}
	return color.White
}

func (v *View) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*cell)
	c.row = id.Row
	defer c.box.Refresh()
	c.badge.Hide()
	c.btext.Hide()
	c.bar.Hide()
	c.label.Show()
	if id.Row < 0 || id.Row >= v.rows.Len() {
		c.label.SetText("")
		return
	}
	r := v.rows.Row(id.Row)
	c.bg.FillColor = color.Transparent
	if isSelected(v.selected, r.Path) {
		c.bg.FillColor = theme.Color(theme.ColorNameSelection)
	}
	c.bg.Refresh()
	if id.Col == colTimeline {
		c.label.Hide()
		lo, hi, ok := v.rows.Span()
		if !ok || (r.StartNS == 0 && r.EndNS == 0) {
			return
		}
		span := float32(max(hi-lo, 1))
		c.span = [2]float32{float32(r.StartNS-lo) / span, float32(r.EndNS-lo) / span}
		col, _ := badgeColor(catalog.Badge(r))
		c.bar.FillColor = col
		if catalog.Badge(r) == catalog.BadgeHealthy {
			c.bar.FillColor = theme.Color(theme.ColorNamePrimary)
		}
		c.bar.Show()
		c.bar.Refresh()
		return
	}
	col := catalog.Column(id.Col)
	c.label.Alignment = fyne.TextAlignLeading
	if col.Numeric() {
		c.label.Alignment = fyne.TextAlignTrailing
	}
	text := catalog.Cell(r, col)
	c.path = ""
	if col == catalog.ColPath {
		c.path = v.shownName(r.Path)
		text = fitPath(c.path, c.label.Size().Width-2*theme.InnerPadding(), theme.TextSize())
	}
	if col == catalog.ColHealth {
		bc, word := badgeColor(catalog.Badge(r))
		c.badge.FillColor = bc
		c.btext.Text = word
		c.btext.Color = badgeText(catalog.Badge(r))
		c.badge.Show()
		c.btext.Show()
		c.badge.Refresh()
		c.btext.Refresh()
		if text == "ok" {
			text = ""
		}
	}
	c.label.SetText(text)
}

func isSelected(sel []string, p string) bool {
	for _, s := range sel {
		if s == p {
			return true
		}
	}
	return false
}

// updateHeader names a column, with an arrow on the one sorted by; the
// timeline's header gives the calendar span the bars share.
func (v *View) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*widget.Button)
	if id.Col == colTimeline {
		b.Icon = nil
		b.OnTapped = nil
		lo, hi, ok := v.rows.Span()
		text := "Timeline"
		if ok {
			text = timelineHeading(lo, hi)
		}
		b.SetText(text)
		return
	}
	col := catalog.Column(id.Col)
	sorted, desc := v.rows.SortedBy()
	b.Icon = nil
	if sorted == col {
		b.Icon = theme.MenuDropDownIcon()
		if !desc {
			b.Icon = theme.MenuDropUpIcon()
		}
	}
	b.OnTapped = func() { v.SortBy(col) }
	b.SetText(col.String())
}

// timelineHeading is the timeline column's heading: the calendar span of
// the rows' recordings.
func timelineHeading(lo, hi int64) string {
	a, b := timeOf(lo), timeOf(hi)
	if a.Format("2006-01-02") == b.Format("2006-01-02") {
		return a.Format("2006-01-02 15:04") + "–" + b.Format("15:04")
	}
	return a.Format("2006-01-02") + " – " + b.Format("2006-01-02")
}

// widths: the natural width of each column, from the header and the rows
// (the first thousand: a library can hold many).
func (v *View) measure() {
	probe := widget.NewLabel("")
	for col := range numCols {
		w := float32(90)
		if col < int(catalog.NumColumns) {
			probe.SetText(catalog.Column(col).String() + "    ")
			w = max(w, probe.MinSize().Width+theme.IconInlineSize())
			for i := range min(v.rows.Len(), 1000) {
				r := v.rows.Row(i)
				text := catalog.Cell(r, catalog.Column(col))
				if col == int(catalog.ColPath) {
					text = v.shownName(r.Path)
				}
				probe.SetText(text)
				w = max(w, probe.MinSize().Width+theme.Padding()*2)
			}
		}
		switch col {
		case int(catalog.ColPath):
			w = min(w, 380)
		case int(catalog.ColHealth):
			w = min(w+badgeWidth+theme.Padding()*2, 320)
		}
		v.widths[col] = w
	}
}

// fillLast gives each column its natural width, narrowing the Path,
// Health, Format and Start columns (which cut their text with an
// ellipsis; the Path last) when the window is too narrow, and the timeline the room left (at least timelineMin).
type fillLast struct {
	v    *View
	size fyne.Size
}

const timelineMin = 200

func (l *fillLast) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (l *fillLast) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.size = size
	l.apply()
	objs[0].Resize(size)
	objs[0].Move(fyne.NewPos(0, 0))
}

// apply sets the table's column widths for the last size laid out.
func (l *fillLast) apply() {
	v := l.v
	widths := v.widths
	sep := theme.SeparatorThicknessSize()
	used := float32(0)
	for col := range numCols - 1 {
		used += widths[col] + sep
	}
	// The room for the columns: the width less the vertical scroll bar.
	room := l.size.Width - theme.ScrollBarSize() - theme.Padding()*4 - float32(numCols)*sep
	avail := room - timelineMin
	for _, c := range []struct {
		col int
		min float32
	}{{int(catalog.ColPath), 240}, {int(catalog.ColHealth), badgeWidth + 30}, {int(catalog.ColFormat), 90}, {int(catalog.ColStart), 110}, {int(catalog.ColPath), 130}} {
		if used <= avail {
			break
		}
		cut := min(used-avail, max(widths[c.col]-c.min, 0))
		widths[c.col] -= cut
		used -= cut
	}
	for col := range numCols - 1 {
		v.grid.SetColumnWidth(col, widths[col])
	}
	v.grid.SetColumnWidth(colTimeline, max(timelineMin, room-used))
}

var _ fyne.Layout = (*fillLast)(nil)

func timeOf(ns int64) time.Time { return time.Unix(0, ns).UTC() }
