package topics

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// The Topics detail line names the selected message's topic, but only
// while the tab is shown: playback selects a message every frame, and a
// hidden tab must not redo its text each time. Shown again, it catches up.
func TestTopicsDetailFollowsOnlyWhileShown(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, "../../testdata/robot.bag")
	l := link.NewHub(d, func(f func()) { f() })
	t.Cleanup(l.Close)
	p := New(d, l, false)
	w := test.NewTempWindow(t, p.Content)
	w.Resize(fyne.NewSize(1100, 360))

	l.WithIndex(func(*model.MessageIndex) {})
	x := l.Index()
	if x == nil {
		t.Fatal("no message index")
	}
	sel := func(topic string) {
		tm := x.Topic(topic)
		l.SelectMessage(tm.At(tm.Len() / 2))
	}
	sel("/scan")
	if !strings.HasPrefix(p.detail.String(), "/scan ") {
		t.Fatalf("shown: detail %q does not name /scan", p.detail.String())
	}
	p.Content.Hide()
	sel("/odom")
	if strings.HasPrefix(p.detail.String(), "/odom ") {
		t.Errorf("hidden: the detail line followed the message: %q", p.detail.String())
	}
	p.Content.Show()
	l.CatchUp(false)
	if !strings.HasPrefix(p.detail.String(), "/odom ") {
		t.Errorf("shown again: detail %q does not name /odom", p.detail.String())
	}
}
