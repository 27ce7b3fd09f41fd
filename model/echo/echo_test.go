package echo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/internal/reftest"
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

// sharedBags is the shared bags from this folder.
const sharedBags = "../../../shared/bags"

// echoPerTopic is how many messages of each topic TestEchoMatchesGenpy
// compares.
const echoPerTopic = 25

// TestEchoMatchesGenpy compares Echo with str(msg) of the reference's
// genpy, message by message, on the fixtures and on every shared bag the
// reference reads.
func TestEchoMatchesGenpy(t *testing.T) {
	reftest.RequireRef(t)
	paths := []string{"../../testdata/custom-all-types.bag", "../../testdata/std-all-types.bag",
		"../../testdata/none-multichunk.bag", "../../testdata/two-conns-one-topic.bag"}
	paths = append(paths, reftest.SharedBagPaths(t, sharedBags)...)
	compared := 0
	for _, p := range paths {
		name := strings.TrimPrefix(strings.TrimPrefix(p, sharedBags+"/"), "../../testdata/")
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(reftest.Python, "-c", echoRefScript, p, fmt.Sprint(echoPerTopic))
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
	r := model.NewMessageReader(s, nil)
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
		root, _, err := r.Decode(&model.Message{Conn: m.Conn, Data: m.Data})
		if err != nil {
			t.Fatalf("%s at %v: %v", m.Conn.Topic, m.Time, err)
		}
		out = append(out, fmt.Sprintf(" %s %d.%09d\n%s", m.Conn.Topic, m.Time.Sec, m.Time.NSec, echo.Message(root)))
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
	reftest.RequireRef(t)
	d, err := model.Open(context.Background(), "../../testdata/ros2-mixed.mcap", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := model.NewMessageReader(d.Storage, nil)
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
			line, _ := json.Marshal([]string{echo.Message(root), echo.JSON(root)})
			in.Write(append(line, '\n'))
			n++
		}
	}
	cmd := exec.Command(reftest.Python, "-c", echoYAMLCheck)
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
	root := reftest.DecodeNth(t, "../../testdata/custom-all-types.bag", "/all_types", 1)
	full := echo.Message(root)
	if got := echo.Short(root, 1000); got != full {
		t.Errorf("EchoShort with a limit above every array differs from Echo:\n%s", firstDiff(got, full))
	}
	short := echo.Short(root, 2)
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
