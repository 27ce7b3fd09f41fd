package timeline

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// timelineSplit returns the split between the timeline and the tabs.
func timelineSplit(t *testing.T, w fyne.Window) *container.Split {
	t.Helper()
	if s, ok := w.Content().(*container.Split); ok {
		return s
	}
	t.Fatalf("the views are a %T, not a split", w.Content())
	return nil
}

// TestTimelineSplitRemembered drags the divider under the timeline: the
// next window opens with it there; collapsing the lanes moves it to the
// toolbar without forgetting where it was.
func TestTimelineSplitRemembered(t *testing.T) {
	_, _, w := newTestViews(t)
	s := timelineSplit(t, w)
	s.SetOffset(0.42)
	if got := fyne.CurrentApp().Preferences().Float("split.timeline"); got != 0.42 {
		t.Fatalf("saved %v, want 0.42", got)
	}

	dv2, _, w2 := newTestViewsIn(t, uitest.OpenSample(t))
	s2 := timelineSplit(t, w2)
	if s2.Offset != 0.42 {
		t.Errorf("a new window's divider at %v, want 0.42", s2.Offset)
	}
	dv2.timeline.setCollapsed(true)
	if s2.Offset != 0 || dv2.timeline.body.Visible() {
		t.Errorf("collapsed: divider at %v, lanes visible %v", s2.Offset, dv2.timeline.body.Visible())
	}
	if got := fyne.CurrentApp().Preferences().Float("split.timeline"); got != 0.42 {
		t.Errorf("collapsing saved %v", got)
	}
	dv2.timeline.setCollapsed(false)
	if s2.Offset != 0.42 {
		t.Errorf("shown again at %v, want 0.42", s2.Offset)
	}
}

// TestTimelineShare gives the timeline room for its lanes, within limits.
func TestTimelineShare(t *testing.T) {
	for _, tc := range []struct {
		n      int
		h      float32
		lo, hi float64
	}{
		{1, 800, 0.12, 0.2},
		{5, 1440, 0.12, 0.2},
		{9, 800, 0.4, 0.5},
		{40, 800, 0.5, 0.5},
		{11, 1440, 0.25, 0.35},
	} {
		if got := timelineShare(tc.n, tc.h); got < tc.lo || got > tc.hi {
			t.Errorf("%d lanes in %v px: %v, want %v..%v", tc.n, tc.h, got, tc.lo, tc.hi)
		}
	}
}
