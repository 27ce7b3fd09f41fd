package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
)

// screenInfo is what the window system says of the screen a window opens
// on: its work area (the screen less docks and panels) in screen pixels,
// and how many pixels one of Fyne's units takes there.
type screenInfo struct {
	X, Y, W, H int
	Scale      float32
}

// key names the screen in the preferences: a window's place is
// remembered per screen size, so a laptop's small screen and the desk's
// big one each get their own.
func (s screenInfo) key() string { return fmt.Sprintf("window.%dx%d", s.W, s.H) }

// units is the work area's size in Fyne's units.
func (s screenInfo) units() fyne.Size {
	sc := s.Scale
	if sc <= 0 {
		sc = 1
	}
	return fyne.NewSize(float32(s.W)/sc, float32(s.H)/sc)
}

// minWindowSize is the smallest bag window bagscope makes on its own.
var minWindowSize = fyne.NewSize(640, 400)

// fitWindow is the size of a new bag window on screen s: want where it
// fits, else as much of the work area as leaves the window's frame and
// title bar on the screen (a window manager adds about 40 pixels of them).
func fitWindow(s screenInfo, want fyne.Size) fyne.Size {
	room := s.units()
	if room.Width <= 0 || room.Height <= 0 {
		return want
	}
	maxW, maxH := room.Width-16, room.Height-48
	return fyne.NewSize(
		max(min(want.Width, maxW), min(minWindowSize.Width, room.Width)),
		max(min(want.Height, maxH), min(minWindowSize.Height, room.Height)),
	)
}

// placement is a bag window's size (in Fyne's units) and place (in screen
// pixels) when it was last closed on a screen.
type placement struct {
	X, Y int
	W, H float32
}

func (p placement) String() string { return fmt.Sprintf("%d %d %.0f %.0f", p.X, p.Y, p.W, p.H) }

// parsePlacement reads a remembered placement; ok is false for anything
// else (an old or hand-edited preference is ignored, never trusted).
func parsePlacement(s string) (placement, bool) {
	var p placement
	if n, err := fmt.Sscanf(s, "%d %d %g %g", &p.X, &p.Y, &p.W, &p.H); err != nil || n != 4 {
		return placement{}, false
	}
	return p, true
}

// fits says whether p can be restored on screen s: the whole window, at
// least the smallest size, inside the work area. A place remembered on a
// bigger screen, or one from before a panel moved, is not restored.
func (p placement) fits(s screenInfo) bool {
	sc := s.Scale
	if sc <= 0 {
		sc = 1
	}
	wpx, hpx := int(p.W*sc+0.5), int(p.H*sc+0.5)
	return p.W >= minWindowSize.Width && p.H >= minWindowSize.Height &&
		p.X >= s.X && p.Y >= s.Y && p.X+wpx <= s.X+s.W && p.Y+hpx <= s.Y+s.H
}

// cascade is where a new window goes when others are open: down and
// right of the last one by a title bar, so it hides none of them
// entirely; smaller if it would run off the work area there (never below
// minWindowSize), or back at the work area's corner.
func cascade(s screenInfo, last placement) placement {
	const step = 36
	p := last
	p.X += step
	p.Y += step
	if p.fits(s) {
		return p
	}
	sc := s.Scale
	if sc <= 0 {
		sc = 1
	}
	p.W = min(p.W, float32(s.X+s.W-p.X)/sc)
	p.H = min(p.H, float32(s.Y+s.H-p.Y)/sc)
	if p.fits(s) {
		return p
	}
	p = last
	p.X, p.Y = s.X, s.Y
	return p
}

// windowSystem is what bagscope asks of the screens and of where windows
// are; nativeScreen in the real app, a fake in tests, nil where there is
// none (--screenshot, a fixed --size).
type windowSystem interface {
	screen(w fyne.Window) (screenInfo, bool)
	pos(w fyne.Window) (x, y int, ok bool)
	setPos(w fyne.Window, x, y int)
}

// place sizes and places bag window w, just shown, on its screen: where
// the user last left a bag window on this screen if that still fits and
// no other bag window is open, else the default size fitted to the
// screen, centred, or stepped down and right of the last open window so
// it hides none of others.
func (c *controller) place(w fyne.Window, others []fyne.Window) {
	if c.ws == nil {
		return
	}
	s, ok := c.ws.screen(w)
	if !ok {
		return
	}
	if len(others) == 0 {
		if p, ok := parsePlacement(c.state.String(s.key())); ok && p.fits(s) {
			w.Resize(fyne.NewSize(p.W, p.H))
			c.ws.setPos(w, p.X, p.Y)
			return
		}
	}
	size := fitWindow(s, bagWindowSize)
	sc := s.Scale
	if sc <= 0 {
		sc = 1
	}
	wpx, hpx := int(size.Width*sc+0.5), int(size.Height*sc+0.5)
	p := placement{X: s.X + (s.W-wpx)/2, Y: s.Y + (s.H-hpx)/2, W: size.Width, H: size.Height}
	// Step from the lowest, rightmost window: the one placed last.
	found, lx, ly := false, 0, 0
	for _, o := range others {
		if x, y, ok := c.ws.pos(o); ok && (!found || x+y > lx+ly) {
			found, lx, ly = true, x, y
		}
	}
	if found {
		p = cascade(s, placement{X: lx, Y: ly, W: size.Width, H: size.Height})
	}
	// One resize: a second one at once is lost (GLFW applies the first).
	w.Resize(fyne.NewSize(p.W, p.H))
	c.ws.setPos(w, max(p.X, s.X), max(p.Y, s.Y))
}

// remember keeps bag window w's size and place for its screen.
func (c *controller) remember(w fyne.Window) {
	if c.ws == nil {
		return
	}
	s, ok := c.ws.screen(w)
	if !ok {
		return
	}
	x, y, ok := c.ws.pos(w)
	if !ok {
		return
	}
	size := w.Canvas().Size()
	p := placement{X: x, Y: y, W: size.Width, H: size.Height}
	if p.fits(s) {
		c.state.SetString(s.key(), p.String())
	}
}
