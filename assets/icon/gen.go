//go:build ignore

// Command gen draws assets/icon.png: a rounded dark square with four
// message lanes of coloured ticks and a playhead, the way bagscope shows a
// bag's timeline. Run it from the repository root:
//
//	go run assets/icon/gen.go
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const (
	size = 256
	ss   = 4 // supersampling per axis
)

// shape reports how much of the point (x, y) in icon pixels it covers,
// as 0 or 1, and its colour there.
type shape func(x, y float64) (bool, color.NRGBA)

// roundRect is the signed distance from (x, y) to a rounded rectangle.
func roundRect(x, y, x0, y0, x1, y1, r float64) float64 {
	cx, cy := (x0+x1)/2, (y0+y1)/2
	hx, hy := (x1-x0)/2-r, (y1-y0)/2-r
	dx, dy := math.Abs(x-cx)-hx, math.Abs(y-cy)-hy
	ox, oy := math.Max(dx, 0), math.Max(dy, 0)
	return math.Hypot(ox, oy) + math.Min(math.Max(dx, dy), 0) - r
}

func rgb(h uint32) color.NRGBA {
	return color.NRGBA{uint8(h >> 16), uint8(h >> 8), uint8(h), 255}
}

func lerp(a, b color.NRGBA, t float64) color.NRGBA {
	f := func(p, q uint8) uint8 { return uint8(float64(p) + (float64(q)-float64(p))*t + 0.5) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}

func main() {
	top, bottom := rgb(0x2f3a4f), rgb(0x141922)
	lane := color.NRGBA{255, 255, 255, 38}
	colors := []color.NRGBA{rgb(0x4fd1c5), rgb(0xf6ad55), rgb(0xfc8181), rgb(0x9f7aea)}
	// Ticks per lane as (start, end) in icon x pixels.
	ticks := [][][2]float64{
		{{44, 60}, {70, 86}, {96, 112}, {122, 138}, {148, 164}, {174, 190}, {200, 212}},
		{{44, 92}, {128, 176}},
		{{60, 72}, {108, 120}, {150, 162}, {194, 206}},
		{{44, 54}, {82, 130}, {168, 212}},
	}
	laneY := []float64{78, 112, 146, 180}
	const tickH = 18.0

	var shapes []shape
	// Background.
	shapes = append(shapes, func(x, y float64) (bool, color.NRGBA) {
		return roundRect(x, y, 8, 8, 248, 248, 52) <= 0, lerp(top, bottom, (y-8)/240)
	})
	// Lane guides and ticks.
	for i, ly := range laneY {
		shapes = append(shapes, func(x, y float64) (bool, color.NRGBA) {
			return roundRect(x, y, 40, ly-1.5, 216, ly+1.5, 1.5) <= 0, lane
		})
		for _, t := range ticks[i] {
			c := colors[i]
			shapes = append(shapes, func(x, y float64) (bool, color.NRGBA) {
				return roundRect(x, y, t[0], ly-tickH/2, t[1], ly+tickH/2, 5) <= 0, c
			})
		}
	}
	// Playhead: a white line with a rounded handle on top.
	white := rgb(0xf7fafc)
	shapes = append(shapes, func(x, y float64) (bool, color.NRGBA) {
		return roundRect(x, y, 140, 52, 146, 204, 3) <= 0, white
	})
	shapes = append(shapes, func(x, y float64) (bool, color.NRGBA) {
		return roundRect(x, y, 128, 40, 158, 58, 6) <= 0, white
	})

	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := float64(px) + (float64(sx)+0.5)/ss
					y := float64(py) + (float64(sy)+0.5)/ss
					var cr, cg, cb, ca float64 // premultiplied, 0..1
					for _, s := range shapes {
						in, c := s(x, y)
						if !in {
							continue
						}
						al := float64(c.A) / 255
						cr = float64(c.R)/255*al + cr*(1-al)
						cg = float64(c.G)/255*al + cg*(1-al)
						cb = float64(c.B)/255*al + cb*(1-al)
						ca = al + ca*(1-al)
					}
					r, g, b, a = r+cr, g+cg, b+cb, a+ca
				}
			}
			n := float64(ss * ss)
			r, g, b, a = r/n, g/n, b/n, a/n
			if a > 0 {
				img.SetNRGBA(px, py, color.NRGBA{uint8(r/a*255 + 0.5), uint8(g/a*255 + 0.5), uint8(b/a*255 + 0.5), uint8(a*255 + 0.5)})
			}
		}
	}
	f, err := os.Create("assets/icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
