package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// shownLines is the window's markup followed by the texts of the line
// labels on screen: a lineLabel is a raster, so the markup has no text.
func shownLines(w fyne.Window) string {
	var b strings.Builder
	b.WriteString(shown(w))
	for _, o := range test.LaidOutObjects(w.Content()) {
		var l *lineLabel
		switch o := o.(type) {
		case *lineLabel:
			l = o
		case *tipLine:
			l = &o.lineLabel
		}
		if l != nil && l.Visible() && l.Text != "" {
			b.WriteString("\n" + l.Text)
		}
	}
	return b.String()
}

// A line label cuts its text with an ellipsis to its width, says so and
// shows the whole text in its tooltip (tipLine); it repaints only when its
// text changes.
func TestLineLabelCuts(t *testing.T) {
	test.NewTempApp(t)
	l := newTipLine("message 6 of 2,000 on /imu  ·  +0.050 s", fyne.TextStyle{})
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(600, 60))
	if l.Cut() || l.ToolTip() != "" || l.Shown() != l.Text {
		t.Fatalf("a text that fits: cut %v, tooltip %q, shown %q", l.Cut(), l.ToolTip(), l.Shown())
	}
	l.Resize(fyne.NewSize(120, 40))
	if s := l.Shown(); !l.Cut() || !strings.HasSuffix(s, "…") || !strings.HasPrefix(l.Text, strings.TrimSuffix(s, "…")) || l.ToolTip() != l.Text {
		t.Errorf("a narrow label: cut %v, shown %q, tooltip %q", l.Cut(), s, l.ToolTip())
	}
	if !strings.Contains(shownLines(w), "message 6 of 2,000") {
		t.Errorf("shownLines misses the label's text")
	}
	img := w.Canvas().Capture()
	if img == nil {
		t.Fatal("no capture")
	}
	drawn := l.drawn
	l.SetText("another text")
	w.Canvas().Capture()
	if l.drawn == drawn || l.drawn != "another text" {
		t.Errorf("the raster drew %q after SetText", l.drawn)
	}
}
