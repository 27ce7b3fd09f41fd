package sensor_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os/exec"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/sensor"
)

const headerDef = "\n================================================================================\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"

const (
	imageDef           = "Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n" + headerDef
	compressedImageDef = "Header header\nstring format\nuint8[] data\n" + headerDef
)

// ser serialises ROS values the way a publisher does (little-endian).
type ser struct{ bytes.Buffer }

func (s *ser) u32(v uint32) { binary.Write(&s.Buffer, binary.LittleEndian, v) }
func (s *ser) u8(v uint8)   { s.WriteByte(v) }
func (s *ser) str(v string) { s.u32(uint32(len(v))); s.WriteString(v) }
func (s *ser) header()      { s.u32(7); s.u32(1); s.u32(2); s.str("cam") }

func decodeTest(t *testing.T, typ, def string, data []byte) *rosmsg.Node {
	t.Helper()
	plan, err := rosmsg.Compile(typ, def)
	if err != nil {
		t.Fatal(err)
	}
	root, err := plan.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// rawMessage returns a decoded sensor_msgs/Image.
func rawMessage(t *testing.T, h, w uint32, enc string, big uint8, step uint32, data []byte) *rosmsg.Node {
	var s ser
	s.header()
	s.u32(h)
	s.u32(w)
	s.str(enc)
	s.u8(big)
	s.u32(step)
	s.u32(uint32(len(data)))
	s.Write(data)
	return decodeTest(t, sensor.ImageType, imageDef, s.Bytes())
}

// compressedMessage returns a decoded sensor_msgs/CompressedImage.
func compressedMessage(t *testing.T, format string, data []byte) *rosmsg.Node {
	var s ser
	s.header()
	s.str(format)
	s.u32(uint32(len(data)))
	s.Write(data)
	return decodeTest(t, sensor.CompressedImageType, compressedImageDef, s.Bytes())
}

// px is an expected pixel.
type px struct {
	x, y int
	c    color.NRGBA
}

func rgb(r, g, b uint8) color.NRGBA     { return color.NRGBA{r, g, b, 0xff} }
func grey(v uint8) color.NRGBA          { return color.NRGBA{v, v, v, 0xff} }
func rgba(r, g, b, a uint8) color.NRGBA { return color.NRGBA{r, g, b, a} }

// ycc is a YCbCr pixel as JPEG's full-range BT.601 converts it.
func ycc(y, cb, cr uint8) color.NRGBA {
	r, g, b := color.YCbCrToRGB(y, cb, cr)
	return rgb(r, g, b)
}

// pad marks the row padding bytes that step adds.
const pad = 0xEE

func TestImageRawEncodings(t *testing.T) {
	tests := []struct {
		enc        string
		w, h, step uint32
		big        uint8
		data       []byte
		want       []px
	}{
		{"rgb8", 2, 2, 7, 0, []byte{
			1, 2, 3, 4, 5, 6, pad,
			7, 8, 9, 10, 11, 12, pad},
			[]px{{0, 0, rgb(1, 2, 3)}, {1, 0, rgb(4, 5, 6)}, {0, 1, rgb(7, 8, 9)}, {1, 1, rgb(10, 11, 12)}}},
		{"bgr8", 2, 1, 6, 0, []byte{1, 2, 3, 4, 5, 6},
			[]px{{0, 0, rgb(3, 2, 1)}, {1, 0, rgb(6, 5, 4)}}},
		{"8UC3", 1, 2, 4, 0, []byte{10, 20, 30, pad, 40, 50, 60, pad},
			[]px{{0, 0, rgb(30, 20, 10)}, {0, 1, rgb(60, 50, 40)}}},
		{"rgba8", 2, 1, 8, 0, []byte{1, 2, 3, 255, 4, 5, 6, 128},
			[]px{{0, 0, rgba(1, 2, 3, 255)}, {1, 0, rgba(4, 5, 6, 128)}}},
		{"bgra8", 1, 2, 5, 0, []byte{1, 2, 3, 200, pad, 4, 5, 6, 255, pad},
			[]px{{0, 0, rgba(3, 2, 1, 200)}, {0, 1, rgba(6, 5, 4, 255)}}},
		{"mono8", 3, 2, 4, 0, []byte{0, 100, 255, pad, 7, 8, 9, pad},
			[]px{{0, 0, grey(0)}, {1, 0, grey(100)}, {2, 0, grey(255)}, {0, 1, grey(7)}, {2, 1, grey(9)}}},
		{"8UC1", 2, 1, 2, 0, []byte{42, 43},
			[]px{{0, 0, grey(42)}, {1, 0, grey(43)}}},
		// 16-bit: 1000 is black, 3000 white, 2000 half way (127.5 rounds up).
		{"mono16", 3, 1, 6, 0, []byte{0xe8, 0x03, 0xd0, 0x07, 0xb8, 0x0b},
			[]px{{0, 0, grey(0)}, {1, 0, grey(128)}, {2, 0, grey(255)}}},
		{"mono16", 3, 1, 6, 1, []byte{0x03, 0xe8, 0x07, 0xd0, 0x0b, 0xb8},
			[]px{{0, 0, grey(0)}, {1, 0, grey(128)}, {2, 0, grey(255)}}},
		// Padding is not a pixel: 0xEEEE would otherwise be the maximum.
		// 0 is "no reading" (REP 118): black, and not the range's minimum,
		// 16 is; 32 is a third of the way to 64.
		{"16UC1", 2, 2, 6, 0, []byte{
			0, 0, 0x10, 0, pad, pad,
			0x20, 0, 0x40, 0, pad, pad},
			[]px{{0, 0, grey(0)}, {1, 0, grey(0)}, {0, 1, grey(85)}, {1, 1, grey(255)}}},
		// mono16 has no such reading: 0 is the minimum.
		{"mono16", 2, 2, 4, 0, []byte{0, 0, 0x10, 0, 0x20, 0, 0x40, 0},
			[]px{{0, 0, grey(0)}, {1, 0, grey(64)}, {0, 1, grey(128)}, {1, 1, grey(255)}}},
		// YUV 4:2:2, an odd width: the last pair's second pixel is padding.
		{"yuv422", 3, 1, 8, 0, []byte{90, 50, 200, 150, 30, 100, 60, pad},
			[]px{{0, 0, ycc(50, 90, 200)}, {1, 0, ycc(150, 90, 200)}, {2, 0, ycc(100, 30, 60)}}},
		{"yuv422_yuy2", 3, 1, 8, 0, []byte{50, 90, 150, 200, 100, 30, pad, 60},
			[]px{{0, 0, ycc(50, 90, 200)}, {1, 0, ycc(150, 90, 200)}, {2, 0, ycc(100, 30, 60)}}},
		// Bayer: each 2×2 cell's red, mean green and blue; a cell cut by
		// the image's edge reuses its last row or column.
		{"bayer_rggb8", 3, 2, 4, 0, []byte{200, 10, 7, pad, 20, 100, 9, pad},
			[]px{{0, 0, rgb(200, 15, 100)}, {1, 1, rgb(200, 15, 100)}, {2, 0, rgb(7, 8, 9)}, {2, 1, rgb(7, 8, 9)}}},
		// One row: the cell's second row is its first again (g r / b g
		// reads 10 200 / 10 200).
		{"bayer_grbg8", 2, 1, 2, 0, []byte{10, 200},
			[]px{{0, 0, rgb(200, 105, 10)}, {1, 0, rgb(200, 105, 10)}}},
		// Every pixel the same: black, not a division by zero.
		{"16UC1", 2, 1, 4, 0, []byte{5, 5, 5, 5},
			[]px{{0, 0, grey(0)}, {1, 0, grey(0)}}},
	}
	for _, tc := range tests {
		t.Run(tc.enc, func(t *testing.T) {
			root := rawMessage(t, tc.h, tc.w, tc.enc, tc.big, tc.step, tc.data)
			img, info, err := sensor.MessageImage(sensor.ImageType, root)
			if err != nil {
				t.Fatal(err)
			}
			if want := (sensor.ImageInfo{Width: int(tc.w), Height: int(tc.h), Encoding: tc.enc, Bytes: len(tc.data)}); info != want {
				t.Errorf("info %+v, want %+v", info, want)
			}
			if b := img.Bounds(); b != image.Rect(0, 0, int(tc.w), int(tc.h)) {
				t.Errorf("bounds %v", b)
			}
			for _, p := range tc.want {
				if got := color.NRGBAModel.Convert(img.At(p.x, p.y)); got != p.c {
					t.Errorf("pixel (%d,%d) = %v, want %v", p.x, p.y, got, p.c)
				}
			}
		})
	}
}

func TestImageErrors(t *testing.T) {
	tests := []struct {
		name string
		root func(t *testing.T) *rosmsg.Node
		typ  string
		want string // in the error
	}{
		{"unsupported encoding", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 1, 2, "nv21", 0, 4, make([]byte, 4))
		}, sensor.ImageType, "nv21: not shown"},
		{"step too small", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 2, 64, "rgb8", 0, 100, make([]byte, 200))
		}, sensor.ImageType, "step 100 is less than width 64 × 3 bytes per pixel = 192"},
		{"data too short", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 48, 64, "rgb8", 0, 192, make([]byte, 9000))
		}, sensor.ImageType, "data has 9,000 bytes, step 192 × height 48 needs 9,216"},
		{"empty", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 0, 64, "rgb8", 0, 192, nil)
		}, sensor.ImageType, "the image is empty (64×0)"},
		{"too big", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 10000, 10000, "mono8", 0, 10000, nil)
		}, sensor.ImageType, "10000×10000 is 95 megapixels, more than the 64 shown"},
		{"unknown format", func(t *testing.T) *rosmsg.Node {
			return compressedMessage(t, "theora", []byte{1, 2})
		}, sensor.CompressedImageType, "theora: not shown"},
		{"h264 frame", func(t *testing.T) *rosmsg.Node {
			return compressedMessage(t, "h264", []byte{0, 0, 0, 1, 0x65, 0x88})
		}, sensor.CompressedImageType, "h264: an H.264 video frame, drawn in the Sensor tab"},
		{"broken jpeg", func(t *testing.T) *rosmsg.Node {
			return compressedMessage(t, "rgb8; jpeg compressed bgr8", []byte{0xff, 0xd8, 0xff})
		}, sensor.CompressedImageType, "rgb8; jpeg compressed bgr8: "},
		{"not an image", func(t *testing.T) *rosmsg.Node {
			return rawMessage(t, 1, 1, "mono8", 0, 1, []byte{1})
		}, "sensor_msgs/Imu", "sensor_msgs/Imu is not an image message"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, _, err := sensor.MessageImage(tc.typ, tc.root(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if img != nil {
				t.Errorf("an image with the error")
			}
		})
	}
}

func TestImageCompressed(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 16, 8))
	for y := 0; y < 8; y++ {
		for x := 0; x < 16; x++ {
			c := rgb(200, 30, 40)
			if x >= 8 {
				c = rgb(20, 180, 60)
			}
			src.SetNRGBA(x, y, c)
		}
	}
	var pngBuf, jpgBuf bytes.Buffer
	if err := png.Encode(&pngBuf, src); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgBuf, src, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	depth := image.NewGray16(image.Rect(0, 0, 2, 1))
	depth.SetGray16(0, 0, color.Gray16{Y: 500})
	depth.SetGray16(1, 0, color.Gray16{Y: 1500})
	var depthBuf bytes.Buffer
	depthBuf.Write(make([]byte, sensor.CompressedDepthHeader)) // compressed_depth_image_transport's config
	if err := png.Encode(&depthBuf, depth); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format string
		data   []byte
		tol    int // per channel: JPEG is lossy
		want   []px
	}{
		{"png", pngBuf.Bytes(), 0, []px{{0, 0, rgb(200, 30, 40)}, {15, 7, rgb(20, 180, 60)}}},
		{"bgr8; png compressed bgr8", pngBuf.Bytes(), 0, []px{{3, 3, rgb(200, 30, 40)}}},
		{"jpeg", jpgBuf.Bytes(), 12, []px{{2, 2, rgb(200, 30, 40)}, {13, 5, rgb(20, 180, 60)}}},
		{"rgb8; jpeg compressed bgr8", jpgBuf.Bytes(), 12, []px{{2, 2, rgb(200, 30, 40)}}},
		{"16UC1; compressedDepth png", depthBuf.Bytes(), 0, []px{{0, 0, grey(0)}, {1, 0, grey(255)}}},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			img, info, err := sensor.MessageImage(sensor.CompressedImageType, compressedMessage(t, tc.format, tc.data))
			if err != nil {
				t.Fatal(err)
			}
			w := img.Bounds().Dx()
			if info.Width != w || info.Height != img.Bounds().Dy() || info.Bytes != len(tc.data) || info.Encoding != tc.format {
				t.Errorf("info %+v for a %v image", info, img.Bounds())
			}
			for _, p := range tc.want {
				got := color.NRGBAModel.Convert(img.At(p.x, p.y)).(color.NRGBA)
				d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
				if d(got.R, p.c.R) > tc.tol || d(got.G, p.c.G) > tc.tol || d(got.B, p.c.B) > tc.tol || got.A != p.c.A {
					t.Errorf("pixel (%d,%d) = %v, want %v ± %d", p.x, p.y, got, p.c, tc.tol)
				}
			}
		})
	}
}

func TestImageCaption(t *testing.T) {
	for _, tc := range []struct {
		info sensor.ImageInfo
		want string
	}{
		{sensor.ImageInfo{64, 48, "rgb8", 9216}, "64×48 rgb8, 9,216 bytes"},
		{sensor.ImageInfo{0, 0, "theora", 1}, "theora, 1 byte"},
		{sensor.ImageInfo{}, "0 bytes"},
	} {
		if got := tc.info.Caption(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.info, got, tc.want)
		}
	}
}

// refImage is one line of testdata/image_ref.py.
type refImage struct {
	T        int64    `json:"t"`
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Encoding string   `json:"encoding"`
	Step     int      `json:"step"`
	Pixels   [][5]int `json:"pixels"`
}

// TestImageSampleMatchesRosbag compares the pixels of every
// /camera/image_raw message of the sample bag with the bytes the reference
// rosbag reads for them.
func TestImageSampleMatchesRosbag(t *testing.T) {
	reftest.RequireRef(t)
	out, err := exec.Command(reftest.Python, "testdata/image_ref.py", "../../assets/sample.bag", "/camera/image_raw", "5").Output()
	if err != nil {
		t.Fatalf("image_ref.py: %v", err)
	}
	var want []refImage
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m refImage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		want = append(want, m)
	}
	if len(want) == 0 {
		t.Fatal("the reference lists no images")
	}

	d, err := model.OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	it := d.Storage.Messages(bag.MessageFilter{Topics: []string{"/camera/image_raw"}})
	defer it.Close()
	n, pixels := 0, 0
	for it.Next() {
		m := it.Message()
		if n >= len(want) {
			t.Fatalf("more images than the reference's %d", len(want))
		}
		ref := want[n]
		n++
		if m.Time.Nanos() != ref.T {
			t.Fatalf("image %d at %d, the reference's at %d", n, m.Time.Nanos(), ref.T)
		}
		c := m.Conn
		plan, err := rosmsg.Compile(c.Type, c.Definition)
		if err != nil {
			t.Fatal(err)
		}
		root, err := plan.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		img, info, err := sensor.MessageImage(c.Type, root)
		if err != nil {
			t.Fatal(err)
		}
		if info.Width != ref.Width || info.Height != ref.Height || info.Encoding != ref.Encoding || info.Bytes != ref.Step*ref.Height {
			t.Errorf("image %d: %+v, the reference's %dx%d %s step %d", n, info, ref.Width, ref.Height, ref.Encoding, ref.Step)
		}
		for _, p := range ref.Pixels {
			got := color.NRGBAModel.Convert(img.At(p[0], p[1]))
			if w := rgb(uint8(p[2]), uint8(p[3]), uint8(p[4])); got != w {
				t.Errorf("image %d pixel (%d,%d) = %v, the reference's %v", n, p[0], p[1], got, w)
			}
			pixels++
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d images, the reference's %d", n, len(want))
	}
	t.Logf("%d images, %d pixels compared with rosbag", n, pixels)
}
