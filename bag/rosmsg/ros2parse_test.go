package rosmsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestParseMCAPSchemas parses every ros2msg schema found in the MCAP files
// of ../shared/bags (copied to testdata).
func TestParseMCAPSchemas(t *testing.T) {
	b, err := os.ReadFile("testdata/mcap_ros2msg_schemas.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r struct{ Name, Source, Text string }
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		p, err := CompileSchema(SchemaROS2Msg, EncodingCDR, r.Name, r.Text)
		if err != nil {
			t.Errorf("%s (%s): %v", r.Name, r.Source, err)
			continue
		}
		if p.Type != NormalizeROS2Type(r.Name) || len(p.Root.Fields) == 0 && !strings.Contains(r.Text, "placeholder") && r.Name != "std_msgs/msg/Empty" {
			t.Errorf("%s: plan %s with %d fields", r.Name, p.Type, len(p.Root.Fields))
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d schemas", n)
	}
}

func TestParseROS2(t *testing.T) {
	text := "# a comment\n" +
		"int32 X=5\n" +
		"int32 Y = -7 # spaced\n" +
		"string S=\"a # b\"  # real comment\n" +
		"string T='it''s'\n" +
		"bool B=True\n" +
		"byte BY=255\n" +
		"char C=200\n" +
		"float64 PI=3.14159\n" +
		"int32 x 5\n" +
		"string s \"a # b\" # comment\n" +
		"int32[] a [1, 2]\n" +
		"string[<=3] names [\"x\", \"y#z\"]\n" +
		"string<=10 bounded\n" +
		"string<=10[4] fixed_bounded\n" +
		"float64[<=2] seq\n" +
		"Header h\n" +
		"geometry_msgs/msg/Point p\n" +
		"geometry_msgs/Point q\n" +
		"Local l\n" +
		"time t\n" +
		"wstring w\n" +
		sep2 + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" +
		sep2 + "MSG: geometry_msgs/msg/Point\nfloat64 x\nfloat64 y\nfloat64 z" +
		sep2 + "MSG: pkg/Local\n"
	d, err := ParseROS2Definition("pkg/msg/A", text)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Specs["pkg/msg/A"]
	wantConsts := []Constant{{"int32", "X", "5"}, {"int32", "Y", "-7"}, {"string", "S", "a # b"}, {"string", "T", "it''s"},
		{"bool", "B", "True"}, {"byte", "BY", "255"}, {"char", "C", "200"}, {"float64", "PI", "3.14159"}}
	if !reflect.DeepEqual(s.Constants, wantConsts) {
		t.Errorf("constants\n got %q\nwant %q", s.Constants, wantConsts)
	}
	type fl struct{ name, typ, base, def string }
	var got []fl
	for _, f := range s.Fields {
		got = append(got, fl{f.Name, f.Type, f.BaseType, f.Default})
	}
	want := []fl{{"x", "int32", "int32", "5"}, {"s", "string", "string", `"a # b"`}, {"a", "int32[]", "int32", "[1, 2]"},
		{"names", "string[<=3]", "string", `["x", "y#z"]`}, {"bounded", "string<=10", "string", ""},
		{"fixed_bounded", "string<=10[4]", "string", ""}, {"seq", "float64[<=2]", "float64", ""},
		{"h", "std_msgs/msg/Header", "std_msgs/msg/Header", ""}, {"p", "geometry_msgs/msg/Point", "geometry_msgs/msg/Point", ""},
		{"q", "geometry_msgs/msg/Point", "geometry_msgs/msg/Point", ""}, {"l", "pkg/msg/Local", "pkg/msg/Local", ""},
		{"t", "builtin_interfaces/msg/Time", "builtin_interfaces/msg/Time", ""}, {"w", "wstring", "wstring", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fields\n got %q\nwant %q", got, want)
	}
	if f := s.Fields[5]; f.StrBound != 10 || f.Len != 4 || s.Fields[6].Bound != 2 || s.Fields[6].Len != -1 {
		t.Errorf("bounds: %+v %+v", f, s.Fields[6])
	}
	p, err := compileCDR(d, SchemaROS2Msg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Root.Fields[len(p.Root.Fields)-3].Msg.MinSize != 1 {
		t.Errorf("empty message MinSize %d", p.Root.Fields[len(p.Root.Fields)-3].Msg.MinSize)
	}

	for _, bad := range []struct{ name, text string }{
		{"bound on int", "int32<=3 x"},
		{"bad array", "int32[x] a"},
		{"zero bound", "int32[<=0] a"},
		{"uint8 constant range", "uint8 C=256"},
		{"array constant", "int32[] C=1"},
		{"bad name", "int32 1x"},
		{"duplicate", "int32 x\nint32 x"},
		{"missing MSG line", "int32 x" + sep2 + "pkg/B\nint32 y"},
		{"srv text for a message", "int32 a\n---\nint32 b"},
	} {
		if _, err := CompileSchema(SchemaROS2Msg, EncodingCDR, "pkg/msg/A", bad.text); !errors.Is(err, ErrSyntax) {
			t.Errorf("%s: %v, want ErrSyntax", bad.name, err)
		}
	}
	for _, bad := range []struct {
		text string
		want error
	}{{"Missing m", ErrUnknownType}, {"A a", ErrRecursive}, {"B[] b" + sep2 + "MSG: pkg/B\nA a", ErrRecursive}} {
		if _, err := CompileSchema(SchemaROS2Msg, EncodingCDR, "pkg/msg/A", bad.text); !errors.Is(err, bad.want) {
			t.Errorf("%q: %v, want %v", bad.text, err, bad.want)
		}
	}
}

func TestNormalizeROS2Type(t *testing.T) {
	for in, want := range map[string]string{"a/B": "a/msg/B", "a/msg/B": "a/msg/B", "a::msg::B": "a/msg/B",
		"::a::msg::B": "a/msg/B", "a/srv/B_Event": "a/srv/B_Event", "B": "B", " a/B ": "a/msg/B"} {
		if got := NormalizeROS2Type(in); got != want {
			t.Errorf("NormalizeROS2Type(%q) = %q, want %q", in, got, want)
		}
	}
}

// imuIDL is sensor_msgs/msg/Imu and its dependencies as rosidl_adapter
// writes them (msg.idl.em) and as MCAP stores ros2idl schemas.
const imuIDL = `// generated from rosidl_adapter/resource/msg.idl.em
// with input from sensor_msgs/msg/Imu.msg
// generated code does not contain a copyright notice

#include "geometry_msgs/msg/Quaternion.idl"
#include "geometry_msgs/msg/Vector3.idl"
#include "std_msgs/msg/Header.idl"

module sensor_msgs {
  module msg {
    typedef double double__9[9];
    @verbatim (language="comment", text=
      "This is a message to hold data from an IMU (Inertial Measurement Unit)" "\n"
      "" "\n"
      "Accelerations should be in m/s^2 (not in g's), and rotational velocity should be in rad/sec")
    struct Imu {
      std_msgs::msg::Header header;

      geometry_msgs::msg::Quaternion orientation;

      @verbatim (language="comment", text=
        "Row major about x, y, z axes")
      double__9 orientation_covariance;

      geometry_msgs::msg::Vector3 angular_velocity;

      @verbatim (language="comment", text=
        "Row major about x, y, z axes")
      double__9 angular_velocity_covariance;

      geometry_msgs::msg::Vector3 linear_acceleration;

      @verbatim (language="comment", text=
        "Row major x, y z")
      double__9 linear_acceleration_covariance;
    };
  };
};

================================================================================
IDL: std_msgs/msg/Header
// generated from rosidl_adapter/resource/msg.idl.em
// with input from std_msgs/msg/Header.msg
// generated code does not contain a copyright notice

#include "builtin_interfaces/msg/Time.idl"

module std_msgs {
  module msg {
    @verbatim (language="comment", text=
      "Standard metadata for higher-level stamped data types.")
    struct Header {
      @verbatim (language="comment", text=
        "Two-integer timestamp that is expressed as seconds and nanoseconds.")
      builtin_interfaces::msg::Time stamp;

      @verbatim (language="comment", text=
        "Transform frame with which this data is associated.")
      string frame_id;
    };
  };
};

================================================================================
IDL: builtin_interfaces/msg/Time
// generated from rosidl_adapter/resource/msg.idl.em
// with input from builtin_interfaces/msg/Time.msg
// generated code does not contain a copyright notice


module builtin_interfaces {
  module msg {
    @verbatim (language="comment", text=
      "This message communicates ROS Time defined here:" "\n"
      "https://design.ros2.org/articles/clock_and_time.html")
    struct Time {
      @verbatim (language="comment", text=
        "The seconds component, valid over all int32 values.")
      int32 sec;

      @verbatim (language="comment", text=
        "The nanoseconds component, valid in the range [0, 10e9).")
      uint32 nanosec;
    };
  };
};

================================================================================
IDL: geometry_msgs/msg/Quaternion
module geometry_msgs {
  module msg {
    struct Quaternion {
      @default (value=0.0)
      double x;

      @default (value=0.0)
      double y;

      @default (value=0.0)
      double z;

      @default (value=1.0)
      double w;
    };
  };
};

================================================================================
IDL: geometry_msgs/msg/Vector3
module geometry_msgs {
  module msg {
    struct Vector3 {
      double x;

      double y;

      double z;
    };
  };
};
`

// kitchenIDL uses the rest of what rosidl writes: constants modules, bounded
// strings and sequences, enums, every primitive spelling, block comments.
const kitchenIDL = `/* block
   comment */
#include <other.idl>
module test_msgs {
  module msg {
    module Kitchen_Constants {
      const uint8 UINT8_CONST = 200;
      const int32 NEG = -30000;
      const string STRING_CONST = "Hello world! // not a comment";
      const boolean BOOL_CONST = TRUE;
      const double D = 1.125;
    };
    enum Color { RED, @value(5) GREEN, BLUE };
    typedef sequence<int32, 3> int32__bounded3;
    typedef string<22> string__22;
    struct Kitchen {
      boolean b;
      octet o;
      char c;
      wchar wc;
      short s; unsigned short us;
      long l; unsigned long ul;
      long long ll; unsigned long long ull;
      float f; double d;
      int8 i8; uint8 u8; int16 i16; uint16 u16; int32 i32; uint32 u32; int64 i64; uint64 u64;
      string str;
      string<22> bounded_str;
      wstring wstr;
      wstring<5> bounded_wstr;
      sequence<int32> seq;
      sequence<int32, 3> bounded_seq;
      int32__bounded3 td_bounded_seq;
      sequence<string<22>, 2> bounded_seq_of_bounded_str;
      string__22 td_str;
      @default (value="hello")
      string with_default;
      octet bytes[4];
      sequence<octet> seq_bytes;
      Color color;
      ::test_msgs::msg::Empty e;
      Empty arr_e[2];
      @key long key_field;
    };
    struct Empty {
      uint8 structure_needs_at_least_one_member;
    };
  };
};
`

func TestParseIDL(t *testing.T) {
	p := mustSchema(t, SchemaROS2IDL, "sensor_msgs/msg/Imu", imuIDL)
	if p.Type != "sensor_msgs/msg/Imu" || p.Definition.Order[0] != p.Type {
		t.Errorf("type %s, order %v", p.Type, p.Definition.Order)
	}
	var types []string
	for _, f := range p.Root.Fields {
		types = append(types, f.Name+":"+f.Type)
	}
	want := "header:std_msgs/msg/Header orientation:geometry_msgs/msg/Quaternion orientation_covariance:float64[9] " +
		"angular_velocity:geometry_msgs/msg/Vector3 angular_velocity_covariance:float64[9] " +
		"linear_acceleration:geometry_msgs/msg/Vector3 linear_acceleration_covariance:float64[9]"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("Imu fields\n got %s\nwant %s", got, want)
	}
	if d := p.Definition.Specs["geometry_msgs/msg/Quaternion"].Fields[3].Default; d != "1.0" {
		t.Errorf("Quaternion.w default %q", d)
	}
	// The same message from the ros2msg schema decodes the same bytes alike.
	msgDef := "std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n" +
		"geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\n" +
		"geometry_msgs/Vector3 linear_acceleration\nfloat64[9] linear_acceleration_covariance" +
		sep2 + "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id" +
		sep2 + "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1" +
		sep2 + "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z"
	pm := mustSchema(t, SchemaROS2Msg, "sensor_msgs/msg/Imu", msgDef)
	c := newCDR(false).u32(5).u32(6).str("imu_link")
	for i := range 4 + 9 + 3 + 9 + 3 + 9 {
		c.f64(float64(i) + 0.5)
	}
	r1, err1 := p.Decode(c.b)
	r2, err2 := pm.Decode(c.b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if j1, j2 := string(AppendJSON(nil, r1)), string(AppendJSON(nil, r2)); j1 != j2 {
		t.Errorf("IDL and msg plans differ:\n%s\n%s", j1, j2)
	}
	if got, want := strings.Join(p.Paths(), " "), strings.Join(pm.Paths(), " "); got != want {
		t.Errorf("paths differ:\n%s\n%s", got, want)
	}

	k := mustSchema(t, SchemaROS2IDL, "test_msgs/msg/Kitchen", kitchenIDL)
	spec := k.Definition.Specs["test_msgs/msg/Kitchen"]
	wantConsts := []Constant{{"uint8", "UINT8_CONST", "200"}, {"int32", "NEG", "-30000"},
		{"string", "STRING_CONST", "Hello world! // not a comment"}, {"bool", "BOOL_CONST", "true"}, {"float64", "D", "1.125"}}
	if !reflect.DeepEqual(spec.Constants, wantConsts) {
		t.Errorf("constants\n got %q\nwant %q", spec.Constants, wantConsts)
	}
	types = types[:0]
	for _, f := range k.Root.Fields {
		types = append(types, f.Name+":"+f.Type+":"+f.Kind.String())
	}
	want = "b:bool:bool o:byte:uint8 c:char:uint8 wc:wchar:uint32 s:int16:int16 us:uint16:uint16 l:int32:int32 ul:uint32:uint32 " +
		"ll:int64:int64 ull:uint64:uint64 f:float32:float32 d:float64:float64 i8:int8:int8 u8:uint8:uint8 i16:int16:int16 " +
		"u16:uint16:uint16 i32:int32:int32 u32:uint32:uint32 i64:int64:int64 u64:uint64:uint64 str:string:string " +
		"bounded_str:string<=22:string wstr:wstring:wstring bounded_wstr:wstring<=5:wstring seq:int32[]:int32 " +
		"bounded_seq:int32[<=3]:int32 td_bounded_seq:int32[<=3]:int32 bounded_seq_of_bounded_str:string<=22[<=2]:string " +
		"td_str:string<=22:string with_default:string:string bytes:byte[4]:uint8 seq_bytes:byte[]:uint8 color:uint32:uint32 " +
		"e:test_msgs/msg/Empty:message arr_e:test_msgs/msg/Empty[2]:message key_field:int32:int32"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("Kitchen fields\n got %s\nwant %s", got, want)
	}
	for _, f := range spec.Fields {
		if f.Name == "with_default" && f.Default != `"hello"` {
			t.Errorf("with_default default %q", f.Default)
		}
	}

	for _, bad := range []string{
		"module a { module msg { struct A { long double x; }; }; };",
		"module a { module msg { struct A { int32 x[2][3]; }; }; };",
		"module a { module msg { struct A { sequence<sequence<int32>> x; }; }; };",
		"module a { module msg { struct A { int32 x; ",
		"module a { module msg { union U switch (long) { case 1: long x; }; }; };",
		"module a { module msg { struct A { Missing m; }; }; };",
		"module a { module msg { struct A { int32 x; int32 x; }; }; };",
		"module a { module msg { struct A { string s = \"x; }; }; };",
	} {
		if _, err := CompileSchema(SchemaROS2IDL, EncodingCDR, "a/msg/A", bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("%q: %v, want ErrSyntax", bad, err)
		}
	}
	if _, err := CompileSchema(SchemaROS2IDL, EncodingCDR, "a/msg/B", "module a { module msg { struct A { int32 x; }; }; };"); !errors.Is(err, ErrUnknownType) {
		t.Errorf("missing root: %v", err)
	}
}
