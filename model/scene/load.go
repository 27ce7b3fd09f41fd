package scene

import (
	"context"
	"fmt"
	"slices"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	msensor "github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/model/tf"
)

// Kind is what a topic draws as.
type Kind int

// The drawable kinds.
const (
	KindNone        Kind = iota
	KindCloud            // sensor_msgs/PointCloud2
	KindScan             // sensor_msgs/LaserScan
	KindMarker           // visualization_msgs/Marker
	KindMarkerArray      // visualization_msgs/MarkerArray
	KindPath             // nav_msgs/Path
	KindOdometry         // nav_msgs/Odometry: its trail and latest pose
	KindPose             // geometry_msgs/PoseStamped
	KindGrid             // nav_msgs/OccupancyGrid
	KindPoseCov          // geometry_msgs/PoseWithCovarianceStamped (amcl_pose): its pose.pose
)

// KindOf returns how messages of type typ (ROS 1 or ROS 2 spelling) are
// drawn.
func KindOf(typ string) Kind {
	switch msensor.BaseType(typ) {
	case msensor.PointCloud2Type:
		return KindCloud
	case msensor.LaserScanType:
		return KindScan
	case "visualization_msgs/Marker":
		return KindMarker
	case "visualization_msgs/MarkerArray":
		return KindMarkerArray
	case "nav_msgs/Path":
		return KindPath
	case "nav_msgs/Odometry":
		return KindOdometry
	case "geometry_msgs/PoseStamped":
		return KindPose
	case "nav_msgs/OccupancyGrid":
		return KindGrid
	case "geometry_msgs/PoseWithCovarianceStamped":
		return KindPoseCov
	}
	return KindNone
}

// Bounds on the messages one topic reads at a time: the markers gathered
// from the latest MarkerLookback messages (a DELETEALL ends the look
// earlier), an odometry trail of the latest TrailLength messages.
const (
	MarkerLookback = 500
	TrailLength    = 300
)

// Topic is a drawable topic.
type Topic struct {
	Name, Type string
	Kind       Kind
}

// Topics returns d's drawable topics, by name.
func Topics(d *model.Document) []Topic {
	var out []Topic
	for _, t := range d.Topics {
		if k := KindOf(t.Type); k != KindNone {
			out = append(out, Topic{Name: t.Topic, Type: t.Type, Kind: k})
		}
	}
	slices.SortFunc(out, func(a, b Topic) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}

// Drawable reports whether d has anything the scene draws: a drawable
// topic or transforms.
func Drawable(d *model.Document) bool {
	return len(Topics(d)) > 0 || len(tf.Connections(d.Storage)) > 0
}

// Options say what a scene holds.
type Options struct {
	// Fixed is the fixed frame ("" picks one: DefaultFixed).
	Fixed string
	// Topics are the topics drawn.
	Topics []Topic
	// Axes draws the transform tree's frames, AxisSize metres long.
	Axes     bool
	AxisSize float64
	// Cloud says how clouds are read (colour field, decimation); ScanBy
	// colours scans ("range", "intensity", or one colour).
	Cloud  CloudOptions
	ScanBy string
}

// Input is what a scene is read from.
type Input struct {
	Reader *model.MessageReader
	Index  *model.MessageIndex
	// Tree is the transform tree at the time (nil: no transforms).
	Tree *tf.Tree
	// History, when not nil, places each message with the transforms at
	// its header.stamp, as tf2 does (see place.go); Tree then places
	// what is outside it, and frame-locked markers.
	History *tf.History
}

// DefaultFixed picks a fixed frame: map, else odom, else world, else the
// first root of the tree, else the first frame a topic names.
func DefaultFixed(tree *tf.Tree, frames []string) string {
	if tree != nil {
		for _, n := range []string{"map", "odom", "world"} {
			if tree.Frames[n] != nil {
				return n
			}
		}
		if len(tree.Roots) > 0 {
			return tree.Roots[0]
		}
	}
	for _, f := range frames {
		if f != "" {
			return f
		}
	}
	return ""
}

// Load reads each topic's message at or before at (receive-time
// nanoseconds) and builds the scene in opt.Fixed. Each message is placed
// with the transforms at its header.stamp when in.History is set, else
// with the transform tree at the time (in.Tree, read at at). A topic that
// cannot be drawn says why in its Layer; the others are drawn.
func Load(ctx context.Context, in Input, at int64, opt Options) *Scene {
	s := &Scene{Frame: opt.Fixed, At: at}
	pl := newPlacer(ctx, in, opt.Fixed)
	for _, t := range opt.Topics {
		if ctx.Err() != nil {
			break
		}
		ly := Layer{Topic: t.Name, Type: t.Type}
		s.loadTopic(in, pl, at, opt, t, &ly)
		s.Layers = append(s.Layers, ly)
	}
	if opt.Axes && in.Tree != nil {
		size := opt.AxisSize
		if size <= 0 {
			size = 0.5
		}
		s.AddAxes(in.Tree, opt.Fixed, size)
	}
	return s
}

func (s *Scene) loadTopic(in Input, pl *placer, at int64, opt Options, t Topic, ly *Layer) {
	if in.Index == nil {
		ly.Problem = "the message index is not read yet"
		return
	}
	tm := in.Index.Topic(t.Name)
	if tm == nil || tm.Len() == 0 {
		ly.Problem = "no messages"
		return
	}
	last := tm.Search(at+1) - 1
	if last < 0 {
		ly.Problem = "no message yet at this time"
		return
	}
	// read reads and decodes the topic's i-th message.
	read := func(i int) (*rosmsg.Node, error) {
		ref := tm.At(i)
		m, err := in.Reader.Read(ref)
		if err != nil {
			return nil, err
		}
		if m.Suspect != "" && i == last {
			ly.Problem = "from a damaged unit: " + m.Suspect
		}
		root, _, err := in.Reader.Decode(m)
		return root, err
	}
	ly.Stamp = tm.At(last).T
	root, err := read(last)
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	ly.Frame = HeaderFrame(root)
	switch t.Kind {
	case KindMarker, KindMarkerArray:
		s.loadMarkers(pl, t, ly, root, last, read, func(i int) int64 { return tm.At(i).T }, at)
		return
	}
	pose, note, err := pl.place(ly.Frame, headerStamp(root))
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	ly.Note = note
	var pts *Points
	switch t.Kind {
	case KindCloud:
		pts, ly.Info, err = DecodeCloud(root, pose, opt.Cloud)
		if err != nil && opt.Cloud.ColorField != "" && ly.Info != nil {
			// The chosen field is not in this cloud: its default.
			o := opt.Cloud
			o.ColorField = ""
			pts, ly.Info, err = DecodeCloud(root, pose, o)
		}
		if ly.Info != nil {
			ly.Fields = ly.Info.Fields
		}
	case KindScan:
		ly.Fields = []string{"range", "intensity"}
		pts, _, err = DecodeScan(root, pose, opt.ScanBy, opt.Cloud.Map)
	case KindPath:
		var ps []Vec
		if ps, err = posesOf(root); err == nil {
			s.addPath(pose, ps, PathColor)
			ly.Count = len(ps)
		}
	case KindPose, KindPoseCov:
		p, ok := stampedPose(root, t.Kind == KindPoseCov)
		if !ok {
			err = fmt.Errorf("not a %s: no readable pose", t.Type)
			break
		}
		s.addPoseArrow(pose.Compose(p), PoseColor)
		ly.Count = 1
	case KindOdometry:
		err = s.loadTrail(pose, root, last, read, ly)
	case KindGrid:
		var g *Grid
		if g, err = DecodeGrid(root, pose); err == nil {
			s.Grids = append(s.Grids, g)
			ly.Count = g.W * g.H
		}
	default:
		err = fmt.Errorf("%s is not drawn", t.Type)
	}
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	if pts != nil {
		pts.Topic = t.Name
		ly.Count = pts.Len()
		s.Clouds = append(s.Clouds, pts)
	}
}

// loadTrail draws an odometry topic: an arrow at its latest pose and a
// line through the poses of its latest TrailLength messages (each placed
// with the tree at the time, as the fixed frame's own odometry is).
func (s *Scene) loadTrail(frame Pose, root *rosmsg.Node, last int, read func(int) (*rosmsg.Node, error), ly *Layer) error {
	p, ok := stampedPose(root, true)
	if !ok {
		return fmt.Errorf("not a nav_msgs/Odometry: no readable pose.pose")
	}
	trail := []Vec{p.T}
	for i := last - 1; i >= 0 && i > last-TrailLength; i-- {
		r, err := read(i)
		if err != nil {
			continue
		}
		if q, ok := stampedPose(r, true); ok {
			trail = append(trail, q.T)
		}
	}
	s.addPath(frame, trail, OdomColor)
	s.addPoseArrow(frame.Compose(p), OdomColor)
	ly.Count = len(trail)
	return nil
}

// loadMarkers draws the markers live at the time: gathered from the
// topic's messages newest first (see markerSet), each placed by its own
// header's frame.
func (s *Scene) loadMarkers(pl *placer, t Topic, ly *Layer, root *rosmsg.Node, last int,
	read func(int) (*rosmsg.Node, error), recv func(int) int64, at int64) {
	var ms markerSet
	array := t.Kind == KindMarkerArray
	ms.addNewest(markersOf(root, array), recv(last), at)
	for i := last - 1; i >= 0 && i > last-MarkerLookback && !ms.done; i-- {
		r, err := read(i)
		if err != nil {
			continue
		}
		ms.addNewest(markersOf(r, array), recv(i), at)
	}
	problems := map[string]int{}
	extrapolated := 0
	// The layer's frame is its first live marker's, drawn or not: a
	// MarkerArray has no header of its own, and without transforms it is
	// what a fixed frame is picked from.
	for _, m := range ms.live {
		if ly.Frame = HeaderFrame(m); ly.Frame != "" {
			break
		}
	}
	for _, m := range ms.live {
		why, note := s.addMarker(m, pl)
		if why != "" {
			problems[why]++
			continue
		}
		if note != "" {
			extrapolated++
			ly.Note = note
		}
		ly.Count++
	}
	whys := make([]string, 0, len(problems))
	for why := range problems {
		whys = append(whys, why)
	}
	slices.Sort(whys)
	if extrapolated > 1 {
		ly.Note = fmt.Sprintf("%d markers %s", extrapolated, ly.Note)
	}
	for _, why := range whys {
		if ly.Problem != "" {
			ly.Problem += "; "
		}
		ly.Problem += fmt.Sprintf("%d not drawn: %s", problems[why], why)
	}
}

// HeaderFrame is a message's header.frame_id without a leading "/" ("":
// none).
func HeaderFrame(root *rosmsg.Node) string {
	if root == nil {
		return ""
	}
	h := root.Field("header")
	if h == nil {
		return ""
	}
	f := h.Field("frame_id")
	if f == nil {
		return ""
	}
	return tf.StripSlash(f.Text())
}
