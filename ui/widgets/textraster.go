package widgets

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// gridText paints runs of monospaced text as one canvas.Raster, each
// character in its own cell of a fixed width, so that the GL painter makes
// one draw call for all of them instead of one per canvas.Text (see
// RectRaster for why the number of draw calls matters under llvmpipe).
//
// The glyphs come from the theme's monospace font at theme.TextSize(),
// rasterized here with golang.org/x/image/font/opentype at the raster's
// pixel scale, and are placed as Fyne places a canvas.Text: the top of the
// run at its y, the baseline one ascent (rounded up to a pixel) below.
// Runs are in the raster's own coordinates (it is meant to cover its parent
// widget). Put the embedded *canvas.Raster in a renderer's objects.
type gridText struct {
	*canvas.Raster
	runs []textRun
	char float32 // cell width in Fyne units

	img   *image.RGBA // reused between frames
	face  *glyphFace  // for the last scale and text size
	fname string      // the font resource the face was made from
}

// textRun is a string drawn from x, y, one character per cell; spaces
// are skipped.
type textRun struct {
	x, y float32
	s    string
	c    color.Color
}

func newGridText() *gridText {
	t := &gridText{}
	t.Raster = canvas.NewRaster(t.paint)
	return t
}

// reset starts a new picture whose cells are char wide.
func (t *gridText) reset(char float32) {
	t.runs = t.runs[:0]
	t.char = char
}

// text adds s at x, y in colour c.
func (t *gridText) text(x, y float32, s string, c color.Color) {
	if s != "" {
		t.runs = append(t.runs, textRun{x, y, s, c})
	}
}

// paint is the raster's generator: w and h are in pixels.
func (t *gridText) paint(w, h int) image.Image {
	if t.img == nil || t.img.Rect.Dx() != w || t.img.Rect.Dy() != h {
		t.img = image.NewRGBA(image.Rect(0, 0, w, h))
	} else {
		clear(t.img.Pix)
	}
	size := t.Size()
	if size.Width <= 0 || size.Height <= 0 || len(t.runs) == 0 {
		return t.img
	}
	sx, sy := float64(w)/float64(size.Width), float64(h)/float64(size.Height)
	res := theme.TextMonospaceFont()
	px := float64(theme.TextSize()) * sx
	if t.face == nil || t.face.size != px || t.fname != res.Name() {
		f, err := monoFont(res)
		if err != nil {
			fyne.LogError("hex view font", err)
			return t.img
		}
		t.face = newGlyphFace(f, px)
		t.fname = res.Name()
	}
	ascent := math.Ceil(float64(t.face.ascent) / 64)
	for _, r := range t.runs {
		base := math.Round(float64(r.y)*sy) + ascent
		src := image.NewUniform(r.c)
		for i, ch := range []byte(r.s) {
			if ch == ' ' {
				continue
			}
			x := float64(r.x+float32(i)*t.char) * sx
			t.face.draw(t.img, src, x, base, rune(ch))
		}
	}
	return t.img
}

// monoFonts caches parsed fonts by resource name: parsing is the costly
// part, and the theme's font rarely changes.
var monoFonts struct {
	sync.Mutex
	m map[string]*opentype.Font
}

func monoFont(res fyne.Resource) (*opentype.Font, error) {
	monoFonts.Lock()
	defer monoFonts.Unlock()
	if f, ok := monoFonts.m[res.Name()]; ok {
		return f, nil
	}
	f, err := opentype.Parse(res.Content())
	if err != nil {
		return nil, err
	}
	if monoFonts.m == nil {
		monoFonts.m = map[string]*opentype.Font{}
	}
	monoFonts.m[res.Name()] = f
	return f, nil
}

// glyphFace is a face at one pixel size with its glyph masks cached, at a
// quarter-pixel horizontal resolution: a hex screen draws the same few
// dozen characters hundreds of times.
type glyphFace struct {
	font.Face
	size   float64
	ascent fixed.Int26_6
	masks  map[glyphKey]glyphMask
}

type glyphKey struct {
	r    rune
	frac uint8 // quarters of a pixel
}

type glyphMask struct {
	mask *image.Alpha // nil for an empty glyph
	off  image.Point  // top left relative to the dot's whole pixel
}

func newGlyphFace(f *opentype.Font, px float64) *glyphFace {
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		// Only an invalid size fails; draw nothing rather than panic.
		return &glyphFace{Face: nil, size: px, masks: map[glyphKey]glyphMask{}}
	}
	return &glyphFace{Face: face, size: px, ascent: face.Metrics().Ascent, masks: map[glyphKey]glyphMask{}}
}

// draw paints r with its dot at x (pixels, fractional) on baseline y.
func (g *glyphFace) draw(dst *image.RGBA, src image.Image, x, y float64, r rune) {
	if g.Face == nil {
		return
	}
	whole := math.Floor(x)
	k := glyphKey{r, uint8(math.Round((x - whole) * 4))}
	if k.frac == 4 {
		whole, k.frac = whole+1, 0
	}
	gm, ok := g.masks[k]
	if !ok {
		dr, mask, mp, _, ok := g.Glyph(fixed.Point26_6{X: fixed.Int26_6(k.frac) * 16}, r)
		if ok && !dr.Empty() {
			a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			draw.Draw(a, a.Rect, mask, mp, draw.Src)
			gm = glyphMask{mask: a, off: dr.Min}
		}
		g.masks[k] = gm
	}
	if gm.mask == nil {
		return
	}
	at := gm.off.Add(image.Pt(int(whole), int(y)))
	draw.DrawMask(dst, gm.mask.Rect.Add(at), src, image.Point{}, gm.mask, image.Point{}, draw.Over)
}
