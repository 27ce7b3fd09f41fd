// Package sensor turns decoded sensor messages into what the Sensor and Log
// views show: images (raw, compressed, depth) with their encodings and
// colour maps, point clouds, laser scans, and /rosout log entries.
package sensor

import (
	"fmt"
	"math"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/video"
)

// Kind is the kind of picture the Sensor view draws for a message
// type.
type Kind int

// The sensor views.
const (
	KindNone  Kind = iota
	KindImage      // sensor_msgs/Image, sensor_msgs/CompressedImage
	KindLaser      // sensor_msgs/LaserScan
	KindCloud      // sensor_msgs/PointCloud2
	KindVideo      // foxglove_msgs/CompressedVideo (H.264, H.265: model/video)
)

// Sensor message types, in their ROS 1 spelling (BaseType maps the ROS 2
// spelling "sensor_msgs/msg/LaserScan" to it).
const (
	LaserScanType   = "sensor_msgs/LaserScan"
	PointCloud2Type = "sensor_msgs/PointCloud2"
)

// BaseType returns a message type in its ROS 1 spelling: the ROS 2
// "pkg/msg/Type" becomes "pkg/Type"; other types are returned as they are.
func BaseType(typ string) string {
	if i := strings.Index(typ, "/msg/"); i >= 0 && !strings.Contains(typ[i+len("/msg/"):], "/") {
		return typ[:i] + "/" + typ[i+len("/msg/"):]
	}
	return typ
}

// KindOf returns the sensor view that draws messages of type typ
// (ROS 1 or ROS 2 spelling), or KindNone.
func KindOf(typ string) Kind {
	switch BaseType(typ) {
	case ImageType, CompressedImageType:
		return KindImage
	case LaserScanType:
		return KindLaser
	case PointCloud2Type:
		return KindCloud
	case video.CompressedVideoType:
		return KindVideo
	}
	return KindNone
}

// String names the view: "image", "laser scan", "point cloud".
func (k Kind) String() string {
	switch k {
	case KindImage:
		return "image"
	case KindLaser:
		return "laser scan"
	case KindCloud:
		return "point cloud"
	case KindVideo:
		return "video"
	}
	return "none"
}

// needFields returns the named fields of n, or an error naming the first
// one missing.
func needFields(n *rosmsg.Node, names ...string) ([]*rosmsg.Node, error) {
	out := make([]*rosmsg.Node, len(names))
	for i, name := range names {
		f, err := field(n, name)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// number returns a scalar node's value as a float64, or an error naming
// the field.
func number(n *rosmsg.Node) (float64, error) {
	v, ok := n.Float64()
	if !ok {
		return 0, fmt.Errorf("field %s is %s, not a number", n.Name, n.Type)
	}
	return v, nil
}

// float32s returns a float32[] field's values (a float64[] converted).
func float32s(n *rosmsg.Node) ([]float32, error) {
	switch s := n.Slice().(type) {
	case []float32:
		return s, nil
	case []float64:
		out := make([]float32, len(s))
		for i, v := range s {
			out[i] = float32(v)
		}
		return out, nil
	}
	if n.Array && n.Len() == 0 {
		return nil, nil
	}
	return nil, fmt.Errorf("field %s is %s, not float32[]", n.Name, n.Type)
}

// finite says whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
