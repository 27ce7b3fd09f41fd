package db3test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// Write writes a .db3 of n messages at path with bag/db3's fixture script
// (testdata/mkdb3.py, Python's sqlite3; opts are its options), wherever
// the calling test runs. Without Python's sqlite3 the test is skipped,
// unless CI is set (oracletest.RequirePython).
func Write(t testing.TB, path string, n int, opts ...string) {
	t.Helper()
	oracletest.RequirePython(t, "sqlite3")
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "testdata", "mkdb3.py")
	args := append([]string{script, path, strconv.Itoa(n)}, opts...)
	if out, err := exec.Command(oracletest.Python, args...).CombinedOutput(); err != nil {
		t.Fatalf("mkdb3.py: %v\n%s", err, out)
	}
}
