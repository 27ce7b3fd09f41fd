package widgets

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2/canvas"
)

// RectRaster paints many plain rectangles as one canvas.Raster, so the GL
// painter makes one draw call for all of them instead of one each.
//
// Why it matters: under Xvfb the only OpenGL is Mesa's llvmpipe, which
// bins every draw call of a frame into a "scene" before rasterizing it, and
// stores the fragment shader state of each call (lp_setup.c,
// try_update_scene_state: a copy of the jit context with all its texture
// slots, over 32 KB) in a fresh 64 KB block of scene memory
// (lp_scene_new_data_block) whenever the state changed since the last call,
// which in Fyne is every object (each sets its own uniforms). A frame of 1,750 objects (the timeline of a 1 GB bag drew
// one rectangle per density bar and per chunk) took ~110 MB of scene
// memory, the bulk of the window's peak RSS. The scene is freed after the
// frame, but the C heap keeps the pages.
//
// The rectangles are in the raster's own coordinates (it is meant to cover
// its parent widget) and are blended in order, as the painter would. Put
// the embedded *canvas.Raster in a renderer's objects: the painter knows
// objects by their concrete type.
type RectRaster struct {
	*canvas.Raster
	// Rects are the rectangles of the picture, in the order they are
	// painted.
	Rects []FillRect
	img   *image.RGBA // reused between frames: the hex view repaints with every message played
}

// FillRect is one rectangle of a RectRaster: its place and size in the
// raster's coordinates, and its colour.
type FillRect struct {
	X, Y, W, H float32
	C          color.Color
}

// NewRectRaster returns an empty raster.
func NewRectRaster() *RectRaster {
	r := &RectRaster{}
	r.Raster = canvas.NewRaster(r.paint)
	return r
}

// Reset starts a new picture.
func (r *RectRaster) Reset() { r.Rects = r.Rects[:0] }

// Rect adds a rectangle of colour c at x, y, w wide and h high.
func (r *RectRaster) Rect(x, y, w, h float32, c color.Color) {
	if w > 0 && h > 0 {
		r.Rects = append(r.Rects, FillRect{X: x, Y: y, W: w, H: h, C: c})
	}
}

// Outline adds the border of a rectangle, width wide, inside its bounds.
func (r *RectRaster) Outline(x, y, w, h, width float32, c color.Color) {
	r.Rect(x, y, w, width, c)
	r.Rect(x, y+h-width, w, width, c)
	r.Rect(x, y+width, width, h-2*width, c)
	r.Rect(x+w-width, y+width, width, h-2*width, c)
}

// paint is the raster's generator: w and h are in pixels.
func (r *RectRaster) paint(w, h int) image.Image {
	if r.img == nil || r.img.Rect.Dx() != w || r.img.Rect.Dy() != h {
		r.img = image.NewRGBA(image.Rect(0, 0, w, h))
	} else {
		clear(r.img.Pix)
	}
	img := r.img
	size := r.Size()
	if size.Width <= 0 || size.Height <= 0 {
		return img
	}
	sx, sy := float64(w)/float64(size.Width), float64(h)/float64(size.Height)
	// A rectangle covers the pixels its edges round to, and at least one
	// pixel each way, as a 1-unit grid line must show.
	span := func(p, l float32, s float64) (int, int) {
		a := int(math.Round(float64(p) * s))
		b := int(math.Round(float64(p+l) * s))
		return a, max(b, a+1)
	}
	var src image.Uniform // one for all: draw.Draw reads it before returning
	for _, f := range r.Rects {
		x0, x1 := span(f.X, f.W, sx)
		y0, y1 := span(f.Y, f.H, sy)
		src.C = f.C
		draw.Draw(img, image.Rect(x0, y0, x1, y1), &src, image.Point{}, draw.Over)
	}
	return img
}
