//go:build !linux || wayland

package ui

import "fyne.io/fyne/v2"

// Without X11 (a Wayland-only build, or another system) windows are placed
// by the window system: their positions are neither read nor set.

func nativePos(fyne.Window) (x, y int, ok bool) { return 0, 0, false }

func nativeSetPos(fyne.Window, int, int) {}
