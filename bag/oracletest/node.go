package oracletest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The npm oracles: testdata/oracle/*.mjs, run by node with the packages
// `make oracles` installs from testdata/oracle/package-lock.json into
// $BAGSCOPE_ORACLES (by default ~/.cache/bagscope-npm/node_modules).

// Dir is the npm oracles' node_modules folder.
func Dir() string {
	if d := os.Getenv("BAGSCOPE_ORACLES"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "bagscope-npm", "node_modules")
}

// Require skips t (fails it in CI, SkipOrFail) when node or one of the npm
// packages pkgs is missing; with no pkgs, @mcap/core. It returns Dir.
func Require(t testing.TB, pkgs ...string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		SkipOrFail(t, "node is not installed (make deps): "+err.Error())
	}
	dir := Dir()
	if len(pkgs) == 0 {
		pkgs = []string{"@mcap/core"}
	}
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, p, "package.json")); err != nil {
			SkipOrFail(t, "the npm oracles are not installed (make oracles, or point BAGSCOPE_ORACLES at their node_modules): "+err.Error())
		}
	}
	return dir
}

// Script is the repository's testdata/oracle/name, wherever the calling
// test runs.
func Script(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "oracle", name)
}

// NodeFlags go before the script in every run of a node oracle.
// --no-concurrent-recompilation: node 20 (Debian's) deadlocks, idle for good,
// once in some tens of runs on a loaded machine. Its main thread waits in
// NodePlatform::DrainTasks for a background Turbofan job, and that job waits
// for the main thread to collect garbage (CollectionBarrier::
// AwaitCollectionBackground). Compiling on the main thread removes the
// background job; the oracles' output is the same.
var NodeFlags = []string{"--no-concurrent-recompilation"}

// NodeCommand is `node NodeFlags... script args...` (script a path) with
// $BAGSCOPE_ORACLES set to Dir in its environment.
func NodeCommand(script string, args ...string) *exec.Cmd {
	return NodeCommandContext(context.Background(), script, args...)
}

// NodeCommandContext is NodeCommand, killed when ctx is done.
func NodeCommandContext(ctx context.Context, script string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "node", append(append(append([]string(nil), NodeFlags...), script), args...)...)
	cmd.Env = append(os.Environ(), "BAGSCOPE_ORACLES="+Dir())
	return cmd
}

// Command is NodeCommand running the oracle testdata/oracle/name.
func Command(name string, args ...string) *exec.Cmd {
	return NodeCommand(Script(name), args...)
}

// Run runs the oracle testdata/oracle/name on args, once Require has found
// node and @mcap/core, and returns its standard output; when it fails, t
// fails with its standard error.
func Run(t testing.TB, name string, args ...string) []byte {
	t.Helper()
	Require(t)
	cmd := Command(name, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, errb.String())
	}
	return out
}
