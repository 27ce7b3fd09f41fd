package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// A binary built once for the package's tests that run it as a process:
// each built and linked its own copy (the bagscope command four times,
// bagscope-sql, a DuckDB link of ~5 CPU-s and a minute under load, twice).
type onceBuilt struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

var (
	// builtDir holds them; TestMain removes it.
	builtDir struct {
		once sync.Once
		dir  string
		err  error
	}
	built, builtSQLHelper onceBuilt
)

// goCache is the Go build cache as the package's tests started (TestMain):
// tests that set XDG_CACHE_HOME (the remote tests' fetch cache) would
// otherwise move go build's default cache to an empty folder, and
// bagscope-sql then compiled DuckDB's C++ from nothing: 7 min 48 s of
// TestRemoteCommandsEqualLocal at load 19, against 25 s from the cache.
var goCache string

// goBuild is `go build ARGS` on the package's build cache.
func goBuild(args ...string) *exec.Cmd {
	cmd := exec.Command("go", append([]string{"build"}, args...)...)
	if goCache != "" {
		cmd.Env = append(os.Environ(), "GOCACHE="+goCache)
	}
	return cmd
}

// build builds pkg into the package's build folder as name, once per run
// of the package's tests.
func (b *onceBuilt) build(t testing.TB, name, pkg string) string {
	t.Helper()
	b.once.Do(func() {
		builtDir.once.Do(func() { builtDir.dir, builtDir.err = os.MkdirTemp("", "bagscope-cli-test-") })
		if b.err = builtDir.err; b.err != nil {
			return
		}
		b.bin = filepath.Join(builtDir.dir, name)
		b.out, b.err = goBuild("-o", b.bin, pkg).CombinedOutput()
	})
	if b.err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, b.err, b.out)
	}
	return b.bin
}

// builtBagscope returns the path of ./bagscope built (as make build does,
// without tags) once per run of the package's tests.
func builtBagscope(t testing.TB) string {
	t.Helper()
	return built.build(t, "bagscope", "./bagscope")
}

// builtSQL returns the path of bagscope-sql (cgo: DuckDB) built as make
// build builds it, once per run of the package's tests.
func builtSQL(t testing.TB) string {
	t.Helper()
	return builtSQLHelper.build(t, "bagscope-sql", "./bagscope-sql")
}

// TestMain keeps the build cache's folder (goCache) and removes the
// commands built above.
func TestMain(m *testing.M) {
	if out, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		goCache = strings.TrimSpace(string(out))
	}
	code := m.Run()
	if builtDir.dir != "" {
		os.RemoveAll(builtDir.dir)
	}
	os.Exit(code)
}
