package plot

import "math"

// YRange is the value axis' range: automatic (the zero value: the window's
// minimum and maximum with a margin) or fixed to [Min, Max].
type YRange struct {
	Fixed    bool
	Min, Max float64
}

// PadRange pads a value range [lo, hi] by 5% on each side for an axis; a
// flat range (all values equal, to rounding) gets a span around its value.
func PadRange(lo, hi float64) (float64, float64) {
	if hi-lo <= 1e-12*math.Max(math.Abs(lo), math.Abs(hi)) {
		d := math.Max(math.Abs(lo)*0.1, 1e-9)
		if lo == 0 {
			d = 1
		}
		return lo - d, hi + d
	}
	m := (hi - lo) * 0.05
	return lo - m, hi + m
}
