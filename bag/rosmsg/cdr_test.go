package rosmsg

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// cdrBuf builds CDR messages by hand: a header, then values aligned as XCDR1
// aligns them.
type cdrBuf struct {
	b  []byte
	bo binary.AppendByteOrder
}

func newCDR(be bool) *cdrBuf {
	if be {
		return &cdrBuf{b: []byte{0, 0, 0, 0}, bo: binary.BigEndian}
	}
	return &cdrBuf{b: []byte{0, 1, 0, 0}, bo: binary.LittleEndian}
}

func (c *cdrBuf) align(n int) *cdrBuf {
	for (len(c.b)-4)%n != 0 {
		c.b = append(c.b, 0xaa) // padding need not be zero
	}
	return c
}
func (c *cdrBuf) u8(v uint8) *cdrBuf { c.b = append(c.b, v); return c }
func (c *cdrBuf) u16(v uint16) *cdrBuf {
	c.align(2).b = c.bo.AppendUint16(c.b, v)
	return c
}
func (c *cdrBuf) u32(v uint32) *cdrBuf {
	c.align(4).b = c.bo.AppendUint32(c.b, v)
	return c
}
func (c *cdrBuf) u64(v uint64) *cdrBuf {
	c.align(8).b = c.bo.AppendUint64(c.b, v)
	return c
}
func (c *cdrBuf) f32(v float32) *cdrBuf { return c.u32(math.Float32bits(v)) }
func (c *cdrBuf) f64(v float64) *cdrBuf { return c.u64(math.Float64bits(v)) }
func (c *cdrBuf) str(s string) *cdrBuf {
	c.u32(uint32(len(s) + 1))
	c.b = append(append(c.b, s...), 0)
	return c
}
func (c *cdrBuf) raw(b ...byte) *cdrBuf { c.b = append(c.b, b...); return c }

const sep2 = "\n================================================================================\n"

func mustSchema(t testing.TB, enc, typ, text string) *Plan {
	t.Helper()
	p, err := CompileSchema(enc, EncodingCDR, typ, text)
	if err != nil {
		t.Fatalf("CompileSchema: %v", err)
	}
	return p
}

// checkCDRRanges verifies that children lie in order inside their parent,
// separated by no more than alignment padding.
func checkCDRRanges(t *testing.T, n *Node, path string, data []byte) {
	t.Helper()
	if n.Start > n.End || n.End > len(data) || n.Start < 0 {
		t.Errorf("%s: range [%d,%d) of %d bytes", path, n.Start, n.End, len(data))
	}
	if n.Array {
		pos := n.Start
		for i := 0; i < n.Len(); i++ {
			s, e := n.ElemRange(i)
			if s < pos || s-pos > 7+n.hdr {
				t.Errorf("%s[%d] starts at %d, previous end %d", path, i, s, pos)
			}
			pos = e
			if c, ok := n.Elem(i); ok && n.slice == nil {
				checkCDRRanges(t, &c, path, data)
			}
		}
		if pos > n.End || n.Len() > 0 && pos != n.End {
			t.Errorf("%s: elements end at %d, array at %d", path, pos, n.End)
		}
		return
	}
	pos := n.Start
	for i := range n.Children {
		c := &n.Children[i]
		if c.Start < pos || c.Start-pos > 7 && !(path == "" && i == 0) {
			t.Errorf("%s.%s starts at %d, previous end %d", path, c.Name, c.Start, pos)
		}
		pos = c.End
		checkCDRRanges(t, c, path+"."+c.Name, data)
	}
	if len(n.Children) > 0 && pos != n.End {
		t.Errorf("%s: fields end at %d, message at %d", path, pos, n.End)
	}
}

func TestCDRDecode(t *testing.T) {
	tests := []struct {
		name  string
		def   string
		build func(c *cdrBuf)
		want  string
	}{
		{"alignment after odd sizes", "uint8 a\nfloat64 b\nint16 c\nint32 d\nbool e\nuint64 f",
			func(c *cdrBuf) { c.u8(1).f64(2.5).u16(0xfffd).u32(7).u8(2).u64(math.MaxUint64) },
			`{"a": 1, "b": 2.5, "c": -3, "d": 7, "e": true, "f": 18446744073709551615}`},
		{"strings", "string s\nuint8 x\nstring e\nstring z\nstring<=5 b",
			func(c *cdrBuf) { c.str("hi").u8(9).u32(0).str("").str("ünï✓"[:5]) },
			`{"s": "hi", "x": 9, "e": "", "z": "", "b": "ünï"}`},
		{"non-ASCII and invalid UTF-8", "string s\nstring t",
			func(c *cdrBuf) { c.str("ünï✓").str("a\xffb") },
			"{\"s\": \"ünï✓\", \"t\": \"a\ufffdb\"}"},
		{"arrays", "int32[] u\nfloat64[2] f\nuint8[<=4] b\nstring[] ss\nint16[3] h\nfloat64[] empty\nint8 z",
			func(c *cdrBuf) {
				c.u32(2).u32(1).u32(0xffffffff).f64(1).f64(-1).u32(3).raw(1, 2, 3).u32(2).str("a").str("bc")
				c.u16(1).u16(2).u16(3).u32(0).u8(0x80)
			},
			`{"u": [1, -1], "f": [1.0, -1.0], "b": "AQID", "ss": ["a", "bc"], "h": [1, 2, 3], "empty": [], "z": -128}`},
		{"nested", "geometry_msgs/Point p\nbuiltin_interfaces/Time t\ngeometry_msgs/Point[] ps" + sep2 + "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y" +
			sep2 + "MSG: builtin_interfaces/msg/Time\nint32 sec\nuint32 nanosec",
			func(c *cdrBuf) { c.f64(1).f64(2).u32(0xffffffff).u32(5).u32(1).f64(3).f64(4) },
			`{"p": {"x": 1.0, "y": 2.0}, "t": {"sec": -1, "nanosec": 5}, "ps": [{"x": 3.0, "y": 4.0}]}`},
		{"time supplied when missing", "builtin_interfaces/Time t\nduration d\nuint8 x",
			func(c *cdrBuf) { c.u32(1).u32(2).u32(3).u32(4).u8(5) },
			`{"t": {"sec": 1, "nanosec": 2}, "d": {"sec": 3, "nanosec": 4}, "x": 5}`},
		{"empty message", "", func(c *cdrBuf) { c.u8(0) }, `{}`},
		{"empty nested", "std_msgs/Empty e\nuint32 x\nstd_msgs/Empty[] es" + sep2 + "MSG: std_msgs/Empty\n# nothing\n",
			func(c *cdrBuf) { c.u8(0).u32(7).u32(2).u8(0).u8(0) },
			`{"e": {}, "x": 7, "es": [{}, {}]}`},
		{"trailing padding", "uint8 x", func(c *cdrBuf) { c.u8(1).raw(0, 0, 0) }, `{"x": 1}`},
		{"char byte octet", "char c\nbyte b\nbyte[] bs\nchar[2] cs",
			func(c *cdrBuf) { c.u8(200).u8(255).u32(2).raw(0, 255).raw(65, 66) },
			`{"c": 200, "b": 255, "bs": "AP8=", "cs": "QUI="}`},
		{"extremes", "int64 a\nuint64 b\nint8 c\nfloat32 n\nfloat64 i\nfloat64 m\nfloat32[] fs",
			func(c *cdrBuf) {
				c.u64(1 << 63).u64(math.MaxUint64).u8(0x7f).f32(float32(math.NaN())).f64(math.Inf(1)).f64(math.Inf(-1))
				c.u32(2).f32(0.1).f32(float32(math.Inf(-1)))
			},
			`{"a": -9223372036854775808, "b": 18446744073709551615, "c": 127, "n": "NaN", "i": "Infinity", "m": "-Infinity", "fs": [0.10000000149011612, "-Infinity"]}`},
		{"wstring", "wstring w\nwstring<=3 v\nuint8 x",
			func(c *cdrBuf) { c.u32(3).u32('h').u32(0xd83d).u32(0xde00).u32(1).u32(0xdc00).u8(1) },
			"{\"w\": \"h😀\", \"v\": \"\ufffd\", \"x\": 1}"},
	}
	for _, tt := range tests {
		for _, be := range []bool{false, true} {
			name := tt.name + "/LE"
			if be {
				name = tt.name + "/BE"
			}
			t.Run(name, func(t *testing.T) {
				p := mustSchema(t, SchemaROS2Msg, "p/msg/A", tt.def)
				c := newCDR(be)
				tt.build(c)
				root, err := p.Decode(c.b)
				if err != nil {
					t.Fatalf("Decode(% x): %v", c.b, err)
				}
				if got := string(AppendJSON(nil, root)); got != tt.want {
					t.Errorf("JSON\n got %s\nwant %s", got, tt.want)
				}
				checkCDRRanges(t, root, "", c.b)
				checkPaths(t, p, root, c.b)
			})
		}
	}
}

func TestCDRRanges(t *testing.T) {
	p := mustSchema(t, SchemaROS2Msg, "p/A", "uint8 a\nfloat64 b\nstring s\nfloat64[] f\nint16[2] h")
	c := newCDR(false).u8(1).f64(2).str("xy").u32(1).f64(3).u16(4).u16(5)
	root, err := p.Decode(c.b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"a": {4, 5}, "b": {12, 20}, "s": {20, 27}, "f": {28, 44}, "h": {44, 48}}
	for name, r := range want {
		if n := root.Field(name); n.Start != r[0] || n.End != r[1] {
			t.Errorf("%s at [%d,%d), want %v", name, n.Start, n.End, r)
		}
	}
	if s, e := root.Field("f").ElemRange(0); s != 36 || e != 44 {
		t.Errorf("f[0] at [%d,%d), want [36,44)", s, e)
	}
	if root.Start != 0 || root.End != 48 {
		t.Errorf("root at [%d,%d)", root.Start, root.End)
	}
}

func TestCDRBadData(t *testing.T) {
	le := func() *cdrBuf { return newCDR(false) }
	tests := []struct {
		name     string
		def      string
		data     []byte
		wantErr  error
		wantPath string
		wantOff  int
	}{
		{"no header", "uint8 x", []byte{0, 1}, ErrTruncated, "", 0},
		{"PL_CDR_LE", "uint8 x", []byte{0, 3, 0, 0, 1}, ErrUnsupportedEncoding, "", 0},
		{"XCDR2", "uint8 x", []byte{0, 7, 0, 0, 1}, ErrUnsupportedEncoding, "", 0},
		{"empty body", "uint8 x", le().b, ErrTruncated, "x", 4},
		{"empty message without its byte", "", le().b, ErrTruncated, "", 4},
		{"short float64", "uint8 a\nfloat64 b", le().u8(1).raw(0, 0, 0, 0, 0, 0, 0, 1, 2).b, ErrTruncated, "b", 12},
		{"padding past end", "uint8 a\nfloat64 b", le().u8(1).raw(0, 0).b, ErrTruncated, "b", 5},
		{"huge sequence", "float64[] a", le().u32(0xffffffff).b, ErrTooLarge, "a", 4},
		{"huge string", "string s", le().u32(0x7fffffff).raw(1, 2).b, ErrTooLarge, "s", 4},
		{"length over 2^31", "string s", le().u32(0x80000000).b, ErrTooLarge, "s", 4},
		{"huge empty-message sequence", "p/E[] e" + sep2 + "MSG: p/E\n", le().u32(0xffffffff).b, ErrTooLarge, "e", 4},
		{"huge string sequence", "string[] s", le().u32(0x10000000).b, ErrTooLarge, "s", 4},
		{"huge wstring", "wstring w", le().u32(2).u32(1).b, ErrTooLarge, "w", 4},
		{"bounded sequence over", "int32[<=2] a", le().u32(3).u32(1).u32(2).u32(3).b, ErrBound, "a", 4},
		{"bounded string over", "string<=2 s", le().str("abc").b, ErrBound, "s", 4},
		{"fixed array cut", "uint16[4] a", le().u16(1).u16(2).b, ErrTruncated, "a", 4},
		{"nested cut", "p/B[] b" + sep2 + "MSG: p/B\nstring n\nfloat64 v", le().u32(2).str("x").f64(1).str("y").b, ErrTruncated, "b[1].v", 34},
		{"trailing bytes", "uint8 x", le().u8(1).raw(0, 0, 0, 0).b, ErrTrailingBytes, "", 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustSchema(t, SchemaROS2Msg, "p/A", tt.def)
			root, err := p.Decode(tt.data)
			var e *Error
			if !errors.Is(err, tt.wantErr) || !errors.As(err, &e) {
				t.Fatalf("Decode = %v, want %v", err, tt.wantErr)
			}
			if e.Path != tt.wantPath || e.Offset != tt.wantOff || e.Type != "p/msg/A" {
				t.Errorf("error at %s/%q offset %d, want %q offset %d: %v", e.Type, e.Path, e.Offset, tt.wantPath, tt.wantOff, err)
			}
			if (root != nil) != (tt.wantErr == ErrTrailingBytes) {
				t.Errorf("root = %v with %v", root, err)
			}
			for _, ps := range p.Paths() {
				path, err := CompilePath(p, ps)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := path.Float64(tt.data); err != nil && !errors.As(err, &e) {
					t.Errorf("%s: %v is not an *Error", ps, err)
				}
			}
		})
	}
}

// A LaserScan and a TFMessage as ROS 2 stores their schemas.
const (
	laserScanDef = "std_msgs/Header header\nfloat32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\n" +
		"float32 time_increment\nfloat32 scan_time\nfloat32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities" +
		sep2 + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" +
		sep2 + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
	tfDef = "geometry_msgs/TransformStamped[] transforms" +
		sep2 + "MSG: geometry_msgs/TransformStamped\nstd_msgs/Header header\nstring child_frame_id\nTransform transform" +
		sep2 + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" +
		sep2 + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec" +
		sep2 + "MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation" +
		sep2 + "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z" +
		sep2 + "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n"
)

func laserScan(be bool, frame string, n int) []byte {
	c := newCDR(be).u32(1700000000).u32(123).str(frame)
	for i := range 7 {
		c.f32(float32(i) / 2)
	}
	c.u32(uint32(n))
	for i := range n {
		c.f32(float32(i) * 0.25)
	}
	c.u32(1).f32(9)
	return c.b
}

func tfMessage(be bool, frames ...string) []byte {
	c := newCDR(be).u32(uint32(len(frames)))
	for i, f := range frames {
		c.u32(uint32(i)).u32(7).str(f).str(f + "_child")
		c.f64(float64(i)).f64(float64(i) + 0.5).f64(-1).f64(0).f64(0).f64(0).f64(1)
	}
	return c.b
}

func TestCDRPath(t *testing.T) {
	scan := mustSchema(t, SchemaROS2Msg, "sensor_msgs/msg/LaserScan", laserScanDef)
	tf := mustSchema(t, SchemaROS2Msg, "tf2_msgs/msg/TFMessage", tfDef)
	tests := []struct {
		p       *Plan
		path    string
		data    func(be bool) []byte
		want    float64
		wantErr error
	}{
		{scan, "header.stamp.sec", func(be bool) []byte { return laserScan(be, "laser", 200) }, 1700000000, nil},
		{scan, "header.stamp.nanosec", func(be bool) []byte { return laserScan(be, "laser", 200) }, 123, nil},
		{scan, "range_max", func(be bool) []byte { return laserScan(be, "l", 200) }, 3, nil},
		{scan, "ranges[100]", func(be bool) []byte { return laserScan(be, "odd", 200) }, 25, nil},
		{scan, "ranges[0]", func(be bool) []byte { return laserScan(be, "", 1) }, 0, nil},
		{scan, "intensities[0]", func(be bool) []byte { return laserScan(be, "abcd", 3) }, 9, nil},
		{scan, "ranges[200]", func(be bool) []byte { return laserScan(be, "laser", 200) }, 0, ErrIndex},
		{scan, "ranges[3]", func(be bool) []byte { return laserScan(be, "laser", 200)[:40] }, 0, ErrTruncated},
		{scan, "header.frame_id", nil, 0, ErrPath},
		{scan, "header.stamp", nil, 0, ErrPath},
		{tf, "transforms[0].transform.translation.y", func(be bool) []byte { return tfMessage(be, "map") }, 0.5, nil},
		{tf, "transforms[2].transform.translation.y", func(be bool) []byte { return tfMessage(be, "a", "bb", "ccc") }, 2.5, nil},
		{tf, "transforms[1].transform.rotation.w", func(be bool) []byte { return tfMessage(be, "a", "bb") }, 1, nil},
		{tf, "transforms[1].header.stamp.sec", func(be bool) []byte { return tfMessage(be, "a", "bb") }, 1, nil},
		{tf, "transforms[2].header.stamp.sec", func(be bool) []byte { return tfMessage(be, "a", "bb") }, 0, ErrIndex},
	}
	for _, tt := range tests {
		for _, be := range []bool{false, true} {
			t.Run(tt.path, func(t *testing.T) {
				path, err := CompilePath(tt.p, tt.path)
				if err == nil {
					data := tt.data(be)
					var v float64
					if v, err = path.Float64(data); err == nil && v != tt.want {
						t.Errorf("Float64 = %v, want %v", v, tt.want)
					}
					if root, derr := tt.p.Decode(data); derr == nil {
						checkPaths(t, tt.p, root, data)
						if tree, ok := lookup(root, tt.path); ok && tree != tt.want {
							t.Errorf("tree has %v, want %v", tree, tt.want)
						}
					}
				}
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("error = %v, want %v", err, tt.wantErr)
				}
			})
		}
	}
	if got := strings.Join(tf.Paths(), " "); got != "transforms[0].header.stamp.sec transforms[0].header.stamp.nanosec "+
		"transforms[0].transform.translation.x transforms[0].transform.translation.y transforms[0].transform.translation.z "+
		"transforms[0].transform.rotation.x transforms[0].transform.rotation.y transforms[0].transform.rotation.z transforms[0].transform.rotation.w" {
		t.Errorf("TFMessage paths = %s", got)
	}
	for _, c := range []struct {
		p    *Plan
		path string
		data []byte
	}{{scan, "ranges[100]", laserScan(false, "laser", 200)}, {tf, "transforms[2].transform.translation.x", tfMessage(false, "a", "b", "c")},
		{scan, "header.stamp.sec", laserScan(true, "x", 2)}} {
		path, err := CompilePath(c.p, c.path)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = path.Float64(c.data) }); n != 0 {
			t.Errorf("%s: Float64 allocates %v times per call", c.path, n)
		}
	}
}

func TestCompileSchema(t *testing.T) {
	for _, enc := range [][2]string{{"jsonschema", "json"}, {"protobuf", "protobuf"}, {"flatbuffer", "flatbuffer"},
		{"ros2msg", "ros1"}, {"ros1msg", "cdr"}, {"", "cdr"}} {
		if _, err := CompileSchema(enc[0], enc[1], "p/A", "int32 x"); !errors.Is(err, ErrUnsupportedEncoding) {
			t.Errorf("CompileSchema(%s, %s) = %v, want ErrUnsupportedEncoding", enc[0], enc[1], err)
		}
	}
	p, err := CompileSchema("ros1msg", "ros1", "p/A", "int32 x")
	if err != nil || p.cdr || p.MD5 == "" || p.MessageEncoding != "ros1" {
		t.Errorf("ros1msg plan = %+v, %v", p, err)
	}
	p = mustSchema(t, SchemaROS2Msg, "p/A", "int32 x")
	if p.MD5 != "" || p.CheckMD5("0123456789abcdef0123456789abcdef") != nil || p.SchemaEncoding != "ros2msg" || p.Type != "p/msg/A" {
		t.Errorf("ros2msg plan = %+v", p)
	}
	var c Cache
	p1, _ := c.GetSchema("ros2msg", "cdr", "p/A", "int32 x")
	p2, _ := c.GetSchema("ros2msg", "cdr", "p/A", "int32 x")
	p3, _ := c.GetSchema("ros2idl", "cdr", "p/A", "module p { module msg { struct A { int32 x; }; }; };")
	_, err = c.GetSchema("protobuf", "protobuf", "p/A", "int32 x")
	if p1 == nil || p1 != p2 || p3 == nil || p3 == p1 || !errors.Is(err, ErrUnsupportedEncoding) || c.Len() != 3 {
		t.Errorf("GetSchema: %p %p %p %v, %d entries", p1, p2, p3, err, c.Len())
	}
}
