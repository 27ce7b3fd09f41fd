package sensor

import (
	"errors"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ScanPoint is one valid range of a laser scan, in the scan's frame: the
// beam at Angle (radians, from the x axis towards y) hit at Range metres.
type ScanPoint struct {
	Index        int     // position in ranges[]
	Angle, Range float64 // as the message says
	X, Y         float64 // Range·cos(Angle), Range·sin(Angle)
	Intensity    float64 // NaN when the scan has no intensity for it
}

// LaserScan is a decoded sensor_msgs/LaserScan, its ranges as points.
type LaserScan struct {
	AngleMin, AngleMax, AngleIncrement float64
	RangeMin, RangeMax                 float64
	Beams                              int // len(ranges)
	// Points are the ranges within [range_min, range_max], in beam order.
	Points []ScanPoint
	// Skipped counts the beams left out: not a number, infinite, below
	// range_min, above range_max.
	NaN, Inf, Below, Above int
	// MaxRange is the largest range drawn (0 without points).
	MaxRange float64
}

// DecodeLaserScan returns the points of a decoded sensor_msgs/LaserScan
// (ROS 1 or ROS 2): beam i at angle_min + i·angle_increment, as rviz
// draws it, skipping NaN and infinite ranges and those outside
// [range_min, range_max].
func DecodeLaserScan(root *rosmsg.Node) (*LaserScan, error) {
	if root == nil {
		return nil, errors.New("the message is not decoded")
	}
	f, err := needFields(root, "angle_min", "angle_max", "angle_increment", "range_min", "range_max", "ranges")
	if err != nil {
		return nil, err
	}
	var v [5]float64
	for i := range v {
		if v[i], err = number(f[i]); err != nil {
			return nil, err
		}
	}
	ranges, err := float32s(f[5])
	if err != nil {
		return nil, err
	}
	var intens []float32
	if in := root.Field("intensities"); in != nil {
		intens, _ = float32s(in)
	}
	s := &LaserScan{AngleMin: v[0], AngleMax: v[1], AngleIncrement: v[2], RangeMin: v[3], RangeMax: v[4], Beams: len(ranges)}
	s.Points = make([]ScanPoint, 0, len(ranges))
	for i, r32 := range ranges {
		r := float64(r32)
		switch {
		case math.IsNaN(r):
			s.NaN++
			continue
		case math.IsInf(r, 0):
			s.Inf++
			continue
		case r < s.RangeMin:
			s.Below++
			continue
		case r > s.RangeMax:
			s.Above++
			continue
		}
		a := s.AngleMin + float64(i)*s.AngleIncrement
		p := ScanPoint{Index: i, Angle: a, Range: r, X: r * math.Cos(a), Y: r * math.Sin(a), Intensity: math.NaN()}
		if i < len(intens) {
			p.Intensity = float64(intens[i])
		}
		s.Points = append(s.Points, p)
		s.MaxRange = max(s.MaxRange, r)
	}
	return s, nil
}

// Skipped is the number of beams not drawn.
func (s *LaserScan) Skipped() int { return s.NaN + s.Inf + s.Below + s.Above }
