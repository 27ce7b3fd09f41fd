package widgets

import (
	"fmt"
	"image/color"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/model/human"
)

// maxHexCopy bounds the bytes Ctrl+C copies: a selection can span a
// whole bag.
const maxHexCopy = 1 << 20

var (
	_ fyne.Draggable    = (*HexView)(nil)
	_ desktop.Keyable   = (*HexView)(nil)
	_ fyne.Shortcutable = (*HexView)(nil)
	_ desktop.Mouseable = (*HexView)(nil)
)

// Selection returns the selected bytes [start, end): the bytes from the
// anchor to the cursor, both included. ok is false when nothing is
// selected beyond the cursor.
func (h *HexView) Selection() (start, end int64, ok bool) {
	if h.anchor < 0 || h.cursor < 0 || h.anchor == h.cursor {
		return 0, 0, false
	}
	return min(h.anchor, h.cursor), max(h.anchor, h.cursor) + 1, true
}

// selected reports whether byte off is in the selection.
func (h *HexView) selected(off int64) bool {
	s, e, ok := h.Selection()
	return ok && off >= s && off < e
}

// SelectRange selects the bytes [start, end) (clamped to the data), with
// the cursor on the last one, and scrolls to it.
func (h *HexView) SelectRange(start, end int64) {
	if h.size <= 0 {
		return
	}
	start = min(max(start, h.start), h.start+h.size-1)
	end = min(max(end, start+1), h.start+h.size)
	h.anchor = start
	h.SetCursor(end - 1)
}

// extendTo moves the cursor to off, keeping or starting the selection at
// the cursor's old place.
func (h *HexView) extendTo(off int64) {
	if h.anchor < 0 {
		h.anchor = h.cursor
		if h.anchor < 0 {
			h.anchor = off
		}
	}
	h.SetCursor(off)
}

// MouseDown remembers whether Shift is held, so a Shift+click extends the
// selection.
func (h *HexView) MouseDown(ev *desktop.MouseEvent) {
	h.shift = ev.Modifier&fyne.KeyModifierShift != 0
}

// MouseUp does nothing; Tapped and DragEnd finish a click or a drag.
func (h *HexView) MouseUp(*desktop.MouseEvent) {}

// Dragged selects from the byte where the drag started to the byte under
// the pointer, scrolling when the pointer leaves the rows.
func (h *HexView) Dragged(ev *fyne.DragEvent) {
	if h.size <= 0 {
		return
	}
	if !h.dragging {
		h.dragging = true
		h.focus()
		from := h.offsetNear(ev.Position.Subtract(ev.Dragged))
		if !h.shift || h.cursor < 0 {
			h.anchor, h.cursor = from, from
		} else if h.anchor < 0 {
			h.anchor = h.cursor
		}
	}
	m := h.metrics()
	switch {
	case ev.Position.Y < m.head:
		h.setTop(h.top - 1)
		h.updateSlider()
	case ev.Position.Y >= m.head+float32(h.rows)*m.row:
		h.setTop(h.top + 1)
		h.updateSlider()
	}
	h.hover = -1 // the hover box and its status wait for the drag's end
	h.SetCursor(h.offsetNear(ev.Position))
}

// DragEnd ends a drag selection and tells OnSelect where the cursor is.
func (h *HexView) DragEnd() {
	h.dragging = false
	if h.OnSelect != nil && h.cursor >= 0 {
		h.OnSelect(h.cursor)
	}
}

// offsetNear returns the byte nearest p, clamped to the rows on screen and
// to the data.
func (h *HexView) offsetNear(p fyne.Position) int64 {
	m := h.metrics()
	row := int64(0)
	if p.Y >= m.head {
		row = min(int64((p.Y-m.head)/m.row), int64(max(h.rows-1, 0)))
	}
	col := int64(0)
	switch {
	case p.X >= m.asciiX:
		col = int64((p.X - m.asciiX) / m.char)
	case p.X >= m.hexX-m.char/2:
		x := p.X - m.hexX + m.char/2
		if x >= 8*m.cell {
			x = max(x-m.char, 8*m.cell)
		}
		col = int64(x / m.cell)
	}
	col = min(col, HexCols-1)
	off := (h.start/HexCols+h.top+row)*HexCols + col
	return min(max(off, h.start), h.start+h.size-1)
}

// KeyDown tracks Shift, which makes the cursor keys extend the selection.
func (h *HexView) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		h.shift = true
	}
}

// KeyUp tracks Shift.
func (h *HexView) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		h.shift = false
	}
}

// TypedShortcut copies the selection (or the byte under the cursor) as hex
// with Ctrl+C, and selects every byte with Ctrl+A; it hands other
// shortcuts to OnShortcut.
func (h *HexView) TypedShortcut(s fyne.Shortcut) {
	switch s.(type) {
	case *fyne.ShortcutCopy:
		h.copySelection()
	case *fyne.ShortcutSelectAll:
		h.SelectRange(h.start, h.start+h.size)
	default:
		if h.OnShortcut != nil {
			h.OnShortcut(s)
		}
	}
}

// copySelection puts the selected bytes on the clipboard as hex pairs
// separated by spaces (what Python's bytes.fromhex reads), at most
// maxHexCopy of them, and says what it copied in the status line.
func (h *HexView) copySelection() {
	text, msg := h.SelectionHex()
	if text == "" {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(text)
	h.status.SetText(msg)
}

// SelectionHex returns the selected bytes (or the cursor's byte) as hex,
// and a sentence saying what that is.
func (h *HexView) SelectionHex() (text, msg string) {
	if h.r == nil || h.cursor < 0 {
		return "", ""
	}
	start, end, ok := h.Selection()
	if !ok {
		start, end = h.cursor, h.cursor+1
	}
	n := min(end-start, maxHexCopy)
	buf := make([]byte, n)
	k, err := h.r.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return "", fmt.Sprintf("Could not read bytes %d..%d: %v", start, end-1, err)
	}
	var sb strings.Builder
	sb.Grow(3 * k)
	for i, b := range buf[:k] {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%02x", b)
	}
	msg = fmt.Sprintf("Copied %s (%d..%d) as hex.", human.Plural(uint64(k), "byte"), start, start+int64(k)-1)
	if int64(k) < end-start {
		msg = fmt.Sprintf("Copied the first %d of %d selected bytes (%d..) as hex.", k, end-start, start)
	}
	return sb.String(), msg
}

// hexSelectionColor is the tint of selected bytes: a wash of the text
// colour, which reads as a selection over the span tints and stays apart
// from the field highlight's primary colour.
func hexSelectionColor() color.Color {
	c := color.NRGBAModel.Convert(theme.Color(theme.ColorNameForeground)).(color.NRGBA)
	c.A = 0x60
	return c
}

// selectionStatus describes the selection for the status line.
func (h *HexView) selectionStatus() (string, bool) {
	s, e, ok := h.Selection()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s selected, %d..%d (0x%x..0x%x). Ctrl+C copies them as hex.", human.Plural(uint64(e-s), "byte"), s, e-1, s, e-1), true
}

// focus takes the keyboard focus.
func (h *HexView) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(h); c != nil {
		c.Focus(h)
	}
}
