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
	cv := software.NewCanvas()
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
