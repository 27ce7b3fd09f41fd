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

// derivedRef computes derived series and XY paths in Python from the
// reference's decoded messages (JSON lines of genpy_dump.py or
// mcap_cat.mjs on stdin), written from the functions' definitions and
// sharing no code with bagscope: argv[1] is a JSON list of cases, each
// {"e": TREE} or {"x": TREE, "y": TREE}, with "stamp" for the header.stamp
// time base; a TREE is {"p": "/topic.path"} or {"f": NAME, "a": [TREE...],
// "n": [NUMBER...]}. It prints one JSON line per case: its points, [t, v]
// or [t, x, y], times in nanoseconds.
const derivedRef = `
import bisect, json, math, re, sys

cases = json.loads(sys.argv[1])
msgs = {}
for line in sys.stdin:
    d = json.loads(line)
    msgs.setdefault(d['topic'], []).append(d)

def num(v):
    if isinstance(v, str):
        return {'NaN': math.nan, 'Infinity': math.inf, '-Infinity': -math.inf}[v]
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    return float(v)

def fin(v):
    return not (math.isnan(v) or math.isinf(v))

def split(path):
    parts, depth, cur = [], 0, ''
    for c in path:
        if c == '.' and depth == 0:
            parts.append(cur)
            cur = ''
            continue
        depth += (c == '[') - (c == ']')
        cur += c
    parts.append(cur)
    return parts

def raw(m, dotted):
    for p in dotted.split('.'):
        m = m[p]
    return m

def values(msg, path):
    # Every value path selects in msg: an index, a key through the
    # sibling "name" array, or FIELD=VALUE over an array of messages.
    cur = [msg]
    for part in split(path):
        m = re.fullmatch(r'([^\[]+)(?:\[(.*)\])?', part)
        name, sel = m.group(1), m.group(2)
        nxt = []
        for c in cur:
            v = c[name]
            if sel is None:
                nxt.append(v)
            elif re.fullmatch(r'\d+', sel):
                if int(sel) < len(v):
                    nxt.append(v[int(sel)])
            elif '=' in sel:
                f, want = sel.split('=', 1)
                nxt.extend(e for e in v if str(raw(e, f)) == want)
            else:
                nxt.extend(v[i] for i, k in enumerate(c['name']) if k == sel and i < len(v))
        cur = nxt
    return [num(v) for v in cur]

def when(d, stamp):
    if not stamp:
        return d['time']['secs'] * 10**9 + d['time']['nsecs']
    s = d['msg']['header']['stamp']
    return s.get('secs', s.get('sec')) * 10**9 + s.get('nsecs', s.get('nanosec'))

def leaf(path, stamp):
    topic, field = path.split('.', 1)
    pts = [(when(d, stamp), v) for d in msgs[topic] for v in values(d['msg'], field)]
    pts.sort(key=lambda p: p[0])
    return pts

def nearest(b, t):
    # b's value at its point nearest to t, the earlier on a tie.
    ts = [p[0] for p in b]
    j = bisect.bisect_right(ts, t) - 1
    if j < 0:
        return b[0][1]
    if j + 1 < len(b) and b[j + 1][0] - t < t - b[j][0]:
        return b[j + 1][1]
    return b[j][1]

def deriv(s):
    return [(t1, (v1 - v0) / ((t1 - t0) / 1e9)) for (t0, v0), (t1, v1) in zip(s, s[1:]) if t1 > t0]

def integ(s):
    out, total = [], 0.0
    for i, (t, v) in enumerate(s):
        if not fin(v):
            out.append((t, math.nan))
            continue
        if i > 0 and fin(s[i - 1][1]):
            total += (v + s[i - 1][1]) / 2 * ((t - s[i - 1][0]) / 1e9)
        out.append((t, total))
    return out

def avg(s, n):
    out, win = [], []
    for t, v in s:
        if not fin(v):
            out.append((t, math.nan))
            continue
        win = (win + [v])[-n:]
        out.append((t, sum(win) / len(win)))
    return out

def ev(e, stamp):
    if 'p' in e:
        return leaf(e['p'], stamp)
    a = [ev(x, stamp) for x in e['a']]
    n = e.get('n', [])
    f = e['f']
    if f == 'deriv':
        return deriv(a[0])
    if f == 'integ':
        return integ(a[0])
    if f == 'diff':
        return [(t, v - nearest(a[1], t)) for t, v in a[0]] if a[1] else []
    if f == 'scale':
        return [(t, n[0] * v + (n[1] if len(n) > 1 else 0)) for t, v in a[0]]
    if f == 'offset':
        return [(t, v + n[0]) for t, v in a[0]]
    if f == 'avg':
        return avg(a[0], int(n[0]))
    raise ValueError(f)

def out(v):
    if isinstance(v, float) and not fin(v):
        return 'NaN' if math.isnan(v) else ('Infinity' if v > 0 else '-Infinity')
    return v

for c in cases:
    st = c.get('stamp', False)
    if 'e' in c:
        pts = ev(c['e'], st)
    else:
        x, y = ev(c['x'], st), ev(c['y'], st)
        pts = [(t, xv, nearest(y, t)) for t, xv in x] if y else []
    print(json.dumps([[out(v) for v in p] for p in pts]))
`

// refTree is an expression tree for derivedRef.
type refTree map[string]any

func rp(path string) refTree { return refTree{"p": path} }

func rf(name string, nums []float64, args ...refTree) refTree {
	return refTree{"f": name, "a": args, "n": nums}
}

// derivedCase is one plot argument, its CSV columns and how the
// reference computes it.
type derivedCase struct {
	name    string
	arg     string
	columns []string // the CSV header after the time column
	e       refTree  // a series; or
	x, y    refTree  // an XY path
	stamp   bool
}

// refRows are the points of one case: times in nanoseconds and, per point,
// the value or the x and y.
type refRows struct {
	t []int64
	v [][]float64
}

// runDerivedRef runs derivedRef on dump for the cases and returns each
// case's points.
func runDerivedRef(t *testing.T, dump []byte, cases []derivedCase) []refRows {
	t.Helper()
	var spec []map[string]any
	for _, c := range cases {
		m := map[string]any{"stamp": c.stamp}
		if c.e != nil {
			m["e"] = c.e
		} else {
			m["x"], m["y"] = c.x, c.y
		}
		spec = append(spec, m)
	}
	js, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(refPython, "-c", derivedRef, string(js))
	cmd.Stdin = bytes.NewReader(dump)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the reference computation: %v\n%s", err, errb.String())
	}
	var all []refRows
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var rows [][]any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber() // times in nanoseconds are beyond a float64's integers
		if err := d.Decode(&rows); err != nil {
			t.Fatal(err)
		}
		var rr refRows
		for _, r := range rows {
			tn, err := r[0].(json.Number).Int64()
			if err != nil {
				t.Fatal(err)
			}
			rr.t = append(rr.t, tn)
			var vs []float64
			for _, v := range r[1:] {
				switch v := v.(type) {
				case json.Number:
					f, err := strconv.ParseFloat(string(v), 64)
					if err != nil {
						t.Fatal(err)
					}
					vs = append(vs, f)
				case string:
					vs = append(vs, map[string]float64{"NaN": math.NaN(), "Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}[v])
				default:
					t.Fatalf("the reference gave %v", v)
				}
			}
			rr.v = append(rr.v, vs)
		}
		all = append(all, rr)
	}
	if len(all) != len(cases) {
		t.Fatalf("the reference gave %d results for %d cases", len(all), len(cases))
	}
	return all
}

// readCSVRows reads a CSV written with --absolute: its header and each row
// as exact nanoseconds and values (NaN for an empty cell).
func readCSVRows(t *testing.T, path string) (header []string, times []int64, vals [][]float64) {
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
	for _, r := range rows[1:] {
		sec, frac, _ := strings.Cut(r[0], ".")
		s, err1 := strconv.ParseInt(sec, 10, 64)
		n, err2 := strconv.ParseInt(frac, 10, 64)
		if err1 != nil || err2 != nil || len(frac) != 9 {
			t.Fatalf("bad CSV row %q", r)
		}
		times = append(times, s*1e9+n)
		var row []float64
		for _, cell := range r[1:] {
			v := math.NaN()
			if cell != "" {
				if v, err = strconv.ParseFloat(cell, 64); err != nil {
					t.Fatalf("bad CSV cell %q", cell)
				}
			}
			row = append(row, v)
		}
		vals = append(vals, row)
	}
	return rows[0][1:], times, vals
}

// closeTo compares a computed value with the reference's: equal, both NaN,
// or within rounding (sums may be formed in another order).
func closeTo(got, want float64) bool {
	if got == want || math.IsNaN(got) && math.IsNaN(want) {
		return true
	}
	return math.Abs(got-want) <= 1e-9*max(1, math.Abs(want))
}

// TestPlotDerivedMatchesReference plots derived series and XY paths with
// `bagscope plot --csv` and compares every point with what derivedRef
// computes from the reference's decoding of the same messages (genpy for
// the ROS 1 bag, @mcap/core with @foxglove/rosmsg2-serialization through
// mcap_cat.mjs for the ROS 2 MCAP): times exactly, values to rounding.
func TestPlotDerivedMatchesReference(t *testing.T) {
	requireRef(t)
	const (
		px, py = "/odom.pose.pose.position.x", "/odom.pose.pose.position.y"
		vx, wz = "/odom.twist.twist.linear.x", "/odom.twist.twist.angular.z"
	)
	robot := []derivedCase{
		{name: "deriv", arg: "deriv(" + px + ")", e: rf("deriv", nil, rp(px))},
		{name: "integ", arg: "integ(" + vx + ")", e: rf("integ", nil, rp(vx))},
		{name: "diff one topic", arg: "diff(" + px + ", " + py + ")", e: rf("diff", nil, rp(px), rp(py))},
		{name: "diff two topics", arg: "diff(" + px + ", /joint_states.position[0])", e: rf("diff", nil, rp(px), rp("/joint_states.position[0]"))},
		{name: "scale keyed", arg: "scale(/joint_states.velocity[elbow], -2, 0.5)", e: rf("scale", []float64{-2, 0.5}, rp("/joint_states.velocity[elbow]"))},
		{name: "offset", arg: "offset(" + py + ", 3)", e: rf("offset", []float64{3}, rp(py))},
		{name: "avg", arg: "avg(/joint_states.position[shoulder_pan], 7)", e: rf("avg", []float64{7}, rp("/joint_states.position[shoulder_pan]"))},
		{name: "nested", arg: "deriv(avg(" + wz + ", 5))", e: rf("deriv", nil, rf("avg", []float64{5}, rp(wz)))},
		{name: "tf frame", arg: "integ(/tf.transforms[child_frame_id=arm_link].transform.rotation.z)",
			e: rf("integ", nil, rp("/tf.transforms[child_frame_id=arm_link].transform.rotation.z"))},
		{name: "stamp base", arg: "deriv(" + py + ")", e: rf("deriv", nil, rp(py)), stamp: true},
		{name: "xy one topic", arg: px + " vs " + py, columns: []string{px, py}, x: rp(px), y: rp(py)},
		{name: "xy two topics", arg: px + " vs /joint_states.position[wrist_1]", columns: []string{px, "/joint_states.position[wrist_1] (nearest in time)"},
			x: rp(px), y: rp("/joint_states.position[wrist_1]")},
		{name: "xy derived", arg: "integ(" + vx + ") vs deriv(" + py + ")", columns: []string{"integ(" + vx + ")", "deriv(" + py + ") (nearest in time)"},
			x: rf("integ", nil, rp(vx)), y: rf("deriv", nil, rp(py))},
	}
	ros2 := []derivedCase{
		{name: "deriv", arg: "deriv(" + px + ")", e: rf("deriv", nil, rp(px))},
		{name: "integ", arg: "integ(/imu.angular_velocity.z)", e: rf("integ", nil, rp("/imu.angular_velocity.z"))},
		{name: "diff two topics", arg: "diff(/imu.linear_acceleration.x, " + vx + ")", e: rf("diff", nil, rp("/imu.linear_acceleration.x"), rp(vx))},
		{name: "nested on stamps", arg: "scale(avg(/imu.linear_acceleration.y, 10), 2)", e: rf("scale", []float64{2}, rf("avg", []float64{10}, rp("/imu.linear_acceleration.y"))), stamp: true},
		{name: "xy one topic", arg: px + " vs " + py, columns: []string{px, py}, x: rp(px), y: rp(py)},
		{name: "xy two topics", arg: "/imu.linear_acceleration.x vs /cmd.linear.x", columns: []string{"/imu.linear_acceleration.x", "/cmd.linear.x (nearest in time)"},
			x: rp("/imu.linear_acceleration.x"), y: rp("/cmd.linear.x")},
	}
	bags := []struct {
		name, path string
		mcap       bool
		cases      []derivedCase
	}{
		{"robot.bag", testdata + "/robot.bag", false, robot},
		{"ros2-mixed.mcap", testdata + "/ros2-mixed.mcap", true, ros2},
	}
	for _, bg := range bags {
		t.Run(bg.name, func(t *testing.T) {
			var dump []byte
			if bg.mcap {
				requireNodeOracles(t)
				out, stderr, code, err := nodeOracle("mcap_cat.mjs", bg.path)
				if err != nil || code != 0 {
					t.Fatalf("mcap_cat.mjs: %v %d %s", err, code, stderr)
				}
				dump = []byte(out)
			} else {
				cmd := exec.Command(refPython, testdata+"/genpy_dump.py", bg.path)
				var errb bytes.Buffer
				cmd.Stderr = &errb
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("genpy_dump.py: %v\n%s", err, errb.String())
				}
				dump = out
			}
			want := runDerivedRef(t, dump, bg.cases)
			for i, c := range bg.cases {
				t.Run(c.name, func(t *testing.T) {
					w := want[i]
					if len(w.t) < 50 {
						t.Fatalf("the reference has %d points", len(w.t))
					}
					dir := t.TempDir()
					args := []string{"plot", bg.path, c.arg, "--csv", dir + "/p.csv", "--absolute"}
					if i == 0 {
						// The CSV written beside an image, once per bag:
						// rendering one costs ~1 s under -race, and only
						// the CSV is compared.
						args = append(args, "-o", dir+"/p.png")
					}
					if c.stamp {
						args = append(args, "--x", "stamp")
					}
					_, stderr, code := run(args...)
					if code != 0 {
						t.Fatalf("exit %d: %s", code, stderr)
					}
					header, times, vals := readCSVRows(t, dir+"/p.csv")
					cols := c.columns
					if cols == nil {
						cols = []string{c.arg}
					}
					if !slices.Equal(header, cols) {
						t.Errorf("CSV columns %q, want %q", header, cols)
					}
					if len(times) != len(w.t) {
						t.Fatalf("%d points, the reference has %d", len(times), len(w.t))
					}
					exact := 0
					for k := range w.t {
						if times[k] != w.t[k] || len(vals[k]) != len(w.v[k]) {
							t.Fatalf("point %d at %d (%d values), the reference's at %d (%d)", k, times[k], len(vals[k]), w.t[k], len(w.v[k]))
						}
						for j, v := range vals[k] {
							if !closeTo(v, w.v[k][j]) {
								t.Fatalf("point %d column %d: %v, the reference has %v", k, j+1, v, w.v[k][j])
							}
							if math.Float64bits(v) == math.Float64bits(w.v[k][j]) {
								exact++
							}
						}
					}
					t.Logf("%d points, %d of %d values bit for bit", len(times), exact, len(times)*len(cols))
				})
			}
		})
	}
}
