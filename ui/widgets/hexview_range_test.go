package widgets

import (
	"bytes"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

// hexCell is the position of byte off's hex cell in a view scrolled to the top.
func hexCell(h *HexView, off int64) fyne.Position {
	m := h.metrics()
	col := float32(off % HexCols)
	x := m.hexX + col*m.cell + 1
	if col >= 8 {
		x += m.char
	}
	return fyne.NewPos(x, m.head+float32(off/HexCols)*m.row+m.row/2)
}

func TestHexViewSelection(t *testing.T) {
	data := make([]byte, 200)
	for i := range data {
		data[i] = byte(i)
	}
	shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
	tests := []struct {
		name       string
		do         func(h *HexView)
		start, end int64 // wanted selection; end 0 for none
		cursor     int64
	}{
		{"drag across rows", func(h *HexView) {
			from, to := hexCell(h, 5), hexCell(h, 37)
			h.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to}, Dragged: fyne.NewDelta(to.X-from.X, to.Y-from.Y)})
			h.DragEnd()
		}, 5, 38, 37},
		{"drag backwards", func(h *HexView) {
			from, to := hexCell(h, 40), hexCell(h, 20)
			h.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: to}, Dragged: fyne.NewDelta(to.X-from.X, to.Y-from.Y)})
			h.DragEnd()
		}, 20, 41, 20},
		{"shift+click extends from the cursor", func(h *HexView) {
			h.Tapped(&fyne.PointEvent{Position: hexCell(h, 10)})
			h.MouseDown(&desktop.MouseEvent{Modifier: fyne.KeyModifierShift})
			h.Tapped(&fyne.PointEvent{Position: hexCell(h, 14)})
		}, 10, 15, 14},
		{"shift+arrows", func(h *HexView) {
			h.SetCursor(16)
			h.KeyDown(shift)
			h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
			h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
			h.KeyUp(shift)
		}, 16, 34, 33},
		{"a plain key clears the selection", func(h *HexView) {
			h.SelectRange(3, 9)
			h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
		}, 0, 0, 9},
		{"a plain click clears it", func(h *HexView) {
			h.SelectRange(3, 9)
			h.MouseDown(&desktop.MouseEvent{})
			h.Tapped(&fyne.PointEvent{Position: hexCell(h, 2)})
		}, 0, 0, 2},
		{"select all", func(h *HexView) {
			h.TypedShortcut(&fyne.ShortcutSelectAll{})
		}, 0, 200, 199},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			h := NewHexView()
			w := test.NewTempWindow(t, h)
			w.Resize(fyne.NewSize(700, 400))
			h.SetData(bytes.NewReader(data), 0, int64(len(data)), nil)
			tc.do(h)
			s, e, ok := h.Selection()
			if tc.end == 0 {
				if ok {
					t.Errorf("selection %d..%d, want none", s, e)
				}
			} else if !ok || s != tc.start || e != tc.end {
				t.Errorf("selection %d..%d (%v), want %d..%d", s, e, ok, tc.start, tc.end)
			}
			if h.Cursor() != tc.cursor {
				t.Errorf("cursor %d, want %d", h.Cursor(), tc.cursor)
			}
			if ok && !strings.Contains(h.status.Text, "bytes selected") {
				t.Errorf("status %q does not name the selection", h.status.Text)
			}
		})
	}
}

func TestHexViewCopy(t *testing.T) {
	a := test.NewTempApp(t)
	data := bytes.Repeat([]byte{0xab}, maxHexCopy+10)
	copy(data[100:], []byte{0x00, 0x0f, 0x10, 0xff})
	h := NewHexView()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(700, 400))
	h.SetData(bytes.NewReader(data), 0, int64(len(data)), nil)

	h.SelectRange(100, 104)
	h.TypedShortcut(&fyne.ShortcutCopy{})
	if got := a.Clipboard().Content(); got != "00 0f 10 ff" {
		t.Errorf("copied %q", got)
	}
	if !strings.HasPrefix(h.status.Text, "Copied 4 bytes (100..103)") {
		t.Errorf("status %q", h.status.Text)
	}
	// No selection: the cursor's byte.
	h.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	h.TypedShortcut(&fyne.ShortcutCopy{})
	if got := a.Clipboard().Content(); got != "ab" {
		t.Errorf("copied %q for the cursor", got)
	}
	// A selection larger than the bound copies its start and says so.
	h.TypedShortcut(&fyne.ShortcutSelectAll{})
	h.TypedShortcut(&fyne.ShortcutCopy{})
	if got := a.Clipboard().Content(); len(got) != 3*maxHexCopy-1 {
		t.Errorf("copied %d characters, want %d", len(got), 3*maxHexCopy-1)
	}
	if !strings.HasPrefix(h.status.Text, "Copied the first 1048576 of 1048586") {
		t.Errorf("status %q", h.status.Text)
	}
}
