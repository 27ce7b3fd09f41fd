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
	KindNone  Kind = iota
	KindCloud      // sensor_msgs/PointCloud2
	KindScan       // sensor_msgs/LaserScan
)

// KindOf returns how messages of type typ (ROS 1 or ROS 2 spelling) are
// drawn.
func KindOf(typ string) Kind {
	switch msensor.KindOf(typ) {
	case msensor.KindCloud:
		return KindCloud
	case msensor.KindLaser:
		return KindScan
	}
	return KindNone
}

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
// with the transform tree at the time (in.Tree, read at at). A topic that
// cannot be drawn says why in its Layer; the others are drawn.
func Load(ctx context.Context, in Input, at int64, opt Options) *Scene {
	s := &Scene{Frame: opt.Fixed, At: at}
	for _, t := range opt.Topics {
		if ctx.Err() != nil {
			break
		}
		ly := Layer{Topic: t.Name, Type: t.Type}
		s.loadTopic(in, at, opt, t, &ly)
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

func (s *Scene) loadTopic(in Input, at int64, opt Options, t Topic, ly *Layer) {
	if in.Index == nil {
		ly.Problem = "the message index is not read yet"
		return
	}
	tm := in.Index.Topic(t.Name)
	if tm == nil || tm.Len() == 0 {
		ly.Problem = "no messages"
		return
	}
	i := tm.Search(at+1) - 1
	if i < 0 {
		ly.Problem = "no message yet at this time"
		return
	}
	ref := tm.At(i)
	ly.Stamp = ref.T
	m, err := in.Reader.Read(ref)
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	root, _, err := in.Reader.Decode(m)
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	ly.Frame = HeaderFrame(root)
	pose, err := FramePose(in.Tree, opt.Fixed, ly.Frame)
	if err != nil {
		ly.Problem = err.Error()
		return
	}
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
	default:
		err = fmt.Errorf("%s is not drawn", t.Type)
	}
	if err != nil {
		ly.Problem = err.Error()
		return
	}
	if m.Suspect != "" {
		ly.Problem = "from a damaged unit: " + m.Suspect
	}
	pts.Topic = t.Name
	ly.Count = pts.Len()
	s.Clouds = append(s.Clouds, pts)
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
