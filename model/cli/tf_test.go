package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestTFLookupJSON checks `tf --lookup --json` against the oracle
// (testdata/oracle/tf_lookup.py: the reference rosbag and 4x4 matrices)
// at a time given as seconds from the start, with the flags before or
// after the recording, and that the object holds exactly the translation
// and the rotation.
func TestTFLookupJSON(t *testing.T) {
	requireRef(t)
	file := testdata + "/tf.bag"
	// The recording starts at 1700000000.123456789; +6.5 s.
	const atNS = 1700000006623456789
	out, err := exec.Command("/usr/bin/python3", testdata+"/oracle/tf_lookup.py", file, fmt.Sprint(atNS)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Lookup map[string]struct {
			T []float64
			M [][]float64
		}
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{"map", "tool"}, {"laser", "cam_mount"}, {"odom", "imu_link"}} {
		want := ref.Lookup[pair[0]+" "+pair[1]]
		for _, args := range [][]string{
			{"tf", file, "--at", "6.5", "--lookup", pair[0], pair[1], "--json"},
			{"tf", "--json", "--lookup", pair[0], pair[1], "--at", "6.5", file},
		} {
			got, errOut, code := run(args...)
			if code != ExitOK {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			var obj map[string]map[string]float64
			if err := json.Unmarshal([]byte(got), &obj); err != nil || len(obj) != 2 || len(obj["translation"]) != 3 || len(obj["rotation"]) != 4 {
				t.Fatalf("%v: %q (%v): want {translation: {x,y,z}, rotation: {x,y,z,w}}", args, got, err)
			}
			tr, q := obj["translation"], obj["rotation"]
			x, y, z, w := q["x"], q["y"], q["z"], q["w"]
			// The rotation matrix's first column and the translation.
			col := []float64{1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w)}
			for i, k := range []string{"x", "y", "z"} {
				if math.Abs(tr[k]-want.T[i]) > 1e-9 || math.Abs(col[i]-want.M[i][0]) > 1e-9 {
					t.Errorf("%v: %s, the oracle t=%v m=%v", args, got, want.T, want.M)
				}
			}
		}
	}
}

// TestTFTreeAndErrors checks the tree's JSON and text, and each mistake's
// exit status and message.
func TestTFTreeAndErrors(t *testing.T) {
	file := testdata + "/tf.bag"
	out, errOut, code := run("tf", file, "--at", "4", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tree struct {
		AtSeconds float64 `json:"at_seconds"`
		Frames    []struct {
			Frame, Parent string
			Static, Stale bool
		}
		Roots    []string
		Findings []struct{ Kind, Frame string }
		OK       bool
	}
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, f := range tree.Findings {
		kinds[f.Kind] = f.Frame
	}
	if tree.AtSeconds != 4 || len(tree.Frames) != 12 || len(tree.Roots) != 2 || tree.OK ||
		kinds["stale"] != "gps" || kinds["reparented"] != "cam_mount" || kinds["future-stamp"] != "imu_link" {
		t.Errorf("tree: %s", out)
	}
	text, _, code := run("tf", file, "--at", "4")
	if code != ExitOK || !strings.Contains(text, "\n         gps          dynamic  parent base_link") || !strings.Contains(text, "stale: gps is stale") {
		t.Errorf("exit %d:\n%s", code, text)
	}
	echo, _, code := run("tf", file, "--at", "4", "--lookup", "base_link", "laser")
	if code != ExitOK || !strings.HasPrefix(echo, "At time 1700000004.123456789\n- Translation: [0.200, 0.000, 0.300]\n") {
		t.Errorf("exit %d:\n%s", code, echo)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tf", file, "--lookup", "map", "baselink"}, ExitUsage, "did you mean base_link"},
		{[]string{"tf", file, "--lookup", "map", "beacon"}, ExitProblems, "not connected"},
		{[]string{"tf", file, "--at", "99"}, ExitUsage, "outside the recording"},
		{[]string{"tf", file, "--lookup", "map"}, ExitUsage, "SOURCE"},
		{[]string{"tf", testdata + "/single-message.bag"}, ExitProblems, "no transform topic"},
	} {
		_, errOut, code := run(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tc.args, code, tc.code, tc.want, errOut)
		}
	}
}

// TestTFOverTimeCSV checks `tf --lookup TARGET SOURCE --over-time --csv`
// against the oracle at every row's stamp (the translation, the rotation
// matrix of the quaternion, and roll, pitch and yaw read off the oracle's
// matrix), on a chain of five frames and on a frame that changes parent
// (cam_mount: base_link, then arm at 5 s), and the mistakes' messages.
func TestTFOverTimeCSV(t *testing.T) {
	requireRef(t)
	file := testdata + "/tf.bag"
	for _, pair := range [][2]string{{"map", "tool"}, {"odom", "cam_mount"}} {
		out, errOut, code := run("tf", file, "--lookup", pair[0], pair[1], "--over-time", "--csv")
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", pair, code, errOut)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(rows[0], ",") != "stamp,seconds,x,y,z,qx,qy,qz,qw,roll,pitch,yaw,error" {
			t.Fatalf("header %q", rows[0])
		}
		rows = rows[1:]
		if len(rows) < 50 {
			t.Fatalf("%v: %d rows", pair, len(rows))
		}
		args := []string{testdata + "/oracle/tf_lookup.py", "--pair", pair[0], pair[1], file}
		for _, r := range rows {
			sec, ns, _ := strings.Cut(r[0], ".")
			args = append(args, sec+ns)
		}
		ref, err := exec.Command("/usr/bin/python3", args...).Output()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(ref)), "\n")
		if len(lines) != len(rows) {
			t.Fatalf("the oracle gave %d lines for %d rows", len(lines), len(rows))
		}
		valid, prev := 0, ""
		for i, r := range rows {
			if r[0] <= prev {
				t.Fatalf("row %d at %s after %s", i, r[0], prev)
			}
			prev = r[0]
			var o struct {
				Lookup map[string]struct {
					T     []float64
					M     [][]float64
					Error string
				}
			}
			if err := json.Unmarshal([]byte(lines[i]), &o); err != nil {
				t.Fatal(err)
			}
			want := o.Lookup[pair[0]+" "+pair[1]]
			if want.Error != "" || r[12] != "" {
				if want.Error == "" || r[12] == "" || r[2] != "" {
					t.Errorf("%v row %v: the oracle %+v", pair, r, want)
				}
				continue
			}
			valid++
			v := make([]float64, 10)
			for k := range v {
				if v[k], err = strconv.ParseFloat(r[2+k], 64); err != nil {
					t.Fatalf("row %v: %v", r, err)
				}
			}
			x, y, z, w := v[3], v[4], v[5], v[6]
			m := [3][3]float64{
				{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
				{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
				{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
			}
			M := want.M
			rpy := []float64{math.Atan2(M[2][1], M[2][2]), -math.Asin(M[2][0]), math.Atan2(M[1][0], M[0][0])}
			for k := 0; k < 3; k++ {
				bad := math.Abs(v[k]-want.T[k]) > 1e-9 || math.Abs(v[7+k]-rpy[k]) > 1e-9
				for j := 0; j < 3; j++ {
					bad = bad || math.Abs(m[k][j]-M[k][j]) > 1e-9
				}
				if bad {
					t.Fatalf("%v row %v: the oracle t=%v m=%v rpy=%v", pair, r, want.T, M, rpy)
				}
			}
		}
		if valid < 50 {
			t.Errorf("%v: %d rows with a transform", pair, valid)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"tf", file, "--over-time"}, ExitUsage, "give --lookup TARGET SOURCE"},
		{[]string{"tf", file, "--csv"}, ExitUsage, "--over-time"},
		{[]string{"tf", file, "--lookup", "map", "tool", "--over-time", "--at", "3"}, ExitUsage, "neither --at nor --json"},
		{[]string{"tf", file, "--lookup", "map", "toool", "--over-time"}, ExitUsage, "did you mean tool?"},
		{[]string{"tf", file, "--lookup", "map", "beacon", "--over-time"}, ExitProblems, "cannot be looked up in map at any time"},
	} {
		_, errOut, code := run(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %q; want exit %d saying %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}
