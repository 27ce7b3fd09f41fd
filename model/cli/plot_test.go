package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// refPoint is one (time, value) pair, time as exact nanoseconds.
type refPoint struct {
	t int64
	v float64
}

// TestPlotCSVMatchesReference checks, value by value, that the CSV of
// `bagscope plot` holds what the reference (genpy, through
// testdata/genpy_dump.py) decodes for the same field: exact float64
// equality (float32 fields are widened by both), times exact to the
// nanosecond, on the receive and the header.stamp time bases.
func TestPlotCSVMatchesReference(t *testing.T) {
	requireRef(t)
	imuBag := sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag"
	tests := []struct {
		name, bag, topic, path string
		stamp                  bool
	}{
		{"imu float64 receive", imuBag, "/imu/data", "linear_acceleration.x", false},
		{"imu float64 stamp", imuBag, "/imu/data", "angular_velocity.z", true},
		{"odom nested receive", imuBag, "/jackal_velocity_controller/odom", "twist.twist.linear.x", false},
		{"odom covariance index", imuBag, "/jackal_velocity_controller/odom", "pose.covariance[7]", false},
		{"imu latency", imuBag, "/imu/data", "@latency", false},
		{"scan float32 array index", testdata + "/none-multichunk.bag", "/scan", "ranges[5]", false},
		{"scan float32 stamp", testdata + "/none-multichunk.bag", "/scan", "angle_increment", true},
		{"tf variable array", testdata + "/none-multichunk.bag", "/tf", "transforms[0].transform.translation.y", false},
		{"imu time field nsecs", testdata + "/lz4-multichunk.bag", "/imu", "header.stamp.nsecs", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.bag); err != nil {
				t.Skipf("%v", err)
			}
			t.Parallel()
			dir := t.TempDir()
			args := []string{"plot", tc.bag, tc.topic + "." + tc.path, "-o", dir + "/p.png", "--csv", dir + "/p.csv", "--absolute"}
			if tc.stamp {
				args = append(args, "--x", "stamp")
			}
			_, stderr, code := run(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := readPlotCSV(t, dir+"/p.csv")
			want := referencePoints(t, tc.bag, tc.topic, tc.path, tc.stamp)
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
		})
	}
}

func sortPoints(p []refPoint) {
	sort.SliceStable(p, func(i, j int) bool {
		if p[i].t != p[j].t {
			return p[i].t < p[j].t
		}
		return p[i].v < p[j].v
	})
}

// readPlotCSV reads a one-series CSV written with --absolute.
func readPlotCSV(t *testing.T, path string) []refPoint {
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
	var out []refPoint
	for _, r := range rows[1:] {
		sec, frac, _ := strings.Cut(r[0], ".")
		s, err1 := strconv.ParseInt(sec, 10, 64)
		n, err2 := strconv.ParseInt(frac, 10, 64)
		v, err3 := strconv.ParseFloat(r[1], 64)
		if err1 != nil || err2 != nil || err3 != nil || len(frac) != 9 {
			t.Fatalf("bad CSV row %q", r)
		}
		out = append(out, refPoint{s*1e9 + n, v})
	}
	return out
}

// referencePoints decodes topic with the reference and reads path from
// each message's fields ("@latency": header.stamp minus receive time).
func referencePoints(t *testing.T, bagPath, topic, path string, stamp bool) []refPoint {
	t.Helper()
	cmd := exec.Command(refPython, testdata+"/genpy_dump.py", bagPath, "--topic", topic)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("genpy_dump.py: %v\n%s", err, errb.String())
	}
	var pts []refPoint
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<28)
	for sc.Scan() {
		var line struct {
			Time struct{ Secs, Nsecs int64 }
			Msg  map[string]any
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&line); err != nil {
			t.Fatal(err)
		}
		recv := line.Time.Secs*1e9 + line.Time.Nsecs
		st := func() int64 {
			h := line.Msg["header"].(map[string]any)["stamp"].(map[string]any)
			s, _ := h["secs"].(json.Number).Int64()
			n, _ := h["nsecs"].(json.Number).Int64()
			return s*1e9 + n
		}
		var v float64
		if path == "@latency" {
			v = float64(st()-recv) / 1e9
		} else {
			v = jsonPathValue(t, line.Msg, path)
		}
		tt := recv
		if stamp {
			tt = st()
		}
		pts = append(pts, refPoint{tt, v})
	}
	return pts
}

// jsonPathValue follows "a.b[3].c" through decoded JSON.
func jsonPathValue(t *testing.T, msg map[string]any, path string) float64 {
	t.Helper()
	var cur any = msg
	for _, part := range strings.Split(path, ".") {
		name, idx, hasIdx := strings.Cut(part, "[")
		cur = cur.(map[string]any)[name]
		if hasIdx {
			i, _ := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			cur = cur.([]any)[i]
		}
	}
	switch v := cur.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	case string:
		switch v {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
	case bool:
		if v {
			return 1
		}
		return 0
	}
	t.Fatalf("%s: not a number: %v", path, cur)
	return 0
}

func TestPlotErrors(t *testing.T) {
	bag := testdata + "/none-multichunk.bag"
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"unknown topic lists topics", []string{"plot", bag, "/nope.x", "-o", dir + "/a.png"}, 2,
			[]string{"unknown topic", "/chatter", "/imu", "/odom", "/scan", "/tf"}},
		{"unknown field suggests", []string{"plot", bag, "/imu.linear_aceleration.x", "-o", dir + "/a.png"}, 2,
			[]string{"unknown field", "/imu.linear_acceleration.x"}},
		{"topic without field", []string{"plot", bag, "/imu", "-o", dir + "/a.png"}, 2,
			[]string{"no field", "/imu.FIELD"}},
		{"no header for stamp", []string{"plot", bag, "/chatter.data", "-o", dir + "/a.png"}, 2,
			[]string{"unknown field"}},
		{"stamp base without header", []string{"plot", bag, "/tf.transforms[0].transform.translation.x", "--x", "stamp", "-o", dir + "/a.png"}, 2,
			[]string{"has no header.stamp"}},
		{"bad extension", []string{"plot", bag, "/imu.linear_acceleration.x", "-o", dir + "/a.jpg"}, 2,
			[]string{"unknown image format", ".png or .svg"}},
		{"missing output", []string{"plot", bag, "/imu.linear_acceleration.x"}, 2, []string{"missing an output", "-o OUT.png"}},
		{"bad time base", []string{"plot", bag, "/imu.linear_acceleration.x", "--x", "wall", "-o", dir + "/a.png"}, 2,
			[]string{"receive, stamp, publish or clock"}},
		{"zero size", []string{"plot", bag, "/imu.linear_acceleration.x", "--width", "0", "-o", dir + "/a.png"}, 2,
			[]string{"--width"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			for _, s := range tc.contains {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
		})
	}
}

func TestPlotOutputs(t *testing.T) {
	bag := testdata + "/none-multichunk.bag"
	dir := t.TempDir()
	tests := []struct {
		name  string
		args  []string
		file  string
		magic string
	}{
		{"png", []string{"imu.linear_acceleration.x", "/imu.angular_velocity.z", "-o", dir + "/a.png"}, "a.png", "\x89PNG"},
		{"svg with window", []string{"/scan.ranges[100]", "--start", "+1", "--end", "+3", "-o", dir + "/b.svg", "--width", "800", "--height", "400"}, "b.svg", "<?xml"},
		{"stamp base, relative", []string{"/odom.pose.pose.position.x", "/odom.@latency", "--x", "stamp", "--relative", "-o", dir + "/c.png"}, "c.png", "\x89PNG"},
		{"csv without an image", []string{"/imu.linear_acceleration.x", "--csv", dir + "/d.csv"}, "d.csv", "time_s,/imu.linear_acceleration.x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(append([]string{"plot", bag}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(tc.magic)) {
				t.Fatalf("%s starts with %q", tc.file, b[:min(len(b), 16)])
			}
		})
	}
}

// TestPlotStatsMatchesReference checks `plot --stats` against the values the
// reference decodes: the count, min and max exactly, and the sum exactly as
// the exact sum of the values rounded once (math/big), the mean as it over
// the count (the figures are gathered as the points are read, in any order).
func TestPlotStatsMatchesReference(t *testing.T) {
	requireRef(t)
	imuBag := sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag"
	tests := []struct{ bag, topic, path string }{
		{imuBag, "/imu/data", "linear_acceleration.x"},
		{imuBag, "/jackal_velocity_controller/odom", "pose.covariance[7]"},
		{testdata + "/none-multichunk.bag", "/scan", "ranges[5]"}, // every value infinite
		{testdata + "/none-multichunk.bag", "/scan", "angle_increment"},
	}
	for _, tc := range tests {
		t.Run(tc.topic+"."+tc.path, func(t *testing.T) {
			if _, err := os.Stat(tc.bag); err != nil {
				t.Skipf("%v", err)
			}
			t.Parallel()
			stdout, stderr, code := run("plot", "--stats", tc.bag, tc.topic+"."+tc.path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[0], "series") {
				t.Fatalf("output %q", stdout)
			}
			f := strings.Fields(lines[1])
			if len(f) != 7 || f[0] != tc.topic+"."+tc.path {
				t.Fatalf("row %q", lines[1])
			}
			num := func(i int) float64 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					t.Fatalf("column %d of %q: %v", i, lines[1], err)
				}
				return v
			}
			want := referencePoints(t, tc.bag, tc.topic, tc.path, false)
			n, lo, hi, sum := 0, math.Inf(1), math.Inf(-1), 0.0
			exact := new(big.Float).SetPrec(4096)
			for _, p := range want {
				if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
					continue
				}
				n++
				lo, hi = min(lo, p.v), max(hi, p.v)
				exact.Add(exact, new(big.Float).SetPrec(4096).SetFloat64(p.v))
			}
			sum, _ = exact.Float64()
			mean := sum / float64(n)
			if n == 0 { // every value is a gap: no figures
				lo, hi, sum, mean = math.NaN(), math.NaN(), math.NaN(), math.NaN()
			}
			if int(num(1)) != len(want) || int(num(2)) != len(want)-n {
				t.Errorf("points %s, non-finite %s; the reference has %d and %d", f[1], f[2], len(want), len(want)-n)
			}
			same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
			if !same(num(3), lo) || !same(num(4), hi) {
				t.Errorf("min %s max %s; the reference has %v and %v", f[3], f[4], lo, hi)
			}
			if !same(num(6), sum) || !same(num(5), mean) {
				t.Errorf("sum %s mean %s; the reference has %v and %v", f[6], f[5], sum, mean)
			}
			// --json gives the same figures, each the reference's.
			stdout, stderr, code = run("plot", "--stats", "--json", tc.bag, tc.topic+"."+tc.path)
			if code != 0 {
				t.Fatalf("--json: exit %d: %s", code, stderr)
			}
			var js plotStatsJSON
			if err := json.Unmarshal([]byte(stdout), &js); err != nil || len(js.Series) != 1 {
				t.Fatalf("--json: %v: %s", err, stdout)
			}
			s := js.Series[0]
			if s.Name != f[0] || s.Points != len(want) || s.NonFinite != len(want)-n || !same(float64(s.Min), lo) || !same(float64(s.Max), hi) ||
				!same(float64(s.Sum), sum) || !same(float64(s.Mean), mean) || !js.OK || js.TimeBase != "receive" {
				t.Errorf("--json %+v; the reference has %d points, %d non-finite, min %v max %v sum %v mean %v", js, len(want), len(want)-n, lo, hi, sum, mean)
			}
			for _, v := range []jsonFloat{s.Min, s.Max, s.Mean, s.Sum} {
				if float64(v) != float64(v) && !strings.Contains(stdout, `"NaN"`) {
					t.Errorf("a NaN is not the string \"NaN\": %s", stdout)
				}
			}
		})
	}
}
