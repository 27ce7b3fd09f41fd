package cli

import (
	"bufio"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPlotTimeBasesMatchReference checks `plot --x publish` and `--x clock`
// point by point against readers that share no code with bagscope:
//   - publish: ros2-mixed.mcap, whose publish times differ from its log
//     times, against @mcap/core's publish times (mcap_raw.mjs) joined in
//     order with the values @foxglove/rosmsg2-serialization decodes
//     (mcap_cat.mjs);
//   - publish on ROS 1, which keeps no send time: the receive time, as the
//     reference reads it;
//   - clock: a bag written by the reference writer with /clock at half
//     speed, starting after the topic and pausing for a second, against
//     the sim time the reference computes (testdata/oracle/clock_points.py):
//     the last /clock received at or before each message.
func TestPlotTimeBasesMatchReference(t *testing.T) {
	requireRef(t)
	clockBag := filepath.Join(t.TempDir(), "clock.bag")
	if out, err := exec.Command(refPython, oracleScripts+"/clock_points.py", "write", clockBag).CombinedOutput(); err != nil {
		t.Fatalf("clock_points.py write: %v\n%s", err, out)
	}
	tests := []struct {
		name, bag, topic, path, base string
		want                         func(t *testing.T) []refPoint
		warn                         string // on stderr
	}{
		{"publish ros2 mcap", testdata + "/ros2-mixed.mcap", "/imu", "linear_acceleration.x", "publish",
			func(t *testing.T) []refPoint {
				return mcapPublishPoints(t, testdata+"/ros2-mixed.mcap", "/imu", "linear_acceleration", "x")
			}, ""},
		{"publish ros2 mcap odom", testdata + "/ros2-mixed.mcap", "/odom", "twist.twist.angular.z", "publish",
			func(t *testing.T) []refPoint {
				return mcapPublishPoints(t, testdata+"/ros2-mixed.mcap", "/odom", "twist", "twist", "angular", "z")
			}, ""},
		{"publish ros1 is receive", testdata + "/none-multichunk.bag", "/scan", "angle_increment", "publish",
			func(t *testing.T) []refPoint {
				return referencePoints(t, testdata+"/none-multichunk.bag", "/scan", "angle_increment", false)
			}, ""},
		{"clock sim time", clockBag, "/x", "data", "clock",
			func(t *testing.T) []refPoint { return clockPoints(t, clockBag, "/x") }, "20 messages were received before the first /clock"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasSuffix(tc.bag, ".mcap") {
				requireNodeOracles(t)
			}
			dir := t.TempDir()
			_, stderr, code := run("plot", tc.bag, tc.topic+"."+tc.path, "--x", tc.base, "--csv", dir+"/p.csv", "--absolute")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tc.warn != "" && !strings.Contains(stderr, tc.warn) {
				t.Errorf("stderr does not say %q:\n%s", tc.warn, stderr)
			}
			got := readPlotCSV(t, dir+"/p.csv")
			want := tc.want(t)
			if len(want) == 0 {
				t.Fatal("the reference has no points")
			}
			if len(got) != len(want) {
				t.Fatalf("%d points, the reference has %d", len(got), len(want))
			}
			sortPoints(got)
			sortPoints(want)
			for i := range got {
				if got[i].t != want[i].t || math.Float64bits(got[i].v) != math.Float64bits(want[i].v) {
					t.Fatalf("point %d: got (%d, %v), reference (%d, %v)", i, got[i].t, got[i].v, want[i].t, want[i].v)
				}
			}
			if tc.base == "publish" && strings.HasSuffix(tc.bag, ".mcap") {
				// The case means something only if the bases differ.
				_, stderr, code := run("plot", tc.bag, tc.topic+"."+tc.path, "--csv", dir+"/r.csv", "--absolute")
				if code != 0 {
					t.Fatalf("receive base: exit %d: %s", code, stderr)
				}
				recv := readPlotCSV(t, dir+"/r.csv")
				sortPoints(recv)
				same := 0
				for i := range recv {
					if recv[i].t == got[i].t {
						same++
					}
				}
				if same == len(recv) {
					t.Fatal("every publish time equals its receive time: the fixture does not tell the bases apart")
				}
			}
		})
	}
}

// TestPlotTimeBaseErrors checks the refusals of --x clock (an unknown
// base is in TestPlotErrors).
func TestPlotTimeBaseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"clock without /clock", []string{"plot", testdata + "/robot.bag", "/odom.pose.pose.position.x", "--x", "clock", "--stats"}, "no /clock"},
		{"clock on a .db3 without /clock", []string{"plot", sharedBags + "/ros2__rosbag2/@e3953916/rosbag2_tests/resources/test/test.db3", "/test_topic.int32_value", "--x", "clock", "--stats"}, "no /clock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q: want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

// mcapPublishPoints pairs each message of topic, in log time order (ties in
// file order), with its publish time from mcap_raw.mjs and the value at
// field (keys into the decoded message) from mcap_cat.mjs.
func mcapPublishPoints(t *testing.T, file, topic string, field ...string) []refPoint {
	t.Helper()
	raw, stderr, code, err := nodeOracle("mcap_raw.mjs", file)
	if err != nil || code != 0 {
		t.Fatalf("mcap_raw.mjs: %v %d %s", err, code, stderr)
	}
	var pubs []int64
	for _, line := range strings.Split(strings.TrimSpace(raw), "\n") {
		var m struct {
			Topic   string `json:"topic"`
			Publish string `json:"publish"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m.Topic != topic {
			continue
		}
		p, err := strconv.ParseInt(m.Publish, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, p)
	}
	cat, stderr, code, err := nodeOracle("mcap_cat.mjs", file)
	if err != nil || code != 0 {
		t.Fatalf("mcap_cat.mjs: %v %d %s", err, code, stderr)
	}
	var out []refPoint
	for _, line := range strings.Split(strings.TrimSpace(cat), "\n") {
		if !strings.HasPrefix(line, `{"topic": "`+topic+`"`) {
			continue
		}
		var m struct {
			Msg map[string]any `json:"msg"`
		}
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		var v any = m.Msg
		for _, k := range field {
			v = v.(map[string]any)[k]
		}
		f, err := strconv.ParseFloat(string(v.(json.Number)), 64)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) >= len(pubs) {
			t.Fatalf("mcap_cat.mjs has more %s messages than mcap_raw.mjs (%d)", topic, len(pubs))
		}
		out = append(out, refPoint{pubs[len(out)], f})
	}
	if len(out) != len(pubs) {
		t.Fatalf("mcap_cat.mjs has %d %s messages, mcap_raw.mjs %d", len(out), topic, len(pubs))
	}
	return out
}

// clockPoints reads clock_points.py's "SIM_NS VALUE" lines.
func clockPoints(t *testing.T, bagPath, topic string) []refPoint {
	t.Helper()
	out, err := exec.Command(refPython, oracleScripts+"/clock_points.py", "points", bagPath, topic).Output()
	if err != nil {
		t.Fatalf("clock_points.py points: %v", err)
	}
	var pts []refPoint
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		a, b, _ := strings.Cut(sc.Text(), " ")
		tn, err1 := strconv.ParseInt(a, 10, 64)
		v, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		pts = append(pts, refPoint{tn, v})
	}
	return pts
}
