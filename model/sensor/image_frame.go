package sensor

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ImageFrame is a decoded image message: a picture, or for a
// single-channel 16-bit or float image (mono16, 16UC1, 16SC1, 32FC1,
// 64FC1, a 16-bit depth PNG) its values, drawn through a colour map over
// a range.
type ImageFrame struct {
	Info ImageInfo
	// W and H are the decoded size (0 when it did not decode).
	W, H int
	// Img is the picture of a colour or 8-bit image; nil when Values
	// holds the pixels.
	Img image.Image
	// Values are the pixels of a single-channel image, row by row.
	Values []float32
	// Lo and Hi bound the finite Values (the automatic range); both 0
	// when none is finite.
	Lo, Hi float64
	// ZeroInvalid says that 0 means "no reading" (a 16UC1 depth image,
	// REP 118): zeros are left out of the range and drawn transparent
	// by Render.
	ZeroInvalid bool
}

// DecodeImage decodes a sensor_msgs/Image or sensor_msgs/CompressedImage
// (ROS 1 or ROS 2). The frame is returned with its Info also when the
// image cannot be shown; the error says why not.
func DecodeImage(typ string, root *rosmsg.Node) (*ImageFrame, error) {
	if root == nil {
		return nil, errors.New("the message is not decoded")
	}
	switch BaseType(typ) {
	case ImageType:
		return rawImage(root)
	case CompressedImageType:
		return compressedImage(root)
	}
	return nil, fmt.Errorf("%s is not an image message", typ)
}

// setValues keeps a single-channel image's values and their range.
func (f *ImageFrame) setValues(v []float32) {
	f.Values = v
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if x64 := float64(x); finite(x64) && !(f.ZeroInvalid && x == 0) {
			lo, hi = min(lo, x64), max(hi, x64)
		}
	}
	if lo > hi {
		lo, hi = 0, 0
	}
	f.Lo, f.Hi = lo, hi
}

// Scalar says whether the frame holds values drawn through a colour map.
func (f *ImageFrame) Scalar() bool { return f.Values != nil }

// Picture returns the image to draw: Img, or the values in grey over
// their own range.
func (f *ImageFrame) Picture() image.Image {
	if f.Img != nil || !f.Scalar() {
		return f.Img
	}
	return f.grey(f.Lo, f.Hi)
}

// grey draws the values from lo (black) to hi (white), rounding to the
// nearest level; values that are not finite are black.
func (f *ImageFrame) grey(lo, hi float64) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, f.W, f.H))
	span := hi - lo
	for i, v := range f.Values {
		x := float64(v)
		var g uint8
		switch {
		case !finite(x) || span <= 0 || x <= lo:
		case x >= hi:
			g = 255
		default:
			g = uint8(math.Floor((x-lo)*255/span + 0.5))
		}
		img.Pix[i] = g
	}
	return img
}

// Render draws a single-channel frame through colour map cm from lo to
// hi (values outside are clamped; values that are not finite, and zeros
// where ZeroInvalid, are transparent; the grey map draws them black). A
// frame with a picture returns it as it is.
func (f *ImageFrame) Render(lo, hi float64, cm *ColorMap) image.Image {
	if !f.Scalar() {
		return f.Img
	}
	if cm == nil || cm.Name == "Grey" {
		return f.grey(lo, hi)
	}
	img := image.NewNRGBA(image.Rect(0, 0, f.W, f.H))
	span := hi - lo
	for i, v := range f.Values {
		x := float64(v)
		if !finite(x) || (f.ZeroInvalid && v == 0) {
			continue
		}
		t := 0.0
		if span > 0 {
			t = (x - lo) / span
		}
		c := cm.At(t)
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = c.R, c.G, c.B, 255
	}
	return img
}

// Pixel describes the pixel at (x, y): its value for a single-channel
// image ("1234", "0.512", "NaN"), its channels otherwise ("R 12  G 34
// B 56", "grey 12"). ok is false outside the image.
func (f *ImageFrame) Pixel(x, y int) (text string, ok bool) {
	if x < 0 || y < 0 || x >= f.W || y >= f.H {
		return "", false
	}
	if f.Scalar() {
		v := float64(f.Values[y*f.W+x])
		if f.ZeroInvalid && v == 0 {
			return "0 (no reading)", true
		}
		switch f.Info.Encoding {
		case "32FC1", "64FC1":
			return strconv.FormatFloat(v, 'g', 6, 64), true
		}
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	if f.Img == nil {
		return "", false
	}
	b := f.Img.Bounds()
	c := f.Img.At(b.Min.X+x, b.Min.Y+y)
	switch c := c.(type) {
	case color.Gray:
		return fmt.Sprintf("grey %d", c.Y), true
	case color.Gray16:
		return fmt.Sprintf("grey %d", c.Y), true
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if n.A != 255 {
		return fmt.Sprintf("R %d  G %d  B %d  A %d", n.R, n.G, n.B, n.A), true
	}
	return fmt.Sprintf("R %d  G %d  B %d", n.R, n.G, n.B), true
}

// ColorMap maps 0..1 to colours.
type ColorMap struct {
	Name  string
	stops []color.NRGBA // evenly spaced
}

// At returns the colour at t, clamped to 0..1.
func (m *ColorMap) At(t float64) color.NRGBA {
	if math.IsNaN(t) || t <= 0 {
		return m.stops[0]
	}
	if t >= 1 {
		return m.stops[len(m.stops)-1]
	}
	p := t * float64(len(m.stops)-1)
	i := int(p)
	a, b, u := m.stops[i], m.stops[i+1], p-float64(i)
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*u + 0.5) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 255}
}

// The colour maps the Sensor view offers: grey, turbo (Google's, as rviz
// and Foxglove use for depth) and viridis (matplotlib's), sampled at
// evenly spaced stops.
var (
	GreyMap  = &ColorMap{Name: "Grey", stops: []color.NRGBA{{0, 0, 0, 255}, {255, 255, 255, 255}}}
	TurboMap = &ColorMap{Name: "Turbo", stops: []color.NRGBA{
		{48, 18, 59, 255}, {70, 107, 227, 255}, {40, 187, 236, 255}, {49, 242, 153, 255},
		{162, 252, 60, 255}, {237, 208, 58, 255}, {251, 128, 34, 255}, {210, 49, 5, 255}, {122, 4, 3, 255},
	}}
	ViridisMap = &ColorMap{Name: "Viridis", stops: []color.NRGBA{
		{68, 1, 84, 255}, {72, 40, 120, 255}, {62, 74, 137, 255}, {49, 104, 142, 255},
		{38, 130, 142, 255}, {31, 158, 137, 255}, {53, 183, 121, 255}, {109, 205, 89, 255},
		{180, 222, 44, 255}, {253, 231, 37, 255},
	}}
)

// ColorMaps lists the colour maps by name, for a chooser.
var ColorMaps = []*ColorMap{GreyMap, TurboMap, ViridisMap}

// ColorMapNamed returns the colour map called name, or Turbo.
func ColorMapNamed(name string) *ColorMap {
	for _, m := range ColorMaps {
		if m.Name == name {
			return m
		}
	}
	return TurboMap
}
