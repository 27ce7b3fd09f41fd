package timeline

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
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

// TestTimelineShare gives the timeline room for its lanes, within limits:
// on a short window the header and the timeline together take at most
// ShortShare of the height, and the timeline never less than its toolbar,
// one lane and the axis.
func TestTimelineShare(t *testing.T) {
	for _, tc := range []struct {
		n       int
		h, topH float32
		lo, hi  float64
	}{
		{1, 800, 130, 0.12, 0.2},
		{5, 1440, 130, 0.12, 0.2},
		{9, 800, 130, 0.4, 0.5},
		{40, 800, 130, 0.5, 0.5},
		{11, 1440, 130, 0.25, 0.35},
		// 1024x640 with the header folded to a line: 6 topics would
		// want 41% of the body, but header+timeline stay within 30%.
		{6, 640, 48, 0.2, (0.30*640 - 48 - splitBar) / (640 - 48)},
		{40, 640, 48, 0.2, (0.30*640 - 48 - splitBar) / (640 - 48)},
		{1, 640, 48, 0.12, 0.21},
		// Header unfolded on a short window: the timeline keeps its floor.
		{6, 640, 130, float64(minTimelineH) / (640 - 130), float64(minTimelineH)/(640-130) + 1e-6},
	} {
		got := timelineShare(tc.n, tc.h, tc.topH)
		if got < tc.lo || got > tc.hi+1e-6 {
			t.Errorf("%d lanes in %v px below %v: %v, want %v..%v", tc.n, tc.h, tc.topH, got, tc.lo, tc.hi)
		}
		if tc.h < ShortWindow && tc.topH < 60 {
			if px := float32(got)*(tc.h-tc.topH) + tc.topH + splitBar; px > ShortShare*tc.h+0.5 {
				t.Errorf("%d lanes in %v px: header and timeline take %v px, over %v%%", tc.n, tc.h, px, ShortShare*100)
			}
		}
	}
}

// TestTimelineSplitShortWindow opens a short window after the divider was
// left low on a tall one: it starts within the short window's limit, and
// the remembered place is kept for tall windows.
func TestTimelineSplitShortWindow(t *testing.T) {
	_, _, w := newTestViews(t)
	timelineSplit(t, w).SetOffset(0.45)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	s := NewSplit(New(d, l), widget.NewLabel("tabs"), 640, 48)
	if want := shareLimit(640, 48); s.Offset > want+1e-9 {
		t.Errorf("a 640 px window's divider at %v, want at most %v", s.Offset, want)
	}
	if got := fyne.CurrentApp().Preferences().Float("split.timeline"); got != 0.45 {
		t.Errorf("the remembered divider became %v, want 0.45 kept", got)
	}
}
