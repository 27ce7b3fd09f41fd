package query

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
)

const testdata = "../../testdata"

// refMsg is one message as a reference reader decoded it: genpy
// (testdata/genpy_dump.py) for ROS 1, @mcap/core with
// @foxglove/rosmsg2-serialization (testdata/oracle/mcap_cat.mjs) for MCAP.
type refMsg struct {
	Topic string
	Secs  int64
	Nsecs int64
	Msg   map[string]any
}

func (r refMsg) ns() int64 { return r.Secs*1e9 + r.Nsecs }

// requireRef skips (fails in CI) when a reference reader is missing.
func requireRef(t *testing.T, what string, err error) {
	t.Helper()
	msg := fmt.Sprintf("%s is not available: %v", what, err)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s; the reference readers are required in CI (make deps installs them)", msg)
	}
	t.Skipf("skipping: %s; CI never skips this", msg)
}

// refMessages decodes topic of file with the reference reader.
func refMessages(t *testing.T, file, topic string) []refMsg {
	t.Helper()
	var cmd *exec.Cmd
	if strings.HasSuffix(file, ".bag") {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			requireRef(t, "/usr/bin/python3 (python3-rosbag)", err)
		}
		cmd = exec.Command("/usr/bin/python3", testdata+"/genpy_dump.py", file, "--topic", topic)
	} else {
		oracletest.Require(t)
		cmd = oracletest.Command("mcap_cat.mjs", file)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, errb.String())
	}
	var msgs []refMsg
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var l struct {
			Topic string
			Time  struct{ Secs, Nsecs int64 }
			Msg   map[string]any
		}
		if err := d.Decode(&l); err != nil {
			t.Fatal(err)
		}
		if l.Topic == topic {
			msgs = append(msgs, refMsg{l.Topic, l.Time.Secs, l.Time.Nsecs, l.Msg})
		}
	}
	if len(msgs) == 0 {
		t.Fatalf("the reference gives no message on %s", topic)
	}
	return msgs
}

// num reads a reference number ("Infinity", "NaN" as floats).
func num(v any) float64 {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case string:
		switch x {
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		return math.NaN()
	case bool:
		if x {
			return 1
		}
	}
	return 0
}

func field(m any, path ...string) any {
	for _, p := range path {
		mm, _ := m.(map[string]any)
		m = mm[p]
	}
	return m
}

func list(v any) []any { l, _ := v.([]any); return l }

var segRE = regexp.MustCompile(`^([A-Za-z0-9_]+)(?:\[([^\]]*)\])?$`)

// lookup reads the value a hit names (a field path with [N], [KEY] through
// a sibling name array, [FIELD=VALUE]) from a reference message, the slow
// way.
func lookup(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, seg := range strings.Split(path, ".") {
		g := segRE.FindStringSubmatch(seg)
		if g == nil {
			return nil, false
		}
		obj, _ := cur.(map[string]any)
		v, ok := obj[g[1]]
		if !ok {
			return nil, false
		}
		if g[2] == "" {
			cur = v
			continue
		}
		arr := list(v)
		if i, err := strconv.Atoi(g[2]); err == nil {
			if i >= len(arr) {
				return nil, false
			}
			cur = arr[i]
			continue
		}
		key, val, match := strings.Cut(g[2], "=")
		found := false
		for i, e := range arr {
			switch {
			case match && fmt.Sprint(field(e, strings.Split(key, ".")...)) == val:
				found = true
			case !match:
				if names := list(obj["name"]); len(names) == len(arr) {
					found = names[i] == key
				} else {
					found = field(e, "child_frame_id") == key || field(e, "name") == key
				}
			}
			if found {
				cur = e
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return cur, true
}

// TestFindMatchesReference: find's hits and the values it reports equal
// what predicates written by hand compute on the reference readers'
// decoding (genpy for ROS 1 bags, the npm oracle for MCAP).
func TestFindMatchesReference(t *testing.T) {
	robot := testdata + "/robot.bag"
	ros2 := testdata + "/ros2-mixed.mcap"
	tests := []struct {
		file, topic, expr string
		pred              func(m map[string]any, r refMsg, start int64) bool
	}{
		{robot, "/joint_states", "/joint_states.position[elbow] > 1",
			func(m map[string]any, _ refMsg, _ int64) bool {
				i := slices.Index(list(m["name"]), any("elbow"))
				return num(list(m["position"])[i]) > 1
			}},
		{robot, "/rosout", `level >= WARN && (msg ~ "lost|without" || name == "/base")`,
			func(m map[string]any, _ refMsg, _ int64) bool {
				s := m["msg"].(string)
				return num(m["level"]) >= 4 && (strings.Contains(s, "lost") || strings.Contains(s, "without") || m["name"] == "/base")
			}},
		{robot, "/tf", `any(transforms[*].child_frame_id == "arm_link" && transforms[*].transform.rotation.z > 0.3)`,
			func(m map[string]any, _ refMsg, _ int64) bool {
				for _, tr := range list(m["transforms"]) {
					if field(tr, "child_frame_id") == "arm_link" && num(field(tr, "transform", "rotation", "z")) > 0.3 {
						return true
					}
				}
				return false
			}},
		{robot, "/scan", "count(ranges[*] > 3.5) > 20 && header.seq % 2 == 0",
			func(m map[string]any, _ refMsg, _ int64) bool {
				n := 0
				for _, r := range list(m["ranges"]) {
					if num(r) > 3.5 {
						n++
					}
				}
				seq, _ := field(m, "header", "seq").(json.Number).Int64()
				return n > 20 && seq%2 == 0
			}},
		{robot, "/odom", "/odom.twist.twist.linear.x > 1.2 && @t < 5 && abs(pose.pose.position.y) > 0.5",
			func(m map[string]any, r refMsg, start int64) bool {
				return num(field(m, "twist", "twist", "linear", "x")) > 1.2 && float64(r.ns()-start)/1e9 < 5 &&
					math.Abs(num(field(m, "pose", "pose", "position", "y"))) > 0.5
			}},
		{ros2, "/imu", `/imu.linear_acceleration.z > 9.85 && header.frame_id == "imu_link"`,
			func(m map[string]any, _ refMsg, _ int64) bool {
				return num(field(m, "linear_acceleration", "z")) > 9.85 && field(m, "header", "frame_id") == "imu_link"
			}},
		{ros2, "/chatter", `/chatter.data ~ "^(alpha|bravo) .* [0-9]*7$"`,
			func(m map[string]any, _ refMsg, _ int64) bool {
				return regexp.MustCompile(`^(alpha|bravo) .* [0-9]*7$`).MatchString(m["data"].(string))
			}},
		{ros2, "/tf", "/tf.transforms[base_link].transform.translation.x < 0.95 && transforms[0].header.stamp < @log",
			func(m map[string]any, r refMsg, _ int64) bool {
				st := field(list(m["transforms"])[0], "header", "stamp")
				sec, _ := field(st, "sec").(json.Number).Int64()
				nsec, _ := field(st, "nanosec").(json.Number).Int64()
				for _, tr := range list(m["transforms"]) {
					if field(tr, "child_frame_id") == "base_link" {
						return num(field(tr, "transform", "translation", "x")) < 0.95 && sec*1e9+nsec < r.ns()
					}
				}
				return false
			}},
		{ros2, "/cmd", "norm(/cmd.linear) > 0.55 || abs(angular.z) > 0.45",
			func(m map[string]any, _ refMsg, _ int64) bool {
				x, y, z := num(field(m, "linear", "x")), num(field(m, "linear", "y")), num(field(m, "linear", "z"))
				return math.Sqrt(x*x+y*y+z*z) > 0.55 || math.Abs(num(field(m, "angular", "z"))) > 0.45
			}},
		{ros2, "/cmd", "/cmd.norm(linear) > 0.55", nil}, // a topic before a function: an error
	}
	// Each case both ways: reading the messages, and in the quick
	// doctor's pass (Options.Doctor, as the find command searches one
	// file: MCAP and, with bag.DoctorVisits, ROS 1).
	for _, tc := range tests {
		for _, doctor := range []bool{false, true} {
			name := tc.expr
			if doctor {
				name += " in the doctor's pass"
			}
			t.Run(name, func(t *testing.T) {
				s, err := model.OpenStorage(tc.file)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				res, err := Find(context.Background(), s, tc.expr, bag.MessageFilter{}, Options{Doctor: doctor})
				if tc.pred == nil {
					if err == nil {
						t.Fatal("no error")
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				start, _ := model.TimeRange(s)
				var want []int64
				ref := map[int64]map[string]any{}
				for _, r := range refMessages(t, tc.file, tc.topic) {
					if tc.pred(r.Msg, r, start.Nanos()) {
						want = append(want, r.ns())
						ref[r.ns()] = r.Msg
					}
				}
				var got []int64
				for _, h := range res.Hits {
					if h.Topic != tc.topic {
						t.Fatalf("hit on %s", h.Topic)
					}
					got = append(got, h.Time.Nanos())
					for _, v := range h.Values {
						if strings.HasPrefix(v.Name, "@") {
							continue
						}
						rv, ok := lookup(ref[h.Time.Nanos()], v.Name)
						if !ok {
							t.Fatalf("hit at %s: the reference has no %s", h.Time, v.Name)
						}
						if !sameValue(v, rv) {
							t.Errorf("hit at %s: %s = %s, the reference %v", h.Time, v.Name, v, rv)
						}
					}
				}
				if len(want) == 0 || len(want) == len(res.Hits) && res.Messages == int64(len(res.Hits)) {
					t.Fatalf("the case selects %d of %d messages: it tests nothing", len(want), res.Messages)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("hits at %v\nthe reference %v", got, want)
				}
				if doctor && (res.Report == nil || !res.Report.Visited) {
					t.Fatal("the search was not the doctor's pass")
				}
				t.Logf("%d of %d messages match, as the reference says", len(got), res.Messages)
			})
		}
	}
}

func sameValue(v expr.Value, ref any) bool {
	switch v.Kind {
	case expr.String:
		return v.Str == ref
	case expr.Bool:
		return (v.Int != 0) == (ref == true)
	case expr.Time, expr.Duration:
		m, _ := ref.(map[string]any)
		sec, nsec := m["secs"], m["nsecs"]
		if sec == nil {
			sec, nsec = m["sec"], m["nanosec"]
		}
		s, _ := sec.(json.Number).Int64()
		n, _ := nsec.(json.Number).Int64()
		return v.Int == s*1e9+n
	}
	f, _ := v.Number()
	r := num(ref)
	return f == r || math.IsNaN(f) && math.IsNaN(r)
}

// TestFindTopics: an expression that names no topic is evaluated on
// every topic whose type has its fields; the others are listed as unread.
func TestFindTopics(t *testing.T) {
	s, err := model.OpenStorage(testdata + "/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := Find(context.Background(), s, `header.frame_id == "odom" || header.frame_id == "imu_link"`, bag.MessageFilter{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Compiled.Topics, []string{"/imu", "/odom"}) {
		t.Errorf("searched %v", res.Compiled.Topics)
	}
	var unread []string
	for _, u := range res.Compiled.Unread {
		unread = append(unread, u.Topic)
	}
	if !slices.Equal(unread, []string{"/chatter", "/cmd", "/tf"}) {
		t.Errorf("unread %v", unread)
	}
	if res.Messages != 3000 || len(res.Hits) != 3000 {
		t.Errorf("%d hits in %d messages, want all 3000 of /imu and /odom", len(res.Hits), res.Messages)
	}
	for i := 1; i < len(res.Hits); i++ {
		if res.Hits[i].Time.Before(res.Hits[i-1].Time) {
			t.Fatalf("hits out of order at %d", i)
		}
	}
	// A range and a topic selection narrow the search.
	start, _ := model.TimeRange(s)
	f := bag.MessageFilter{Topics: []string{"/odom"}, Start: start, End: bag.TimeFromNanos(start.Nanos() + 2e9)}
	res, err = Find(context.Background(), s, `header.frame_id == "odom"`, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Topic != "/odom" || h.Time.Nanos() > start.Nanos()+2e9 {
			t.Fatalf("hit %s at %s outside the selection", h.Topic, h.Time)
		}
	}
	if n := len(res.Hits); n < 150 || n > 250 {
		t.Errorf("%d hits in 2 s of /odom at 100 Hz", n)
	}
}

// TestFindErrors: mistakes say where they are.
func TestFindErrors(t *testing.T) {
	s, err := model.OpenStorage(testdata + "/robot.bag")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct{ expr, want string }{
		{"/odom.pose.pose.positon.x > 1", "did you mean pose.pose.position"},
		{"/nosuch.x > 1", "names no topic"},
		{"positon.x > 1", "no selected topic has what the expression reads"},
		{"/odom.pose.pose.position.x >", "ends early"},
	}
	for _, tc := range tests {
		_, err := Find(context.Background(), s, tc.expr, bag.MessageFilter{}, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.expr, err, tc.want)
		}
		var xe *expr.Error
		if err != nil && !strings.Contains(tc.want, "no selected") && !errors.As(err, &xe) {
			t.Errorf("%s: %v has no *expr.Error", tc.expr, err)
		}
	}
	_, err = Find(context.Background(), s, "/odom.pose.pose.position.x > 1", bag.MessageFilter{Topics: []string{"/tf"}}, Options{})
	if err == nil || !strings.Contains(err.Error(), "leave out") {
		t.Errorf("a topic outside the selection: %v", err)
	}
}

// TestFindCancel: a cancelled find stops with the context's error.
func TestFindCancel(t *testing.T) {
	s, err := model.OpenStorage(testdata + "/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Find(ctx, s, "@t > 0", bag.MessageFilter{}, Options{})
	if err != context.Canceled {
		t.Fatalf("error %v", err)
	}
}
