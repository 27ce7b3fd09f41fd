package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

// echoRefScript prints, for the first perTopic messages of each topic in
// read_messages() order, a separator line with the topic and time, then
// str(msg): genpy's strify_message, which `rostopic echo` prints.
const echoRefScript = `
import sys, rosbag
per = int(sys.argv[2])
seen = {}
out = sys.stdout
for topic, msg, t in rosbag.Bag(sys.argv[1]).read_messages():
    seen[topic] = seen.get(topic, 0) + 1
    if seen[topic] > per:
        continue
    out.write("\x00 %s %d.%09d\n" % (topic, t.secs, t.nsecs))
    out.write(str(msg))
    out.write("\n")
`

// echoPerTopic is how many messages of each topic TestEchoMatchesGenpy
// compares.
const echoPerTopic = 25

// TestEchoMatchesGenpy compares Echo with str(msg) of the reference's
// genpy, message by message, on the fixtures and on every shared bag the
// reference reads.
func TestEchoMatchesGenpy(t *testing.T) {
	requireRef(t)
	paths := []string{"../testdata/custom-all-types.bag", "../testdata/std-all-types.bag",
		"../testdata/none-multichunk.bag", "../testdata/two-conns-one-topic.bag"}
	paths = append(paths, sharedBagPaths(t)...)
	compared := 0
	for _, p := range paths {
		name := strings.TrimPrefix(strings.TrimPrefix(p, sharedBags+"/"), "../testdata/")
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(refPython, "-c", echoRefScript, p, fmt.Sprint(echoPerTopic))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			ref, err := cmd.Output()
			if err != nil {
				// A damaged bag (truncated, unindexed, empty) that the
				// reference refuses: nothing to compare with.
				t.Logf("the reference cannot read this bag: %v: %.300s", err, stderr.String())
				return
			}
			var want []string
			if len(ref) > 0 {
				want = strings.Split(strings.TrimPrefix(string(ref), "\x00"), "\n\x00")
				want[len(want)-1] = strings.TrimSuffix(want[len(want)-1], "\n")
			}
			got := echoAll(t, p)
			if len(got) != len(want) {
				t.Fatalf("%d messages, the reference has %d", len(got), len(want))
			}
			slices.Sort(got) // ties in time may come in another order
			slices.Sort(want)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("message differs from genpy:\n%s", firstDiff(got[i], want[i]))
				}
			}
			compared += len(got)
		})
	}
	if compared < 200 {
		t.Errorf("only %d messages compared", compared)
	}
}

// echoAll echoes the first echoPerTopic messages of each topic of the bag
// at p, each after a line with its topic and time, as echoRefScript does.
func echoAll(t *testing.T, p string) []string {
	t.Helper()
	b, err := ros1.OpenOrScan(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := ros1.NewStore(b)
	r := NewMessageReader(s, nil)
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	seen := map[string]int{}
	var out []string
	for it.Next() {
		m := it.Message()
		seen[m.Conn.Topic]++
		if seen[m.Conn.Topic] > echoPerTopic {
			continue
		}
		root, _, err := r.Decode(&Message{Conn: m.Conn, Data: m.Data})
		if err != nil {
			t.Fatalf("%s at %v: %v", m.Conn.Topic, m.Time, err)
		}
		out = append(out, fmt.Sprintf(" %s %d.%09d\n%s", m.Conn.Topic, m.Time.Sec, m.Time.NSec, Echo(root)))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// firstDiff shows the first line where got and want differ, with the lines
// before it.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("%s\nline %d:\n got %q\nwant %q", strings.Join(g[max(0, i-3):i], "\n"), i+1, gl, wl)
		}
	}
	return "(equal)"
}

func TestPyFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{1e-5, "1e-05"},
		{0.0001, "0.0001"},
		{1e16, "1e+16"},
		{1234567890123456, "1234567890123456.0"},
		{1.5e300, "1.5e+300"},
		{5e-324, "5e-324"},
		{math.NaN(), "nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := PyFloat(tc.f); got != tc.want {
				t.Errorf("PyFloat(%v) = %q, want %q", tc.f, got, tc.want)
			}
		})
	}
}

// TestYAMLStrings checks the string forms against PyYAML's on strings
// that take each style and the line folding.
func TestYAMLStrings(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, tc := range []struct {
		name string
		s    []string
		want string // yaml.dump(s), without the final newline
	}{
		{"plain", []string{"base_link", "two words"}, "- base_link\n- two words"},
		{"empty", []string{""}, "- ''"},
		{"looks like bool", []string{"yes", "True", "off"}, "- 'yes'\n- 'True'\n- 'off'"},
		{"looks like numbers", []string{"1", "1.5", "0x1f", ".inf", "1_000"}, "- '1'\n- '1.5'\n- '0x1f'\n- '.inf'\n- '1_000'"},
		{"null", []string{"~", "null"}, "- '~'\n- 'null'"},
		{"indicators", []string{"-x", "- x", "a: b", "a:b", "#c", "a #c", "[x]", "it's"}, "- -x\n- '- x'\n- 'a: b'\n- a:b\n- '#c'\n- 'a #c'\n- '[x]'\n- it's"},
		{"quote inside single", []string{"'q'"}, "- '''q'''"},
		{"edge spaces", []string{" x", "x "}, "- ' x'\n- 'x '"},
		{"unicode and control", []string{"über", "a\tb"}, "- \"\\xFCber\"\n- \"a\\tb\""},
		{"long plain folds", []string{long[:len(long)-1]}, "- " + strings.TrimSpace(strings.Repeat("word ", 16)) + "\n  " + strings.TrimSpace(strings.Repeat("word ", 14))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := yamlStringList(tc.s); got != tc.want {
				t.Errorf("yamlStringList(%q) =\n%s\nwant\n%s", tc.s, got, tc.want)
			}
		})
	}
}

// TestYAMLMatchesPyYAML checks yamlQuoted and yamlStringList against the
// reference's PyYAML on strings that fold, escape and quote.
func TestYAMLMatchesPyYAML(t *testing.T) {
	requireRef(t)
	if err := exec.Command(refPython, "-c", "import yaml").Run(); err != nil {
		skipOrFail(t, "PyYAML is missing: "+err.Error())
	}
	cases := []string{
		"hello", "", "a\"b\\c", "line\nbreak", "tab\there", "über ☃ 🤖",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 5),
		strings.Repeat("x", 120) + " tail", strings.Repeat("é", 50) + " " + strings.Repeat("a b ", 30),
		"  leading", "trailing  ", "a  b" + strings.Repeat(" c", 50),
		"yes", "3.14", "2001-12-14", "- dash", "key: value", "x'y", "1:20", "=", "<<",
	}
	for _, s := range cases {
		t.Run(fmt.Sprintf("%.20q", s), func(t *testing.T) {
			script := `import sys, yaml
s = sys.argv[1]
sys.stdout.write(yaml.dump(s, default_style='"').rstrip('\n') + "\x00" + yaml.dump([s]).rstrip('\n'))`
			out, err := exec.Command(refPython, "-c", script, s).Output()
			if err != nil {
				t.Fatal(err)
			}
			wantQ, wantL, _ := strings.Cut(string(out), "\x00")
			if s != "" {
				if got := yamlQuoted(s); got != wantQ {
					t.Errorf("quoted:\n got %q\nwant %q", got, wantQ)
				}
			}
			if got := yamlStringList([]string{s}); got != wantL {
				t.Errorf("list:\n got %q\nwant %q", got, wantL)
			}
		})
	}
}

// echoYAMLCheck reads pairs of (echo text, JSON) as JSON lines on stdin
// and checks that PyYAML reads each echo text as the values of its JSON.
const echoYAMLCheck = `
import sys, json, yaml
def typed(v):
    # values with their types: 0 and 0.0 differ, as do 1 and True
    if isinstance(v, dict):
        return {k: typed(x) for k, x in v.items()}
    if isinstance(v, list):
        return [typed(x) for x in v]
    return (type(v).__name__, v)
bad = 0
for n, line in enumerate(sys.stdin):
    echo, js = json.loads(line)
    got, want = typed(yaml.safe_load(echo)), typed(json.loads(js))
    if got != want:
        bad += 1
        if bad < 3:
            print("message %d: YAML reads %r\nJSON has %r" % (n, got, want))
print("%d differ" % bad)
`

// TestEchoCDRReadsAsJSON checks the echo of ROS 2 (CDR) messages: with no
// rostopic echo for them, PyYAML reads each echo text and must find the
// values of the message's JSON form (itself compared with the MCAP
// reference in the cat tests).
func TestEchoCDRReadsAsJSON(t *testing.T) {
	requireRef(t)
	d, err := Open(context.Background(), "../testdata/ros2-mixed.mcap", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x, err := BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewMessageReader(d.Storage, nil)
	var in bytes.Buffer
	n := 0
	for _, tm := range x.Topics {
		for _, ref := range tm.Range(0, 20) {
			m, err := r.Read(ref)
			if err != nil {
				t.Fatal(err)
			}
			root, _, err := r.Decode(m)
			if err != nil {
				t.Fatal(err)
			}
			line, _ := json.Marshal([]string{Echo(root), MessageJSON(root)})
			in.Write(append(line, '\n'))
			n++
		}
	}
	cmd := exec.Command(refPython, "-c", echoYAMLCheck)
	cmd.Stdin = &in
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "0 differ" || n < 50 {
		t.Errorf("%d messages: %s", n, got)
	}
}

func TestEchoShort(t *testing.T) {
	root := decodeNth(t, "../testdata/custom-all-types.bag", "/all_types", 1)
	full := Echo(root)
	if got := EchoShort(root, 1000); got != full {
		t.Errorf("EchoShort with a limit above every array differs from Echo:\n%s", firstDiff(got, full))
	}
	short := EchoShort(root, 2)
	for _, want := range []string{
		"\nu8_dyn: [250, 251, … 4 more]\n",
		"\nch_dyn: b'ch' … 4 more\n",
		"\nf64_fixed: [inf, 5e-324, … 1 more]\n",
		"\ns_dyn: \n  - ''\n  - a\n  … 1 more\n",
		"\nb_fixed: [True, False]\n",
	} {
		if !strings.Contains(short, want) {
			t.Errorf("EchoShort(2) has no %q:\n%s", want, short)
		}
	}
}
