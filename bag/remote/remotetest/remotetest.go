// Package remotetest starts real servers on 127.0.0.1 for the tests of
// remote reading: nginx (HTTP range requests, from Debian), versitygw (an
// S3-compatible gateway over a folder) and toxiproxy (latency and dropped
// connections), plus a fault-injecting HTTP proxy of its own for answers
// toxiproxy cannot make (a 503 now and then, a server that ignores Range).
//
// Only tests import it. versitygw and toxiproxy are built once from the Go
// module proxy, at pinned versions, into ~/.cache/bagscope-tools (never
// into the repository). A test that needs a server that cannot be had
// fails when the CI environment variable is set, and is skipped with the
// reason otherwise.
package remotetest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Pinned versions of the servers built from the module proxy.
const (
	VersitygwModule  = "github.com/versity/versitygw"
	VersitygwVersion = "v1.8.0"
	ToxiproxyModule  = "github.com/Shopify/toxiproxy/v2"
	ToxiproxyVersion = "v2.5.0"
)

// ToolsDir is the folder the servers are built into.
func ToolsDir() string {
	if d := os.Getenv("BAGSCOPE_TOOLS"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "bagscope-tools")
	}
	return filepath.Join(home, ".cache", "bagscope-tools")
}

// unavailable fails the test under CI and skips it elsewhere, saying why.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set: this test must run)", msg)
	}
	t.Skipf("%s; skipped because CI is unset (under CI this fails)", msg)
}

var buildMu sync.Mutex

// tool returns the path of a server binary, building it once with
// `go build` from the module proxy at its pinned version.
func tool(t testing.TB, name, module, version, pkg string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	dir := filepath.Join(ToolsDir(), name+"-"+version)
	bin := filepath.Join(dir, name)
	if st, err := os.Stat(bin); err == nil && st.Mode().IsRegular() {
		return bin
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		unavailable(t, "%s is not built in %s and there is no go command to build it", name, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		unavailable(t, "cannot make %s: %v", dir, err)
	}
	// `go install pkg@version` builds outside our module, so the
	// server's dependencies never enter go.mod.
	work, err := os.MkdirTemp("", "bagscope-build-*")
	if err != nil {
		unavailable(t, "cannot build %s: %v", name, err)
	}
	defer os.RemoveAll(work)
	cmd := exec.Command(goBin, "install", pkg+"@"+version)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GOBIN="+work, "GOFLAGS=-mod=mod", "CGO_ENABLED=0")
	t.Logf("building %s %s into %s (once)", module, version, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		unavailable(t, "building %s@%s: %v\n%s", pkg, version, err, out)
	}
	built := filepath.Join(work, filepath.Base(pkg))
	if err := os.Rename(built, bin); err != nil {
		unavailable(t, "installing %s: %v", bin, err)
	}
	return bin
}

// Versitygw returns the versitygw binary.
func Versitygw(t testing.TB) string {
	return tool(t, "versitygw", VersitygwModule, VersitygwVersion, VersitygwModule+"/cmd/versitygw")
}

// Toxiproxy returns the toxiproxy server binary.
func Toxiproxy(t testing.TB) string {
	return tool(t, "toxiproxy-server", ToxiproxyModule, ToxiproxyVersion, ToxiproxyModule+"/cmd/server")
}

// freePort returns a port free on 127.0.0.1 a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitListening waits until addr accepts connections or the process ends.
func waitListening(t testing.TB, addr string, done <-chan struct{}, what string, logFile string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			log, _ := os.ReadFile(logFile)
			t.Fatalf("%s exited before listening on %s:\n%s", what, addr, log)
		default:
		}
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	log, _ := os.ReadFile(logFile)
	t.Fatalf("%s did not listen on %s within a minute:\n%s", what, addr, log)
}

// start runs a server process until the test ends, its output in a log
// file of the test's temporary folder.
func start(t testing.TB, what, addr string, cmd *exec.Cmd) {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), what+".log")
	lf, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = lf, lf
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		lf.Close()
		t.Fatalf("starting %s: %v", what, err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		lf.Close()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	waitListening(t, addr, done, what, logFile)
}
