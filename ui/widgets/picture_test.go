package widgets

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// inkBox is the bounds of img's pixels that differ from its top-left one.
func inkBox(img image.Image) image.Rectangle {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, _ := bg.RGBA()
	var box image.Rectangle
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bl != b0 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// TestRenderContentScaled: at scale 2 (FYNE_SCALE=2, a HiDPI screen) the
// picture has twice the pixels each way and the text is twice as tall,
// drawn at that size; at scale 1 it is as before.
func TestRenderContentScaled(t *testing.T) {
	test.NewTempApp(t)
	size := fyne.NewSize(200, 60)
	one := RenderContentScaled(widget.NewLabel("Hg bagscope"), size, 1)
	two := RenderContentScaled(widget.NewLabel("Hg bagscope"), size, 2)
	if one.Bounds().Dx() != 200 || one.Bounds().Dy() != 60 || two.Bounds().Dx() != 400 || two.Bounds().Dy() != 120 {
		t.Fatalf("sizes %v and %v", one.Bounds(), two.Bounds())
	}
	h1, h2 := inkBox(one).Dy(), inkBox(two).Dy()
	if h1 == 0 || float64(h2) < 1.8*float64(h1) || float64(h2) > 2.2*float64(h1) {
		t.Errorf("the text is %d px tall at scale 1 and %d px at scale 2", h1, h2)
	}
	if d := RenderContent(widget.NewLabel("x"), size).Bounds(); d.Dx() != 200 {
		t.Errorf("RenderContent drew %v", d)
	}
}
