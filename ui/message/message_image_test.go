package message

import (
	"errors"
	"image"
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestMessagePanelImage shows a camera frame above the tree, drawn as the
// model decodes it, and no image pane for a message that is no image.
func TestMessagePanelImage(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	ref := x.Topic("/camera/image_raw").At(3)
	l.SelectMessage(ref)
	if p.msg == nil || p.ft == nil {
		t.Fatal("the message was not read and decoded")
	}
	if p.split.Leading != p.treeImage {
		t.Fatal("no image pane for a sensor_msgs/Image")
	}
	if got, want := p.caption.Text, "Image  ·  64×48 rgb8, 9,216 bytes"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	want, _, err := sensor.MessageImage("sensor_msgs/Image", decodeRef(t, l.Doc().Bag, ref))
	if err != nil {
		t.Fatal(err)
	}
	if p.picture.Image == nil || p.picture.Image.Bounds() != image.Rect(0, 0, 64, 48) {
		t.Fatalf("the picture is %v", p.picture.Image)
	}
	if p.picture.FillMode != canvas.ImageFillContain || p.picture.ScaleMode != canvas.ImageScalePixels {
		t.Errorf("fill mode %v, scale mode %v: want contain, pixels", p.picture.FillMode, p.picture.ScaleMode)
	}

	// The window draws the frame: sample the middle of some of its pixels.
	shot := uitest.Capture(w.Canvas()) // not dropping the window as stale (uitest.Capture)
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(p.picture)
	size := p.picture.Size()
	scale := min(size.Width/64, size.Height/48)
	if scale < 1 {
		t.Fatalf("the picture is drawn %v, smaller than the image", size)
	}
	x0 := at.X + (size.Width-64*scale)/2
	y0 := at.Y + (size.Height-48*scale)/2
	for _, pt := range []image.Point{{0, 0}, {10, 5}, {32, 24}, {50, 40}, {63, 47}} {
		sx, sy := int(x0+(float32(pt.X)+0.5)*scale), int(y0+(float32(pt.Y)+0.5)*scale)
		got := color.NRGBAModel.Convert(shot.At(sx, sy)).(color.NRGBA)
		exp := color.NRGBAModel.Convert(want.At(pt.X, pt.Y)).(color.NRGBA)
		d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
		if d(got.R, exp.R) > 2 || d(got.G, exp.G) > 2 || d(got.B, exp.B) > 2 {
			t.Errorf("image pixel %v drawn at (%d,%d) as %v, want %v", pt, sx, sy, got, exp)
		}
	}

	l.SelectMessage(x.Topic("/imu").At(5))
	if p.split.Leading != p.treePane {
		t.Error("an image pane for a sensor_msgs/Imu")
	}
	if p.picture.Image != nil {
		t.Error("the hidden picture still holds the last frame")
	}
	if strings.Contains(uitest.Shown(w), "64×48") {
		t.Error("the window still shows the image caption")
	}
}

// TestMessagePanelImageProblem says in the caption why an image message
// shows no picture.
func TestMessagePanelImageProblem(t *testing.T) {
	p, _, _, _ := newTestMessagePanel(t)
	p.showImage(&messageImage{
		info: sensor.ImageInfo{Width: 64, Height: 48, Encoding: "nv21", Bytes: 6144},
		err:  errors.New("nv21: not shown"),
	})
	if p.split.Leading != p.treeImage {
		t.Fatal("no image pane")
	}
	if got, want := p.caption.Text, "Image  ·  64×48 nv21, 6,144 bytes  ·  nv21: not shown"; got != want {
		t.Errorf("caption %q, want %q", got, want)
	}
	if p.picture.Image != nil {
		t.Error("a picture for an image that does not decode")
	}
}
