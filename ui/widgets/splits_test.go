package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A divider left somewhere comes back there in the next window; one never
// moved keeps its default, and an offset out of range is ignored.
func TestRememberSplit(t *testing.T) {
	a := test.NewTempApp(t)
	tests := []struct {
		key     string
		def     float64
		moveTo  float64 // 0: not moved
		stored  float64 // a preference written by hand (0: none)
		wantNew float64
	}{
		{"records", 0.42, 0.7, 0, 0.7},
		{"message", 0.48, 0, 0, 0.48},
		{"plots", 0.2, 0, 1.5, 0.2},
		{"chunk", 0.55, 0.1, 0, 0.1},
	}
	for _, tt := range tests {
		if tt.stored != 0 {
			a.Preferences().SetFloat(prefSplitPrefix+tt.key, tt.stored)
		}
		s := container.NewHSplit(widget.NewLabel("a"), widget.NewLabel("b"))
		s.Offset = tt.def
		RememberSplit(s, tt.key)
		w := test.NewTempWindow(t, s)
		w.Resize(fyne.NewSize(400, 300))
		if tt.moveTo != 0 {
			s.SetOffset(tt.moveTo) // what a drag does
		}
	}
	for _, tt := range tests {
		s := container.NewHSplit(widget.NewLabel("a"), widget.NewLabel("b"))
		s.Offset = tt.def
		RememberSplit(s, tt.key)
		if s.Offset != tt.wantNew {
			t.Errorf("%s: the next split opens at %v, want %v", tt.key, s.Offset, tt.wantNew)
		}
	}
}
