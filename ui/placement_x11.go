//go:build linux && !wayland

package ui

/*
#cgo LDFLAGS: -lX11
#include <X11/Xlib.h>

// One connection of bagscope's own to the X server, opened on first use;
// its errors (a window closed meanwhile) are ignored, not fatal.
static Display *bs_dpy;
static int bs_ignore(Display *d, XErrorEvent *e) { return 0; }
static int bs_open(void) {
	if (!bs_dpy) {
		bs_dpy = XOpenDisplay(NULL);
		if (bs_dpy) XSetErrorHandler(bs_ignore);
	}
	return bs_dpy != NULL;
}
// bs_pos: window w's top-left corner on the root window, as GLFW's
// glfwGetWindowPos reads it.
static int bs_pos(unsigned long w, int *x, int *y) {
	Window child;
	if (!bs_open()) return 0;
	return XTranslateCoordinates(bs_dpy, (Window)w, DefaultRootWindow(bs_dpy), 0, 0, x, y, &child);
}
static void bs_move(unsigned long w, int x, int y) {
	if (!bs_open()) return;
	XMoveWindow(bs_dpy, (Window)w, x, y);
	XFlush(bs_dpy);
}
*/
import "C"

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// Fyne's public API gives a window's native handle (driver.NativeWindow:
// the X11 window under X11 and XWayland) but not its position, so the
// position is read and set through Xlib, as GLFW itself does. On Wayland
// the handle is a surface and the compositor places windows: positions
// are then left alone (ok false).

// x11Handle is window w's X11 window, or 0.
func x11Handle(w fyne.Window) (h uintptr) {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return 0
	}
	nw.RunNative(func(ctx any) {
		if x, ok := ctx.(driver.X11WindowContext); ok {
			h = x.WindowHandle
		}
	})
	return h
}

// nativePos is window w's position on the screen.
func nativePos(w fyne.Window) (x, y int, ok bool) {
	h := x11Handle(w)
	if h == 0 {
		return 0, 0, false
	}
	var cx, cy C.int
	if C.bs_pos(C.ulong(h), &cx, &cy) == 0 {
		return 0, 0, false
	}
	return int(cx), int(cy), true
}

// nativeSetPos moves window w to (x, y) on the screen.
func nativeSetPos(w fyne.Window, x, y int) {
	if h := x11Handle(w); h != 0 {
		C.bs_move(C.ulong(h), C.int(x), C.int(y))
	}
}
