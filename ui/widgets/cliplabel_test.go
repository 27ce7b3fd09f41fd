package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// A label or dim text that is cut says so with its whole text in a
// tooltip; one that fits has none.
func TestClipTooltips(t *testing.T) {
	test.NewTempApp(t)
	long := "/home/robot/recordings/2026-11-24/field-test-with-a-very-long-name/run_0.bag"
	tests := []struct {
		name  string
		width float32
		text  string
		tip   string // the tooltip when cut; "" for the text
		cut   bool
	}{
		{"wide", 2000, long, "", false},
		{"narrow", 120, long, "", true},
		{"narrow with a tip", 120, long, "the whole path", true},
		{"empty", 10, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := ""
			if tt.cut {
				want = tt.text
				if tt.tip != "" {
					want = tt.tip
				}
			}
			l := NewClipLabel(tt.text, fyne.TextAlignLeading, fyne.TextStyle{})
			r := DimClip(tt.text, theme.SizeNameText, fyne.TextAlignLeading)
			r.Tip = tt.tip
			test.NewTempWindow(t, container.NewWithoutLayout(l, r))
			for _, o := range []interface {
				Resize(fyne.Size)
				Cut() bool
				ToolTip() string
			}{l, r} {
				o.Resize(fyne.NewSize(tt.width, 40))
				if o.Cut() != tt.cut {
					t.Errorf("%T at %v px: Cut %v, want %v", o, tt.width, o.Cut(), tt.cut)
				}
			}
			if tt.tip == "" && l.ToolTip() != want {
				t.Errorf("label tooltip %q, want %q", l.ToolTip(), want)
			}
			if r.ToolTip() != want {
				t.Errorf("dim text tooltip %q, want %q", r.ToolTip(), want)
			}
			// A new text that fits drops the tooltip.
			r.Resize(fyne.NewSize(200, 40))
			l.Resize(fyne.NewSize(200, 40))
			r.SetText("x")
			l.SetText("x")
			if r.ToolTip() != "" || l.ToolTip() != "" {
				t.Errorf("after a short text: tooltips %q, %q", r.ToolTip(), l.ToolTip())
			}
		})
	}
}
