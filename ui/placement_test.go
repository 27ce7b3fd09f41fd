package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/timeline"
)

// fakeScreen is a window system with one screen; it keeps the positions
// the controller sets.
type fakeScreen struct {
	s  screenInfo
	at map[fyne.Window][2]int
}

func newFakeScreen(w, h int) *fakeScreen {
	return &fakeScreen{s: screenInfo{W: w, H: h, Scale: 1}, at: map[fyne.Window][2]int{}}
}

func (f *fakeScreen) screen(fyne.Window) (screenInfo, bool) { return f.s, true }
func (f *fakeScreen) pos(w fyne.Window) (int, int, bool) {
	p, ok := f.at[w]
	return p[0], p[1], ok
}
func (f *fakeScreen) setPos(w fyne.Window, x, y int) { f.at[w] = [2]int{x, y} }

// inside says whether window w lies wholly on screen f.
func (f *fakeScreen) inside(w fyne.Window) bool {
	p, ok := f.at[w]
	sz := w.Canvas().Size()
	return ok && p[0] >= f.s.X && p[1] >= f.s.Y && p[0]+int(sz.Width) <= f.s.X+f.s.W && p[1]+int(sz.Height) <= f.s.Y+f.s.H
}

func TestFitWindow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      screenInfo
		want   fyne.Size
		fitted fyne.Size
	}{
		{"big screen keeps the default", screenInfo{W: 2560, H: 1440, Scale: 1}, fyne.NewSize(1280, 800), fyne.NewSize(1280, 800)},
		{"1024x640 shrinks it onto the screen", screenInfo{W: 1024, H: 640, Scale: 1}, fyne.NewSize(1280, 800), fyne.NewSize(1008, 592)},
		{"1280x800 leaves room for the title bar", screenInfo{W: 1280, H: 800, Scale: 1}, fyne.NewSize(1280, 800), fyne.NewSize(1264, 752)},
		{"scaled 2x: 2560x1440 pixels are 1280x720 units", screenInfo{W: 2560, H: 1440, Scale: 2}, fyne.NewSize(1280, 800), fyne.NewSize(1264, 672)},
		{"tiny screen: the least size, within the screen", screenInfo{W: 600, H: 380, Scale: 1}, fyne.NewSize(1280, 800), fyne.NewSize(600, 380)},
		{"no screen known", screenInfo{}, fyne.NewSize(1280, 800), fyne.NewSize(1280, 800)},
	} {
		if got := fitWindow(tc.s, tc.want); got != tc.fitted {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.fitted)
		}
	}
}

func TestPlacementFits(t *testing.T) {
	small := screenInfo{W: 1024, H: 640, Scale: 1}
	panel := screenInfo{X: 0, Y: 32, W: 1920, H: 1048, Scale: 1}
	for _, tc := range []struct {
		pref string
		s    screenInfo
		ok   bool
	}{
		{"10 20 900 560", small, true},
		{"0 0 1024 640", small, true},
		{"200 100 1280 800", small, false}, // from a bigger screen
		{"-5 0 900 560", small, false},     // off the left edge
		{"10 20 300 200", small, false},    // smaller than a usable window
		{"100 10 1280 800", panel, false},  // under the top panel
		{"100 40 1280 800", panel, true},
		{"garbage", small, false},
		{"1 2 3", small, false},
	} {
		p, ok := parsePlacement(tc.pref)
		if got := ok && p.fits(tc.s); got != tc.ok {
			t.Errorf("%q on %+v: restored %v, want %v", tc.pref, tc.s, got, tc.ok)
		}
	}
	p := placement{X: 3, Y: 4, W: 1000, H: 600}
	if back, ok := parsePlacement(p.String()); !ok || back != p {
		t.Errorf("%v read back as %v", p, back)
	}
}

func TestCascade(t *testing.T) {
	s := screenInfo{W: 1280, H: 800, Scale: 1}
	p := cascade(s, placement{X: 100, Y: 50, W: 900, H: 600})
	if p.X != 136 || p.Y != 86 {
		t.Errorf("next window at %d,%d, want 136,86", p.X, p.Y)
	}
	if p := cascade(s, placement{X: 370, Y: 190, W: 900, H: 600}); p != (placement{X: 406, Y: 226, W: 874, H: 574}) {
		t.Errorf("a window that would run off the screen is %+v, want it smaller at 406,226", p)
	}
	if p := cascade(s, placement{X: 700, Y: 420, W: 900, H: 600}); p.X != 0 || p.Y != 0 || p.W != 900 {
		t.Errorf("a window with no room beside the last is %+v, want it at the corner", p)
	}
}

// TestWindowFitsScreen opens bag windows on a 1024x640 screen as the app
// does: the first fits the screen, centred; the header is folded and it
// and the timeline leave the tabs at least 70% of the height; a second
// window steps aside from the first; the place a window is closed at is
// restored for the next, but not one that no longer fits.
func TestWindowFitsScreen(t *testing.T) {
	c := newTestController(t)
	fs := newFakeScreen(1024, 640)
	c.ws = fs
	k := openKeysWindowSized(t, c, "")
	w := k.w
	if sz := w.Canvas().Size(); sz.Width > 1024 || sz.Height > 640 || !fs.inside(w) {
		t.Fatalf("the window is %v at %v on a 1024x640 screen", sz, fs.at[w])
	}
	if !k.v.views.header.Collapsed() {
		t.Error("the header is not folded on a short screen")
	}
	// Header and timeline: from the window's top to the tabs' bar.
	top := c.app.Driver().AbsolutePositionForObject(appTabs(t, w)).Y
	// About 30%: the timeline keeps at least its toolbar, one lane and
	// its axis, which in the test theme's larger text is a pixel more.
	if h := w.Canvas().Size().Height; top > 0.31*h {
		t.Errorf("header and timeline take %.0f of %.0f px (%.0f%%), want at most ~30%%", top, h, 100*top/h)
	}
	if tl := find[*timeline.View](t, k, ""); tl.Size().Height < timeline.LaneH {
		t.Errorf("the timeline's lanes are %.0f px high", tl.Size().Height)
	} else if n := tl.LanesVisible(); n < 3 {
		// Compact lanes: several of the sample's 6 topics show, not one.
		t.Errorf("%d of the sample's %d topic lanes show whole in the timeline's %.0f px", n, len(tl.Timeline().Topics), tl.Size().Height)
	}

	second := openKeysWindowSized(t, c, "../testdata/single-message.bag")
	p1, p2 := fs.at[w], fs.at[second.w]
	if p2 == p1 || !fs.inside(second.w) {
		t.Errorf("the second window is at %v over the first at %v", p2, p1)
	}
	uitest.PressShortcut(second.w, shortcutClose)

	// Moved and resized by the user, then closed: restored as left.
	w.Resize(fyne.NewSize(900, 560))
	fs.at[w] = [2]int{40, 30}
	uitest.PressShortcut(w, shortcutClose)
	third := openKeysWindowSized(t, c, "")
	if sz, p := third.w.Canvas().Size(), fs.at[third.w]; sz != fyne.NewSize(900, 560) || p != [2]int{40, 30} {
		t.Errorf("reopened at %v %v, want 900x560 at 40,30", sz, p)
	}
	uitest.PressShortcut(third.w, shortcutClose)

	// The same preference on a smaller screen is not restored.
	small := newFakeScreen(800, 500)
	c.ws = small
	c.state.SetString(small.s.key(), c.state.String(fs.s.key()))
	fourth := openKeysWindowSized(t, c, "")
	if !small.inside(fourth.w) {
		t.Errorf("on an 800x500 screen the window is %v at %v", fourth.w.Canvas().Size(), small.at[fourth.w])
	}
}

// openKeysWindowSized opens a bag window as the app does, keeping the
// size the controller gave it.
func openKeysWindowSized(t *testing.T, c *controller, path string) *keysWindow {
	t.Helper()
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	if path == "" {
		c.openSample(nil)
	} else {
		c.openPath(path, nil)
	}
	if opened == nil || opened.err != nil || opened.link == nil {
		t.Fatalf("not opened: %+v", opened)
	}
	return &keysWindow{c: c, w: opened.win, v: opened, tabs: appTabs(t, opened.win)}
}
