package sensor

import (
	"image"
	"image/color"
)

// packedEncodings are the raw encodings convertPacked draws: YUV 4:2:2
// (two pixels in four bytes) and 8-bit Bayer mosaics.
var packedEncodings = map[string]bool{
	"yuv422": true, "uyvy": true, "yuv422_yuy2": true, "yuyv": true,
	"bayer_rggb8": true, "bayer_bggr8": true, "bayer_gbrg8": true, "bayer_grbg8": true,
}

// convertPacked draws a YUV 4:2:2 or 8-bit Bayer image (rows step bytes
// apart, checked by the caller) as RGB.
//
// yuv422 (also uyvy) is U Y0 V Y1 per pixel pair, yuv422_yuy2 (also yuyv)
// Y0 U Y1 V, converted as JPEG's full-range BT.601 (image/color's
// YCbCrToRGB). A Bayer image is demosaicked by its 2×2 cells: each cell's
// red, mean green and blue give its four pixels (no interpolation across
// cells).
func convertPacked(enc string, data []byte, w, h, step int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	switch enc {
	case "yuv422", "uyvy", "yuv422_yuy2", "yuyv":
		yuyv := enc == "yuv422_yuy2" || enc == "yuyv"
		for y := 0; y < h; y++ {
			src := data[y*step:]
			dst := img.Pix[y*img.Stride:]
			for x := 0; x < w; x++ {
				q := src[4*(x/2) : 4*(x/2)+4]
				var yy, u, v uint8
				if yuyv {
					yy, u, v = q[2*(x%2)], q[1], q[3]
				} else {
					yy, u, v = q[1+2*(x%2)], q[0], q[2]
				}
				r, g, b := color.YCbCrToRGB(yy, u, v)
				d := dst[4*x : 4*x+4]
				d[0], d[1], d[2], d[3] = r, g, b, 255
			}
		}
	default:
		pat := enc[len("bayer_") : len("bayer_")+4] // the 2×2 cell, row by row
		for cy := 0; cy < h; cy += 2 {
			for cx := 0; cx < w; cx += 2 {
				var r, g, b, ng int
				for k := 0; k < 4; k++ {
					x, y := min(cx+k%2, w-1), min(cy+k/2, h-1)
					v := int(data[y*step+x])
					switch pat[k] {
					case 'r':
						r = v
					case 'g':
						g += v
						ng++
					case 'b':
						b = v
					}
				}
				c := color.NRGBA{uint8(r), uint8((g + ng/2) / max(ng, 1)), uint8(b), 255}
				for k := 0; k < 4; k++ {
					if x, y := cx+k%2, cy+k/2; x < w && y < h {
						img.SetNRGBA(x, y, c)
					}
				}
			}
		}
	}
	return img
}
