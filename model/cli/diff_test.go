package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// diffOut is the part of `diff --json` the tests read.
type diffOut struct {
	Equal    bool      `json:"equal"`
	By       string    `json:"by"`
	Messages [2]uint64 `json:"messages"`
	Topics   []struct {
		Topic             string `json:"topic"`
		Equal             bool   `json:"equal"`
		OnlyIn            string `json:"only_in"`
		DefinitionsDiffer bool   `json:"definitions_differ"`
		TypesDiffer       bool   `json:"types_differ"`
		Sides             [2]struct {
			Messages uint64 `json:"messages"`
			First    *struct {
				NS int64 `json:"ns"`
			} `json:"first"`
			Last *struct {
				NS int64 `json:"ns"`
			} `json:"last"`
		} `json:"sides"`
		Changed, Dropped, Added uint64
		First                   *struct {
			Kind string `json:"kind"`
			Time struct {
				NS int64 `json:"ns"`
			} `json:"time"`
			Index [2]int64   `json:"index"`
			Field string     `json:"field"`
			Byte  *int       `json:"byte"`
			Vals  *[2]string `json:"values"`
		} `json:"first_difference"`
	} `json:"topics"`
}

func runDiffJSON(t *testing.T, args ...string) (diffOut, int) {
	t.Helper()
	out, stderr, code := run(append([]string{"diff", "--json"}, args...)...)
	var d diffOut
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("diff %v: exit %d, output not JSON: %v\n%s%s", args, code, err, out, stderr)
	}
	return d, code
}

// refTopics reads a recording with the reference reader (testdata/raw_dump.py:
// python3-rosbag for a bag) and returns per topic its count and first and
// last receive times.
func refTopics(t *testing.T, path string) map[string][3]int64 {
	t.Helper()
	out, err := exec.Command(refPython, testdata+"/raw_dump.py", path).Output()
	if err != nil {
		t.Fatalf("reference reader on %s: %v", path, err)
	}
	m := map[string][3]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var l struct {
			Topic string `json:"topic"`
			T     int64  `json:"t"`
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Topic == "" {
			continue
		}
		v, ok := m[l.Topic]
		if !ok {
			v[1] = l.T
		}
		v[0]++
		v[2] = l.T
		m[l.Topic] = v
	}
	return m
}

// TestDiffConvertRoundTrip: a bag, its converted MCAP and the bag converted
// back are equal, by bytes and by value (exit 0), and the counts and spans
// diff gives each topic are the reference reader's.
func TestDiffConvertRoundTrip(t *testing.T) {
	requireRef(t)
	bags := []string{
		testdata + "/robot.bag", testdata + "/two-conns-one-topic.bag", testdata + "/std-all-types.bag",
		sharedBags + "/cruise-automation__rosbag.js/fixtures/example.bag",
		sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag",
		sharedBags + "/bcharrow__matlab_rosbag/test/empty_msgs.bag",
	}
	for _, in := range bags {
		t.Run(name(in), func(t *testing.T) {
			dir := t.TempDir()
			mc, back := filepath.Join(dir, "x.mcap"), filepath.Join(dir, "x.bag")
			if out, stderr, code := run("convert", in, mc); code != 0 {
				t.Fatalf("convert to MCAP: exit %d: %s%s", code, out, stderr)
			}
			if out, stderr, code := run("convert", mc, back); code != 0 {
				t.Fatalf("convert back: exit %d: %s%s", code, out, stderr)
			}
			ref := refTopics(t, in)
			for _, pair := range [][]string{{in, mc}, {in, mc, "--values"}, {mc, back}, {back, in, "--values"}} {
				d, code := runDiffJSON(t, pair...)
				if code != 0 || !d.Equal {
					t.Fatalf("diff %v: exit %d, equal %v; want 0, true: %+v", pair, code, d.Equal, d.Topics)
				}
				if len(d.Topics) != len(ref) {
					t.Errorf("diff %v: %d topics, the reference reads %d", pair, len(d.Topics), len(ref))
				}
				for _, tp := range d.Topics {
					want := ref[tp.Topic]
					for i, s := range tp.Sides {
						if int64(s.Messages) != want[0] || s.First == nil || s.First.NS != want[1] || s.Last.NS != want[2] {
							t.Errorf("diff %v: %s side %d: %d messages; the reference reads %d from %d to %d", pair, tp.Topic, i, s.Messages, want[0], want[1], want[2])
						}
					}
				}
			}
		})
	}
}

// TestDiffNamesTheMessage: copies of real bags with one message changed,
// dropped or added, written by the reference rosbag
// (testdata/oracle/diff_variant.py), differ in exactly that message, which
// diff names by its topic, time and position; a change below the tolerance
// is equal by value and not by bytes.
func TestDiffNamesTheMessage(t *testing.T) {
	requireRef(t)
	robot := testdata + "/robot.bag"
	example := sharedBags + "/cruise-automation__rosbag.js/fixtures/example.bag"
	tests := []struct {
		in      string
		variant []string // MODE TOPIC N [FIELD DELTA]
		values  bool
		equal   bool
		kind    string
		field   string
	}{
		{robot, []string{"change", "/odom", "7", "pose.pose.position.x", "0.5"}, false, false, "changed", ""},
		{robot, []string{"change", "/odom", "7", "pose.pose.position.x", "0.5"}, true, false, "changed", "pose.pose.position.x"},
		{robot, []string{"change", "/odom", "120", "twist.twist.angular.z", "1e-13"}, true, true, "", ""},
		{robot, []string{"change", "/odom", "120", "twist.twist.angular.z", "1e-13"}, false, false, "changed", ""},
		{robot, []string{"drop", "/scan", "0"}, false, false, "dropped", ""},
		{robot, []string{"drop", "/joint_states", "499"}, true, false, "dropped", ""},
		{robot, []string{"add", "/tf", "10"}, false, false, "added", ""},
		{example, []string{"change", "/turtle1/pose", "40", "theta", "-2"}, true, false, "changed", "theta"},
		{example, []string{"drop", "/rosout", "3"}, false, false, "dropped", ""},
		{example, []string{"add", "/turtle1/color_sensor", "0"}, false, false, "added", ""},
	}
	for _, tc := range tests {
		t.Run(name(tc.in)+" "+strings.Join(tc.variant, " ")+map[bool]string{true: " values"}[tc.values], func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "v.bag")
			b, err := exec.Command(refPython, append([]string{oracleScripts + "/diff_variant.py", tc.in, out}, tc.variant...)...).Output()
			if err != nil {
				t.Fatalf("diff_variant.py: %v", err)
			}
			var did struct {
				Topic string `json:"topic"`
				Index int64  `json:"index"`
				NS    int64  `json:"ns"`
			}
			if err := json.Unmarshal(b, &did); err != nil {
				t.Fatalf("diff_variant.py said %q: %v", b, err)
			}
			args := []string{tc.in, out}
			if tc.values {
				args = append(args, "--values")
			}
			d, code := runDiffJSON(t, args...)
			if tc.equal {
				if code != 0 || !d.Equal {
					t.Fatalf("exit %d, equal %v; want 0, true", code, d.Equal)
				}
				return
			}
			if code != 1 || d.Equal {
				t.Fatalf("exit %d, equal %v; want 1, false", code, d.Equal)
			}
			for _, tp := range d.Topics {
				if tp.Topic != did.Topic {
					if !tp.Equal {
						t.Errorf("%s differs; only %s was touched", tp.Topic, did.Topic)
					}
					continue
				}
				n := tp.Changed + tp.Dropped + tp.Added
				if tp.Equal || n != 1 || tp.First == nil {
					t.Fatalf("%s: equal %v, %d differences; want the one message", tp.Topic, tp.Equal, n)
				}
				f := tp.First
				if f.Kind != tc.kind || f.Time.NS != did.NS {
					t.Errorf("%s: %s at %d; want %s at %d", tp.Topic, f.Kind, f.Time.NS, tc.kind, did.NS)
				}
				side := 0
				if tc.kind == "added" {
					// The copy follows the original on B.
					side, did.Index = 1, did.Index+1
				}
				if f.Index[side] != did.Index {
					t.Errorf("%s: message %d; want %d", tp.Topic, f.Index[side], did.Index)
				}
				if tc.kind == "changed" && tc.field != "" && (f.Field != tc.field || f.Vals == nil) {
					t.Errorf("%s: field %q; want %q with both values", tp.Topic, f.Field, tc.field)
				}
				if tc.kind == "changed" && tc.field == "" && (f.Byte == nil || *f.Byte < 0) {
					t.Errorf("%s: no first differing byte", tp.Topic)
				}
			}
		})
	}
}

// TestDiffTopicsAndDefinitions: two real bags of one scene, recorded on
// two ROS distributions: a topic only one has, and a type whose definition
// (md5sum) differs, are named; --topics narrows the comparison to what is
// equal.
func TestDiffTopicsAndDefinitions(t *testing.T) {
	dir := sharedBags + "/cruise-automation__webviz/packages/webviz-core/public/fixtures/"
	a, b := dir+"only-a-cube.bag", dir+"only-a-cube-no-tf-ros-melodic.bag"
	d, code := runDiffJSON(t, a, b)
	if code != 1 || d.Equal {
		t.Fatalf("exit %d, equal %v; want 1, false", code, d.Equal)
	}
	got := map[string]string{}
	for _, tp := range d.Topics {
		got[tp.Topic] = tp.OnlyIn + map[bool]string{true: " definitions"}[tp.DefinitionsDiffer]
	}
	want := map[string]string{"/tf": "A", "/marker_in_parent_frame": " definitions"}
	if len(got) != len(want) || got["/tf"] != want["/tf"] || got["/marker_in_parent_frame"] != want["/marker_in_parent_frame"] {
		t.Errorf("topics %v; want %v", got, want)
	}
	if _, code := runDiffJSON(t, a, b, "--topics", "/tf"); code != 1 {
		t.Errorf("--topics /tf: exit %d; want 1 (only in A)", code)
	}
	if _, stderr, code := run("diff", a, b, "--topics", "/nope"); code != 2 || !strings.Contains(stderr, "no topic /nope") {
		t.Errorf("--topics /nope: exit %d, %q; want 2 naming the topic", code, stderr)
	}
	if d, code := runDiffJSON(t, a, a, "--exclude", "/tf"); code != 0 || !d.Equal || len(d.Topics) != 1 {
		t.Errorf("a bag against itself without /tf: exit %d, %+v", code, d)
	}
}
