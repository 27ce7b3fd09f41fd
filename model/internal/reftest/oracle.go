package reftest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The npm oracles: testdata/oracle/*.mjs, run by node with the packages
// `make oracles` installs from testdata/oracle/package-lock.json into
// $BAGSCOPE_ORACLES (by default ~/.cache/bagscope-npm/node_modules).

// OraclesDir is the npm oracles' node_modules folder.
func OraclesDir() string {
	if d := os.Getenv("BAGSCOPE_ORACLES"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "bagscope-npm", "node_modules")
}

// RequireOracles skips (in CI fails) a test when node or the npm oracles
// are missing: the packages pkgs, @mcap/core when none is named. It
// returns OraclesDir.
func RequireOracles(t testing.TB, pkgs ...string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		SkipOrFail(t, "node is not installed (make deps): "+err.Error())
	}
	dir := OraclesDir()
	if len(pkgs) == 0 {
		pkgs = []string{"@mcap/core"}
	}
	for _, p := range pkgs {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			SkipOrFail(t, "the npm oracles are not installed (make oracles): "+err.Error())
		}
	}
	return dir
}

// OracleScript is the repository's testdata/oracle/name, wherever the
// calling test runs.
func OracleScript(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "oracle", name)
}

// OracleCommand is node running the oracle script (testdata/oracle/script)
// on args with the npm oracles' folder in its environment.
func OracleCommand(script string, args ...string) *exec.Cmd {
	cmd := NodeCommand(OracleScript(script), args...)
	cmd.Env = append(os.Environ(), "BAGSCOPE_ORACLES="+OraclesDir())
	return cmd
}

// RunOracle runs the oracle script on args, once RequireOracles has found
// the npm oracles, and returns its standard output; when it fails, the test
// fails with its standard error.
func RunOracle(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	RequireOracles(t)
	cmd := OracleCommand(script, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", script, args, err, errb.String())
	}
	return out
}
