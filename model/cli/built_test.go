package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the bagscope command built once for the package's tests that
// run it as a process (shards, signals): each built and linked its own
// copy, four links of the same binary in one run of the package.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
	out  []byte
}

// builtBagscope returns the path of ./bagscope built (as make build does,
// without tags) once per run of the package's tests.
func builtBagscope(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "bagscope-cli-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "bagscope")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "./bagscope").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestMain removes the command builtBagscope built.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
