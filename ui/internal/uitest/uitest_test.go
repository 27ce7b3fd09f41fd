package uitest

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/ui/widgets"
)

// TestShownLines: ShownLines reads the text of a line label, which the
// markup lacks.
func TestShownLines(t *testing.T) {
	test.NewTempApp(t)
	l := widgets.NewTipLine("message 6 of 2,000 on /imu  ·  +0.050 s", fyne.TextStyle{})
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(600, 60))
	if !strings.Contains(ShownLines(w), "message 6 of 2,000") {
		t.Errorf("ShownLines misses the label's text")
	}
}
