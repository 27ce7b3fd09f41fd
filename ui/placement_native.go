package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// Fyne says nothing of screens or of where a window is. The screen is read
// from GLFW, which Fyne's desktop driver runs on (the work area of the
// primary monitor); a window's position through its native handle
// (placement_x11.go), never from Fyne's private fields. They run on the main thread
// (Run, and Fyne's callbacks), where GLFW wants to be called, and only
// when the real driver has made a window (the tests' driver has no GLFW;
// controller.screen stays nil there).

// glfwScreen is the primary monitor's work area and the scale of window
// w (shown, so Fyne has measured it).
func glfwScreen(w fyne.Window) (s screenInfo, ok bool) {
	defer func() {
		if recover() != nil { // GLFW not initialised: no display
			ok = false
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return s, false
	}
	s.X, s.Y, s.W, s.H = m.GetWorkarea()
	if s.W <= 0 || s.H <= 0 {
		mode := m.GetVideoMode()
		if mode == nil {
			return s, false
		}
		s.X, s.Y = m.GetPos()
		s.W, s.H = mode.Width, mode.Height
	}
	s.Scale = w.Canvas().Scale()
	return s, true
}

// glfwPositions says whether windows can be placed: not on Wayland, whose
// compositor places them.
func glfwPositions() (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return glfw.GetPlatform() != glfw.PlatformWayland
}

// nativeScreen is the real window system's screens and window positions.
type nativeScreen struct{}

func (nativeScreen) screen(w fyne.Window) (screenInfo, bool) { return glfwScreen(w) }

func (nativeScreen) pos(w fyne.Window) (x, y int, ok bool) {
	if !glfwPositions() {
		return 0, 0, false
	}
	return nativePos(w)
}

func (nativeScreen) setPos(w fyne.Window, x, y int) {
	if glfwPositions() {
		nativeSetPos(w, x, y)
	}
}
