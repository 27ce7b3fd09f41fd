// Command xshot saves the X display's root window as a PNG: a capture of
// the real window (with a tooltip or menu open, after xdotool moved the
// pointer), where ImageMagick's import and xwd are not installed.
//
//	DISPLAY=:79 go run ./testdata/bench/xshot OUT.png
package main

// #cgo LDFLAGS: -lX11
// #include <X11/Xlib.h>
// #include <X11/Xutil.h>
// static unsigned long pixelAt(XImage *im, int x, int y) { return XGetPixel(im, x, y); }
// static void destroyImage(XImage *im) { XDestroyImage(im); }
import "C"

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: xshot OUT.png (DISPLAY says which display)")
		os.Exit(2)
	}
	d := C.XOpenDisplay(nil)
	if d == nil {
		fmt.Fprintln(os.Stderr, "xshot: cannot open the display: is DISPLAY set?")
		os.Exit(1)
	}
	defer C.XCloseDisplay(d)
	root := C.XDefaultRootWindow(d)
	var attr C.XWindowAttributes
	C.XGetWindowAttributes(d, root, &attr)
	w, h := int(attr.width), int(attr.height)
	xi := C.XGetImage(d, root, 0, 0, C.uint(w), C.uint(h), C.AllPlanes, C.ZPixmap)
	if xi == nil {
		fmt.Fprintln(os.Stderr, "xshot: XGetImage failed")
		os.Exit(1)
	}
	defer C.destroyImage(xi)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			p := uint32(C.pixelAt(xi, C.int(x), C.int(y)))
			out.SetRGBA(x, y, color.RGBA{uint8(p >> 16), uint8(p >> 8), uint8(p), 255})
		}
	}
	f, err := os.Create(os.Args[1])
	if err == nil {
		err = png.Encode(f, out)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "xshot:", err)
		os.Exit(1)
	}
}
