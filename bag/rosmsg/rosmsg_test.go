package rosmsg

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

// golden returns testdata/golden.jsonl (made by "ref_types.py golden"), so
// these tests run without the Python reference.
func golden(t testing.TB) []refLine {
	t.Helper()
	f, err := os.Open("testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []refLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l refLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	return lines
}

func goldenSample(t testing.TB, typ, kase string) (*Plan, []byte) {
	t.Helper()
	for _, l := range golden(t) {
		if l.Type == typ && l.Case == kase {
			p, err := Compile(l.Type, l.FullText)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := hex.DecodeString(l.Hex)
			return p, data
		}
	}
	t.Fatalf("no golden sample %s/%s", typ, kase)
	return nil, nil
}

func TestGolden(t *testing.T) {
	for _, l := range golden(t) {
		t.Run(l.Type+"/"+l.Case, func(t *testing.T) {
			p, err := Compile(l.Type, l.FullText)
			if err != nil {
				t.Fatal(err)
			}
			if p.MD5 != l.MD5 {
				t.Errorf("md5 %s, want %s", p.MD5, l.MD5)
			}
			data, _ := hex.DecodeString(l.Hex)
			root, err := p.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(AppendJSON(nil, root)); got != l.JSON {
				if err := jsonEqual(got, l.JSON); err != nil {
					t.Fatalf("JSON: %v\n got %s\nwant %s", err, got, l.JSON)
				}
			}
			checkRanges(t, root, "")
			checkPaths(t, p, root, data)
		})
	}
}

func TestParse(t *testing.T) {
	const sep = "\n================================================================================\n"
	tests := []struct {
		name    string
		typ     string
		text    string
		want    string // MD5Text of typ
		wantErr error
	}{
		{"comments and blank lines", "p/A", "# hi\n\n  int32 x   # the x\n\tfloat64 y\n", "int32 x\nfloat64 y", nil},
		{"constants first", "p/A", "int32 x\nint32 C=3 # three\nstring S = a # b = c \n", "int32 C=3\nstring S=a # b = c\nint32 x", nil},
		{"byte and char", "p/A", "byte b\nchar c\nbyte[] bs\nchar[4] cs", "byte b\nchar c\nbyte[] bs\nchar[4] cs", nil},
		{"header and relative types", "p/A", "Header h\nB b" + sep + "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id" + sep + "MSG: p/B\nint8 z",
			"2176decaecbce78abc3b96ef049fabed h\n992e06d936c71fbddb9254f22f42884f b", nil},
		{"roslib header", "p/A", "roslib/Header h" + sep + "MSG: roslib/Header\nuint32 seq\ntime stamp\nstring frame_id",
			"2176decaecbce78abc3b96ef049fabed h", nil},
		{"dependency without text", "p/A", "p/E e" + sep + "MSG: p/E", "d41d8cd98f00b204e9800998ecf8427e e", nil},
		{"tab separator", "p/A", "int32\tx", "", ErrSyntax},
		{"bad field name", "p/A", "int32 1x", "", ErrSyntax},
		{"duplicate field", "p/A", "int32 x\nfloat64 x", "", ErrSyntax},
		{"three words", "p/A", "int32 x y", "", ErrSyntax},
		{"2-d array", "p/A", "int32[2][3] x", "", ErrSyntax},
		{"bad array size", "p/A", "int32[x] a", "", ErrSyntax},
		{"constant out of range", "p/A", "uint8 C=256", "", ErrSyntax},
		{"byte constant is signed", "p/A", "byte C=200", "", ErrSyntax},
		{"char constant is unsigned", "p/A", "char C=-1", "", ErrSyntax},
		{"time constant", "p/A", "time C=1", "", ErrSyntax},
		{"two equals", "p/A", "int32 C=1=2", "", ErrSyntax},
		{"missing MSG line", "p/A", "int32 x" + sep + "p/B\nint32 y", "", ErrSyntax},
		{"unknown type", "p/A", "Missing m", "", ErrUnknownType},
		{"recursive", "p/A", "A a", "", ErrRecursive},
		{"indirectly recursive", "p/A", "B[] b" + sep + "MSG: p/B\nA a", "", ErrRecursive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile(tt.typ, tt.text)
			if tt.wantErr != nil {
				var e *Error
				if !errors.Is(err, tt.wantErr) || !errors.As(err, &e) {
					t.Fatalf("Compile error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Definition.MD5Text(tt.typ)
			if err != nil || got != tt.want {
				t.Errorf("MD5Text = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestTruncation(t *testing.T) {
	for _, s := range []struct{ typ, kase string }{
		{"sensor_msgs/Imu", "rich"}, {"tf2_msgs/TFMessage", "rich"}, {"test_pkg/Everything", "rich"},
		{"test_pkg/Everything", "extreme"}, {"sensor_msgs/JointState", "rich"},
	} {
		t.Run(s.typ+"/"+s.kase, func(t *testing.T) {
			p, data := goldenSample(t, s.typ, s.kase)
			paths := p.Paths()
			for n := 0; n < len(data); n++ {
				cut := data[:n:n]
				root, err := p.Decode(cut)
				var e *Error
				if root != nil || !errors.As(err, &e) || !(errors.Is(err, ErrTruncated) || errors.Is(err, ErrTooLarge)) {
					t.Fatalf("Decode(data[:%d]) = %v, %v; want truncation error", n, root, err)
				}
				if e.Offset < 0 || e.Offset > n || (n > 0 && e.Path == "") {
					t.Fatalf("Decode(data[:%d]): error without place: %v", n, err)
				}
				for _, ps := range paths {
					path, _ := CompilePath(p, ps)
					if _, err := path.Float64(cut); err != nil && !errors.As(err, &e) {
						t.Fatalf("%s on data[:%d]: %v is not an *Error", ps, n, err)
					}
				}
			}
		})
	}
}

func TestBadData(t *testing.T) {
	le := func(vs ...uint32) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		return b
	}
	const sep = "\n================================================================================\n"
	tests := []struct {
		name     string
		def      string
		data     []byte
		wantErr  error
		wantPath string
		wantOff  int
	}{
		{"huge float array", "float64[] a", le(0xffffffff), ErrTooLarge, "a", 0},
		{"huge string", "int32 x\nstring s", le(1, 0x7fffffff, 0), ErrTooLarge, "s", 4},
		{"length over 2^31", "string s", le(0x80000000), ErrTooLarge, "s", 0},
		{"huge string array", "string[] s", le(0xffffffff), ErrTooLarge, "s", 0},
		{"huge empty-message array", "p/E[] e" + sep + "MSG: p/E\n", le(0xffffffff), ErrTooLarge, "e", 0},
		{"string past end", "string[] s", le(2, 1, 'x', 5), ErrTooLarge, "s[1]", 9},
		{"nested cut", "p/B[] b" + sep + "MSG: p/B\nstring n\nfloat64 v", append(le(2, 0, 0, 0, 8, 0x78787878, 0x78787878), 1, 2), ErrTruncated, "b[1].v", 28},
		{"fixed array cut", "uint16[4] a", []byte{1, 2, 3}, ErrTruncated, "a", 0},
		{"empty data", "int8 x", nil, ErrTruncated, "x", 0},
		{"trailing bytes", "int8 x", []byte{1, 2, 3}, ErrTrailingBytes, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile("p/A", tt.def)
			if err != nil {
				t.Fatal(err)
			}
			root, err := p.Decode(tt.data)
			var e *Error
			if !errors.Is(err, tt.wantErr) || !errors.As(err, &e) {
				t.Fatalf("Decode = %v, want %v", err, tt.wantErr)
			}
			if e.Path != tt.wantPath || e.Offset != tt.wantOff || e.Type != "p/A" {
				t.Errorf("error at %s/%q offset %d, want %q offset %d: %v", e.Type, e.Path, e.Offset, tt.wantPath, tt.wantOff, err)
			}
			if (root != nil) != (tt.wantErr == ErrTrailingBytes) {
				t.Errorf("root = %v with %v", root, err)
			}
		})
	}
}

func TestPath(t *testing.T) {
	const sep = "\n================================================================================\n"
	def := "string s\nfloat32[] f\np/B[] b\ntime t\nduration[2] d\nuint8[] raw\nbool ok" +
		sep + "MSG: p/B\nstring n\nint16 v"
	p, err := Compile("p/A", def)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	put := func(vs ...uint32) {
		for _, v := range vs {
			data = binary.LittleEndian.AppendUint32(data, v)
		}
	}
	put(2, 'h'|'i'<<8)
	data = data[:6]                                     // s = "hi"
	put(2, math.Float32bits(1.5), math.Float32bits(-2)) // f
	put(2, 1, 'x')                                      // b[0].n = "x"
	data = append(data[:len(data)-3], 0xfe, 0xff)       // b[0].v = -2
	put(0)                                              // b[1].n = ""
	data = append(data, 7, 0)                           // b[1].v = 7
	put(10, 500000000)                                  // t
	put(0xffffffff, 0, 3, 0xffffffff)                   // d
	put(3)                                              // raw
	data = append(data, 9, 8, 7, 1)                     // raw, ok

	tests := []struct {
		path    string
		want    float64
		wantErr error
	}{
		{"f[1]", -2, nil},
		{"b[0].v", -2, nil},
		{"b[1].v", 7, nil},
		{"t", 10.5, nil},
		{"t.secs", 10, nil},
		{"t.nsecs", 5e8, nil},
		{"d[0]", -1, nil},
		{"d[1].secs", 3, nil},
		{"d[1].nsecs", -1, nil},
		{"raw[2]", 7, nil},
		{"ok", 1, nil},
		{"f[2]", 0, ErrIndex},
		{"b[2].v", 0, ErrIndex},
		{"s", 0, ErrPath},
		{"b[0].n", 0, ErrPath},
		{"b", 0, ErrPath},
		{"b[0]", 0, ErrPath},
		{"f", 0, ErrPath},
		{"ok[0]", 0, ErrPath},
		{"d[2]", 0, ErrPath},
		{"nope", 0, ErrPath},
		{"t.x", 0, ErrPath},
		{"ok.x", 0, ErrPath},
		{"f[-1]", 0, ErrPath},
		{"f[x]", 0, ErrPath},
		{"", 0, ErrPath},
	}
	root, err := p.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			path, err := CompilePath(p, tt.path)
			if err == nil {
				var v float64
				v, err = path.Float64(data)
				if err == nil && v != tt.want {
					t.Errorf("Float64 = %v, want %v", v, tt.want)
				}
				if tree, ok := lookup(root, tt.path); ok && !strings.Contains(tt.path, "secs") && tree != tt.want {
					t.Errorf("tree has %v, want %v", tree, tt.want)
				}
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func TestPathsList(t *testing.T) {
	p, _ := goldenSample(t, "sensor_msgs/Imu", "rich")
	got := strings.Join(p.Paths(), " ")
	for _, want := range []string{"header.seq", "header.stamp", "orientation.w", "orientation_covariance[8]", "linear_acceleration.z"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("Paths() lacks %s: %s", want, got)
		}
	}
	p, _ = goldenSample(t, "tf2_msgs/TFMessage", "rich")
	if got := p.Paths(); len(got) != 9 || got[1] != "transforms[0].header.stamp" || got[8] != "transforms[0].transform.rotation.w" {
		t.Errorf("TFMessage paths = %q", got)
	}
}

func TestExtractAllocs(t *testing.T) {
	for _, c := range []struct{ typ, path string }{
		{"sensor_msgs/Imu", "linear_acceleration.x"},
		{"sensor_msgs/Imu", "header.stamp"},
		{"tf2_msgs/TFMessage", "transforms[2].transform.translation.x"},
		{"sensor_msgs/LaserScan", "ranges[2]"},
	} {
		t.Run(c.typ+"/"+c.path, func(t *testing.T) {
			p, data := goldenSample(t, c.typ, "rich")
			path, err := CompilePath(p, c.path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := path.Float64(data); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() { _, _ = path.Float64(data) }); n != 0 {
				t.Errorf("Float64 allocates %v times per call", n)
			}
		})
	}
}

func TestNodeAccess(t *testing.T) {
	p, data := goldenSample(t, "sensor_msgs/LaserScan", "rich")
	root, err := p.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	ranges := root.Field("ranges")
	f32, ok := ranges.Slice().([]float32)
	if !ok || ranges.Len() != len(f32) || len(f32) == 0 {
		t.Fatalf("ranges slice = %T len %d", ranges.Slice(), ranges.Len())
	}
	for i := range f32 {
		s, e := ranges.ElemRange(i)
		if e-s != 4 || math.Float32bits(math.Float32frombits(binary.LittleEndian.Uint32(data[s:]))) != math.Float32bits(f32[i]) {
			t.Errorf("ranges[%d] at [%d,%d) does not hold %v", i, s, e, f32[i])
		}
	}
	if s, e := ranges.ElemRange(len(f32)); s != -1 || e != -1 {
		t.Errorf("ElemRange past end = %d, %d", s, e)
	}
}

func TestPyFloat(t *testing.T) {
	// Python 3 repr of each value.
	tests := []struct {
		f    float64
		want string
	}{
		{0.1, "0.1"}, {100, "100.0"}, {1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {1e-5, "1e-05"},
		{0.0001, "0.0001"}, {-2.5e-7, "-2.5e-07"}, {5e-324, "5e-324"}, {math.MaxFloat64, "1.7976931348623157e+308"},
		{123456789.125, "123456789.125"}, {9999999999999998, "9999999999999998.0"}, {1.5e300, "1.5e+300"},
		{math.Copysign(0, -1), "-0.0"}, {0, "0.0"}, {math.NaN(), `"NaN"`}, {math.Inf(-1), `"-Infinity"`},
		{float64(float32(0.1)), "0.10000000149011612"}, {12345.678, "12345.678"}, {0.001234, "0.001234"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := string(appendPyFloat(nil, tt.f)); got != tt.want {
				t.Errorf("appendPyFloat(%v) = %s, want %s", tt.f, got, tt.want)
			}
		})
	}
}

func TestCache(t *testing.T) {
	l := golden(t)[0]
	var c Cache
	plans := make([]*Plan, 16)
	var wg sync.WaitGroup
	for i := range plans {
		wg.Go(func() {
			p, err := c.Get(l.Type, l.MD5, l.FullText)
			if err != nil {
				t.Error(err)
			}
			plans[i] = p
		})
	}
	wg.Wait()
	for _, p := range plans[1:] {
		if p != plans[0] {
			t.Fatal("cache compiled the same key twice")
		}
	}
	if _, err := c.Get("p/A", "x", "A a"); !errors.Is(err, ErrRecursive) {
		t.Errorf("Get(recursive) = %v", err)
	}
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
}
