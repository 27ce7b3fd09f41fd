package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// A line label cuts its text with an ellipsis to its width, says so and
// shows the whole text in its tooltip (TipLine); it repaints only when its
// text changes.
func TestLineLabelCuts(t *testing.T) {
	test.NewTempApp(t)
	l := NewTipLine("message 6 of 2,000 on /imu  ·  +0.050 s", fyne.TextStyle{})
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(600, 60))
	if l.Cut() || l.ToolTip() != "" || l.Shown() != l.Text {
		t.Fatalf("a text that fits: cut %v, tooltip %q, shown %q", l.Cut(), l.ToolTip(), l.Shown())
	}
	l.Resize(fyne.NewSize(120, 40))
	if s := l.Shown(); !l.Cut() || !strings.HasSuffix(s, "…") || !strings.HasPrefix(l.Text, strings.TrimSuffix(s, "…")) || l.ToolTip() != l.Text {
		t.Errorf("a narrow label: cut %v, shown %q, tooltip %q", l.Cut(), s, l.ToolTip())
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
