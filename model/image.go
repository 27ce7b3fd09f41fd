package model

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// MaxImagePixels bounds the images MessageImage decodes: 64 megapixels,
// 256 MB as RGBA.
const MaxImagePixels = 64 << 20

// Image message types MessageImage shows.
const (
	ImageType           = "sensor_msgs/Image"
	CompressedImageType = "sensor_msgs/CompressedImage"
)

// IsImageType says whether MessageImage shows messages of type typ.
func IsImageType(typ string) bool {
	return typ == ImageType || typ == CompressedImageType
}

// ImageInfo describes an image message, also one that does not decode.
type ImageInfo struct {
	Width, Height int    // 0 when unknown
	Encoding      string // the Image's encoding or the CompressedImage's format
	Bytes         int    // length of the data field
}

// Caption is the one-line description of an image: "64×48 rgb8, 9,216 bytes".
func (i ImageInfo) Caption() string {
	var parts []string
	if i.Width > 0 || i.Height > 0 {
		parts = append(parts, fmt.Sprintf("%d×%d", i.Width, i.Height))
	}
	if i.Encoding != "" {
		parts = append(parts, i.Encoding)
	}
	s := strings.Join(parts, " ")
	if s != "" {
		s += ", "
	}
	b := "bytes"
	if i.Bytes == 1 {
		b = "byte"
	}
	return s + Count(uint64(i.Bytes)) + " " + b
}

// MessageImage returns the picture of a decoded sensor_msgs/Image or
// sensor_msgs/CompressedImage (JPEG or PNG), with what it knows of the
// image even when it cannot show it; the error says why not.
//
// Raw encodings: rgb8, bgr8, rgba8, bgra8, mono8, 8UC1, 8UC3 (as OpenCV's
// BGR), mono16 and 16UC1 (honouring is_bigendian, scaled from the image's
// own minimum..maximum to black..white). Rows are step bytes apart.
func MessageImage(typ string, root *rosmsg.Node) (image.Image, ImageInfo, error) {
	if root == nil {
		return nil, ImageInfo{}, errors.New("the message is not decoded")
	}
	switch typ {
	case ImageType:
		return rawImage(root)
	case CompressedImageType:
		return compressedImage(root)
	}
	return nil, ImageInfo{}, fmt.Errorf("%s is not an image message", typ)
}

// field returns a field of n or an error naming it.
func field(n *rosmsg.Node, name string) (*rosmsg.Node, error) {
	if f := n.Field(name); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("the message has no field %s", name)
}

// rawEncodings maps a sensor_msgs/Image encoding to its bytes per pixel.
var rawEncodings = map[string]int{
	"rgb8": 3, "bgr8": 3, "8UC3": 3,
	"rgba8": 4, "bgra8": 4,
	"mono8": 1, "8UC1": 1,
	"mono16": 2, "16UC1": 2,
}

func rawImage(root *rosmsg.Node) (image.Image, ImageInfo, error) {
	var f [6]*rosmsg.Node
	for k, name := range []string{"height", "width", "encoding", "is_bigendian", "step", "data"} {
		n, err := field(root, name)
		if err != nil {
			return nil, ImageInfo{}, err
		}
		f[k] = n
	}
	h, w, enc, big, step, data := f[0].Uint(), f[1].Uint(), f[2].Text(), f[3].Uint() != 0, f[4].Uint(), f[5].Bytes()
	info := ImageInfo{Width: int(w), Height: int(h), Encoding: enc, Bytes: len(data)}
	if w == 0 || h == 0 {
		return nil, info, fmt.Errorf("the image is empty (%d×%d)", w, h)
	}
	if w*h > MaxImagePixels {
		return nil, info, fmt.Errorf("%d×%d is %.0f megapixels, more than the %d shown", w, h, float64(w*h)/(1<<20), MaxImagePixels>>20)
	}
	bpp, ok := rawEncodings[enc]
	if !ok {
		return nil, info, fmt.Errorf("%s: not shown (shown: rgb8, bgr8, rgba8, bgra8, mono8, mono16, 8UC1, 8UC3, 16UC1)", enc)
	}
	if row := w * uint64(bpp); step < row {
		return nil, info, fmt.Errorf("step %d is less than width %d × %d bytes per pixel = %d", step, w, bpp, row)
	}
	if need := step * h; uint64(len(data)) < need {
		return nil, info, fmt.Errorf("data has %s bytes, step %d × height %d needs %s",
			Count(uint64(len(data))), step, h, Count(need))
	}
	W, H, S := int(w), int(h), int(step)
	switch enc {
	case "mono8", "8UC1":
		img := image.NewGray(image.Rect(0, 0, W, H))
		for y := 0; y < H; y++ {
			copy(img.Pix[y*img.Stride:y*img.Stride+W], data[y*S:])
		}
		return img, info, nil
	case "mono16", "16UC1":
		return gray16Scaled(data, W, H, S, big), info, nil
	}
	// Colour: to RGBA, opaque unless the encoding has alpha.
	r, g, b, a := 0, 1, 2, -1
	switch enc {
	case "bgr8", "8UC3":
		r, b = 2, 0
	case "rgba8":
		a = 3
	case "bgra8":
		r, b, a = 2, 0, 3
	}
	img := image.NewNRGBA(image.Rect(0, 0, W, H))
	for y := 0; y < H; y++ {
		src := data[y*S : y*S+W*bpp]
		dst := img.Pix[y*img.Stride : y*img.Stride+4*W]
		for x := 0; x < W; x++ {
			p := src[x*bpp : x*bpp+bpp]
			d := dst[4*x : 4*x+4]
			d[0], d[1], d[2], d[3] = p[r], p[g], p[b], 0xff
			if a >= 0 {
				d[3] = p[a]
			}
		}
	}
	return img, info, nil
}

// gray16Scaled returns a 16-bit image as 8-bit grey, its minimum black and
// its maximum white (all black when every pixel is the same).
func gray16Scaled(data []byte, w, h, step int, big bool) *image.Gray {
	at := func(i int) uint16 {
		if big {
			return uint16(data[i])<<8 | uint16(data[i+1])
		}
		return uint16(data[i]) | uint16(data[i+1])<<8
	}
	lo, hi := uint16(0xffff), uint16(0)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			v := at(y*step + 2*x)
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	span := uint32(hi) - uint32(lo)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var g uint8
			if span > 0 {
				g = uint8((uint32(at(y*step+2*x)-lo)*255 + span/2) / span)
			}
			img.Pix[y*img.Stride+x] = g
		}
	}
	return img
}

// compressedDepthHeader is the size of the configuration header
// compressed_depth_image_transport writes before its PNG.
const compressedDepthHeader = 12

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

func compressedImage(root *rosmsg.Node) (image.Image, ImageInfo, error) {
	ff, err := field(root, "format")
	if err != nil {
		return nil, ImageInfo{}, err
	}
	fd, err := field(root, "data")
	if err != nil {
		return nil, ImageInfo{}, err
	}
	format, data := ff.Text(), fd.Bytes()
	info := ImageInfo{Encoding: format, Bytes: len(data)}
	lf := strings.ToLower(format)
	var decode func([]byte) (image.Image, error)
	var config func([]byte) (image.Config, error)
	switch {
	case strings.Contains(lf, "jpeg") || strings.Contains(lf, "jpg"):
		decode = func(b []byte) (image.Image, error) { return jpeg.Decode(bytes.NewReader(b)) }
		config = func(b []byte) (image.Config, error) { return jpeg.DecodeConfig(bytes.NewReader(b)) }
	case strings.Contains(lf, "png"):
		if strings.Contains(lf, "compresseddepth") && len(data) >= compressedDepthHeader+len(pngMagic) &&
			!bytes.HasPrefix(data, pngMagic) && bytes.HasPrefix(data[compressedDepthHeader:], pngMagic) {
			data = data[compressedDepthHeader:]
		}
		decode = func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
		config = func(b []byte) (image.Config, error) { return png.DecodeConfig(bytes.NewReader(b)) }
	default:
		if format == "" {
			format = `""`
		}
		return nil, info, fmt.Errorf("%s: not shown (shown: jpeg, png)", format)
	}
	if len(data) == 0 {
		return nil, info, errors.New("the image is empty (no data)")
	}
	cfg, err := config(data)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", format, err)
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	if px := uint64(cfg.Width) * uint64(cfg.Height); px > MaxImagePixels {
		return nil, info, fmt.Errorf("%d×%d is %.0f megapixels, more than the %d shown", cfg.Width, cfg.Height, float64(px)/(1<<20), MaxImagePixels>>20)
	}
	img, err := decode(data)
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", format, err)
	}
	if g, ok := img.(*image.Gray16); ok {
		// A depth PNG: scale like mono16.
		b := g.Bounds()
		return gray16Scaled(g.Pix, b.Dx(), b.Dy(), g.Stride, true), info, nil
	}
	return img, info, nil
}
