package widgets

import (
	"image"
	"image/png"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
)

// RenderContent draws o at size with the software painter, as a window
// would show it.
func RenderContent(o fyne.CanvasObject, size fyne.Size) image.Image {
	return RenderContentScaled(o, size, 1)
}

// RenderContentScaled draws o at size (in Fyne's units) with scale pixels
// per unit, as a window on a screen of that scale (FYNE_SCALE, a HiDPI
// screen) shows it: text is drawn at that resolution, not enlarged.
func RenderContentScaled(o fyne.CanvasObject, size fyne.Size, scale float32) image.Image {
	cv := software.NewCanvas()
	if scale > 0 {
		cv.SetScale(scale)
	}
	cv.SetContent(o)
	cv.Resize(size)
	return cv.Capture()
}

// WritePNG writes img to path as a PNG.
func WritePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
