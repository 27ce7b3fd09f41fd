package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// robotBag has the topics /joint_states, /odom, /rosout, /scan and /tf
// over 9.98 s.
const robotBag = testdata + "/robot.bag"

// TestGrammar runs command lines a user types, right and wrong, and checks
// the exit status and what stdout and stderr say.
func TestGrammar(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string // each in stderr
		stdout []string // each in stdout
	}{
		// Mistyped commands and flags suggest the right ones.
		{"typo of a command", []string{"inof", robotBag}, 2, []string{"unknown command 'inof' (did you mean info?)"}, nil},
		{"no such command", []string{"grep", robotBag}, 2, []string{"unknown command 'grep'", "bagscope --help"}, nil},
		{"a peer's command", []string{"echo", robotBag}, 2, []string{"unknown command 'echo' (did you mean cat?)"}, nil},
		{"mcap's doctor", []string{"doctor", robotBag}, 2, []string{"unknown command 'doctor' (did you mean check?)"}, nil},
		{"rosbag's reindex", []string{"reindex", robotBag}, 2, []string{"unknown command 'reindex' (did you mean fix?)"}, nil},
		{"help of a typo", []string{"inof", "-h"}, 2, []string{"unknown command 'inof' (did you mean info?)", "Run 'bagscope --help'"}, nil},
		{"help of a peer's command", []string{"echo", "--help"}, 2, []string{"unknown command 'echo' (did you mean cat?)"}, nil},
		{"help topic typo", []string{"help", "inof"}, 2, []string{"unknown command 'inof' (did you mean info?)", "Run 'bagscope --help'"}, nil},
		{"help of a file", []string{robotBag, "--help"}, 0, nil, []string{"Available Commands:"}},
		{"find without its expression", []string{"find", robotBag}, 2, []string{"find: missing EXPR"}, nil},
		{"typo of a flag", []string{"cat", robotBag, "--jsno"}, 2, []string{"unknown flag: --jsno (did you mean --json?)", "bagscope cat --help"}, nil},
		{"missing file", []string{"info"}, 2, []string{"info: missing FILE"}, nil},
		{"extra file", []string{"info", robotBag, robotBag}, 2, []string{"info takes FILE, got 2 arguments"}, nil},
		{"missing output file", []string{"fix", robotBag}, 2, []string{"fix: missing OUT"}, nil},
		{"plot without output", []string{"plot", robotBag, "/odom.pose.pose.position.x"}, 2, []string{"plot: missing an output: give -o OUT.png"}, nil},
		{"plot without series", []string{"plot", robotBag, "--stats"}, 2, []string{"plot: missing SERIES"}, nil},
		// Flags anywhere.
		{"flags after the file", []string{"info", robotBag, "--json"}, 0, nil, []string{`"messages":1070`}},
		{"flags around the file", []string{"cat", "--json", robotBag, "--topics", "/rosout"}, 0, nil, []string{`{"topic": "/rosout"`}},
		{"plot flags between series", []string{"plot", robotBag, "/odom.pose.pose.position.x", "--stats", "/odom.pose.pose.position.y"}, 0, nil, []string{"/odom.pose.pose.position.y"}},
		// Help and version on stdout, exit 0, with examples and exit codes.
		{"help", []string{"--help"}, 0, nil, []string{"Available Commands:", "info ", "verify ", exitTable}},
		{"help of a command", []string{"help", "cat"}, 0, nil, []string{"cat prints the messages", "Examples:", "--topics", exitTable}},
		{"-h of fix", []string{"fix", "-h"}, 0, nil, []string{"bagscope fix [flags] IN OUT", exitTable}},
		{"-h of convert", []string{"convert", "-h"}, 0, nil, []string{"bagscope convert [flags] IN OUT", exitTable}},
		{"--version", []string{"--version"}, 0, nil, []string{"bagscope " + Version + " (commit ", "go1."}},
		{"version", []string{"version"}, 0, nil, []string{"bagscope " + Version + " (commit "}},
		{"version --json", []string{"version", "--json"}, 0, nil, []string{`{"version":"` + Version + `","commit":"`, `","go":"go1.`}},
		// A file that is not a recording is a 2 from every command.
		{"info of a missing file", []string{"info", dir + "/none.bag"}, 2, []string{"no such file"}, nil},
		{"cat of a missing file", []string{"cat", dir + "/none.bag"}, 2, []string{"no such file"}, nil},
		{"check of a missing file", []string{"check", dir + "/none.bag"}, 2, []string{"no such file"}, nil},
		{"verify of a missing file", []string{"verify", dir + "/none.bag"}, 2, []string{"no such file"}, nil},
		{"plot of a missing file", []string{"plot", dir + "/none.bag", "/a.b", "--stats"}, 2, []string{"no such file"}, nil},
		{"fix of a missing file", []string{"fix", dir + "/none.bag", dir + "/out.bag"}, 2, []string{"no such file"}, nil},
		{"convert of a missing file", []string{"convert", dir + "/none.bag", dir + "/out.mcap"}, 2, []string{"no such file"}, nil},
		{"records of a non-recording", []string{"records", "grammar_test.go"}, 2, []string{"offset 0"}, nil},
		// Selections: unknown topics and ranges outside are errors that
		// say what exists.
		{"topic without its slash", []string{"cat", robotBag, "--topics", "rosout"}, 2, []string{"no topic rosout (did you mean /rosout?)", "/joint_states, /odom, /rosout, /scan, /tf"}, nil},
		{"no such topic", []string{"cat", robotBag, "--topic", "/nosuch"}, 2, []string{"no topic /nosuch", "/joint_states, /odom"}, nil},
		{"pattern matching nothing", []string{"verify", robotBag, "--topics", "/cam*"}, 2, []string{"no topic matches /cam*"}, nil},
		{"comma-separated topics", []string{"verify", robotBag, "--topics", "/rosout,/tf"}, 0, nil, []string{"/rosout ", "/tf ", "total"}},
		{"pattern", []string{"verify", robotBag, "--topics", "/jo*", "--exclude", "/nothing*"}, 2, []string{"no topic matches /nothing*"}, nil},
		{"exclude everything", []string{"cat", robotBag, "--exclude", "*"}, 2, []string{"leaves no topic"}, nil},
		{"range outside", []string{"cat", robotBag, "--range", "50:60"}, 2, []string{"outside the recording", "the recording spans 0:9.98 (@1700000000.123456789:@1700000010.103456789"}, nil},
		{"reversed range", []string{"cat", robotBag, "--range", "5:2"}, 2, []string{"the range ends", "before it starts"}, nil},
		{"start since 1970", []string{"cat", robotBag, "--start", "5"}, 2, []string{"outside the recording"}, nil},
		{"range and start", []string{"cat", robotBag, "--range", "1:2", "--start", "+1"}, 2, []string{"not both"}, nil},
		{"bad range", []string{"cat", robotBag, "--range", "soon"}, 2, []string{"want START:END"}, nil},
		{"empty selection", []string{"cat", robotBag, "--topics", "/rosout", "--range", "9.9:9.95"}, 0, []string{"no message in the selection (--topics /rosout --range 9.9:9.95)"}, nil},
		{"-n", []string{"cat", robotBag, "-n", "2", "--topics", "/odom,/tf"}, 0, nil, []string{"# /odom  1700000000.123456789  nav_msgs/Odometry\n", "# /tf  1700000000.123456789  tf2_msgs/TFMessage\n"}},
		{"--fields", []string{"cat", robotBag, "--topics", "/odom", "-n", "1", "--fields", "header.stamp,pose.pose.position"}, 0, nil, []string{"header.stamp: \n  secs: 1700000000\n  nsecs: 123456789\npose.pose.position: \n  x: 2.0\n  y: 0.0\n  z: 0.0\n---\n"}},
		{"negative -n", []string{"cat", robotBag, "-n", "-1"}, 2, []string{"-n -1: want a count"}, nil},
		{"plot range outside", []string{"plot", robotBag, "/odom.pose.pose.position.x", "--stats", "--range", "@1600000000:"}, 2, []string{"outside the recording"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := run(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, stderr)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			// Never a usage dump after a mistake: one reason, one pointer.
			if code == ExitUsage && (strings.Contains(stderr, "Flags:") || strings.Count(stderr, "\n") > 4) {
				t.Errorf("a usage mistake dumps the usage:\n%s", stderr)
			}
		})
	}
}

// TestExitTableInEveryHelp checks that every command's help ends with the
// one exit-status table, and that the README gives the same table.
func TestExitTableInEveryHelp(t *testing.T) {
	root := newRoot(&env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	for _, c := range append(root.Commands(), root) {
		if c.Hidden || c.Name() == "completion" {
			continue
		}
		out, _, code := run(strings.Fields(strings.TrimPrefix(c.CommandPath()+" --help", "bagscope"))...)
		if code != 0 || !strings.HasSuffix(out, exitTable+"\n") {
			t.Errorf("%s --help: exit %d, does not end with the exit table:\n%s", c.CommandPath(), code, out)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte(exitTable)) {
		t.Errorf("README.md lacks the exit table:\n%s", exitTable)
	}
}

// TestWindowOnlyWithDisplay checks the root: files open the window only
// with a display, with the window's flags passed on before the files.
func TestWindowOnlyWithDisplay(t *testing.T) {
	var got []string
	window := func(args []string) int { got = args; return 0 }
	for _, tc := range []struct {
		name    string
		env     map[string]string
		args    []string
		code    int
		want    []string
		message string
	}{
		{"no display", nil, []string{robotBag}, 2, nil, "no display (DISPLAY and WAYLAND_DISPLAY are unset): run a headless command such as `bagscope info FILE`"},
		{"no display, no file", nil, nil, 2, nil, "no display"},
		{"X display", map[string]string{"DISPLAY": ":0"}, []string{robotBag, "--tab", "Records", "--plot", "/a.b", "--plot", "/c.d"}, 0,
			[]string{"--plot=/a.b", "--plot=/c.d", "--tab=Records", "--", robotBag}, ""},
		{"Wayland display", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, []string{"--sample"}, 0, []string{"--sample=true", "--"}, ""},
		{"missing file with a display", map[string]string{"DISPLAY": ":0"}, []string{"none.bag"}, 2, nil, "none.bag: no such file or folder"},
		{"a library", map[string]string{"DISPLAY": ":0"}, []string{"--library", "../../testdata"}, 0, []string{"--library=true", "--", "../../testdata"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			var out, errb bytes.Buffer
			code := Execute(tc.args, Options{Stdout: &out, Stderr: &errb, Window: window, Getenv: func(k string) string { return tc.env[k] }})
			if code != tc.code || !strings.Contains(errb.String(), tc.message) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errb.String(), tc.code, tc.message)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("window args %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParseRange checks --range's forms against the recording's start.
func TestParseRange(t *testing.T) {
	origin := bag.Time{Sec: 1700000000, NSec: 123456789}
	tests := []struct {
		in     string
		lo, hi string // bag.Time.String(); "" for no bound
		bad    bool
	}{
		{in: "5:12", lo: "1700000005.123456789", hi: "1700000012.123456789"},
		{in: "5:", lo: "1700000005.123456789"},
		{in: ":0.5", hi: "1700000000.623456789"},
		{in: "+1.25:+2", lo: "1700000001.373456789", hi: "1700000002.123456789"},
		{in: "@1700000000.5:@1700000001", lo: "1700000000.500000000", hi: "1700000001.000000000"},
		{in: "2023-11-14T22:13:21Z:2023-11-14T22:13:22.5Z", lo: "1700000001.000000000", hi: "1700000002.500000000"},
		{in: "2023-11-14T23:13:21+01:00:", lo: "1700000001.000000000"},
		{in: "5", bad: true},
		{in: "a:b", bad: true},
		{in: "5:x", bad: true},
	}
	for _, tc := range tests {
		lo, hi, err := parseRange(tc.in, origin)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: no error", tc.in)
			}
			continue
		}
		str := func(x bag.Time) string {
			if x.IsZero() {
				return ""
			}
			return x.String()
		}
		if err != nil || str(lo) != tc.lo || str(hi) != tc.hi {
			t.Errorf("%q: %q, %q, %v; want %q, %q", tc.in, str(lo), str(hi), err, tc.lo, tc.hi)
		}
	}
}

// TestJSONEverywhere checks that every command's --json output parses:
// one object, or one object per line; those that write a file or tables
// say so in it, with a verdict.
func TestJSONEverywhere(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"fix", "--json", robotBag, filepath.Join(dir, "fixed.bag")},
		{"convert", "--json", robotBag, filepath.Join(dir, "converted.mcap")},
		{"filter", "--json", robotBag, filepath.Join(dir, "filtered.mcap"), "--topics", "/rosout"},
		{"filter", "--json", robotBag, filepath.Join(dir, "where.bag"), "--topics", "/rosout", "--where", "level >= WARN"},
		{"export", "--json", robotBag, filepath.Join(dir, "tables"), "--topics", "/rosout"},
		{"export", "--json", robotBag, filepath.Join(dir, "csv"), "--format", "csv"},
	} {
		stdout, stderr, code := run(args...)
		var v struct {
			Output  string           `json:"output"`
			OK      bool             `json:"ok"`
			Verdict string           `json:"verdict"`
			Tables  []map[string]any `json:"tables"`
		}
		if err := json.Unmarshal([]byte(stdout), &v); err != nil || code != 0 {
			t.Errorf("%v: exit %d, %v: %q %s", args, code, err, stdout, stderr)
			continue
		}
		if !v.OK || v.Verdict != "ok" || v.Output != args[3] {
			t.Errorf("%v: %+v", args, v)
		}
		if args[0] == "export" && len(v.Tables) == 0 {
			t.Errorf("%v: no table in %s", args, stdout)
		}
	}
	for _, args := range [][]string{
		{"info", "--json", robotBag},
		{"info", "--json", "--freq", robotBag},
		{"check", "--json", "--quick", robotBag},
		{"verify", "--json", robotBag},
		{"records", "--json", robotBag},
		{"cat", "--json", "--topics", "/tf", robotBag},
		{"find", "--json", robotBag, "level >= WARN"},
		{"version", "--json"},
	} {
		stdout, stderr, code := run(args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
			continue
		}
		dec := json.NewDecoder(strings.NewReader(stdout))
		n := 0
		for dec.More() {
			var v map[string]any
			if err := dec.Decode(&v); err != nil {
				t.Errorf("%v: object %d: %v", args, n, err)
				break
			}
			n++
		}
		if n == 0 {
			t.Errorf("%v: no JSON", args)
		}
	}
}

// TestDynamicCompletion asks for completions as the shell scripts do
// (bagscope __complete ...): topics for --topics, field paths for plot.
func TestDynamicCompletion(t *testing.T) {
	tests := []struct {
		args []string
		// line is the whole command line, as the completion scripts hand
		// it over (compLineEnv); the shells give args only up to the cursor.
		line string
		want []string
	}{
		{[]string{"cat", robotBag, "--topics", "/ro"}, "", []string{"/rosout"}},
		{[]string{"cat", robotBag, "--topics", "ro"}, "", []string{"/rosout"}},
		{[]string{"verify", robotBag, "--topics", "/tf,/sc"}, "", []string{"/tf,/scan"}},
		{[]string{"plot", robotBag, "/odom.pose.pose.posi"}, "", []string{"/odom.pose.pose.position.x", "/odom.pose.pose.position.y"}},
		{[]string{"inf"}, "", []string{"info"}},
		// The file after the flag being completed.
		{[]string{"cat", "--topics", "/ro"}, "bagscope cat --topics /ro " + robotBag, []string{"/rosout"}},
		{[]string{"fix", "--exclude", "/j"}, "bagscope fix --exclude /j --msgs " + testdata + " '" + robotBag + "' out.bag", []string{"/joint_states"}},
		{[]string{"convert", "--topics", "/ro"}, "bagscope --msgs " + testdata + " convert --topics /ro " + robotBag + " x.mcap", []string{"/rosout"}},
		{[]string{"cat", "--topics", "/ro"}, "bagscope cat --topics /ro nosuch.bag", nil},
	}
	for _, tc := range tests {
		t.Setenv(compLineEnv, tc.line)
		out, stderr, code := run(append([]string{"__complete"}, tc.args...)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
		}
		lines := strings.Split(out, "\n")
		if tc.want == nil && strings.Contains(out, "/rosout") {
			t.Errorf("%v (line %q): completes topics of no file:\n%s", tc.args, tc.line, out)
		}
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				if l == w || strings.HasPrefix(l, w+"\t") {
					found = true
				}
			}
			if !found {
				t.Errorf("%v: completions lack %q:\n%s", tc.args, w, out)
			}
		}
	}
}

// TestCompletionScripts generates the bash, zsh and fish scripts and has
// each shell that is installed check its syntax (bash always: make deps
// installs zsh and fish, and CI never skips them).
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			out, stderr, code := run("completion", sh)
			if code != 0 || !strings.Contains(out, "bagscope") {
				t.Fatalf("completion %s: exit %d: %s", sh, code, stderr)
			}
			// The script hands the whole line to the request, so that a
			// file after --topics is seen (TestDynamicCompletion).
			if !strings.Contains(out, compLinePatches[sh][1]) {
				t.Errorf("completion %s does not hand %s to the request", sh, compLineEnv)
			}
			if _, err := exec.LookPath(sh); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatalf("%s is not installed (make deps installs it)", sh)
				}
				t.Skipf("%s is not installed: its script's syntax is not checked (CI never skips this)", sh)
			}
			f := t.TempDir() + "/bagscope." + sh
			if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(sh, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, msg)
			}
		})
	}
}
