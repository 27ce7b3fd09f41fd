package cut

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestCancelWritesNothing: Cancel in the progress dialog stops the cut
// before it has written, leaves no file, and says so.
func TestCancelWritesNothing(t *testing.T) {
	test.NewTempApp(t)
	d, err := model.Open(context.Background(), "../../testdata/robot.bag", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var queued []func()
	l := link.NewHub(d, func(f func()) { queued = append(queued, f) })
	defer l.Close()
	w := test.NewTempWindow(t, widget.NewLabel(""))
	out := filepath.Join(t.TempDir(), "cut.mcap")
	run(l, w, out, bag.MessageFilter{})
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no progress dialog")
	}
	test.Tap(uitest.FindButton(t, top, "Cancel"))
	for len(queued) > 0 {
		f := queued[0]
		queued = queued[1:]
		f()
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a cancelled cut left a file")
	}
	var said []string
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range uitest.ShownObjects(top) {
			if lb, ok := o.(*widget.Label); ok {
				said = append(said, lb.Text)
			}
		}
	}
	if s := strings.Join(said, " "); !strings.Contains(s, "Cancelled: "+out+" was not written.") {
		t.Errorf("after Cancel the window says %q", s)
	}
}
