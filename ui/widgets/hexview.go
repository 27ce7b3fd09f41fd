package widgets

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
)

// HexCols is the number of bytes on a hex view row.
const HexCols = 16

// HexView shows a range of bytes as rows of offset, 16 hex bytes and
// ASCII, reading only the rows on screen from an io.ReaderAt. Bytes inside
// spans are tinted by the span's kind; hovering a byte names its span in
// the status line under the rows. A highlighted range is drawn strongly
// over the tints. Tapping a byte, or moving with the keyboard once the
// view has focus, puts the byte cursor on it and calls OnSelect. Dragging,
// Shift+click or Shift with the cursor keys selects a range of bytes, which
// Ctrl+C copies as hex (hexview_range.go).
type HexView struct {
	widget.BaseWidget

	r           io.ReaderAt
	start, size int64
	spans       []model.Span

	// OnSelect, if set, is called with the byte the cursor moved to by a
	// tap or a key.
	OnSelect func(off int64)
	// OnShortcut, when set, gets the shortcuts the view does not take
	// itself (other than Ctrl+C and Ctrl+A), typed while it has the focus.
	OnShortcut func(s fyne.Shortcut)
	// DecimalOffsets writes each row's offset in decimal with its hex
	// beside it, rather than in hex only; the column is as wide as the
	// last offset of the data, or of OffsetLimit when that is further (the
	// size of the file the data is in, so that the column keeps its width
	// from one record to the next).
	DecimalOffsets bool
	OffsetLimit    int64

	hiStart, hiEnd int64 // highlighted bytes [hiStart, hiEnd); empty for none
	cursor         int64 // byte cursor, or -1
	anchor         int64 // other end of the selection, or -1
	focused        bool
	shift          bool // Shift held: clicks and cursor keys extend the selection
	dragging       bool

	top    int64   // first row shown
	scroll float32 // scroll remainder in pixels
	rows   int     // rows that fit, set by the renderer's layout
	hover  int64   // hovered byte offset, or -1

	slider *widget.Slider
	status *LineLabel // a raster: its text changes with each byte and message (see LineLabel)
}

var (
	_ fyne.Widget       = (*HexView)(nil)
	_ desktop.Hoverable = (*HexView)(nil)
	_ fyne.Scrollable   = (*HexView)(nil)
	_ fyne.Tappable     = (*HexView)(nil)
	_ fyne.Focusable    = (*HexView)(nil)
)

// NewHexView returns an empty hex view.
func NewHexView() *HexView {
	h := &HexView{hover: -1, cursor: -1, anchor: -1}
	h.status = NewLineLabel("", fyne.TextStyle{})
	h.slider = widget.NewSlider(0, 0)
	h.slider.Orientation = widget.Vertical
	h.slider.OnChanged = func(v float64) {
		h.setTop(int64(math.Round(h.slider.Max - v)))
	}
	h.ExtendBaseWidget(h)
	return h
}

// SetData shows size bytes of r from start, tinted by spans (sorted, not
// overlapping, as model.RecordSpans returns them).
func (h *HexView) SetData(r io.ReaderAt, start, size int64, spans []model.Span) {
	h.r, h.start, h.size, h.spans = r, start, size, spans
	h.top, h.scroll, h.hover, h.cursor, h.anchor = 0, 0, -1, -1, -1
	h.hiStart, h.hiEnd = 0, 0
	h.status.SetText(h.idleStatus())
	h.updateSlider()
	h.Refresh()
}

// Data returns what SetData was given: the reader, the bytes shown and
// their spans.
func (h *HexView) Data() (r io.ReaderAt, start, size int64, spans []model.Span) {
	return h.r, h.start, h.size, h.spans
}

// Status returns the text of the status line under the rows.
func (h *HexView) Status() string { return h.status.Text }

// Clear empties the view.
func (h *HexView) Clear() { h.SetData(nil, 0, 0, nil) }

func (h *HexView) idleStatus() string {
	if h.r == nil {
		return ""
	}
	return fmt.Sprintf("%s at %d..%d. Point at a byte to name it.", human.Plural(uint64(h.size), "byte"), h.start, h.start+h.size-1)
}

// totalRows is the number of rows of the whole range: rows start at
// multiples of 16 so that offsets line up.
func (h *HexView) totalRows() int64 {
	if h.size <= 0 {
		return 0
	}
	first := h.start / HexCols
	last := (h.start + h.size - 1) / HexCols
	return last - first + 1
}

func (h *HexView) maxTop() int64 { return max(0, h.totalRows()-int64(max(h.rows, 1))) }

func (h *HexView) setTop(t int64) {
	t = min(max(t, 0), h.maxTop())
	if t == h.top {
		return
	}
	h.top = t
	h.Refresh()
}

func (h *HexView) updateSlider() {
	m := float64(h.maxTop())
	h.slider.Max = m
	h.slider.Step = 1
	h.slider.Value = m - float64(h.top)
	if m == 0 {
		h.slider.Hide()
	} else {
		h.slider.Show()
	}
	h.slider.Refresh()
}

// ScrollToOffset scrolls so that the row holding off is on screen.
func (h *HexView) ScrollToOffset(off int64) {
	row := off/HexCols - h.start/HexCols
	if row < h.top || row >= h.top+int64(h.rows) {
		h.setTop(row)
		h.updateSlider()
	}
}

// Scrolled moves the view by whole rows.
func (h *HexView) Scrolled(ev *fyne.ScrollEvent) {
	h.scroll -= ev.Scrolled.DY
	rh := h.metrics().row
	n := int64(h.scroll / rh)
	if n == 0 {
		return
	}
	h.scroll -= float32(n) * rh
	h.setTop(h.top + n)
	h.updateSlider()
}

// MouseIn starts hovering.
func (h *HexView) MouseIn(ev *desktop.MouseEvent) { h.MouseMoved(ev) }

// MouseMoved names the span of the byte under the pointer.
func (h *HexView) MouseMoved(ev *desktop.MouseEvent) { h.hoverAt(ev.Position) }

// MouseOut stops hovering.
func (h *HexView) MouseOut() {
	if h.hover >= 0 {
		h.hover = -1
		h.status.SetText(h.restStatus())
		h.Refresh()
	}
}

// hoverAt sets the hovered byte from a position in the widget.
func (h *HexView) hoverAt(p fyne.Position) {
	off := h.offsetAt(p)
	if off == h.hover {
		return
	}
	h.hover = off
	if off < 0 {
		h.status.SetText(h.restStatus())
	} else {
		h.status.SetText(h.describe(off))
	}
	h.Refresh()
}

// describe names the byte at off and its span.
func (h *HexView) describe(off int64) string {
	s := fmt.Sprintf("byte %d (0x%x)", off, off)
	if i := model.SpanAt(h.spans, off); i >= 0 {
		return h.spans[i].String() + "  ·  " + s
	}
	return s
}

// offsetAt returns the byte under p, or -1.
func (h *HexView) offsetAt(p fyne.Position) int64 {
	m := h.metrics()
	if p.Y < m.head {
		return -1
	}
	row := int64((p.Y - m.head) / m.row)
	if row >= int64(h.rows) {
		return -1
	}
	col := -1
	if x := p.X - m.hexX + m.char/2; x >= 0 && x < HexCols*m.cell+m.char {
		if x >= 8*m.cell {
			x = max(x-m.char, 8*m.cell)
		}
		col = min(int(x/m.cell), HexCols-1)
	} else if x := p.X - m.asciiX; x >= 0 && x < HexCols*m.char {
		col = int(x / m.char)
	}
	if col < 0 {
		return -1
	}
	off := (h.start/HexCols+h.top+row)*HexCols + int64(col)
	if off < h.start || off >= h.start+h.size {
		return -1
	}
	return off
}

// CellPosition returns where byte off's hex cell is drawn, the middle of
// its row (the byte must be on screen): the inverse of a tap's offset.
func (h *HexView) CellPosition(off int64) fyne.Position {
	m := h.metrics()
	row := off/HexCols - h.start/HexCols - h.top
	col := off % HexCols
	x := m.hexX + float32(col)*m.cell + 1
	if col >= 8 {
		x += m.char
	}
	return fyne.NewPos(x, m.head+float32(row)*m.row+m.row/2)
}

// hexMetrics are the positions of the view's columns.
type hexMetrics struct {
	char, cell, row, head float32
	offX, hexX, asciiX    float32
	width                 float32
}

func (h *HexView) metrics() hexMetrics {
	ts := theme.TextSize()
	c := fyne.MeasureText("0", ts, fyne.TextStyle{Monospace: true})
	pad := theme.Padding()
	m := hexMetrics{char: c.Width, cell: 3 * c.Width, row: c.Height + 2}
	m.head = m.row + pad
	m.offX = pad
	m.hexX = m.offX + float32(h.offsetChars()+1)*m.char
	m.asciiX = m.hexX + (HexCols*3+3)*m.char
	m.width = m.asciiX + HexCols*m.char + pad
	return m
}

// offsetChars is the width of the offset column, in characters.
func (h *HexView) offsetChars() int {
	if h.DecimalOffsets {
		dec, hex := h.offsetDigits()
		return dec + 1 + hex
	}
	return 10
}

// offsetDigits are the widths of the decimal and hex offsets, enough for
// the last byte of the data or of OffsetLimit, whichever is further.
func (h *HexView) offsetDigits() (dec, hex int) {
	last := max(h.start+h.size, h.OffsetLimit)
	dec = max(len(strconv.FormatInt(last, 10)), 6)
	hex = max(len(strconv.FormatInt(last, 16)), 4)
	return dec, hex
}

// offsetText writes a row's offset for the offset column.
func (h *HexView) offsetText(off int64) string {
	if h.DecimalOffsets {
		dec, hex := h.offsetDigits()
		return fmt.Sprintf("%*d %0*x", dec, off, hex, off)
	}
	return fmt.Sprintf("%010x", off)
}

// SpanColor is the tint of a span: lengths grey, each header field its own
// hue, the data a light wash. Alpha keeps the theme's text readable on it.
func SpanColor(s model.Span, v fyne.ThemeVariant) color.Color {
	dark := v == theme.VariantDark
	a := uint8(0x48)
	if dark {
		a = 0x60
	}
	switch s.Kind {
	case model.SpanLength, model.SpanFieldLength:
		if dark {
			return color.NRGBA{0xa0, 0xa0, 0xa0, 0x38}
		}
		return color.NRGBA{0x70, 0x70, 0x70, 0x30}
	case model.SpanData:
		if s.Field%2 == 1 {
			// Odd fields of a message: a bluer green, so neighbours part.
			return color.NRGBA{0x1e, 0x8e, 0xae, a - 0x18}
		}
		return color.NRGBA{0x2e, 0x9e, 0x5e, a - 0x18}
	}
	c := fieldHues[s.Field%len(fieldHues)]
	c.A = a
	return c
}

// fieldHues tint header fields; none is green, which marks the data.
var fieldHues = []color.NRGBA{
	{0x3d, 0x7e, 0xff, 0}, // blue
	{0xff, 0x8c, 0x1a, 0}, // orange
	{0xb0, 0x4d, 0xff, 0}, // purple
	{0x00, 0xb4, 0xc8, 0}, // teal
	{0xff, 0x4d, 0x8d, 0}, // pink
	{0xc8, 0xa8, 0x00, 0}, // ochre
}

// CreateRenderer builds the view's renderer.
func (h *HexView) CreateRenderer() fyne.WidgetRenderer {
	r := &hexRenderer{h: h, bg: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)), tints: NewRectRaster(), texts: newGridText()}
	r.hoverHex = canvas.NewRectangle(color.Transparent)
	r.hoverHex.StrokeWidth = 1.5
	r.hoverASCII = canvas.NewRectangle(color.Transparent)
	r.hoverASCII.StrokeWidth = 1.5
	r.curHex = canvas.NewRectangle(color.Transparent)
	r.curHex.StrokeWidth = 2
	r.curASCII = canvas.NewRectangle(color.Transparent)
	r.curASCII.StrokeWidth = 2
	return r
}

type hexRenderer struct {
	h                    *HexView
	bg                   *canvas.Rectangle
	tints                *RectRaster // the bytes' backgrounds, one draw call for all (see RectRaster)
	texts                *gridText   // the header, offsets, hex and ASCII, one draw call for all
	lines                []string    // the text of each line painted: the header, then the rows
	hoverHex, hoverASCII *canvas.Rectangle
	curHex, curASCII     *canvas.Rectangle
	objects              []fyne.CanvasObject
	buf                  []byte
	size                 fyne.Size
}

func (r *hexRenderer) Destroy() {}

func (r *hexRenderer) MinSize() fyne.Size {
	m := r.h.metrics()
	st := r.h.status.MinSize()
	return fyne.NewSize(m.width+r.h.slider.MinSize().Width, m.head+4*m.row+st.Height)
}

func (r *hexRenderer) Layout(size fyne.Size) {
	r.size = size
	m := r.h.metrics()
	st := r.h.status.MinSize()
	sw := r.h.slider.MinSize().Width
	area := size.Height - st.Height
	r.bg.Resize(fyne.NewSize(size.Width, area))
	r.tints.Resize(fyne.NewSize(size.Width, area))
	r.texts.Resize(fyne.NewSize(size.Width, area))
	r.h.slider.Move(fyne.NewPos(size.Width-sw, m.head))
	r.h.slider.Resize(fyne.NewSize(sw, max(area-m.head, 0)))
	r.h.status.Move(fyne.NewPos(0, area))
	r.h.status.Resize(fyne.NewSize(size.Width, st.Height))
	n := max(int((area-m.head)/m.row), 0)
	if n != r.h.rows {
		r.h.rows = n
		r.h.top = min(r.h.top, r.h.maxTop())
		r.h.updateSlider()
	}
	if r.objects == nil {
		r.objects = []fyne.CanvasObject{r.bg, r.tints.Raster, r.texts.Raster,
			r.curHex, r.curASCII, r.hoverHex, r.hoverASCII, r.h.slider, r.h.status}
	}
	r.Refresh()
}

func (r *hexRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *hexRenderer) Refresh() {
	h := r.h
	m := h.metrics()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	r.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.bg.Refresh()

	r.texts.reset(m.char)
	r.lines = r.lines[:0]
	if h.r != nil {
		s := fmt.Sprintf("%-10s ", "offset")
		if h.DecimalOffsets {
			dec, hex := h.offsetDigits()
			s = fmt.Sprintf("%*s %-*s ", dec, "offset", hex, "hex")
		}
		for i := range HexCols {
			s += fmt.Sprintf("%02x ", i)
			if i == 7 {
				s += " "
			}
		}
		s += "  ascii"
		r.texts.text(m.offX, theme.Padding()/2, s, dim)
		r.lines = append(r.lines, s)
	}

	n := max(h.rows, 0)
	firstRow := h.start/HexCols + h.top
	from := max(firstRow*HexCols, h.start)
	to := min((firstRow+int64(n))*HexCols, h.start+h.size)
	var data []byte
	if h.r != nil && to > from {
		if cap(r.buf) < int(to-from) {
			r.buf = make([]byte, to-from)
		}
		data = r.buf[:to-from]
		k, err := h.r.ReadAt(data, from)
		if err != nil && err != io.EOF {
			data = data[:k]
		}
		data = data[:k]
	}
	r.hoverHex.StrokeColor = color.Transparent
	r.hoverASCII.StrokeColor = color.Transparent
	r.curHex.StrokeColor, r.curHex.FillColor = color.Transparent, color.Transparent
	r.curASCII.StrokeColor, r.curASCII.FillColor = color.Transparent, color.Transparent
	hi := HexHighlightColor(v)
	sel := hexSelectionColor()
	r.tints.Reset()
	for ri := range n {
		y := m.head + float32(ri)*m.row
		rowOff := (firstRow + int64(ri)) * HexCols
		offText := ""
		if rowOff < h.start+h.size && h.r != nil {
			offText = h.offsetText(rowOff)
		}
		r.texts.text(m.offX, y, offText, dim)
		// The hex pairs and ASCII characters of the row on the view's
		// character grid: pairs three cells apart, one more after byte 7.
		var hexLine [HexCols*3 + 1]byte
		var asciiLine [HexCols]byte
		for i := range hexLine {
			hexLine[i] = ' '
		}
		for i := range asciiLine {
			asciiLine[i] = ' '
		}
		var bgs [HexCols]color.Color
		for c := range HexCols {
			off := rowOff + int64(c)
			hx, ax := m.hexX+float32(c)*m.cell, m.asciiX+float32(c)*m.char
			if c >= 8 {
				hx += m.char
			}
			bg := color.Color(color.Transparent)
			if i := off - from; off >= from && i < int64(len(data)) {
				b := data[i]
				hc := 3 * c
				if c >= 8 {
					hc++
				}
				hexLine[hc], hexLine[hc+1] = hexDigits[b>>4], hexDigits[b&0xf]
				asciiLine[c] = '.'
				if b >= 0x20 && b < 0x7f {
					asciiLine[c] = b
				}
				if si := model.SpanAt(h.spans, off); si >= 0 {
					bg = SpanColor(h.spans[si], v)
				}
				if off >= h.hiStart && off < h.hiEnd {
					bg = hi
				}
				if h.selected(off) {
					bg = sel
				}
				if off == h.cursor {
					r.placeCursor(fyne.NewPos(hx-m.char/2, y), fyne.NewPos(ax, y), m)
				}
				if off == h.hover {
					r.hoverHex.StrokeColor = theme.Color(theme.ColorNamePrimary)
					r.hoverHex.Move(fyne.NewPos(hx-m.char/2, y))
					r.hoverHex.Resize(fyne.NewSize(m.cell, m.row))
					r.hoverASCII.StrokeColor = theme.Color(theme.ColorNamePrimary)
					r.hoverASCII.Move(fyne.NewPos(ax, y))
					r.hoverASCII.Resize(fyne.NewSize(m.char, m.row))
				}
			}
			bgs[c] = bg
		}
		hs, as := strings.TrimRight(string(hexLine[:]), " "), strings.TrimRight(string(asciiLine[:]), " ")
		r.texts.text(m.hexX, y+1, hs, fg)
		r.texts.text(m.asciiX, y+1, as, fg)
		r.lines = append(r.lines, strings.TrimRight(fmt.Sprintf("%-10s %-49s  %s", offText, hs, as), " "))
		r.tintRow(bgs, y, m)
	}
	r.tints.Refresh()
	r.texts.Refresh()
	r.hoverHex.Refresh()
	r.hoverASCII.Refresh()
	r.curHex.Refresh()
	r.curASCII.Refresh()
}

// tintRow paints a row's byte backgrounds, one rectangle per run of equal
// colour: a hex run covers its cells' gaps, so a span's tint joins up,
// except at the gap in the middle of the row.
func (r *hexRenderer) tintRow(bgs [HexCols]color.Color, y float32, m hexMetrics) {
	for c := 0; c < HexCols; {
		e := c + 1
		for e < HexCols && bgs[e] == bgs[c] {
			e++
		}
		if bgs[c] != color.Transparent {
			r.tints.Rect(m.asciiX+float32(c)*m.char, y, float32(e-c)*m.char, m.row, bgs[c])
			for _, half := range [][2]int{{c, min(e, 8)}, {max(c, 8), e}} {
				if a, b := half[0], half[1]; a < b {
					hx := m.hexX + float32(a)*m.cell - m.char/2
					if a >= 8 {
						hx += m.char
					}
					r.tints.Rect(hx, y, float32(b-a)*m.cell, m.row, bgs[c])
				}
			}
		}
		c = e
	}
}

// placeCursor draws the byte cursor around a hex cell and its ASCII cell:
// the theme's focus colour while the view has the keyboard, an outline
// otherwise.
func (r *hexRenderer) placeCursor(hexPos, asciiPos fyne.Position, m hexMetrics) {
	stroke := theme.Color(theme.ColorNameForeground)
	fill := color.Color(color.Transparent)
	if r.h.focused {
		stroke = theme.Color(theme.ColorNamePrimary)
		fill = theme.Color(theme.ColorNameFocus)
	}
	for _, c := range []struct {
		rect *canvas.Rectangle
		pos  fyne.Position
		w    float32
	}{{r.curHex, hexPos, m.cell}, {r.curASCII, asciiPos, m.char}} {
		c.rect.StrokeColor, c.rect.FillColor = stroke, fill
		c.rect.Move(c.pos)
		c.rect.Resize(fyne.NewSize(c.w, m.row))
	}
}

// DrawnLines returns the text of each line the view painted: the header,
// then each row's offset, hex bytes and ASCII on the view's character grid.
func (r *hexRenderer) DrawnLines() []string { return r.lines }

const hexDigits = "0123456789abcdef"

// HexHighlightColor is the strong tint of highlighted bytes: the theme's
// primary colour, opaque enough to stand out over any span tint.
func HexHighlightColor(v fyne.ThemeVariant) color.Color {
	c := color.NRGBAModel.Convert(theme.Color(theme.ColorNamePrimary)).(color.NRGBA)
	c.A = 0x90
	if v == theme.VariantDark {
		c.A = 0xb0
	}
	return c
}
