// Package oracletest is test support only: what the tests of bag, model
// and ui share to run the references they are compared with, the npm
// oracles (testdata/oracle/*.mjs under node) and Debian's python3-rosbag,
// and the one rule for a test that lacks them: it may skip only when the
// CI environment variable is unset, and says so; in CI it fails.
//
// It uses the standard library only (no Fyne, nothing of bagscope's, so
// that any package's tests can import it, bag/rosmsg's own included). It
// is imported only from _test.go files and from other test-support
// packages (whose names end in "test"); ui's rooms test checks that.
package oracletest

import (
	"os"
	"os/exec"
	"testing"
)

// Python is the Python that has the reference rosbag installed.
const Python = "/usr/bin/python3"

// SkipOrFail skips t, saying why and that CI never skips it, or, when the
// CI environment variable is set, fails it.
func SkipOrFail(t testing.TB, why any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("required in CI: %v", why)
	}
	t.Skipf("skipping (CI never skips this): %v", why)
}

// RequirePython skips t (fails it in CI, SkipOrFail) unless Python can
// import every one of modules.
func RequirePython(t testing.TB, modules ...string) {
	t.Helper()
	for _, m := range modules {
		if err := exec.Command(Python, "-c", "import "+m).Run(); err != nil {
			SkipOrFail(t, Python+" cannot import "+m+" (make deps installs it): "+err.Error())
		}
	}
}

// RequireRef skips t (fails it in CI) when the reference rosbag is
// missing.
func RequireRef(t testing.TB) {
	t.Helper()
	if err := exec.Command(Python, "-c", "import rosbag").Run(); err != nil {
		SkipOrFail(t, "the reference rosbag is not installed (make deps installs it): "+err.Error())
	}
}
