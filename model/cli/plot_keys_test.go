package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// jointStateWriter writes a sensor_msgs/JointState bag with the reference
// writer: 6 named joints, 300 messages; every 7th message lists the joints
// in reverse, every 11th rotated, message 150 lacks the elbow, every 13th
// has no efforts.
const jointStateWriter = `
import sys
import genpy
import rosbag
from sensor_msgs.msg import JointState

names = ['shoulder_pan', 'shoulder_lift', 'elbow', 'wrist_1', 'wrist_2', 'wrist_3']
with rosbag.Bag(sys.argv[1], 'w') as b:
    for i in range(300):
        m = JointState()
        m.header.seq = i
        m.header.stamp = genpy.Time(1700000000, i * 10000000)
        idx = list(range(6))
        if i % 7 == 3:
            idx.reverse()
        if i % 11 == 5:
            idx = idx[2:] + idx[:2]
        if i == 150:
            idx.remove(2)
        m.name = [names[k] for k in idx]
        m.position = [k + i * 0.001 + 0.1 for k in idx]
        m.velocity = [-(k + 1) * 0.5 + i * 1e-4 for k in idx]
        m.effort = [] if i % 13 == 0 else [k * 2.0 + i / 3.0 for k in idx]
        b.write('/joint_states', m, genpy.Time(1700000000, i * 10000000 + 5000))
`

func writeJointStateBag(t *testing.T, path string) {
	t.Helper()
	cmd := exec.Command(refPython, "-c", jointStateWriter, path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing %s with the reference: %v\n%s", path, err, out)
	}
}

// namedPoints is each series' points, by series name, and the names in
// order.
type namedPoints struct {
	names  []string
	points map[string][]refPoint
}

func (n *namedPoints) add(name string, p refPoint) {
	if n.points == nil {
		n.points = map[string][]refPoint{}
	}
	if _, ok := n.points[name]; !ok {
		n.names = append(n.names, name)
	}
	n.points[name] = append(n.points[name], p)
}

// selectReference runs testdata/select_series.py on the decoded messages
// of topic (JSON lines from genpy_dump.py, or mcap_cat.mjs for MCAP) for
// each path, and returns the values by element name, topic included, the
// names in order of path, then of first appearance.
func selectReference(t *testing.T, dump []byte, topic string, paths []string) namedPoints {
	t.Helper()
	cmd := exec.Command(refPython, append([]string{testdata + "/select_series.py"}, paths...)...)
	cmd.Stdin = bytes.NewReader(dump)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("select_series.py: %v\n%s", err, errb.String())
	}
	byPath := map[string]*namedPoints{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var line struct {
			Path, Name string
			T          int64
			V          any
			Mismatch   bool
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&line); err != nil {
			t.Fatal(err)
		}
		if line.Mismatch {
			continue
		}
		var v float64
		switch x := line.V.(type) {
		case json.Number:
			v, err = strconv.ParseFloat(string(x), 64)
			if err != nil {
				t.Fatal(err)
			}
		case string:
			v = map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}[x]
		}
		np := byPath[line.Path]
		if np == nil {
			np = &namedPoints{}
			byPath[line.Path] = np
		}
		np.add(topic+"."+line.Name, refPoint{line.T, v})
	}
	var all namedPoints
	for _, p := range paths {
		if np := byPath[p]; np != nil {
			for _, n := range np.names {
				for _, pt := range np.points[n] {
					all.add(n, pt)
				}
			}
		}
	}
	return all
}

// readMultiCSV reads a CSV written with --absolute: one column per series.
func readMultiCSV(t *testing.T, path string) namedPoints {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out namedPoints
	out.names = rows[0][1:]
	out.points = map[string][]refPoint{}
	for _, r := range rows[1:] {
		sec, frac, _ := strings.Cut(r[0], ".")
		s, err1 := strconv.ParseInt(sec, 10, 64)
		n, err2 := strconv.ParseInt(frac, 10, 64)
		if err1 != nil || err2 != nil || len(frac) != 9 {
			t.Fatalf("bad CSV row %q", r)
		}
		for i, cell := range r[1:] {
			if cell == "" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatalf("bad CSV cell %q", cell)
			}
			out.points[out.names[i]] = append(out.points[out.names[i]], refPoint{s*1e9 + n, v})
		}
	}
	return out
}

// TestPlotSelectorsMatchReference plots paths with [*], ranges, keys and
// field matches through `bagscope plot --csv` and compares every series
// (its name, its place among the columns, every point exactly) with the
// reference: genpy's decoding (mcap_cat.mjs's for MCAP) of the same
// messages, selected by testdata/select_series.py. The bags: a JointState
// bag written by the reference writer (joints reordered, one missing),
// the PR2 JointTrajectoryControllerState bag (keyed by joint_names), /tf
// with frames in separate messages, in shared messages and as old tf
// messages, and a ROS 2 MCAP. --stats gives one row per series.
func TestPlotSelectorsMatchReference(t *testing.T) {
	requireRef(t)
	dir := t.TempDir()
	joints := dir + "/joints.bag"
	writeJointStateBag(t, joints)
	tests := []struct {
		name, bag, topic string
		paths            []string
		series           int // at least this many
		mcap             bool
	}{
		{"jointstate", joints, "/joint_states", []string{"position[*]", "velocity[shoulder_pan]", "effort[1:4]",
			"position[name=wrist_3]", "velocity[elbow]"}, 6 + 1 + 6 + 1 + 1, false},
		{"pr2 controller state", sharedBags + "/gt-ros-pkg__hrl/hai_sandbox/gt_strongbot/motions/joints_2010-08-17-19-51-09.bag",
			"r_arm_controller/state", []string{"actual.positions[*]", "error.positions[r_elbow_flex_joint]", "desired.velocities[0:3]"}, 7 + 1 + 3, false},
		{"pr2 left arm", sharedBags + "/gt-ros-pkg__hrl/hai_sandbox/gt_strongbot/motions/joints_2010-08-17-19-51-09.bag",
			"l_arm_controller/state", []string{"desired.positions[*]", "actual.velocities[l_wrist_roll_joint]"}, 7 + 1, false},
		{"tf frames in turns", sharedBags + "/cruise-automation__rosbag.js/fixtures/example.bag", "/tf",
			[]string{"transforms[*].transform.translation.x", "transforms[child_frame_id=turtle2].transform.rotation.z",
				"transforms[header.frame_id=world].transform.translation.y", "transforms[turtle1].header.stamp.nsecs"}, 2 + 1 + 1 + 1, false},
		{"old tf", sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag", "/tf",
			[]string{"transforms[*].transform.translation.z", "transforms[/laser].transform.rotation.w"}, 3 + 1, false},
		{"tf frames come and go", testdata + "/none-multichunk.bag", "/tf",
			[]string{"transforms[*].transform.translation.x", "transforms[1:].header.stamp.secs", "transforms[0].transform.translation.y"}, 2 + 1 + 1, false},
		{"ros2 mcap tf", testdata + "/ros2-mixed.mcap", "/tf",
			[]string{"transforms[*].transform.translation.y", "transforms[laser].header.stamp.nanosec", "transforms[header.frame_id=odom].transform.translation.x"}, 2 + 1 + 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.bag); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal(err)
				}
				t.Skip(err)
			}
			if tc.mcap {
				requireNodeOracles(t)
			}
			t.Parallel()
			var dump []byte
			if tc.mcap {
				out, stderr, code, err := nodeOracle("mcap_cat.mjs", tc.bag)
				if err != nil || code != 0 {
					t.Fatalf("mcap_cat.mjs: %v %d %s", err, code, stderr)
				}
				for _, line := range strings.SplitAfter(out, "\n") {
					if strings.HasPrefix(line, `{"topic": "`+tc.topic+`"`) {
						dump = append(dump, line...)
					}
				}
			} else {
				cmd := exec.Command(refPython, testdata+"/genpy_dump.py", tc.bag, "--topic", tc.topic)
				var errb bytes.Buffer
				cmd.Stderr = &errb
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("genpy_dump.py: %v\n%s", err, errb.String())
				}
				dump = out
			}
			want := selectReference(t, dump, tc.topic, tc.paths)
			if len(want.names) < tc.series {
				t.Fatalf("the reference has %d series (%q), want at least %d", len(want.names), want.names, tc.series)
			}

			out := t.TempDir()
			args := []string{"plot", tc.bag}
			for _, p := range tc.paths {
				args = append(args, tc.topic+"."+p)
			}
			args = append(args, "--csv", out+"/p.csv", "--absolute", "--stats")
			stdout, stderr, code := run(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := readMultiCSV(t, out+"/p.csv")
			if !slices.Equal(got.names, want.names) {
				t.Fatalf("CSV columns\n%q\nreference series\n%q", got.names, want.names)
			}
			for _, name := range want.names {
				g, w := got.points[name], want.points[name]
				sortPoints(g)
				sortPoints(w)
				if len(g) != len(w) {
					t.Fatalf("%s: %d points, the reference has %d", name, len(g), len(w))
				}
				for i := range g {
					if g[i].t != w[i].t || math.Float64bits(g[i].v) != math.Float64bits(w[i].v) {
						t.Fatalf("%s point %d: got (%d, %v), reference (%d, %v)", name, i, g[i].t, g[i].v, w[i].t, w[i].v)
					}
				}
			}
			// --stats: a header and one row per series, in the same order.
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 1+len(want.names) {
				t.Fatalf("--stats printed %d lines for %d series:\n%s", len(lines), len(want.names), stdout)
			}
			for i, name := range want.names {
				f := strings.Fields(lines[1+i])
				if f[0] != name || f[1] != strconv.Itoa(len(want.points[name])) {
					t.Errorf("--stats row %q, want %s with %d points", lines[1+i], name, len(want.points[name]))
				}
			}
		})
	}
}

// TestPlotSelectorWarnings checks what plot says about elements that do
// not always appear and about paths that select nothing.
func TestPlotSelectorWarnings(t *testing.T) {
	requireRef(t)
	dir := t.TempDir()
	joints := dir + "/joints.bag"
	writeJointStateBag(t, joints)
	_, stderr, code := run("plot", joints, "/joint_states.position[elbow]", "/joint_states.position[nope]",
		"/joint_states.position[40:]", "--csv", dir+"/p.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"/joint_states.position[elbow]: 1 messages lack the field",
		"/joint_states.position[nope]: 300 messages lack the field",
		"/joint_states.position[40:]: no message holds an element it selects",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	_, stderr, code = run("plot", joints, "/joint_states.position[a=b]", "--csv", dir+"/p.csv")
	if code != 2 || !strings.Contains(stderr, `no string array "a"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
