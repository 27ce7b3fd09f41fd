package scene

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image/color"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
	msensor "github.com/bagscope/bagscope/model/sensor"
)

// MaxPoints is how many points of one cloud a scene keeps by default: a
// bigger cloud is read every Stride-th point.
const MaxPoints = 1_000_000

// CloudOptions tune how a cloud is read.
type CloudOptions struct {
	// ColorField names the field to colour by: "" picks rgb (the points'
	// own colours), else intensity, else z; "-" draws one colour.
	ColorField string
	// Stride reads every Stride-th point (the decimation setting; 0 or 1
	// reads all, up to MaxPoints).
	Stride int
	// MaxPoints bounds the points kept (0: MaxPoints).
	MaxPoints int
	// Map colours the field's values (nil: turbo).
	Map *msensor.ColorMap
}

// cloudLayout is a PointCloud2's shape: what a reader needs of its
// header to find each point's fields.
type cloudLayout struct {
	width, height, pointStep, rowStep int
	order                             binary.ByteOrder
	fields                            []msensor.PointField
	data                              []byte
}

func (l *cloudLayout) field(name string) (msensor.PointField, bool) {
	for _, f := range l.fields {
		if f.Name == name {
			return f, true
		}
	}
	return msensor.PointField{}, false
}

// point returns the bytes of point i (row-major).
func (l *cloudLayout) point(i int) []byte {
	return l.data[(i/l.width)*l.rowStep+(i%l.width)*l.pointStep:]
}

func uintField(n *rosmsg.Node, name string) (int, error) {
	f := n.Field(name)
	if f == nil {
		return 0, fmt.Errorf("no field %s", name)
	}
	v := f.Uint()
	if v > math.MaxInt32 {
		return 0, fmt.Errorf("%s %d is too large", name, v)
	}
	return int(v), nil
}

func readLayout(root *rosmsg.Node) (*cloudLayout, error) {
	l := &cloudLayout{order: binary.LittleEndian}
	var err error
	for _, p := range []struct {
		name string
		v    *int
	}{{"width", &l.width}, {"height", &l.height}, {"point_step", &l.pointStep}, {"row_step", &l.rowStep}} {
		if *p.v, err = uintField(root, p.name); err != nil {
			return nil, err
		}
	}
	if be := root.Field("is_bigendian"); be != nil && be.Uint() != 0 {
		l.order = binary.BigEndian
	}
	fs, data := root.Field("fields"), root.Field("data")
	if fs == nil || data == nil {
		return nil, errors.New("not a sensor_msgs/PointCloud2: no fields or data")
	}
	for i := 0; i < fs.Len(); i++ {
		e, _ := fs.Elem(i)
		name, off, dt, cnt := e.Field("name"), e.Field("offset"), e.Field("datatype"), e.Field("count")
		if name == nil || off == nil || dt == nil || cnt == nil {
			return nil, errors.New("a point field without name, offset, datatype or count")
		}
		f := msensor.PointField{Name: name.Text(), Offset: int(off.Uint()), Datatype: int(dt.Uint()), Count: int(cnt.Uint())}
		if f.Size() == 0 || f.Offset+f.Size() > l.pointStep {
			continue // unreadable: neither drawn nor shown on picking
		}
		l.fields = append(l.fields, f)
	}
	l.data = data.Bytes()
	n := l.width * l.height
	if n == 0 {
		return l, nil
	}
	if l.rowStep < l.width*l.pointStep {
		return nil, fmt.Errorf("row_step %d is less than width %d × point_step %d", l.rowStep, l.width, l.pointStep)
	}
	if need := (l.height-1)*l.rowStep + l.width*l.pointStep; len(l.data) < need {
		return nil, fmt.Errorf("data has %d bytes, the points need %d", len(l.data), need)
	}
	return l, nil
}

// cloudSource gives a drawn point's fields from the message's bytes.
type cloudSource struct {
	l     *cloudLayout
	index []int32 // the point's number in the message
}

func (s *cloudSource) Fields(i int) []Field {
	if i < 0 || i >= len(s.index) {
		return nil
	}
	p := s.l.point(int(s.index[i]))
	out := make([]Field, 0, len(s.l.fields)+1)
	out = append(out, Field{Name: "index", Value: float64(s.index[i])})
	for _, f := range s.l.fields {
		if f.Count > 1 {
			continue
		}
		out = append(out, Field{Name: f.Name, Value: f.Value(p, s.l.order)})
	}
	return out
}

// CloudInfo says what was read of a cloud.
type CloudInfo struct {
	Total, Stride, NaN int
	// Fields are the fields a cloud can be coloured by.
	Fields []string
	// ColorField is the field the points are coloured by ("" none, "rgb"
	// their own colours), Lo and Hi its span.
	ColorField string
	Lo, Hi     float64
}

// DecodeCloud reads a decoded sensor_msgs/PointCloud2 (ROS 1 or ROS 2)
// and maps its points through pose into the fixed frame, coloured as opt
// says. Points with a non-finite x, y or z are left out.
func DecodeCloud(root *rosmsg.Node, pose Pose, opt CloudOptions) (*Points, *CloudInfo, error) {
	if root == nil {
		return nil, nil, errors.New("the message is not decoded")
	}
	l, err := readLayout(root)
	if err != nil {
		return nil, nil, err
	}
	info := &CloudInfo{Total: l.width * l.height}
	for _, f := range l.fields {
		if f.Count <= 1 {
			info.Fields = append(info.Fields, f.Name)
		}
	}
	fx, okx := l.field("x")
	fy, oky := l.field("y")
	fz, okz := l.field("z")
	if !okx || !oky || !okz {
		return nil, info, errors.New("the points have no x, y and z fields")
	}
	cname := opt.ColorField
	if cname == "" {
		for _, n := range []string{"rgb", "rgba", "intensity", "z"} {
			if _, ok := l.field(n); ok {
				cname = n
				break
			}
		}
	}
	fc, okc := l.field(cname)
	if !okc && cname != "-" && opt.ColorField != "" {
		return nil, info, fmt.Errorf("the points have no field %s", cname)
	}
	packed := okc && (cname == "rgb" || cname == "rgba") && fc.Size() == 4
	if okc {
		info.ColorField = cname
	}
	maxPts := opt.MaxPoints
	if maxPts <= 0 {
		maxPts = MaxPoints
	}
	stride := max(opt.Stride, 1)
	if info.Total > 0 {
		stride = max(stride, (info.Total+maxPts-1)/maxPts)
	}
	info.Stride = stride
	n := (info.Total + stride - 1) / stride
	p := &Points{X: make([]float32, 0, n), Y: make([]float32, 0, n), Z: make([]float32, 0, n), Size: 2,
		Color: defaultPointColor}
	src := &cloudSource{l: l, index: make([]int32, 0, n)}
	var vals []float32
	if okc {
		p.RGBA = make([]uint32, 0, n)
		if !packed {
			vals = make([]float32, 0, n)
		}
	}
	// The common layout (little-endian float32 x, y, z) is read directly.
	f32 := l.order == binary.LittleEndian && fx.Datatype == msensor.PointFloat32 &&
		fy.Datatype == msensor.PointFloat32 && fz.Datatype == msensor.PointFloat32
	lo, hi := math.Inf(1), math.Inf(-1)
	R, T := pose.R, pose.T
	for i := 0; i < info.Total; i += stride {
		b := l.point(i)
		var x, y, z float64
		if f32 {
			x = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[fx.Offset:])))
			y = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[fy.Offset:])))
			z = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[fz.Offset:])))
		} else {
			x, y, z = fx.Value(b, l.order), fy.Value(b, l.order), fz.Value(b, l.order)
		}
		if !finite(x) || !finite(y) || !finite(z) {
			info.NaN++
			continue
		}
		p.X = append(p.X, float32(R[0][0]*x+R[0][1]*y+R[0][2]*z+T[0]))
		p.Y = append(p.Y, float32(R[1][0]*x+R[1][1]*y+R[1][2]*z+T[1]))
		p.Z = append(p.Z, float32(R[2][0]*x+R[2][1]*y+R[2][2]*z+T[2]))
		src.index = append(src.index, int32(i))
		switch {
		case packed:
			v := l.order.Uint32(b[fc.Offset:]) // 0x00RRGGBB as PCL packs it
			p.RGBA = append(p.RGBA, v>>16&0xff|v&0xff00|(v&0xff)<<16|0xff<<24)
		case okc:
			v := fc.Value(b, l.order)
			vals = append(vals, float32(v))
			if finite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if vals != nil {
		if lo > hi {
			lo, hi = 0, 0
		}
		info.Lo, info.Hi = lo, hi
		lut := colorLUT(opt.Map)
		p.RGBA = p.RGBA[:len(vals)]
		for i, v := range vals {
			p.RGBA[i] = lutAt(lut, float64(v), lo, hi)
		}
	}
	p.Source = src
	return p, info, nil
}

// defaultPointColor draws points without a colour field (rviz's white).
var defaultPointColor = color.NRGBA{255, 255, 255, 255}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// lutSize is the number of colours a colour map is sampled at.
const lutSize = 256

// colorLUT samples m (turbo when nil) at lutSize packed colours.
func colorLUT(m *msensor.ColorMap) *[lutSize]uint32 {
	if m == nil {
		m = msensor.TurboMap
	}
	var lut [lutSize]uint32
	for i := range lut {
		lut[i] = Pack(m.At(float64(i) / (lutSize - 1)))
	}
	return &lut
}

// lutAt is v's colour on lo..hi; grey for NaN.
func lutAt(lut *[lutSize]uint32, v, lo, hi float64) uint32 {
	if math.IsNaN(v) {
		return 0xff808080
	}
	t := 0.5
	if hi > lo {
		t = (v - lo) / (hi - lo)
	}
	k := int(t*(lutSize-1) + 0.5)
	return lut[min(max(k, 0), lutSize-1)]
}
