package expr

import (
	"errors"
	"fmt"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// fuzzSeeds are expressions of every construct, valid and not.
var fuzzSeeds = []string{
	"position[1] == 2", "position[b] > 1 && velocity[c] == 0", `any(name[*] == "b" && position[*] == 2)`,
	`msg ~ "time(out|d)" && name !~ "^/lidar"`, "level >= WARN", "norm(transforms[0].transform.translation) > 1",
	`any(transforms[*].child_frame_id == "arm" && all(transforms[*].transform.translation.z > 5))`,
	"transforms[child_frame_id=arm].transform.rotation.w == 1", "transforms[header.seq=8].child_frame_id == \"leg\"",
	"@log > 1 && @t < 2 && @stamp > 0 || @clock > 3", `@topic == "/x"`, "max(norm(transforms[*].transform.translation)) > 9",
	"len(position[1:]) == 2 && sum(position) == 6 && mean(position[*]) > 0 && min(1, 2) < max(3, 4)",
	"!(position[0] > 1) || -position[0] * 2 / 3 % 4 + 1 - 2 != 0", `contains(msg, "x") && startswith(name, 'y') && endswith(file, "\x41\u00e9")`,
	"0x1F == 31 && 1e3 == 1000 && 1_000 == 1000", "((((1 > 0))))", "count(topics[*] == \"/a\") == 1",
	"/t.position[0] > 1", "header.stamp.secs == 100 && header.stamp.nsecs > 0", "abs(velocity[1]) == 1",
	"position[", "position[0] >", "a = b", "&& ||", `"`, "1 < 2 < 3", "f(", "@", "position[\"a\"] == 1",
	"transforms[*].transform > 1", "len(1)", "norm(header)", "position[0:2][0]", "a.b.c.d.e.f.g",
}

func fuzzPlans(t testing.TB) []*rosmsg.Plan {
	cdr, err := rosmsg.CompileSchema(rosmsg.SchemaROS2Msg, rosmsg.EncodingCDR, "sensor_msgs/msg/JointState",
		"std_msgs/Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort"+sep+
			"MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id"+sep+"MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec")
	if err != nil {
		t.Fatal(err)
	}
	return []*rosmsg.Plan{
		mustPlan(t, "sensor_msgs/JointState", jointStateDef),
		mustPlan(t, "tf2_msgs/TFMessage", tfDef),
		mustPlan(t, "rosgraph_msgs/Log", logDef),
		cdr,
	}
}

// cdrJointState is a little-endian CDR sensor_msgs/msg/JointState: stamp
// 1 s 2 ns, frame "b", one joint "c" at position 2.
func cdrJointState() []byte {
	return []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 'b', 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 'c', 0, 0, 0,
		1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0}
}

// checkErr requires an *Error whose offset lies in the expression.
func checkErr(t *testing.T, src string, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %v (%T) is not an *Error", src, err, err)
	}
	if e.Offset < 0 || e.Offset > len(src) || e.Len < 1 {
		t.Fatalf("%q: error at %d+%d: %v", src, e.Offset, e.Len, e)
	}
	_ = e.Describe(src)
}

// FuzzParse parses random text and compiles what parses for three message
// types, then evaluates it on a real message and on cuts of it. Nothing
// may panic; mistakes are *Error inside the text; evaluation errors are
// ErrData or ErrBudget.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	plans := fuzzPlans(f)
	msgs := [][]byte{jointState(), tfMessage(), logMessage(8, "/cam", "timeout 3.5 s"), cdrJointState()}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			checkErr(t, src, err)
			return
		}
		if _, err := e.Topic([]string{"/t", "/t/x"}); err != nil {
			checkErr(t, src, err)
		}
		for i, p := range plans {
			prog, err := e.Compile(p, "/t")
			if err != nil {
				checkErr(t, src, err)
				continue
			}
			s := prog.NewState()
			for _, d := range [][]byte{msgs[i], msgs[i][:len(msgs[i])/2], nil} {
				_, err := prog.Match(s, &Input{Data: d, Log: 5, Topic: "/t"})
				if err != nil && !errors.Is(err, ErrData) && !errors.Is(err, ErrBudget) {
					t.Fatalf("%q: Match: %v", src, err)
				}
				s.Values(nil)
			}
		}
	})
}

// FuzzEval evaluates expressions on random message data: nothing may
// panic, the only errors are ErrData and ErrBudget, and the terms read
// through their fast paths (rosmsg.PathSet) say what the generic walk says:
// the same match, error and values.
func FuzzEval(f *testing.F) {
	msgs := [][]byte{jointState(), tfMessage(), logMessage(8, "/cam", "timeout 3.5 s")}
	for i, s := range fuzzSeeds {
		f.Add(uint8(i%3), s, msgs[i%3])
	}
	f.Add(uint8(3), "@stamp > 1 && position[c] == 2 && any(name[*] == \"c\")", cdrJointState())
	f.Add(uint8(0), "any(position[*] > 0 && velocity[*] > 0)", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255})
	plans := fuzzPlans(f)
	f.Fuzz(func(t *testing.T, which uint8, src string, data []byte) {
		e, err := Parse(src)
		if err != nil {
			return
		}
		prog, err := e.Compile(plans[int(which)%len(plans)], "")
		if err != nil {
			return
		}
		s := prog.NewState()
		ok, err := prog.Match(s, &Input{Data: data})
		if err != nil && !errors.Is(err, ErrData) && !errors.Is(err, ErrBudget) {
			t.Fatalf("%q: Match: %v", src, err)
		}
		vals := s.Values(nil)
		for _, v := range vals {
			_ = v.AppendJSON(nil)
		}
		slow, err2 := e.compileWith(plans[int(which)%len(plans)], "", false)
		if err2 != nil {
			t.Fatalf("%q: compiles with fast paths, not without: %v", src, err2)
		}
		ss := slow.NewState()
		sok, serr := slow.Match(ss, &Input{Data: data})
		got := fmt.Sprintf("%v %v %v", ok, err, vals)
		if want := fmt.Sprintf("%v %v %v", sok, serr, ss.Values(nil)); got != want {
			t.Fatalf("%q on % x: fast paths say %s, the walk %s", src, data, got, want)
		}
	})
}
