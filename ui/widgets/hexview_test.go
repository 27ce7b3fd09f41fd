package widgets

import (
	"bytes"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
)

// countingReader records the bytes read from it.
type countingReader struct {
	size int64
	read int64
}

func (r *countingReader) ReadAt(p []byte, off int64) (int, error) {
	r.read += int64(len(p))
	for i := range p {
		p[i] = byte(off + int64(i))
	}
	return len(p), nil
}

// hexTexts returns the lines of text the view paints, in order: the
// header, then each row as offset, hex bytes and ASCII.
func hexTexts(h *HexView) []string {
	return test.WidgetRenderer(h).(*hexRenderer).DrawnLines()
}

func TestHexViewReadsOnlyVisibleRows(t *testing.T) {
	test.NewTempApp(t)
	r := &countingReader{size: 2 << 30}
	h := NewHexView()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(700, 400))
	h.SetData(r, 100, r.size, []model.Span{{Name: "data", Kind: model.SpanData, Start: 100, End: 100 + r.size}})
	if r.read > 64*HexCols {
		t.Fatalf("read %d bytes for one screen", r.read)
	}
	if h.totalRows() != (100+r.size-1)/16-100/16+1 {
		t.Fatalf("rows %d", h.totalRows())
	}
	texts := hexTexts(h)
	// Row 0x60 starts at byte 100: its first four bytes are blank.
	want := "0000000060" + strings.Repeat(" ", 13) + "64 65 66 67  68 69 6a 6b 6c 6d 6e 6f" + strings.Repeat(" ", 7) + "defghijklmno"
	if len(texts) < 2 || !strings.HasPrefix(texts[0], "offset     00 01") || texts[1] != want {
		t.Fatalf("first row not shown:\n%q, want\n%q", texts, want)
	}
	// Scrolling to the end shows the last bytes without reading the rest.
	h.ScrollToOffset(100 + r.size - 1)
	if r.read > 4*64*HexCols {
		t.Fatalf("read %d bytes after a jump", r.read)
	}
	if !strings.Contains(strings.Join(hexTexts(h), " "), "0080000060") {
		t.Errorf("last row not shown: %v", hexTexts(h)[:3])
	}
}

func TestHexViewHoverNamesSpan(t *testing.T) {
	test.NewTempApp(t)
	data := bytes.Repeat([]byte{'a'}, 64)
	spans := []model.Span{
		{Name: "header_len", Kind: model.SpanLength, Start: 0, End: 4},
		{Name: "header field topic", Kind: model.SpanField, Start: 4, End: 20},
		{Name: "data", Kind: model.SpanData, Start: 20, End: 64},
	}
	h := NewHexView()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(700, 300))
	h.SetData(bytes.NewReader(data), 0, 64, spans)
	m := h.metrics()
	// Byte 5: row 0, column 5 of the hex part.
	pos := fyne.NewPos(m.hexX+5*m.cell+1, m.head+m.row/2)
	h.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	if got := h.status.Text; !strings.HasPrefix(got, "header field topic (bytes 4..19)") {
		t.Errorf("status %q", got)
	}
	// Byte 16+2=18 through the ASCII column.
	pos = fyne.NewPos(m.asciiX+2*m.char+1, m.head+m.row*1.5)
	h.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	if got := h.status.Text; !strings.HasPrefix(got, "header field topic") || !strings.Contains(got, "byte 18 ") {
		t.Errorf("status %q", got)
	}
	// Byte 9 is right of the middle gap.
	pos = fyne.NewPos(m.hexX+9*m.cell+m.char+1, m.head+m.row*2.5)
	h.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	if got := h.status.Text; !strings.HasPrefix(got, "data (bytes 20..63)") || !strings.Contains(got, "byte 41 ") {
		t.Errorf("status %q", got)
	}
	h.MouseOut()
	if got := h.status.Text; !strings.HasPrefix(got, "64 bytes") {
		t.Errorf("status after leaving %q", got)
	}
}

// A span's tint is painted as one rectangle per run of its bytes on a row,
// the hex run split at the gap in the middle of the row.
func TestHexViewTintRuns(t *testing.T) {
	test.NewTempApp(t)
	r := &countingReader{size: 64}
	h := NewHexView()
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(700, 400))
	// Bytes 4..19: the last 12 of the first row, the first 4 of the second.
	h.SetData(r, 0, r.size, []model.Span{{Name: "data", Kind: model.SpanData, Start: 4, End: 20}})
	m := h.metrics()
	var got []FillRect
	for _, f := range test.WidgetRenderer(h).(*hexRenderer).tints.Rects {
		got = append(got, FillRect{X: f.X, Y: f.Y, W: f.W, H: f.H})
	}
	hx := func(c int) float32 { return m.hexX + float32(c)*m.cell - m.char/2 }
	want := []FillRect{
		{m.asciiX + 4*m.char, m.head, 12 * m.char, m.row, nil},
		{hx(4), m.head, 4 * m.cell, m.row, nil},
		{hx(8) + m.char, m.head, 8 * m.cell, m.row, nil},
		{m.asciiX, m.head + m.row, 4 * m.char, m.row, nil},
		{hx(0), m.head + m.row, 4 * m.cell, m.row, nil},
	}
	if len(got) != len(want) {
		t.Fatalf("tints %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tint %d: %v, want %v", i, got[i], want[i])
		}
	}
}
