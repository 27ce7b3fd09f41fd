package scene

import (
	"image/color"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
	msensor "github.com/bagscope/bagscope/model/sensor"
)

// scanSource gives a drawn beam's values.
type scanSource struct{ pts []msensor.ScanPoint }

func (s *scanSource) Fields(i int) []Field {
	if i < 0 || i >= len(s.pts) {
		return nil
	}
	p := s.pts[i]
	return []Field{{"index", float64(p.Index)}, {"angle", p.Angle}, {"range", p.Range}, {"intensity", p.Intensity}}
}

// ScanColor is a laser scan's points' colour when they are not coloured
// by a field.
var ScanColor = color.NRGBA{255, 60, 60, 255}

// DecodeScan reads a decoded sensor_msgs/LaserScan (model/sensor's
// reading: beams within [range_min, range_max]) and maps its points
// through pose into the fixed frame, coloured by "range" or "intensity"
// when by names one.
func DecodeScan(root *rosmsg.Node, pose Pose, by string, m *msensor.ColorMap) (*Points, *msensor.LaserScan, error) {
	s, err := msensor.DecodeLaserScan(root)
	if err != nil {
		return nil, nil, err
	}
	n := len(s.Points)
	p := &Points{X: make([]float32, n), Y: make([]float32, n), Z: make([]float32, n), Size: 3, Color: ScanColor,
		Source: &scanSource{pts: s.Points}}
	for i, pt := range s.Points {
		w := pose.Apply(Vec{pt.X, pt.Y, 0})
		p.X[i], p.Y[i], p.Z[i] = float32(w[0]), float32(w[1]), float32(w[2])
	}
	if by == "range" || by == "intensity" {
		val := func(pt msensor.ScanPoint) float64 {
			if by == "range" {
				return pt.Range
			}
			return pt.Intensity
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, pt := range s.Points {
			if v := val(pt); finite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		lut := colorLUT(m)
		p.RGBA = make([]uint32, n)
		for i, pt := range s.Points {
			p.RGBA[i] = lutAt(lut, val(pt), lo, hi)
		}
	}
	return p, s, nil
}
