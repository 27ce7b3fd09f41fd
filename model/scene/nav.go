package scene

import (
	"errors"
	"image/color"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Colours of the navigation displays, as rviz's defaults are.
var (
	PathColor = color.NRGBA{25, 255, 0, 255}
	PoseColor = color.NRGBA{255, 25, 0, 255}
	OdomColor = color.NRGBA{255, 170, 0, 255}
)

// Grid is an occupancy grid drawn as a textured rectangle in the plane
// z = 0 of its pose.
type Grid struct {
	Pose Pose
	// W × H cells of Res metres, row-major from the origin along x then y;
	// each cell's colour packed as Pack gives it, alpha 0 not drawn.
	W, H int
	Res  float64
	Pix  []uint32
}

// MaxGridCells bounds a grid's cells each way: a bigger map is read every
// few cells.
const MaxGridCells = 2048

// DecodeGrid reads a decoded nav_msgs/OccupancyGrid placed by frame (its
// header frame in the fixed frame): unknown cells (-1) are not drawn,
// free ones light grey, occupied ones black, as rviz's map scheme.
func DecodeGrid(root *rosmsg.Node, frame Pose) (*Grid, error) {
	info, data := root.Field("info"), root.Field("data")
	if info == nil || data == nil {
		return nil, errors.New("not a nav_msgs/OccupancyGrid: no info or data")
	}
	res, w, h := info.Field("resolution"), info.Field("width"), info.Field("height")
	if res == nil || w == nil || h == nil {
		return nil, errors.New("the grid's info has no resolution, width or height")
	}
	origin, ok := poseOf(info.Field("origin"))
	if !ok {
		return nil, errors.New("the grid's origin is not a readable pose")
	}
	r, _ := res.Float64()
	W, H := int(min(w.Uint(), 1<<20)), int(min(h.Uint(), 1<<20))
	cells := data.Bytes()
	if cells == nil {
		if s, ok := data.Slice().([]int8); ok {
			cells = make([]byte, len(s))
			for i, v := range s {
				cells[i] = byte(v)
			}
		}
	}
	if !(r > 0) || !finite(r) {
		return nil, errors.New("the grid's resolution is not a positive number")
	}
	if W*H > len(cells) {
		return nil, errors.New("the grid has fewer cells than width × height")
	}
	step := max(1, (max(W, H)+MaxGridCells-1)/MaxGridCells)
	g := &Grid{Pose: frame.Compose(origin), W: (W + step - 1) / step, H: (H + step - 1) / step, Res: r * float64(step)}
	g.Pix = make([]uint32, g.W*g.H)
	for y := range g.H {
		for x := range g.W {
			v := int8(cells[y*step*W+x*step])
			if v < 0 || v > 100 {
				continue
			}
			k := uint8(230 - int(v)*230/100)
			g.Pix[y*g.W+x] = Pack(color.NRGBA{k, k, k, 255})
		}
	}
	return g, nil
}

// posesOf reads a nav_msgs/Path's poses' positions.
func posesOf(root *rosmsg.Node) ([]Vec, error) {
	ps := root.Field("poses")
	if ps == nil {
		return nil, errors.New("not a nav_msgs/Path: no poses")
	}
	out := make([]Vec, 0, ps.Len())
	for i := 0; i < ps.Len(); i++ {
		e, ok := ps.Elem(i)
		if !ok {
			continue
		}
		if p, ok := poseOf(e.Field("pose")); ok {
			out = append(out, p.T)
		}
	}
	return out, nil
}

// addPath draws the path's positions as a line strip, placed by frame.
func (s *Scene) addPath(frame Pose, pts []Vec, c color.NRGBA) {
	for i := 0; i+1 < len(pts); i++ {
		s.Lines = append(s.Lines, Line{A: frame.Apply(pts[i]), B: frame.Apply(pts[i+1]), Color: c, Width: 2})
	}
}

// addPoseArrow draws a pose as a 1 m arrow along its x axis.
func (s *Scene) addPoseArrow(p Pose, c color.NRGBA) {
	s.addArrow(p.T, p.Apply(Vec{1, 0, 0}), 0.1, 0.3, c)
}

// stampedPose reads a PoseStamped's pose, or an Odometry's pose.pose.
func stampedPose(root *rosmsg.Node, odom bool) (Pose, bool) {
	p := root.Field("pose")
	if odom && p != nil {
		p = p.Field("pose")
	}
	return poseOf(p)
}

// texture fills a grid: per pixel, the ray through it meets the grid's
// plane, and the cell there gives the colour (perspective-correct, with
// the plane's depth).
func (r *Renderer) texture(v *view, g *Grid) {
	if g.W == 0 || g.H == 0 {
		return
	}
	w, h := r.img.Rect.Dx(), r.img.Rect.Dy()
	ax, ay := g.Pose.Rotate(Vec{1, 0, 0}), g.Pose.Rotate(Vec{0, 1, 0})
	n := ax.Cross(ay)
	o := g.Pose.T
	// The screen box of the corners, the whole image when one is behind
	// the eye.
	x0, y0, x1, y1 := 0, 0, w-1, h-1
	gw, gh := float64(g.W)*g.Res, float64(g.H)*g.Res
	bx0, by0, bx1, by1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	behind := false
	for _, c := range []Vec{o, o.Add(ax.Scale(gw)), o.Add(ay.Scale(gh)), o.Add(ax.Scale(gw)).Add(ay.Scale(gh))} {
		x, y, _, ok := v.project(c)
		if !ok {
			behind = true
			break
		}
		bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
	}
	if !behind {
		x0, y0 = max(x0, int(math.Floor(bx0))), max(y0, int(math.Floor(by0)))
		x1, y1 = min(x1, int(math.Ceil(bx1))), min(y1, int(math.Ceil(by1)))
	}
	// d(x, y) = fwd·f + right·(x-cx) + up·(cy-y); along it t = num / (d·n).
	eo := v.eye.Sub(o)
	num := -eo.Dot(n)
	e := [3]float64{eo.Dot(ax), eo.Dot(ay)}
	dn0, dnx, dny := v.fwd.Dot(n)*v.f, v.right.Dot(n), -v.up.Dot(n)
	da0, dax, day := v.fwd.Dot(ax)*v.f, v.right.Dot(ax), -v.up.Dot(ax)
	db0, dbx, dby := v.fwd.Dot(ay)*v.f, v.right.Dot(ay), -v.up.Dot(ay)
	inv := 1 / g.Res
	for y := y0; y <= y1; y++ {
		py := float64(y) + 0.5 - v.cy
		for x := x0; x <= x1; x++ {
			px := float64(x) + 0.5 - v.cx
			dn := dn0 + dnx*px + dny*py
			if dn == 0 {
				continue
			}
			t := num / dn
			if !(t > 0) {
				continue
			}
			u := (e[0] + t*(da0+dax*px+day*py)) * inv
			vv := (e[1] + t*(db0+dbx*px+dby*py)) * inv
			if u < 0 || vv < 0 || u >= float64(g.W) || vv >= float64(g.H) {
				continue
			}
			c := g.Pix[int(vv)*g.W+int(u)]
			if c>>24 == 0 {
				continue
			}
			// Depth along the view: t·(d·fwd) = t·f; a little behind
			// what lies on it (a path drawn on the map).
			r.plot(x, y, float32(t*v.f)+1e-3, c)
		}
	}
}
