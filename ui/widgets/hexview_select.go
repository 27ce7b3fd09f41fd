package widgets

import (
	"fyne.io/fyne/v2"
)

// SetHighlight highlights the bytes [start, end) strongly (an empty range
// clears it) and scrolls so that their start is on screen.
func (h *HexView) SetHighlight(start, end int64) {
	if end < start {
		end = start
	}
	h.hiStart, h.hiEnd = start, end
	if end > start {
		h.ScrollToOffset(start)
	}
	h.Refresh()
}

// HighlightInPlace highlights start..end as SetHighlight does, without
// scrolling to it (the user tapped a byte on screen).
func (h *HexView) HighlightInPlace(start, end int64) {
	h.hiStart, h.hiEnd = start, end
	h.Refresh()
}

// Highlight returns the highlighted range.
func (h *HexView) Highlight() (start, end int64) { return h.hiStart, h.hiEnd }

// Cursor returns the byte under the cursor, or -1.
func (h *HexView) Cursor() int64 { return h.cursor }

// SetCursor puts the cursor on byte off (clamped to the data) and scrolls
// to it, without calling OnSelect.
func (h *HexView) SetCursor(off int64) {
	if h.size <= 0 {
		return
	}
	off = min(max(off, h.start), h.start+h.size-1)
	h.cursor = off
	h.ScrollToOffset(off)
	if h.hover < 0 {
		h.status.SetText(h.restStatus())
	}
	h.Refresh()
}

// restStatus is the status line when no byte is hovered: the cursor's byte
// if there is one.
func (h *HexView) restStatus() string {
	if s, ok := h.selectionStatus(); ok {
		return s
	}
	if h.cursor >= 0 && h.r != nil {
		return h.describe(h.cursor)
	}
	return h.idleStatus()
}

// moveCursor moves the cursor to off and tells OnSelect.
func (h *HexView) moveCursor(off int64) {
	if h.size <= 0 {
		return
	}
	h.SetCursor(off)
	if h.OnSelect != nil {
		h.OnSelect(h.cursor)
	}
}

// Tapped puts the cursor on the byte under the pointer and takes the
// keyboard focus; with Shift held it extends the selection to that byte.
func (h *HexView) Tapped(ev *fyne.PointEvent) {
	h.focus()
	off := h.offsetAt(ev.Position)
	if off < 0 {
		return
	}
	if h.shift {
		h.extendTo(off)
	} else {
		h.anchor = -1
	}
	h.moveCursor(off)
}

// FocusGained shows the cursor as focused.
func (h *HexView) FocusGained() {
	h.focused = true
	if h.cursor < 0 && h.size > 0 {
		h.cursor = max(h.start, (h.start/HexCols+h.top)*HexCols)
		h.status.SetText(h.restStatus())
	}
	h.Refresh()
}

// FocusLost shows the cursor as unfocused.
func (h *HexView) FocusLost() {
	h.focused, h.shift = false, false
	h.Refresh()
}

// TypedRune ignores text input.
func (h *HexView) TypedRune(rune) {}

// TypedKey moves the cursor: arrows by a byte or a row, Page Up and Page
// Down by a screen, Home and End to the first and last byte.
func (h *HexView) TypedKey(ev *fyne.KeyEvent) {
	if h.size <= 0 {
		return
	}
	cur := h.cursor
	if cur < 0 {
		cur = h.start
	}
	page := int64(max(h.rows-1, 1)) * HexCols
	switch ev.Name {
	case fyne.KeyLeft:
		cur--
	case fyne.KeyRight:
		cur++
	case fyne.KeyUp:
		cur -= HexCols
	case fyne.KeyDown:
		cur += HexCols
	case fyne.KeyPageUp:
		cur -= page
	case fyne.KeyPageDown:
		cur += page
	case fyne.KeyHome:
		cur = h.start
	case fyne.KeyEnd:
		cur = h.start + h.size - 1
	default:
		return
	}
	if h.shift {
		h.extendTo(min(max(cur, h.start), h.start+h.size-1))
	} else {
		h.anchor = -1
	}
	h.moveCursor(cur)
}
