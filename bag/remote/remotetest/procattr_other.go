//go:build !linux

package remotetest

import "os/exec"

// dieWithTest does nothing here: only Linux can tie a child's life to its
// parent's (see procattr_linux.go).
func dieWithTest(cmd *exec.Cmd) {}
