package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/ui/link"
)

// newTestController returns a controller on a test app that opens bags
// synchronously.
func newTestController(t *testing.T) *controller {
	c := newController(test.NewTempApp(t))
	c.async = func(f func()) { f() }
	old := link.Background
	link.Background = func(f func()) { f() }
	t.Cleanup(func() { link.Background = old })
	return c
}

// appTabs returns the bag window's tabs.
func appTabs(t *testing.T, w fyne.Window) *container.AppTabs {
	t.Helper()
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			return at
		}
	}
	t.Fatal("no tabs")
	return nil
}
