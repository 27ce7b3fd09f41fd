package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// refSelected prints, sorted, the messages of a bag the reference reader
// selects (read_messages with topics, start_time and end_time, inclusive,
// then without the excluded topics), and those of a second bag whole, one
// "topic secs nsecs sha1" line each, the two lists apart by a "==" line.
const refSelected = `
import sys, hashlib, rosbag, genpy
inp, out, topics, exclude, start, end = sys.argv[1:7]
def lines(path, **kw):
    with rosbag.Bag(path) as b:
        return sorted('%s %d %d %s' % (t, ts.secs, ts.nsecs, hashlib.sha1(raw[1]).hexdigest())
                      for t, raw, ts in b.read_messages(raw=True, **kw) if t not in exclude.split(','))
def time(s):
    if not s:
        return None
    secs, _, frac = s.partition('.')
    return genpy.Time(int(secs), int((frac + '000000000')[:9]))
kw = {'start_time': time(start), 'end_time': time(end)}
if topics:
    kw['topics'] = topics.split(',')
print('\n'.join(lines(inp, **kw)))
print('==')
print('\n'.join(lines(out)))
`

// TestCopySelectionROS1 copies parts of ROS 1 bags with fix and convert
// and has the reference reader compare: the copy (a .bag) holds exactly
// the messages rosbag's read_messages selects with the same topics and
// times. A copy written as MCAP is read back by the npm oracle, which
// must give what cat prints of the input for the same selection.
func TestCopySelectionROS1(t *testing.T) {
	requireRef(t)
	dir := t.TempDir()
	tests := []struct {
		name, cmd, in, out string
		flags              []string
		// what the reference selects: topics and exclude comma-separated,
		// start and end seconds since the epoch ("" for no bound)
		topics, exclude, start, end string
	}{
		{"fix topics and absolute range", "fix", robotBag, "a.bag", []string{"--topics", "/odom,/scan", "--range", "@1700000002.005:@1700000005.505"},
			"/odom,/scan", "", "1700000002.005", "1700000005.505"},
		{"fix exclude, relative range, small chunks", "fix", testdata + "/lz4-multichunk.bag", "b.bag", []string{"--exclude", "/chatter", "--range", "1.5:", "--chunk-threshold", "4096"},
			"", "/chatter", "", ""},
		{"convert glob to bag", "convert", robotBag, "c.bag", []string{"--topics", "/j*", "--topics", "/tf", "--range", ":3.3"},
			"/joint_states,/tf", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.out)
			stdout, stderr, code := run(append([]string{tc.cmd, tc.in, out}, tc.flags...)...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			start, end := tc.start, tc.end
			if start == "" || end == "" {
				// The relative bounds, as the reference needs them.
				lo, hi := relativeBounds(t, tc.in, tc.flags)
				start, end = cmpOr(start, lo), cmpOr(end, hi)
			}
			ref, err := exec.Command(refPython, "-c", refSelected, tc.in, out, tc.topics, tc.exclude, start, end).Output()
			if err != nil {
				t.Fatal(err)
			}
			want, got, _ := strings.Cut(strings.TrimSpace(string(ref)), "\n==")
			got = strings.TrimSpace(got)
			if want == "" {
				t.Fatal("the reference selects nothing: the case tests nothing")
			}
			if got != want {
				t.Fatalf("the copy holds %d messages, the reference selects %d", strings.Count(got, "\n")+1, strings.Count(want, "\n")+1)
			}
			if strings.Contains(tc.name, "small chunks") {
				info, _, _ := run("info", out)
				if !strings.Contains(info, "chunks") || strings.Contains(info, "[1/1 chunks") {
					t.Errorf("--chunk-threshold 4096 wrote one chunk:\n%s", info)
				}
			}
		})
	}
	t.Run("convert to MCAP, read by the oracle", func(t *testing.T) {
		requireNodeOracles(t)
		out := filepath.Join(dir, "d.mcap")
		flags := []string{"--exclude", "/tf,/joint_states", "--range", "2:5"}
		if stdout, stderr, code := run(append([]string{"convert", robotBag, out}, flags...)...); code != 0 {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		compareWithOracle(t, out, robotBag, flags)
	})
}

// TestCopySelectionMCAP copies a part of a ROS 2 MCAP with fix and
// convert: the npm oracle reads the copy, and it must give what cat
// prints of the input for the same selection.
func TestCopySelectionMCAP(t *testing.T) {
	requireNodeOracles(t)
	in := testdata + "/ros2-mixed.mcap"
	for _, tc := range []struct {
		cmd   string
		flags []string
	}{
		{"fix", []string{"--topics", "/i*,/odom", "--range", "3.25:4"}},
		{"convert", []string{"--exclude", "/tf", "--range", "@1600000009.5:", "--compression", "lz4"}},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "part.mcap")
			if stdout, stderr, code := run(append([]string{tc.cmd, in, out}, tc.flags...)...); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			compareWithOracle(t, out, in, tc.flags)
		})
	}
}

// compareWithOracle reads the MCAP out with the npm oracle and compares
// it with cat --json of in under the selection flags (those of them cat
// takes).
func compareWithOracle(t *testing.T, out, in string, flags []string) {
	t.Helper()
	oOut, oErr, oCode, err := nodeOracle("mcap_cat.mjs", out)
	if err != nil || oCode != 0 {
		t.Fatalf("oracle: exit %d, %v: %s", oCode, err, oErr)
	}
	var catFlags []string
	for i := 0; i < len(flags); i += 2 {
		if flags[i] != "--compression" {
			catFlags = append(catFlags, flags[i], flags[i+1])
		}
	}
	cOut, cErr, code := run(append([]string{"cat", "--json", in}, catFlags...)...)
	if code != 0 {
		t.Fatalf("cat: exit %d: %s", code, cErr)
	}
	ours, err := parseCatLines(cOut)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := parseCatLines(oOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) == 0 {
		t.Fatal("the selection selects nothing: the case tests nothing")
	}
	if len(ref) == len(ours) && ref[0].m["msg"] == nil {
		// A ros1 copy: the oracle leaves the messages undecoded; their
		// topics and times must still be the selection's.
		for i := range ours {
			if ours[i].key() != ref[i].key() {
				t.Fatalf("message %d: the copy holds %s, cat selects %s", i, ref[i].key(), ours[i].key())
			}
		}
		return
	}
	if d := diffLines("oracle", ours, ref, -1, 5); len(d) > 0 {
		t.Fatalf("the copy, as the oracle reads it, differs from cat's selection of the input:\n%s", strings.Join(d, "\n"))
	}
}

// relativeBounds turns a relative --range in flags into seconds since the
// epoch, from the start info --json gives.
func relativeBounds(t *testing.T, in string, flags []string) (lo, hi string) {
	t.Helper()
	i := slices.Index(flags, "--range")
	if i < 0 {
		return "", ""
	}
	out, _, _ := run("info", "--json", in)
	var info struct {
		Start struct{ NS int64 } `json:"start"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatal(err)
	}
	a, b, _ := strings.Cut(flags[i+1], ":")
	abs := func(s string) string {
		if s == "" {
			return ""
		}
		tm, err := parseTimeArg("+"+s, bag.TimeFromNanos(info.Start.NS))
		if err != nil {
			t.Fatal(err)
		}
		return tm.String()
	}
	return abs(a), abs(b)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestSelectionErrors gives fix, convert and plot selections that name
// nothing: each is a usage error that says what the recording has, and
// writes nothing; a selection that holds no message writes an empty copy
// and says so on stderr. plot's series name their topics: it refuses
// --topics and --exclude with the reason.
func TestSelectionErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string // OUT stands for a file in a temporary folder
		code int
		want []string // in stderr
	}{
		{"topic without its slash", []string{"fix", robotBag, "OUT.bag", "--topics", "rosout"}, 2,
			[]string{"no topic rosout (did you mean /rosout?)", "/joint_states, /odom, /rosout, /scan, /tf"}},
		{"mistyped topic", []string{"convert", robotBag, "OUT.mcap", "--topics", "/odm"}, 2, []string{"no topic /odm (did you mean /odom?)"}},
		{"pattern that matches nothing", []string{"convert", robotBag, "OUT.mcap", "--exclude", "/cam*"}, 2, []string{"no topic matches /cam*"}},
		{"everything excluded", []string{"fix", robotBag, "OUT.bag", "--exclude", "*"}, 2, []string{"leaves no topic"}},
		{"range after the end", []string{"fix", robotBag, "OUT.bag", "--range", "50:60"}, 2,
			[]string{"outside the recording", "the recording spans 0:9.98 (@1700000000.123456789:@1700000010.103456789"}},
		{"range before the start", []string{"convert", robotBag, "OUT.mcap", "--range", "@1600000000:@1600000001"}, 2, []string{"outside the recording"}},
		{"reversed range", []string{"fix", robotBag, "OUT.bag", "--range", "5:2"}, 2, []string{"ends (", "before it starts"}},
		{"empty selection", []string{"fix", robotBag, "OUT.bag", "--topics", "/rosout", "--range", "0.001:0.002"}, 0,
			[]string{"no message in the selection (--topics /rosout --range 0.001:0.002)"}},
		{"empty selection, convert", []string{"convert", robotBag, "OUT.mcap", "--topics", "/rosout", "--range", "0.001:0.002"}, 0,
			[]string{"no message in the selection"}},
		{"plot --topics", []string{"plot", robotBag, "/odom.pose.pose.position.x", "-o", "OUT.png", "--topics", "/odom"}, 2,
			[]string{"plot takes no --topics: each SERIES names its topic"}},
		{"plot --exclude", []string{"plot", robotBag, "/odom.pose.pose.position.x", "--csv", "OUT.csv", "--exclude", "/tf"}, 2,
			[]string{"plot takes no --exclude"}},
		{"plot range outside", []string{"plot", robotBag, "/odom.pose.pose.position.x", "--csv", "OUT.csv", "--range", "@1800000000:"}, 2,
			[]string{"outside the recording", "the recording spans"}},
		{"plot empty range", []string{"plot", robotBag, "/odom.pose.pose.position.x", "--csv", "OUT.csv", "--range", "0.001:0.002"}, 0,
			[]string{"no message in the selection (--range 0.001:0.002)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := slices.Clone(tc.args)
			out := ""
			for i, a := range args {
				if strings.HasPrefix(a, "OUT") {
					out = filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+a[3:])
					args[i] = out
				}
			}
			stdout, stderr, code := run(args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			_, err := os.Stat(out)
			if tc.code != 0 && err == nil {
				t.Errorf("a usage error wrote %s", out)
			}
			if tc.code == 0 && err != nil {
				t.Fatalf("nothing written: %v", err)
			}
		})
	}
}

// TestCopyJSON checks fix --json and convert --json: one object of the
// one schema, whose counts add up, whose verdict agrees with the exit
// status, and whose loss is what the text reports.
func TestCopyJSON(t *testing.T) {
	dir := t.TempDir()
	damaged := damagedCopy(t, testdata+"/lz4-multichunk.bag")
	keys := []string{"compression", "connections", "format", "lost", "messages", "notes", "ok", "output", "path", "topics", "verdict"}
	tests := []struct {
		name    string
		args    []string
		code    int
		verdict string
		format  string
	}{
		{"fix whole", []string{"fix", robotBag, "a.bag"}, 0, "ok", "ROS 1 bag"},
		{"fix part as MCAP", []string{"fix", robotBag, "a.mcap", "--topics", "/odom"}, 0, "ok", "MCAP"},
		{"fix damaged", []string{"fix", damaged, "b.bag"}, 3, "partial", "ROS 1 bag"},
		{"convert", []string{"convert", testdata + "/ros2-mixed.mcap", "c.mcap", "--range", "1:2"}, 0, "ok", "MCAP"},
		{"convert damaged", []string{"convert", damaged, "d.mcap"}, 3, "partial", "MCAP"},
		{"convert ROS 2 to bag", []string{"convert", testdata + "/ros2-mixed.mcap", "e.bag"}, 1, "failed", ""},
		{"not a recording", []string{"fix", "copy_select_test.go", "f.bag"}, 2, "failed", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append(slices.Clone(tc.args), "--json")
			args[2] = filepath.Join(dir, args[2])
			stdout, stderr, code := run(args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if strings.Count(stdout, "\n") != 1 {
				t.Fatalf("want one line of JSON, got:\n%s", stdout)
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(stdout), &m); err != nil {
				t.Fatal(err)
			}
			var got copyJSON
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(keys)
			if got.Error != "" {
				want = append(want, "error")
			}
			if got.Scanned != "" {
				want = append(want, "scanned")
			}
			slices.Sort(want)
			var have []string
			for k := range m {
				have = append(have, k)
			}
			slices.Sort(have)
			if !slices.Equal(have, want) {
				t.Errorf("keys %v, want %v", have, want)
			}
			if got.Verdict != tc.verdict || got.OK != (tc.verdict == "ok") || got.Format != tc.format {
				t.Errorf("verdict %q ok %v format %q, want %q %v %q", got.Verdict, got.OK, got.Format, tc.verdict, tc.verdict == "ok", tc.format)
			}
			if tc.verdict == "failed" {
				if got.Error == "" || !strings.Contains(stderr, got.Error) {
					t.Errorf("error %q is not the one on stderr:\n%s", got.Error, stderr)
				}
				return
			}
			var sum uint64
			for _, tp := range got.Topics {
				sum += tp.Messages
			}
			if sum != got.Messages || got.Messages == 0 {
				t.Errorf("the topics hold %d messages, the total says %d", sum, got.Messages)
			}
			if (tc.verdict == "partial") != (len(got.Lost.Ranges) > 0 || got.Lost.Messages().Min > 0) {
				t.Errorf("verdict %s with loss %+v", got.Verdict, got.Lost)
			}
			for _, r := range got.Lost.Ranges {
				if !strings.Contains(stderr, "offset "+strconv.FormatInt(r.From, 10)) {
					t.Errorf("lost range at %d is not on stderr:\n%s", r.From, stderr)
				}
			}
			// The copy holds what the report says.
			v, _, _ := run("verify", "--json", args[2])
			var vj verifyJSON
			json.Unmarshal([]byte(v), &vj)
			if vj.Messages != got.Messages {
				t.Errorf("verify reads %d messages in the copy, the report says %d", vj.Messages, got.Messages)
			}
		})
	}
}
