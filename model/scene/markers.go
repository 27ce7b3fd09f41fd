package scene

import (
	"fmt"
	"image/color"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// visualization_msgs/Marker types and actions.
const (
	MarkerArrow      = 0
	MarkerCube       = 1
	MarkerSphere     = 2
	MarkerCylinder   = 3
	MarkerLineStrip  = 4
	MarkerLineList   = 5
	MarkerCubeList   = 6
	MarkerSphereList = 7
	MarkerPoints     = 8
	MarkerText       = 9
	MarkerMesh       = 10
	MarkerTriangles  = 11

	markerDelete    = 2
	markerDeleteAll = 3
)

// markerKey names a marker as rviz keeps it: a later marker of the same
// namespace and id replaces it.
type markerKey struct {
	ns string
	id int64
}

// markerSet gathers a topic's markers at a time from its messages read
// newest first: the first seen of each key wins, a DELETE hides the older
// ones of its key, a DELETEALL every older one.
type markerSet struct {
	seen map[markerKey]bool
	live []*rosmsg.Node
	done bool // a DELETEALL was met: older messages do not count
}

// addNewest takes the markers of one message (a Marker, or a MarkerArray's
// markers) received at recv, the message being older than every one taken
// before. A marker whose lifetime (when not zero) ended before at, counted
// from its receipt as rviz counts it, replaces the older ones of its key
// but is not drawn.
func (ms *markerSet) addNewest(markers []*rosmsg.Node, recv, at int64) {
	if ms.seen == nil {
		ms.seen = map[markerKey]bool{}
	}
	// Within an array, later markers are newer.
	for i := len(markers) - 1; i >= 0 && !ms.done; i-- {
		m := markers[i]
		action := int64(0)
		if a := m.Field("action"); a != nil {
			action = a.Int()
		}
		if action == markerDeleteAll {
			ms.done = true
			break
		}
		k := markerKey{id: -1 << 62}
		if ns := m.Field("ns"); ns != nil {
			k.ns = ns.Text()
		}
		if id := m.Field("id"); id != nil {
			k.id = id.Int()
		}
		if ms.seen[k] {
			continue
		}
		ms.seen[k] = true
		if life, ok := durationNanos(m.Field("lifetime")); ok && life > 0 && recv+life < at {
			continue // expired
		}
		if action != markerDelete {
			ms.live = append(ms.live, m)
		}
	}
}

// durationNanos reads a duration: a ROS 1 duration, or a ROS 2
// builtin_interfaces/Duration (sec, nanosec).
func durationNanos(n *rosmsg.Node) (int64, bool) {
	if n == nil {
		return 0, false
	}
	if n.Kind == rosmsg.KindDuration && !n.Array {
		d := n.Duration()
		return int64(d.Sec)*1e9 + int64(d.Nsec), true
	}
	sec, ns := n.Field("sec"), n.Field("nanosec")
	if sec == nil || ns == nil {
		return 0, false
	}
	return sec.Int()*1e9 + int64(ns.Uint()), true
}

// markersOf returns the markers of a decoded Marker or MarkerArray.
func markersOf(root *rosmsg.Node, array bool) []*rosmsg.Node {
	if !array {
		return []*rosmsg.Node{root}
	}
	arr := root.Field("markers")
	if arr == nil {
		return nil
	}
	out := make([]*rosmsg.Node, 0, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		if e, ok := arr.Elem(i); ok {
			out = append(out, &e)
		}
	}
	return out
}

// maxListShapes is how many cubes or spheres of a list marker are drawn
// as shapes; longer lists draw as points.
const maxListShapes = 200

// addMarker draws one marker in the fixed frame. It returns why it is not
// drawn, or "".
func (s *Scene) addMarker(m *rosmsg.Node, pl *placer) (why, note string) {
	typ := m.Field("type")
	if typ == nil {
		return "not a visualization_msgs/Marker", ""
	}
	// A frame-locked marker moves with its frame: placed with the
	// transforms at the current time, not at its stamp (rviz's
	// frame_locked).
	stamp := headerStamp(m)
	if fl := m.Field("frame_locked"); fl != nil && fl.Bool() {
		stamp = bag.Time{}
	}
	frame, note, err := pl.place(HeaderFrame(m), stamp)
	if err != nil {
		return err.Error(), ""
	}
	local, ok := poseOf(m.Field("pose"))
	if !ok {
		return "a marker without a readable pose", ""
	}
	p := frame.Compose(local)
	scale, _ := vecOf(m.Field("scale"))
	// color.a is honoured on surfaces (cubes, spheres, cylinders,
	// triangles, meshes): blended over what is behind; 0 is invisible, as
	// in rviz. Lines, points and text are drawn opaque.
	col, _ := colorOf(m.Field("color"))
	surface := col
	col.A = 255
	var pts []Vec
	if ps := m.Field("points"); ps != nil {
		for i := 0; i < ps.Len(); i++ {
			if e, ok := ps.Elem(i); ok {
				if v, ok := vecOf(&e); ok {
					pts = append(pts, v)
				}
			}
		}
	}
	var cols []color.NRGBA
	if cs := m.Field("colors"); cs != nil && cs.Len() == len(pts) {
		for i := 0; i < cs.Len(); i++ {
			e, _ := cs.Elem(i)
			c, _ := colorOf(&e)
			cols = append(cols, c) // lines and points ignore its alpha
		}
	}
	colAt := func(i int) color.NRGBA {
		if i < len(cols) {
			return cols[i]
		}
		return col
	}
	switch t := typ.Int(); t {
	case MarkerArrow:
		if len(pts) >= 2 {
			// Shaft diameter x, head diameter y, head length z.
			s.addArrow(p.Apply(pts[0]), p.Apply(pts[1]), scale[1], scale[2], col)
		} else {
			// Length x along the pose's x axis, width y.
			s.addArrow(p.T, p.Apply(Vec{scale[0], 0, 0}), scale[1], scale[0]*0.3, col)
		}
	case MarkerCube:
		s.addBox(p, scale, surface)
	case MarkerSphere:
		s.addSphere(p, scale, surface)
	case MarkerCylinder:
		s.addCylinder(p, scale, surface)
	case MarkerLineStrip, MarkerLineList:
		step := 1
		if t == MarkerLineList {
			step = 2
		}
		for i := 0; i+1 < len(pts); i += step {
			s.Lines = append(s.Lines, Line{A: p.Apply(pts[i]), B: p.Apply(pts[i+1]), Color: colAt(i), Width: 2})
		}
	case MarkerCubeList, MarkerSphereList, MarkerPoints:
		if t != MarkerPoints && len(pts) <= maxListShapes {
			for i, q := range pts {
				if t == MarkerCubeList {
					s.addBox(p.Compose(Pose{R: IdentityPose.R, T: q}), scale, colAt(i))
				} else {
					s.addSphere(p.Compose(Pose{R: IdentityPose.R, T: q}), scale, colAt(i))
				}
			}
			break
		}
		set := &Points{Size: 4, Color: col, X: make([]float32, len(pts)), Y: make([]float32, len(pts)), Z: make([]float32, len(pts))}
		if cols != nil {
			set.RGBA = make([]uint32, len(pts))
		}
		for i, q := range pts {
			w := p.Apply(q)
			set.X[i], set.Y[i], set.Z[i] = float32(w[0]), float32(w[1]), float32(w[2])
			if cols != nil {
				set.RGBA[i] = Pack(cols[i])
			}
		}
		s.Clouds = append(s.Clouds, set)
	case MarkerText:
		text := ""
		if f := m.Field("text"); f != nil {
			text = f.Text()
		}
		s.Labels = append(s.Labels, Label{At: p.T, Text: text, Color: col})
	case MarkerTriangles:
		for i := 0; i+2 < len(pts); i += 3 {
			c := surface
			if i < len(cols) {
				c = cols[i]
			}
			s.Tris = append(s.Tris, Tri{A: p.Apply(pts[i]), B: p.Apply(pts[i+1]), C: p.Apply(pts[i+2]), Color: c})
		}
	case MarkerMesh:
		uri := ""
		if f := m.Field("mesh_resource"); f != nil {
			uri = f.Text()
		}
		s.addMesh(p, scale, surface, uri)
	default:
		return fmt.Sprintf("marker type %d is not drawn", t), ""
	}
	return "", note
}
