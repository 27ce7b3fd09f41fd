package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// built is this command, built once for every test (frontOnce).
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// TestMain removes the build that the tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildFront puts this command, built once for all the tests, into dir
// (whose layout some tests arrange around it) and returns its path.
func buildFront(t *testing.T, dir string) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "bagscope-front-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "bagscope")
		// As `make build` builds it: without the AWS SDK nor Parquet, and
		// without cgo.
		cmd := exec.Command("go", "build", "-tags", "bagscope_front", "-o", built.bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	data, err := os.ReadFile(built.bin)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bagscope")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestNoFyne guards the reason this command exists: it must not link Fyne,
// and as `make build` builds it, not the AWS SDK nor the Parquet writer
// (parquet-go and the protobuf it brings), whose initialisers every command
// would pay (model/cli/tables_front.go).
func TestNoFyne(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "bagscope_front", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "fyne.io/") || strings.Contains(p, "go-gl/") || strings.HasPrefix(p, "github.com/aws/") ||
			strings.HasPrefix(p, "github.com/parquet-go/") || strings.HasPrefix(p, "google.golang.org/protobuf") {
			t.Errorf("model/cli/bagscope depends on %s", p)
		}
	}
}

// TestTablesBinaryLinks: bagscope-tables, as make build builds it, links
// the Parquet writer and nothing that the front leaves out for its
// start-up or memory: not Fyne, gonum/plot nor the AWS SDK.
func TestTablesBinaryLinks(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "bagscope_front,bagscope_tables", "../bagscope-tables").Output()
	if err != nil {
		t.Fatal(err)
	}
	parquet := false
	for _, p := range strings.Fields(string(out)) {
		parquet = parquet || strings.HasPrefix(p, "github.com/parquet-go/parquet-go")
		if strings.HasPrefix(p, "fyne.io/") || strings.Contains(p, "go-gl/") || strings.HasPrefix(p, "github.com/aws/") ||
			strings.HasPrefix(p, "gonum.org/v1/plot") || strings.HasPrefix(p, "github.com/duckdb/") {
			t.Errorf("model/cli/bagscope-tables depends on %s", p)
		}
	}
	if !parquet {
		t.Error("model/cli/bagscope-tables does not link parquet-go: it could not write tables")
	}
}

// TestCommandsAndWindow runs a command in the front itself and hands
// everything else, arguments intact, to bagscope-gui beside it (or in
// ../libexec/bagscope), export and catalog to bagscope-tables there;
// stand-in scripts play them.
func TestCommandsAndWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, layout := range []string{"beside", "libexec", "missing"} {
		t.Run(layout, func(t *testing.T) {
			dir := t.TempDir()
			binDir := filepath.Join(dir, "bin")
			front := buildFront(t, binDir)
			guiDir := binDir
			if layout == "libexec" {
				guiDir = filepath.Join(dir, "libexec", "bagscope")
			}
			if layout != "missing" {
				if err := os.MkdirAll(guiDir, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, script := range map[string]string{
					guiName:    "#!/bin/sh\necho \"gui:$*\"\n",
					tablesName: "#!/bin/sh\necho \"tables:$*\"\n",
				} {
					if err := os.WriteFile(filepath.Join(guiDir, name), []byte(script), 0o755); err != nil {
						t.Fatal(err)
					}
				}
			}

			out, err := exec.Command(front, "info", "../../../testdata/lz4-multichunk.bag").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "compression:  lz4 [47/47 chunks; 33.16%]") {
				t.Fatalf("info: %v\n%s", err, out)
			}

			file := filepath.Join(dir, "a b.bag")
			if err := os.WriteFile(file, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(front, file, "--tab", "Records")
			cmd.Env = append(os.Environ(), "DISPLAY=:0")
			out, err = cmd.CombinedOutput()
			if layout == "missing" {
				if err == nil || !strings.Contains(string(out), "the window, plot images and s3:// URLs need bagscope-gui: not found at ") {
					t.Fatalf("without bagscope-gui: %v\n%s", err, out)
				}
				out, err = exec.Command(front, "export", "../../../testdata/robot.bag", filepath.Join(dir, "tables")).CombinedOutput()
				if err == nil || !strings.Contains(string(out), "export and catalog need bagscope-tables: not found at ") || !strings.Contains(string(out), "make build") {
					t.Fatalf("without bagscope-tables: %v\n%s", err, out)
				}
				return
			}
			// The window's flags first, whatever their place, then the files.
			if want := "gui:--tab=Records -- " + file + "\n"; err != nil || string(out) != want {
				t.Fatalf("window: %v, output %q, want %q", err, out, want)
			}
			// A bucket URL is read by bagscope-gui, which links the AWS
			// SDK (export and catalog too), and tables are written by
			// bagscope-tables, which links Parquet: the whole command
			// line, as it was given.
			for _, tc := range []struct {
				to   string
				args []string
			}{
				{"gui", []string{"info", "s3://bucket/x.bag", "--json"}},
				{"gui", []string{"cat", "--topics", "/a", "GS://bucket/folder/"}},
				{"gui", []string{"export", "s3://bucket/x.bag", filepath.Join(dir, "tables")}},
				{"tables", []string{"export", "../../../testdata/robot.bag", filepath.Join(dir, "tables"), "--format", "csv"}},
				{"tables", []string{"catalog", "../../../testdata", "-o", filepath.Join(dir, "catalog"), "--json"}},
			} {
				out, err = exec.Command(front, tc.args...).CombinedOutput()
				if want := tc.to + ":" + strings.Join(tc.args, " ") + "\n"; err != nil || string(out) != want {
					t.Fatalf("%v: %v, output %q, want %q", tc.args, err, out, want)
				}
			}
		})
	}
}

// TestNoWindowWithoutDisplay runs the front as a user over ssh would: the
// window's paths say there is no display, a mistyped command is one, and
// neither runs bagscope-gui (which would fail to start) nor prints a Go
// stack trace.
func TestNoWindowWithoutDisplay(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := t.TempDir()
	front := buildFront(t, dir)
	script := "#!/bin/sh\necho started\n"
	if err := os.WriteFile(filepath.Join(dir, guiName), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	bagFile := "../../../testdata/robot.bag"
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no display (DISPLAY and WAYLAND_DISPLAY are unset): run a headless command such as `bagscope info FILE`"},
		{[]string{bagFile}, "no display (DISPLAY and WAYLAND_DISPLAY are unset)"},
		{[]string{"--tab", "Records", bagFile}, "no display"},
		{[]string{"inof", bagFile}, "unknown command 'inof' (did you mean info?)"},
		{[]string{"fnid", bagFile}, "unknown command 'fnid' (did you mean find, fix?)"},
		{[]string{"nosuch.bag"}, "nosuch.bag: no such file or folder"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.Command(front, tc.args...)
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
					env = append(env, kv)
				}
			}
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Errorf("exit %v, want 2", err)
			}
			if !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "started") || strings.Contains(string(out), "goroutine") {
				t.Errorf("output %q, want %q and no window, no stack trace", out, tc.want)
			}
		})
	}
}

// TestBashCompletion runs bash's completion function of the generated
// script, as bash does on Tab: it completes command names and, after
// --topics, the topics of the file on the line, before the flag or after
// it (asked of this binary).
func TestBashCompletion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const lib = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(lib); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing (make deps installs bash-completion)", lib)
		}
		t.Skipf("%s is missing: skipping (CI never skips this)", lib)
	}
	dir := t.TempDir()
	front := buildFront(t, dir)
	script, err := exec.Command(front, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	sf := filepath.Join(dir, "bagscope.bash")
	if err := os.WriteFile(sf, script, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../../testdata/robot.bag")
	for _, tc := range []struct{ line, want string }{
		{"bagscope in", "[info]"},
		{"bagscope cat " + abs + " --topics /ro", "[/rosout]"},
		{"bagscope verify --topics /j " + abs, "[/joint_states]"},
	} {
		words := strings.Fields(tc.line)
		cword := len(words) - 1
		if !strings.HasSuffix(tc.line, "/ro") && !strings.HasSuffix(tc.line, " in") {
			cword = 3 // completing in the middle: the flag's value before the file
		}
		sh := "source " + lib + "; source " + sf + "; COMP_WORDS=(" + strings.Join(words, " ") + "); COMP_CWORD=" + fmt.Sprint(cword) +
			"; COMP_LINE='" + tc.line + "'; COMP_POINT=" + fmt.Sprint(len(strings.Join(words[:cword+1], " "))) + "; __start_bagscope 2>/dev/null; printf '[%s]' \"${COMPREPLY[@]}\""
		cmd := exec.Command("bash", "-c", sh)
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
		}
		if string(out) != tc.want {
			t.Errorf("%q completes to %s, want %s", tc.line, out, tc.want)
		}
	}
}
