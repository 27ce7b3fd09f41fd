package expr

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// enc writes ROS 1 serialized messages for the tests.
type enc struct{ b []byte }

func (e *enc) u32(v uint32) *enc { e.b = binary.LittleEndian.AppendUint32(e.b, v); return e }
func (e *enc) i8(v int8) *enc    { e.b = append(e.b, byte(v)); return e }
func (e *enc) f64(vs ...float64) *enc {
	for _, v := range vs {
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	}
	return e
}
func (e *enc) str(ss ...string) *enc {
	for _, s := range ss {
		e.u32(uint32(len(s)))
		e.b = append(e.b, s...)
	}
	return e
}
func (e *enc) header(seq, secs, nsecs uint32, frame string) *enc {
	return e.u32(seq).u32(secs).u32(nsecs).str(frame)
}

const sep = "\n================================================================================\n"
const headerDef = "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id"

const jointStateDef = "Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort" + sep + headerDef

const tfDef = "geometry_msgs/TransformStamped[] transforms" + sep +
	"MSG: geometry_msgs/TransformStamped\nHeader header\nstring child_frame_id\nTransform transform" + sep + headerDef + sep +
	"MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation" + sep +
	"MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z" + sep +
	"MSG: geometry_msgs/Quaternion\nfloat64 x\nfloat64 y\nfloat64 z\nfloat64 w"

const logDef = "byte DEBUG=1\nbyte INFO=2\nbyte WARN=4\nbyte ERROR=8\nbyte FATAL=16\nHeader header\nbyte level\nstring name\nstring msg\nstring file\nstring function\nuint32 line\nstring[] topics" + sep + headerDef

func mustPlan(t testing.TB, typ, def string) *rosmsg.Plan {
	t.Helper()
	p, err := rosmsg.Compile(typ, def)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func jointState() []byte {
	e := &enc{}
	e.header(1, 100, 5, "base")
	e.u32(3).str("a", "b", "c")
	e.u32(3).f64(1, 2, 3)
	e.u32(3).f64(0.5, -1, 0)
	e.u32(0)
	return e.b
}

func tfMessage() []byte {
	e := &enc{}
	e.u32(2)
	e.header(7, 100, 0, "world").str("arm").f64(1, 2, 3).f64(0, 0, 0, 1)
	e.header(8, 100, 0, "world").str("leg").f64(-1, 0.5, 9).f64(0, 0, 1, 0)
	return e.b
}

func logMessage(level int8, name, msg string) []byte {
	e := &enc{}
	e.header(3, 1700000000, 250000000, "")
	e.i8(level).str(name, msg, "node.cpp", "run").u32(42)
	e.u32(2).str("/a", "/b")
	return e.b
}

type msgCase struct {
	plan *rosmsg.Plan
	data []byte
}

func TestMatch(t *testing.T) {
	js := msgCase{mustPlan(t, "sensor_msgs/JointState", jointStateDef), jointState()}
	tf := msgCase{mustPlan(t, "tf2_msgs/TFMessage", tfDef), tfMessage()}
	lg := msgCase{mustPlan(t, "rosgraph_msgs/Log", logDef), logMessage(8, "/camera_driver", "frame timeout after 3.5 s")}
	in := func(m msgCase) *Input {
		return &Input{Data: m.data, Log: 1700000010_500000000, Publish: 1700000010_400000000, Start: 1700000000_000000000, Topic: "/t", Type: m.plan.Type}
	}
	tests := []struct {
		name string
		m    msgCase
		src  string
		want bool
	}{
		{"number", js, "position[1] == 2", true},
		{"arith", js, "position[0] + position[1] * 2 == 5", true},
		{"int exact", js, "header.seq * 3 - 2 == 1", true},
		{"division is float", js, "header.seq / 2 == 0.5", true},
		{"modulo", js, "7 % 3 == 1 && -7 % 3 == -1", true},
		{"time as seconds", js, "header.stamp == 100.000000005", true},
		{"time parts", js, "header.stamp.secs == 100 && header.stamp.nsecs == 5", true},
		{"string", js, `header.frame_id == "base"`, true},
		{"string order", js, `header.frame_id < "bases"`, true},
		{"key array", js, "position[b] == 2 && velocity[c] == 0", true},
		{"quoted key", js, `position["a"] == 1`, true},
		{"explicit key array", js, "position[name=c] == 3", true},
		{"missing key has no value", js, "position[z] == 1", false},
		{"missing key is not true when negated", js, "!(position[z] == 1)", false},
		{"unknown and false is false", js, "position[z] == 1 && false", false},
		{"unknown or true is true", js, "position[z] == 1 || true", true},
		{"index beyond the array", js, "position[9] > 0 || effort[0] > 0", false},
		{"len of array", js, "len(position) == 3 && len(effort) == 0", true},
		{"len of string", js, "len(header.frame_id) == 4", true},
		{"len of [*]", js, "len(name[*]) == 3", true},
		{"len of range", js, "len(position[1:]) == 2 && len(position[:1]) == 1", true},
		{"any", js, "any(position[*] > 2.5)", true},
		{"any none", js, "any(position[*] > 3)", false},
		{"all", js, "all(position[*] >= 1)", true},
		{"all of empty", js, "all(effort[*] > 100)", true},
		{"any of empty", js, "any(effort[*] > 100)", false},
		{"count", js, "count(position[*] > 1) == 2", true},
		{"different arrays make a product", js, `any(name[*] == "b" && position[*] == 2) && !any(name[*] == "z" && position[*] == 2)`, true},
		{"min max", js, "min(position) == 1 && max(velocity[*]) == 0.5 && min(2, header.seq) == 1", true},
		{"sum mean", js, "sum(position) == 6 && mean(position[*]) == 2 && sum(effort) == 0", true},
		{"norm of array", js, "norm(position) == sqrt14", false},
		{"norm of args", js, "norm(3, 4) == 5", true},
		{"abs", js, "abs(velocity[1]) == 1 && abs(-3) == 3", true},
		{"regex", lg, `msg ~ "time(out|d)" && name !~ "^/lidar"`, true},
		{"regex backslash", lg, `msg ~ "\d+\.\d s$"`, true},
		{"contains", lg, `contains(msg, "timeout") && startswith(name, "/cam") && endswith(file, ".cpp")`, true},
		{"constant", lg, "level >= WARN && level == ERROR && level != FATAL", true},
		{"level int8", lg, "level == 8", true},
		{"string array any", lg, `any(topics[*] == "/b")`, true},
		{"key by element field", tf, "transforms[leg].transform.translation.z == 9", true},
		{"field match", tf, "transforms[child_frame_id=arm].transform.translation.x == 1", true},
		{"number field match", tf, "transforms[header.seq=8].child_frame_id == \"leg\"", true},
		{"zip elements", tf, `any(transforms[*].child_frame_id == "arm" && transforms[*].transform.translation.z == 3)`, true},
		{"zip elements no cross", tf, `any(transforms[*].child_frame_id == "arm" && transforms[*].transform.translation.z == 9)`, false},
		{"nested aggregate", tf, `all(transforms[*].header.frame_id == "world") && count(transforms[*].transform.rotation.w == 1) == 1`, true},
		{"norm of vector", tf, "norm(transforms[0].transform.translation) == norm(1, 2, 3)", true},
		{"max of norms", tf, "max(norm(transforms[*].transform.translation)) > 9", true},
		{"time terms", js, "@log == 1700000010.5 && @t == 10.5 && @publish < @log && @stamp == 100.000000005", true},
		{"topic term", js, `@topic == "/t" && @type == "sensor_msgs/JointState"`, true},
		{"no clock", js, "@clock > 0", false},
		{"nan", js, "0/0 != 0/0", true},
		{"int overflow goes float", js, "9223372036854775807 + 1 > 9223372036854775807", true},
		{"int and float compare exactly", js, "9007199254740993 > 9007199254740992.0 && 3 < 3.5 && -3 > -3.5 && 2 == 2.0", true},
		{"siblings walk on their own", js, "any(position[*] == 1) && any(position[*] == 3) && count(position[*] > 0) == 3", true},
		{"inner sees the outer element", tf, `any(transforms[*].child_frame_id == "leg" && all(transforms[*].transform.translation.z > 5))`, true},
		{"hex", js, "0x10 == 16", true},
		{"single quotes", lg, `name == '/camera_driver'`, true},
		{"precedence", js, "1 + 2 * 3 == 7 && !(1 > 2) || false", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.src, "sqrt14") {
				tc.src = strings.ReplaceAll(tc.src, "sqrt14", "3.7416573867739413")
				tc.want = true
			}
			e, err := Parse(tc.src)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			p, err := e.Compile(tc.m.plan, "/t")
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			s := p.NewState()
			got, err := p.Match(s, in(tc.m))
			if err != nil || got != tc.want {
				t.Fatalf("Match = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestValues(t *testing.T) {
	plan := mustPlan(t, "tf2_msgs/TFMessage", tfDef)
	tests := []struct {
		src  string
		want []string
	}{
		{`any(transforms[*].transform.translation.z > 5)`, []string{"transforms[1].transform.translation.z=9"}},
		{`transforms[leg].child_frame_id == "leg" && @t > 1`, []string{`transforms[leg].child_frame_id="leg"`, "@t=10.500000000"}},
		{`transforms[0].header.stamp > 99`, []string{"transforms[0].header.stamp=100.000000000"}},
		{`all(transforms[*].header.seq > 7)`, []string{"transforms[0].header.seq=7"}},
	}
	for _, tc := range tests {
		e, err := Parse(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.Compile(plan, "")
		if err != nil {
			t.Fatal(err)
		}
		s := p.NewState()
		p.Match(s, &Input{Data: tfMessage(), Log: 10_500_000_000})
		var got []string
		for _, v := range s.Values(nil) {
			got = append(got, v.Name+"="+v.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: values %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	js := mustPlan(t, "sensor_msgs/JointState", jointStateDef)
	tests := []struct {
		src     string
		col     int
		msg     string
		suggest string
	}{
		{"", 1, "empty expression", ""},
		{"position[0] >", 14, "ends early", ""},
		{"position[0] = 1", 13, "compare with '=='", ""},
		{"position[0] > 1 & true", 17, "write \"&&\"", ""},
		{"(position[0] > 1", 17, "expected ')'", ""},
		{"posiiton[0] > 1", 1, "has no field posiiton", "position[*]"},
		{"header.stam.secs > 1", 8, "has no field stam", "header.stamp"},
		{"header.frame_id > 1", 1, "cannot compare header.frame_id (a string) with 1 (a number)", ""},
		{"position > 1", 1, "position is an array", ""},
		{"header > 1", 1, "header is a message", ""},
		{"position[*] > 1", 1, "use it inside any", ""},
		{"position[0]", 1, "not true or false", ""},
		{"position[0] > 1 && 2", 20, "joins conditions", ""},
		{`header.frame_id ~ "("`, 19, "bad regular expression", ""},
		{`header.seq ~ "x"`, 1, "matches a string", ""},
		{"foo(1) > 0", 1, "unknown function foo", ""},
		{"abs(1, 2) > 0", 1, "abs takes abs(x)", ""},
		{"@lgo > 0", 1, "unknown time term", "@log"},
		{"header.frame_id.x == 1", 17, "frame_id is a string, not a message", ""},
		{"1 < 2 < 3", 7, "do not chain", ""},
		{"position[a][0] > 1", 1, "bad field path", ""},
		{"header[0].seq > 1", 7, "not an array", ""},
		{"/other.x > 1", 1, "not a field of topic /t", ""},
		{"len(1) > 0", 5, "len takes a string", ""},
		{"!1", 2, "'!' takes true or false", ""},
		{"true == 1", 1, "cannot compare", ""},
		{"true < false", 1, "booleans compare with == and !=", ""},
		{`"unterminated`, 1, "unterminated string", ""},
		{"3x > 1", 1, "bad number", ""},
		{"/t.@stamp > 1", 1, "a time term takes no topic: write @stamp alone", ""},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			e, err := Parse(tc.src)
			if err == nil {
				_, err = e.Compile(js, "/t")
			}
			var xe *Error
			if !errors.As(err, &xe) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if !strings.Contains(xe.Msg, tc.msg) || xe.Column(tc.src) != tc.col {
				t.Errorf("column %d: %q; want column %d: %q", xe.Column(tc.src), xe.Msg, tc.col, tc.msg)
			}
			if tc.suggest != "" && !slices.Contains(xe.Suggest, tc.suggest) {
				t.Errorf("suggestions %q lack %q", xe.Suggest, tc.suggest)
			}
			if d := xe.Describe(tc.src); !strings.Contains(d, "^") {
				t.Errorf("Describe lacks a caret: %s", d)
			}
		})
	}
}

func TestTopic(t *testing.T) {
	topics := []string{"/imu", "/imu/data", "/odom"}
	tests := []struct {
		src, topic, err string
	}{
		{"/imu.linear_acceleration.x > 1", "/imu", ""},
		{"/imu/data.x > 1 && /imu/data.y < 2", "/imu/data", ""},
		{"x > 1", "", ""},
		{"/imu.x > 1 && /odom.y > 1", "", "one message at a time"},
		{"/imuu.x > 1", "", "names no topic"},
		{"a / b > 1", "", ""},
	}
	for _, tc := range tests {
		e, err := Parse(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got, err := e.Topic(topics)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.topic {
			t.Errorf("%s: topic %q, %v; want %q", tc.src, got, err, tc.topic)
		}
	}
}

func TestCompileWithTopic(t *testing.T) {
	plan := mustPlan(t, "sensor_msgs/JointState", jointStateDef)
	e, err := Parse("/j/s.position[b] == 2 && /j/s.velocity[0] > 0")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Compile(plan, "/j/s")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Match(p.NewState(), &Input{Data: jointState()}); !ok || err != nil {
		t.Errorf("Match = %v, %v", ok, err)
	}
	if got := p.Terms(); !slices.Equal(got, []string{"position[b]", "velocity[0]"}) {
		t.Errorf("terms %q", got)
	}
}

func TestBadData(t *testing.T) {
	plan := mustPlan(t, "sensor_msgs/JointState", jointStateDef)
	data := jointState()
	e, _ := Parse("velocity[2] == 0")
	p, err := e.Compile(plan, "")
	if err != nil {
		t.Fatal(err)
	}
	s := p.NewState()
	for n := 0; n < len(data)-4; n++ { // the last 4 bytes (effort) are not read
		ok, err := p.Match(s, &Input{Data: data[:n]})
		if ok {
			t.Fatalf("%d bytes: matched", n)
		}
		if err != nil && !errors.Is(err, ErrData) {
			t.Fatalf("%d bytes: %v", n, err)
		}
	}
	if ok, err := p.Match(s, &Input{Data: data}); !ok || err != nil {
		t.Fatalf("whole: %v %v", ok, err)
	}
}

func TestBudget(t *testing.T) {
	plan := mustPlan(t, "sensor_msgs/JointState", jointStateDef)
	e := &enc{}
	e.header(1, 0, 0, "")
	e.u32(0)
	n := 3000
	e.u32(uint32(n))
	for i := 0; i < n; i++ {
		e.f64(float64(i))
	}
	e.u32(uint32(n))
	for i := 0; i < n; i++ {
		e.f64(float64(i))
	}
	e.u32(0)
	// 9 million pairs: more than MaxSteps.
	x, _ := Parse("any(position[*] < 0 && velocity[*] < 0)")
	p, err := x.Compile(plan, "")
	if err != nil {
		t.Fatal(err)
	}
	ok, err := p.Match(p.NewState(), &Input{Data: e.b})
	if ok || !errors.Is(err, ErrBudget) {
		t.Fatalf("Match = %v, %v; want ErrBudget", ok, err)
	}
	// One array of the same size is within it.
	x, _ = Parse("any(position[*] < 0) || max(velocity) == 2999")
	p, _ = x.Compile(plan, "")
	if ok, err := p.Match(p.NewState(), &Input{Data: e.b}); !ok || err != nil {
		t.Fatalf("Match = %v, %v", ok, err)
	}
}

func TestParseLimits(t *testing.T) {
	deep := strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + " > 0"
	if _, err := Parse(deep); err == nil || !strings.Contains(err.Error(), "nests") {
		t.Errorf("deep: %v", err)
	}
	long := strings.Repeat("a", MaxLen+1)
	if _, err := Parse(long); err == nil {
		t.Error("long expression parsed")
	}
	plan := mustPlan(t, "rosgraph_msgs/Log", logDef)
	re := `msg ~ "` + strings.Repeat("a", MaxRegexp+1) + `"`
	x, err := Parse(re)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Compile(plan, ""); err == nil {
		t.Error("long regexp compiled")
	}
}

func TestMatchAllocs(t *testing.T) {
	plan := mustPlan(t, "tf2_msgs/TFMessage", tfDef)
	x, _ := Parse(`any(transforms[*].child_frame_id == "leg" && transforms[*].transform.translation.z > 5) && transforms[arm].header.frame_id ~ "^wor"`)
	p, err := x.Compile(plan, "")
	if err != nil {
		t.Fatal(err)
	}
	s := p.NewState()
	in := &Input{Data: tfMessage()}
	if n := testing.AllocsPerRun(100, func() { p.Match(s, in) }); n != 0 {
		t.Errorf("%v allocations per Match", n)
	}
}

func TestCDR(t *testing.T) {
	plans := fuzzPlans(t)
	x, err := Parse(`@stamp == 1.000000002 && header.stamp.sec == 1 && header.frame_id == "b" && position[c] == 2 && len(name) == 1 && len(velocity) == 0`)
	if err != nil {
		t.Fatal(err)
	}
	p, err := x.Compile(plans[3], "")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Match(p.NewState(), &Input{Data: cdrJointState()}); !ok || err != nil {
		t.Fatalf("Match = %v, %v", ok, err)
	}
	if _, err := plans[3].Decode(cdrJointState()); err != nil {
		t.Fatalf("the test message does not decode: %v", err)
	}
}
