package rosmsg

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecodeCDR compiles a random ROS 2 definition (ros2msg, or ros2idl when
// idl is set) and decodes random bytes with it. Nothing may panic; errors
// must be *Error with an offset inside the data; a decoded tree must have
// ordered byte ranges and valid JSON, and every listed path must extract the
// value the tree holds.
func FuzzDecodeCDR(f *testing.F) {
	le := func() *cdrBuf { return newCDR(false) }
	f.Add(false, "p/A", "uint8 a\nfloat64 b\nstring s\nint32[] c", le().u8(1).f64(2).str("hi").u32(1).u32(5).b)
	f.Add(false, "p/A", "uint8 a\nfloat64 b", newCDR(true).u8(1).f64(2).b)
	f.Add(false, "p/A", "", le().u8(0).b)
	f.Add(false, "p/A", "p/E[] e\nwstring w"+sep2+"MSG: p/E\n", le().u32(0xffffffff).b)
	f.Add(false, "p/A", "string<=3[<=2] s\nint16[3] h\nbool ok", le().u32(2).str("abc").str("").u16(1).u16(2).u16(3).u8(1).b)
	f.Add(false, "sensor_msgs/msg/LaserScan", laserScanDef, laserScan(false, "laser", 4))
	f.Add(false, "tf2_msgs/msg/TFMessage", tfDef, tfMessage(false, "a", "b"))
	f.Add(false, "p/A", "A a", []byte{0, 1, 0, 0})
	f.Add(false, "p/srv/S_Event", "int64 a\n---\nint64 sum", le().u8(0).u32(1).u32(2).raw(make([]byte, 16)...).u64(3).u32(1).u64(4).u32(0).b)
	f.Add(true, "a/msg/A", "module a { module msg { typedef double d3[3]; struct A { d3 x; sequence<string<4>, 2> s; octet o[2]; }; }; };",
		le().f64(1).f64(2).f64(3).u32(1).str("ab").raw(1, 2).b)
	f.Fuzz(func(t *testing.T, idl bool, typ, def string, data []byte) {
		enc := SchemaROS2Msg
		if idl {
			enc = SchemaROS2IDL
		}
		p, err := CompileSchema(enc, EncodingCDR, typ, def)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("CompileSchema error %T %v is not an *Error", err, err)
			}
			return
		}
		root, err := p.Decode(data)
		if err != nil && !errors.Is(err, ErrTrailingBytes) {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(data) || root != nil {
				t.Fatalf("Decode = %v, %v", root, err)
			}
		} else {
			if root == nil || root.Start != 0 || root.End > len(data) {
				t.Fatalf("Decode = %v, %v", root, err)
			}
			checkCDRRanges(t, root, "", data)
			if js := AppendJSON(nil, root); !json.Valid(js) {
				t.Fatalf("invalid JSON %s", js)
			}
		}
		paths := p.Paths()
		if len(paths) > 50 {
			paths = paths[:50]
		}
		for _, ps := range paths {
			path, err := CompilePath(p, ps)
			if err != nil {
				t.Fatalf("listed path %q does not compile: %v", ps, err)
			}
			v, err := path.Float64(data)
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%s: %v is not an *Error", ps, err)
			}
			if root == nil {
				continue
			}
			want, ok := lookup(root, ps)
			if ok != (err == nil) || ok && !(v == want || v != v && want != want) {
				t.Fatalf("%s: extract %v, %v; tree %v, %v", ps, v, err, want, ok)
			}
		}
	})
}
