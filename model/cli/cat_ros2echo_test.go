package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// The `ros2 topic echo` oracle: a recording's messages decoded by
// @foxglove/rosmsg2-serialization (mcap_cat.mjs or db3_cat.mjs --typed),
// then written by testdata/oracle/ros2_echo.py, a small rewrite of the rules
// of rosidl_generator_py, rosidl_runtime_py's message_to_yaml and ros2cli's
// echo verb, run with Debian's PyYAML.
const ros2EchoOracle = oracleScripts + "/ros2_echo.py"

// requireROS2EchoOracle skips (fails in CI) when node, the npm packages,
// PyYAML or NumPy are missing. ros2_echo.py prints fixed-size arrays as the
// numpy arrays rclpy gives, so it needs NumPy as it needs PyYAML.
func requireROS2EchoOracle(t *testing.T) {
	t.Helper()
	requireNodeOracles(t)
	requireDB3Oracles(t)
	oracletest.RequirePython(t, "yaml", "numpy") // python3-yaml, python3-numpy
}

// typedCache keeps the node oracle's typed lines of the recordings a test
// echoes more than one way (the edge fixture: 43 ways), so that node decodes
// each once; ros2_echo.py still runs for each way.
type typedCache map[string]string

// typed returns the node script's typed lines for path, from the cache
// when c has them; a nil c caches nothing.
func (c typedCache) typed(t *testing.T, path string) string {
	t.Helper()
	if typed, ok := c[path]; ok {
		return typed
	}
	script := "db3_cat.mjs"
	if strings.HasSuffix(path, ".mcap") {
		script = "mcap_cat.mjs"
	}
	typed := typedOracle(t, script, path)
	if c != nil {
		c[path] = typed
	}
	return typed
}

// ros2Echo runs the oracle on a recording: the node script's typed lines
// (from c, see typedCache) piped into ros2_echo.py with args. It returns
// the text and whether every message was decoded.
func ros2Echo(t *testing.T, c typedCache, path string, args ...string) (string, bool) {
	t.Helper()
	typed := c.typed(t, path)
	cmd := exec.Command(refPython, append([]string{ros2EchoOracle}, args...)...)
	cmd.Stdin = strings.NewReader(typed)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		return out.String(), false
	}
	if err != nil {
		t.Fatalf("ros2_echo.py %s on %s: %v: %s", strings.Join(args, " "), name(path), err, errb.String())
	}
	return out.String(), true
}

// oracleHang bounds one run of a node oracle. node 20 has been seen to hang
// for good, idle in a futex wait, once in some tens of runs on a loaded
// machine: a V8 deadlock that oracletest.NodeFlags now avoids. Should another
// hang come, a run that has not ended by then is killed and run again, once.
// This bounds a hang; it times nothing the test checks.
const oracleHang = 3 * time.Minute

// typedOracle runs `node SCRIPT --typed path` and returns its stdout.
func typedOracle(t *testing.T, script, path string) string {
	t.Helper()
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), oracleHang)
		cmd := oracletest.NodeCommandContext(ctx, oracleScripts+"/"+script, "--typed", path)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		hung := ctx.Err() != nil
		cancel()
		switch {
		case hung && try == 1:
			t.Logf("%s --typed %s did not end within %v: killed, run again", script, name(path), oracleHang)
			continue
		case err != nil:
			t.Fatalf("%s --typed %s: %v: %s", script, name(path), err, errb.String())
		}
		return out.String()
	}
}

// TestCatTextMatchesROS2Echo compares `cat`'s text for ROS 2 recordings
// with the oracle's `ros2 topic echo` text, byte for byte: an MCAP the test
// writes with the values whose YAML is hard (make_echo_mcap.mjs: YAML
// keywords and numbers in strings, quotes, line breaks, non-ASCII, invalid
// UTF-8, an embedded NUL, NaN and infinities, byte values 0-255, long
// strings and arrays), with -n, --fields (one field alone as `ros2 topic
// echo --field` prints it), --truncate-length and
// --full-length; and the shared ROS 2 recordings (.db3, .db3.zstd, rosbag2
// folders of .db3, .mcap; a sample without -long), every message, each
// after its "# TOPIC  TIME  TYPE" line. Messages the oracle does not decode
// (no definition, not CDR) are not compared.
func TestCatTextMatchesROS2Echo(t *testing.T) {
	t.Parallel() // one of the package's longest; it only reads
	requireROS2EchoOracle(t)
	edge := filepath.Join(t.TempDir(), "edge.mcap")
	if out, stderr, code, err := nodeOracle("make_echo_mcap.mjs", edge); err != nil || code != 0 {
		t.Fatalf("make_echo_mcap.mjs: exit %d, %v: %s%s", code, err, out, stderr)
	}
	edgeTyped := typedCache{}
	t.Run("edge", func(t *testing.T) {
		for _, args := range [][]string{
			nil,
			{"--full-length"},
			{"-l", "3"},
			{"-l", "0"},
			{"-n", "2", "--fields", "one,stamp.sec,pts,nosuch,fixed_pts,texts"},
		} {
			want, whole := ros2Echo(t, edgeTyped, edge, args...)
			if !whole || strings.Count(want, "---\n") < 2 {
				t.Fatalf("%v: the oracle did not print the fixture's messages:\n%s", args, want)
			}
			got, stderr, code := run(append([]string{"cat", edge, "--topics", "/edge"}, args...)...)
			if code != 0 || got != want {
				t.Errorf("cat %v: exit %d %s\n%s", args, code, stderr, firstDiff(got, want))
			}
		}
	})
	// One field alone is `ros2 topic echo --field`'s: the bare value as
	// rclpy gives it, printed by the oracle with Python's own print():
	// array.array for sequences of numbers, numpy for fixed arrays of them
	// (wrapped, cut past 1000, in positional and exponent form), lists and
	// bytes otherwise; a nested message as its YAML.
	t.Run("field", func(t *testing.T) {
		for _, field := range []string{"one", "texts", "doubles", "floats", "b", "bytes", "c", "u8s", "i8",
			"big", "ubig", "flags", "stamp", "stamp.sec", "fixed3", "fixed_ints", "fixed_f32", "many", "summarised"} {
			for _, args := range [][]string{{"--fields", field}, {"--fields", field, "-l", "3"}} {
				want, whole := ros2Echo(t, edgeTyped, edge, args...)
				if !whole || strings.Count(want, "---\n") < 2 {
					t.Fatalf("%v: the oracle did not print the fixture's messages:\n%s", args, want)
				}
				got, stderr, code := run(append([]string{"cat", edge, "--topics", "/edge"}, args...)...)
				if code != 0 || got != want {
					t.Errorf("cat %v: exit %d %s\n%s", args, code, stderr, firstDiff(got, want))
				}
			}
		}
		// A path to no field: echo stops with "Invalid field"; cat says so
		// once and prints nothing, and so does the oracle.
		got, stderr, _ := run("cat", edge, "--topics", "/edge", "--fields", "stamp.nosuch")
		if got != "" || !strings.Contains(stderr, `no field "stamp.nosuch"`) {
			t.Errorf("--fields stamp.nosuch: printed %q, stderr %q", got, stderr)
		}
	})
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping the shared recordings: %s not found", sharedBags)
	}
	var paths []string
	for _, c := range sharedDB3Cases() {
		paths = append(paths, c.path)
	}
	var mcaps []string
	filepath.Walk(sharedBags, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".mcap") {
			mcaps = append(mcaps, p)
		}
		return nil
	})
	sort.Strings(mcaps)
	paths = append(paths, sampleShared(mcaps)...)
	compared, skipped := 0, 0
	t.Run("shared", func(t *testing.T) {
		for _, p := range paths {
			want, _ := ros2Echo(t, nil, p, "--header", "--full-length")
			got, stderr, code := run("cat", p, "--full-length")
			if code > 1 {
				t.Errorf("%s: exit %d: %s", name(p), code, stderr)
				continue
			}
			g, w := echoBlocks(got), echoBlocks(want)
			if len(g) != len(w) {
				t.Errorf("%s: %d messages, the oracle %d", name(p), len(g), len(w))
				continue
			}
			for i := range w {
				if strings.Contains(w[i], "\n(not decoded by the oracle") {
					skipped++
					continue
				}
				if g[i] != w[i] {
					t.Errorf("%s: message %d:\n%s", name(p), i, firstDiff(g[i], w[i]))
					break
				}
				compared++
			}
		}
	})
	t.Logf("%d recordings, %d messages equal to the oracle's, %d it does not decode", len(paths), compared, skipped)
	if compared == 0 {
		t.Errorf("no message was compared")
	}
}

var echoHeader = regexp.MustCompile(`(?m)^# \S+  \d+\.\d{9}  \S*\n`)

// echoBlocks splits cat's text into its messages, each from its
// "# TOPIC  TIME  TYPE" line to its "---".
func echoBlocks(s string) []string {
	idx := echoHeader.FindAllStringIndex(s, -1)
	out := make([]string, len(idx))
	for i, at := range idx {
		end := len(s)
		if i+1 < len(idx) {
			end = idx[i+1][0]
		}
		out[i] = s[at[0]:end]
	}
	return out
}

// firstDiff shows the first line where got and want differ, with the lines
// around it.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			lo := max(0, i-3)
			return "line " + strconv.Itoa(i+1) + ":\n got: " + strings.Join(g[lo:min(len(g), i+2)], "\n      ") +
				"\nwant: " + strings.Join(w[lo:min(len(w), i+2)], "\n      ")
		}
	}
	return "(equal)"
}
