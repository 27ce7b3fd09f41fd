// Command peakrss runs a command with its output thrown away and prints
// the peak resident memory of that process (its rusage ru_maxrss, in KiB)
// and its CPU seconds: `peakrss CMD ARGS...` prints "maxrss_kib cpu_s".
// Its stderr goes to peakrss's.
//
// The tests measure through it rather than from the test process itself:
// a child started from a process inherits, in ru_maxrss, the resident size
// of the process it was forked from (Linux records the forked memory's high
// water mark at exec), so a child of the test binary would read the test's
// hundreds of MB. peakrss is small, so its child's figure is the command's.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peakrss CMD ARGS...")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Printf("%d %.3f\n", ru.Maxrss, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e9)
	os.Exit(cmd.ProcessState.ExitCode())
}
