package remotetest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServerDiesWithTimedOutTest runs this test binary again, where
// serveUntilKilled starts nginx and then hangs until the binary's own
// -test.timeout panics (Cleanups do not run then). The nginx it started
// must be gone once that binary has exited.
func TestServerDiesWithTimedOutTest(t *testing.T) {
	if os.Getenv("REMOTETEST_HANG") != "" {
		serveUntilKilled(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerDiesWithTimedOutTest$", "-test.timeout=20s", "-test.v")
	cmd.Env = append(os.Environ(), "REMOTETEST_HANG=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the hanging test binary exited 0:\n%s", out)
	}
	var pid int
	for _, l := range strings.Split(string(out), "\n") {
		if _, perr := fmt.Sscanf(strings.TrimSpace(l), "server pid %d", &pid); perr == nil {
			break
		}
	}
	if pid == 0 {
		t.Fatalf("the hanging test binary did not say which pid its server has:\n%s", out)
	}
	// The kernel sends the signal as the parent exits; reaping by init may
	// take a moment, so wait for the state. The deadline only bounds a
	// failure.
	if !strings.Contains(string(out), "test timed out") {
		t.Fatalf("the hanging test binary did not time out:\n%s", out)
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err == nil && strings.Contains(string(stat), ") Z ") {
			return // dead, waiting for init to reap it
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nginx (pid %d) outlived the test binary that started it", pid)
}

// serveUntilKilled starts nginx, prints its pid (the child of this process
// named nginx) and waits for the test timeout.
func serveUntilKilled(t *testing.T) {
	Nginx(t, t.TempDir())
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		var pid, ppid int
		var comm, state string
		if _, err := fmt.Sscanf(string(stat), "%d %s %s %d", &pid, &comm, &state, &ppid); err == nil && ppid == os.Getpid() && comm == "(nginx)" {
			fmt.Printf("server pid %d\n", pid)
		}
	}
	select {}
}
