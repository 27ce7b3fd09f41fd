package widgets

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The text raster paints each character inside its own cell, at the
// raster's pixel scale, and nothing where there is no text.
func TestGridTextPaintsCells(t *testing.T) {
	test.NewTempApp(t)
	g := newGridText()
	g.Resize(fyne.NewSize(200, 40))
	g.reset(10)
	g.text(20, 5, "A A", color.White)
	for _, scale := range []int{1, 2} {
		img := g.paint(200*scale, 40*scale).(*image.RGBA)
		inked := func(x0, x1 float32) bool {
			for y := 0; y < 40*scale; y++ {
				for x := int(x0) * scale; x < int(x1)*scale; x++ {
					if img.RGBAAt(x, y).A != 0 {
						return true
					}
				}
			}
			return false
		}
		if !inked(20, 30) || !inked(40, 50) {
			t.Errorf("scale %d: a character is missing", scale)
		}
		if inked(0, 19) || inked(31, 39) || inked(51, 200) {
			t.Errorf("scale %d: ink outside the characters' cells", scale)
		}
	}
	g.reset(10)
	if img := g.paint(200, 40).(*image.RGBA); !image.Rect(0, 0, 200, 40).Eq(img.Rect) || img.RGBAAt(25, 15).A != 0 {
		t.Error("an empty picture is not cleared")
	}
}
