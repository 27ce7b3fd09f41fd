package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/bagscope/bagscope/plot"
)

// axisRange is a plot axis' range in a layout file: [lo, hi], or "auto"
// for one that follows the data (Set false).
type axisRange struct {
	Set    bool
	Lo, Hi float64
}

// yAxisRange is a plot's value range as a layout holds it.
func yAxisRange(r plot.YRange) axisRange {
	if !r.Fixed || !(r.Max > r.Min) {
		return axisRange{}
	}
	return axisRange{Set: true, Lo: r.Min, Hi: r.Max}
}

// yRange is a as a plot's value range.
func (a axisRange) yRange() plot.YRange {
	if !a.Set {
		return plot.YRange{}
	}
	return plot.YRange{Fixed: true, Min: a.Lo, Max: a.Hi}
}

// MarshalJSON writes "auto" or [lo, hi].
func (a axisRange) MarshalJSON() ([]byte, error) {
	if !a.Set {
		return []byte(`"auto"`), nil
	}
	return json.Marshal([2]float64{a.Lo, a.Hi})
}

// UnmarshalJSON reads "auto" (or null) or [lo, hi] with lo < hi, both
// finite.
func (a *axisRange) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); bytes.Equal(t, []byte(`"auto"`)) || bytes.Equal(t, []byte("null")) {
		*a = axisRange{}
		return nil
	}
	var v [2]float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf(`a range is "auto" or [low, high]: %s`, b)
	}
	if !(v[0] < v[1]) || math.IsInf(v[0], 0) || math.IsInf(v[1], 0) {
		return fmt.Errorf("range [%g, %g]: the low end must be below the high end", v[0], v[1])
	}
	*a = axisRange{Set: true, Lo: v[0], Hi: v[1]}
	return nil
}
