package plot

import (
	"math"
	"testing"
)

// TestPaletteDistinct checks that the palette's colours are told apart:
// at least ten, any two at least 17 apart in CIEDE2000 (about three times
// what is seen as "different" on thin lines), and each distinct from
// every other even after the palette cycles.
func TestPaletteDistinct(t *testing.T) {
	if PaletteSize < 10 {
		t.Fatalf("%d colours, want at least 10", PaletteSize)
	}
	const minDE = 17
	for i := range PaletteSize {
		for j := i + 1; j < PaletteSize; j++ {
			a, b := PaletteColor(i), PaletteColor(j)
			if d := deltaE2000(toLab(a.R, a.G, a.B), toLab(b.R, b.G, b.B)); d < minDE {
				t.Errorf("colours %d %v and %d %v differ by %.1f in CIEDE2000, want at least %d", i, a, j, b, d, minDE)
			}
		}
	}
	if PaletteColor(PaletteSize) != PaletteColor(0) || PaletteColor(-1) != PaletteColor(1) {
		t.Errorf("the palette does not cycle")
	}
}

// TestDeltaE2000 checks the test's CIEDE2000 against pairs of the formula's
// published test data (Sharma, Wu and Dalal 2005, table 1), and its CIELAB
// conversion against known sRGB values.
func TestDeltaE2000(t *testing.T) {
	pairs := []struct {
		a, b lab
		want float64
	}{
		{lab{50, 2.6772, -79.7751}, lab{50, 0, -82.7485}, 2.0425},
		{lab{50, 0, 0}, lab{50, -1, 2}, 2.3669},
		{lab{50, 2.5, 0}, lab{73, 25, -18}, 27.1492},
		{lab{60.2574, -34.0099, 36.2677}, lab{60.4626, -34.1751, 39.4387}, 1.2644},
		{lab{22.7233, 20.0904, -46.6940}, lab{23.0331, 14.9730, -42.5619}, 2.0373},
	}
	for _, p := range pairs {
		if got := deltaE2000(p.a, p.b); math.Abs(got-p.want) > 1e-4 {
			t.Errorf("ΔE2000(%v, %v) = %.4f, want %.4f", p.a, p.b, got, p.want)
		}
		if got := deltaE2000(p.b, p.a); math.Abs(got-p.want) > 1e-4 {
			t.Errorf("ΔE2000(%v, %v) = %.4f, want %.4f (swapped)", p.b, p.a, got, p.want)
		}
	}
	for _, c := range []struct {
		r, g, b uint8
		want    lab
	}{
		{255, 255, 255, lab{100, 0, 0}},
		{0, 0, 0, lab{0, 0, 0}},
		{255, 0, 0, lab{53.24, 80.09, 67.20}},
		{0, 0, 255, lab{32.30, 79.19, -107.86}},
	} {
		got := toLab(c.r, c.g, c.b)
		if math.Abs(got.L-c.want.L) > 0.05 || math.Abs(got.A-c.want.A) > 0.1 || math.Abs(got.B-c.want.B) > 0.1 {
			t.Errorf("Lab of %d,%d,%d = %.2f, want %.2f", c.r, c.g, c.b, got, c.want)
		}
	}
}

// lab is a CIELAB colour (D65 white).
type lab struct{ L, A, B float64 }

// linear is an sRGB channel's linear-light value.
func linear(c uint8) float64 {
	v := float64(c) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// toLab converts an sRGB colour to CIELAB.
func toLab(r8, g8, b8 uint8) lab {
	r, g, b := linear(r8), linear(g8), linear(b8)
	x := (0.4124564*r + 0.3575761*g + 0.1804375*b) / 0.95047
	y := 0.2126729*r + 0.7151522*g + 0.0721750*b
	z := (0.0193339*r + 0.1191920*g + 0.9503041*b) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return lab{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// deltaE2000 is the CIEDE2000 colour difference (kL = kC = kH = 1).
func deltaE2000(p, q lab) float64 {
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	hue := func(b, a float64) float64 {
		if a == 0 && b == 0 {
			return 0
		}
		h := math.Atan2(b, a) * 180 / math.Pi
		if h < 0 {
			h += 360
		}
		return h
	}
	pow7 := func(v float64) float64 { return math.Pow(v, 7) }
	cBar := (math.Hypot(p.A, p.B) + math.Hypot(q.A, q.B)) / 2
	g := 0.5 * (1 - math.Sqrt(pow7(cBar)/(pow7(cBar)+pow7(25))))
	a1, a2 := (1+g)*p.A, (1+g)*q.A
	c1, c2 := math.Hypot(a1, p.B), math.Hypot(a2, q.B)
	h1, h2 := hue(p.B, a1), hue(q.B, a2)
	dL, dC := q.L-p.L, c2-c1
	dh := 0.0
	if c1*c2 != 0 {
		dh = h2 - h1
		if dh > 180 {
			dh -= 360
		} else if dh < -180 {
			dh += 360
		}
	}
	dH := 2 * math.Sqrt(c1*c2) * math.Sin(rad(dh/2))
	lBar, cBarP := (p.L+q.L)/2, (c1+c2)/2
	hBar := h1 + h2
	if c1*c2 != 0 {
		switch {
		case math.Abs(h1-h2) <= 180:
			hBar = (h1 + h2) / 2
		case h1+h2 < 360:
			hBar = (h1 + h2 + 360) / 2
		default:
			hBar = (h1 + h2 - 360) / 2
		}
	}
	tt := 1 - 0.17*math.Cos(rad(hBar-30)) + 0.24*math.Cos(rad(2*hBar)) + 0.32*math.Cos(rad(3*hBar+6)) - 0.20*math.Cos(rad(4*hBar-63))
	dTheta := 30 * math.Exp(-math.Pow((hBar-275)/25, 2))
	rc := 2 * math.Sqrt(pow7(cBarP)/(pow7(cBarP)+pow7(25)))
	l50 := (lBar - 50) * (lBar - 50)
	sl := 1 + 0.015*l50/math.Sqrt(20+l50)
	sc := 1 + 0.045*cBarP
	sh := 1 + 0.015*cBarP*tt
	rt := -math.Sin(rad(2*dTheta)) * rc
	return math.Sqrt((dL/sl)*(dL/sl) + (dC/sc)*(dC/sc) + (dH/sh)*(dH/sh) + rt*(dC/sc)*(dH/sh))
}
