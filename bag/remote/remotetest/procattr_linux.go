package remotetest

import (
	"os/exec"
	"syscall"
)

// dieWithTest has the kernel kill the server when the test process dies.
// A test binary that times out panics without running its Cleanups, and
// its servers were left behind, holding their ports.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
