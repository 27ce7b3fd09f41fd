package sensor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/video"
)

// MaxImagePixels bounds the images MessageImage decodes: 64 megapixels,
// 256 MB as RGBA.
const MaxImagePixels = 64 << 20

// Image message types MessageImage shows.
const (
	ImageType           = "sensor_msgs/Image"
	CompressedImageType = "sensor_msgs/CompressedImage"
)

// IsImageType says whether MessageImage shows messages of type typ (ROS 1
// or ROS 2 spelling).
func IsImageType(typ string) bool {
	t := BaseType(typ)
	return t == ImageType || t == CompressedImageType
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
	return s + human.Count(uint64(i.Bytes)) + " " + b
}

// MessageImage returns the picture of a decoded sensor_msgs/Image or
// sensor_msgs/CompressedImage (JPEG or PNG), ROS 1 or ROS 2, with what it
// knows of the image even when it cannot show it; the error says why not.
//
// Raw encodings: rgb8, bgr8, rgba8, bgra8, mono8, 8UC1, 8UC3 (as OpenCV's
// BGR), yuv422 (UYVY), yuv422_yuy2 (YUYV), 8-bit Bayer, and the single-channel mono16, 16UC1, 16SC1, 32FC1 and 64FC1
// (honouring is_bigendian, scaled from the image's own finite
// minimum..maximum to black..white; in 16UC1 depth images 0 is "no
// reading", black and left out of that range). Rows are step bytes apart.
// DecodeImage keeps the values of single-channel images.
func MessageImage(typ string, root *rosmsg.Node) (image.Image, ImageInfo, error) {
	f, err := DecodeImage(typ, root)
	if f == nil {
		return nil, ImageInfo{}, err
	}
	if err != nil {
		return nil, f.Info, err
	}
	return f.Picture(), f.Info, nil
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
	"mono16": 2, "16UC1": 2, "16SC1": 2,
	"32FC1": 4, "64FC1": 8,
	// Packed (convertPacked): bytes per pixel rounded up.
	"yuv422": 2, "uyvy": 2, "yuv422_yuy2": 2, "yuyv": 2,
	"bayer_rggb8": 1, "bayer_bggr8": 1, "bayer_gbrg8": 1, "bayer_grbg8": 1,
}

// scalarEncodings are the raw encodings kept as values (ImageFrame.Values).
var scalarEncodings = map[string]bool{"mono16": true, "16UC1": true, "16SC1": true, "32FC1": true, "64FC1": true}

// shownEncodings lists the raw encodings for error messages.
const shownEncodings = "rgb8, bgr8, rgba8, bgra8, mono8, mono16, 8UC1, 8UC3, 16UC1, 16SC1, 32FC1, 64FC1, yuv422, yuv422_yuy2, bayer_*8"

func rawImage(root *rosmsg.Node) (*ImageFrame, error) {
	var f [6]*rosmsg.Node
	for k, name := range []string{"height", "width", "encoding", "is_bigendian", "step", "data"} {
		n, err := field(root, name)
		if err != nil {
			return nil, err
		}
		f[k] = n
	}
	h, w, enc, big, step, data := f[0].Uint(), f[1].Uint(), f[2].Text(), f[3].Uint() != 0, f[4].Uint(), f[5].Bytes()
	fr := &ImageFrame{Info: ImageInfo{Width: int(w), Height: int(h), Encoding: enc, Bytes: len(data)}}
	if w == 0 || h == 0 {
		return fr, fmt.Errorf("the image is empty (%d×%d)", w, h)
	}
	if w*h > MaxImagePixels {
		return fr, fmt.Errorf("%d×%d is %.0f megapixels, more than the %d shown", w, h, float64(w*h)/(1<<20), MaxImagePixels>>20)
	}
	bpp, ok := rawEncodings[enc]
	if !ok {
		return fr, fmt.Errorf("%s: not shown (shown: %s)", enc, shownEncodings)
	}
	if row := w * uint64(bpp); step < row {
		return fr, fmt.Errorf("step %d is less than width %d × %d bytes per pixel = %d", step, w, bpp, row)
	}
	if row := (w + 1) / 2 * 4; packedEncodings[enc] && bpp == 2 && step < row {
		return fr, fmt.Errorf("step %d is less than the %d bytes of %d %s pixels", step, row, w, enc)
	}
	if need := step * h; uint64(len(data)) < need {
		return fr, fmt.Errorf("data has %s bytes, step %d × height %d needs %s",
			human.Count(uint64(len(data))), step, h, human.Count(need))
	}
	W, H, S := int(w), int(h), int(step)
	fr.W, fr.H = W, H
	if scalarEncodings[enc] {
		fr.ZeroInvalid = enc == "16UC1"
		fr.setValues(scalarValues(data, W, H, S, enc, big))
		return fr, nil
	}
	if packedEncodings[enc] {
		fr.Img = convertPacked(enc, data, W, H, S)
		return fr, nil
	}
	switch enc {
	case "mono8", "8UC1":
		img := image.NewGray(image.Rect(0, 0, W, H))
		for y := 0; y < H; y++ {
			copy(img.Pix[y*img.Stride:y*img.Stride+W], data[y*S:])
		}
		fr.Img = img
		return fr, nil
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
	fr.Img = img
	return fr, nil
}

// scalarValues reads the pixels of a single-channel 16-bit or float image
// as float32, row by row.
func scalarValues(data []byte, w, h, step int, enc string, big bool) []float32 {
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	out := make([]float32, w*h)
	for y := 0; y < h; y++ {
		row := data[y*step:]
		dst := out[y*w : y*w+w]
		switch enc {
		case "mono16", "16UC1":
			for x := range dst {
				dst[x] = float32(order.Uint16(row[2*x:]))
			}
		case "16SC1":
			for x := range dst {
				dst[x] = float32(int16(order.Uint16(row[2*x:])))
			}
		case "32FC1":
			for x := range dst {
				dst[x] = math.Float32frombits(order.Uint32(row[4*x:]))
			}
		case "64FC1":
			for x := range dst {
				dst[x] = float32(math.Float64frombits(order.Uint64(row[8*x:])))
			}
		}
	}
	return out
}

// compressedDepthHeader is the size of the configuration header
// compressed_depth_image_transport writes before its PNG.
const compressedDepthHeader = 12

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

func compressedImage(root *rosmsg.Node) (*ImageFrame, error) {
	ff, err := field(root, "format")
	if err != nil {
		return nil, err
	}
	fd, err := field(root, "data")
	if err != nil {
		return nil, err
	}
	format, data := ff.Text(), fd.Bytes()
	fr := &ImageFrame{Info: ImageInfo{Encoding: format, Bytes: len(data)}}
	info := &fr.Info
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
	case video.CodecOfFormat(format) != video.CodecNone:
		// A frame of a video stream: it needs the frames since its
		// keyframe, which the Sensor tab decodes (model/video).
		return fr, fmt.Errorf("%s: an %s video frame, drawn in the Sensor tab", format, video.CodecOfFormat(format))
	default:
		if format == "" {
			format = `""`
		}
		return fr, fmt.Errorf("%s: not shown (shown: jpeg, png)", format)
	}
	if len(data) == 0 {
		return fr, errors.New("the image is empty (no data)")
	}
	cfg, err := config(data)
	if err != nil {
		return fr, fmt.Errorf("%s: %w", format, err)
	}
	info.Width, info.Height = cfg.Width, cfg.Height
	if px := uint64(cfg.Width) * uint64(cfg.Height); px > MaxImagePixels {
		return fr, fmt.Errorf("%d×%d is %.0f megapixels, more than the %d shown", cfg.Width, cfg.Height, float64(px)/(1<<20), MaxImagePixels>>20)
	}
	img, err := decode(data)
	if err != nil {
		return fr, fmt.Errorf("%s: %w", format, err)
	}
	b := img.Bounds()
	fr.W, fr.H = b.Dx(), b.Dy()
	if g, ok := img.(*image.Gray16); ok {
		// A depth PNG: values, shown like 16UC1.
		fr.ZeroInvalid = true
		fr.setValues(scalarValues(g.Pix, fr.W, fr.H, g.Stride, "16UC1", true))
		return fr, nil
	}
	fr.Img = img
	return fr, nil
}
