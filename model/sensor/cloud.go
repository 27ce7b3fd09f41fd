package sensor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/human"
)

// PointField datatypes (sensor_msgs/PointField).
const (
	PointInt8    = 1
	PointUint8   = 2
	PointInt16   = 3
	PointUint16  = 4
	PointInt32   = 5
	PointUint32  = 6
	PointFloat32 = 7
	PointFloat64 = 8
)

// pointSizes are the byte sizes of the PointField datatypes.
var pointSizes = [...]int{PointInt8: 1, PointUint8: 1, PointInt16: 2, PointUint16: 2, PointInt32: 4, PointUint32: 4, PointFloat32: 4, PointFloat64: 8}

// PointField is one field of a PointCloud2's points.
type PointField struct {
	Name     string
	Offset   int
	Datatype int
	Count    int
}

// size is the byte size of one value of the field, or 0 for an unknown
// datatype.
func (f PointField) size() int {
	if f.Datatype <= 0 || f.Datatype >= len(pointSizes) {
		return 0
	}
	return pointSizes[f.Datatype]
}

// MaxCloudPoints is how many points DecodeCloud keeps by default: larger
// clouds are decimated to about this many.
const MaxCloudPoints = 200_000

// Cloud is a decoded sensor_msgs/PointCloud2 seen from above: the x and y
// of its points, and the value of one field to colour them by.
type Cloud struct {
	Width, Height      int
	PointStep, RowStep int
	BigEndian, IsDense bool
	Fields             []PointField
	Total              int // width × height
	// Stride is the decimation: every Stride-th point was read.
	Stride int
	// X, Y and C (the colour field's value; nil without one) of the
	// points read whose x and y are finite.
	X, Y, C []float32
	// ColorField is the field C holds ("" for none).
	ColorField string
	// RGB holds the points' packed colours (0xAARRGGBB as PCL packs them,
	// read as raw bits) when ColorField is a 4-byte "rgb" or "rgba".
	RGB []uint32
	// Lo and Hi bound the finite values of C.
	Lo, Hi float64
	// NaN counts the points read but skipped: x or y not finite.
	NaN int
}

// CloudFields returns the names of the fields a cloud's points can be
// coloured by (single-valued numeric fields).
func (c *Cloud) CloudFields() []string {
	var out []string
	for _, f := range c.Fields {
		if f.size() > 0 && f.Count <= 1 {
			out = append(out, f.Name)
		}
	}
	return out
}

// DecodeCloud reads the points of a decoded sensor_msgs/PointCloud2 (ROS 1
// or ROS 2), honouring its fields' offsets and datatypes, point_step,
// row_step and is_bigendian. colorField names the field to colour by
// ("" picks z, else intensity, else none); maxPoints (0: MaxCloudPoints)
// bounds the points read, a bigger cloud is read every Stride-th point.
func DecodeCloud(root *rosmsg.Node, colorField string, maxPoints int) (*Cloud, error) {
	if root == nil {
		return nil, errors.New("the message is not decoded")
	}
	if maxPoints <= 0 {
		maxPoints = MaxCloudPoints
	}
	f, err := needFields(root, "height", "width", "fields", "is_bigendian", "point_step", "row_step", "data")
	if err != nil {
		return nil, err
	}
	c := &Cloud{
		Height: int(f[0].Uint()), Width: int(f[1].Uint()),
		BigEndian: f[3].Uint() != 0, PointStep: int(f[4].Uint()), RowStep: int(f[5].Uint()),
	}
	if d := root.Field("is_dense"); d != nil {
		c.IsDense = d.Uint() != 0
	}
	for i := 0; i < f[2].Len(); i++ {
		e, _ := f[2].Elem(i)
		pf, err := needFields(&e, "name", "offset", "datatype", "count")
		if err != nil {
			return nil, err
		}
		c.Fields = append(c.Fields, PointField{Name: pf[0].Text(), Offset: int(pf[1].Uint()), Datatype: int(pf[2].Uint()), Count: int(pf[3].Uint())})
	}
	data := f[6].Bytes()
	c.Total = c.Width * c.Height
	find := func(name string) (PointField, bool) {
		for _, pf := range c.Fields {
			if pf.Name == name {
				return pf, true
			}
		}
		return PointField{}, false
	}
	fx, okx := find("x")
	fy, oky := find("y")
	if !okx || !oky {
		return c, errors.New("the points have no x and y fields")
	}
	if colorField == "" {
		for _, name := range []string{"z", "intensity"} {
			if _, ok := find(name); ok {
				colorField = name
				break
			}
		}
	}
	var fc PointField
	if colorField != "" {
		var ok bool
		if fc, ok = find(colorField); !ok {
			return c, fmt.Errorf("the points have no field %s", colorField)
		}
		c.ColorField = colorField
	}
	for _, pf := range []PointField{fx, fy, fc} {
		if pf.Name == "" {
			continue
		}
		if pf.size() == 0 {
			return c, fmt.Errorf("field %s has unknown datatype %d", pf.Name, pf.Datatype)
		}
		if pf.Offset+pf.size() > c.PointStep {
			return c, fmt.Errorf("field %s at offset %d does not fit in point_step %d", pf.Name, pf.Offset, c.PointStep)
		}
	}
	if c.Total == 0 {
		return c, nil
	}
	if c.RowStep < c.Width*c.PointStep {
		return c, fmt.Errorf("row_step %d is less than width %d × point_step %d", c.RowStep, c.Width, c.PointStep)
	}
	if need := (c.Height-1)*c.RowStep + c.Width*c.PointStep; len(data) < need {
		return c, fmt.Errorf("data has %s bytes, the points need %s", human.Count(uint64(len(data))), human.Count(uint64(need)))
	}
	c.Stride = max(1, (c.Total+maxPoints-1)/maxPoints)
	n := (c.Total + c.Stride - 1) / c.Stride
	c.X, c.Y = make([]float32, 0, n), make([]float32, 0, n)
	if c.ColorField != "" {
		c.C = make([]float32, 0, n)
	}
	packed := (fc.Name == "rgb" || fc.Name == "rgba") && fc.size() == 4
	if packed {
		c.RGB = make([]uint32, 0, n)
	}
	var order binary.ByteOrder = binary.LittleEndian
	if c.BigEndian {
		order = binary.BigEndian
	}
	c.Lo, c.Hi = math.Inf(1), math.Inf(-1)
	for i := 0; i < c.Total; i += c.Stride {
		row, col := i/c.Width, i%c.Width
		p := data[row*c.RowStep+col*c.PointStep:]
		x, y := pointValue(p, fx, order), pointValue(p, fy, order)
		if !finite(x) || !finite(y) {
			c.NaN++
			continue
		}
		c.X, c.Y = append(c.X, float32(x)), append(c.Y, float32(y))
		if c.C != nil {
			v := pointValue(p, fc, order)
			c.C = append(c.C, float32(v))
			if packed {
				c.RGB = append(c.RGB, order.Uint32(p[fc.Offset:]))
			}
			if finite(v) {
				c.Lo, c.Hi = min(c.Lo, v), max(c.Hi, v)
			}
		}
	}
	if c.Lo > c.Hi {
		c.Lo, c.Hi = 0, 0
	}
	return c, nil
}

// pointValue reads field f of the point starting at p (long enough).
func pointValue(p []byte, f PointField, order binary.ByteOrder) float64 {
	b := p[f.Offset:]
	switch f.Datatype {
	case PointInt8:
		return float64(int8(b[0]))
	case PointUint8:
		return float64(b[0])
	case PointInt16:
		return float64(int16(order.Uint16(b)))
	case PointUint16:
		return float64(order.Uint16(b))
	case PointInt32:
		return float64(int32(order.Uint32(b)))
	case PointUint32:
		return float64(order.Uint32(b))
	case PointFloat32:
		return float64(math.Float32frombits(order.Uint32(b)))
	case PointFloat64:
		return math.Float64frombits(order.Uint64(b))
	}
	return math.NaN()
}

// Value reads the field's value of the point starting at p (at least
// Offset plus the datatype's size long): what DecodeCloud reads, for
// readers that want other fields (the 3D scene's x, y, z and picking).
// An unknown datatype reads as NaN.
func (f PointField) Value(p []byte, order binary.ByteOrder) float64 { return pointValue(p, f, order) }

// Size is the byte size of one value of the field, 0 for an unknown
// datatype.
func (f PointField) Size() int { return f.size() }
