// Command bagscope is the fast start of bagscope: it runs the headless
// commands (info, cat, plot, ...) itself and starts the window by executing
// the full bagscope, built from the repository root and installed as
// bagscope-gui beside it or in ../libexec/bagscope.
//
// It exists for start-up time: the full binary links Fyne's GL and X11
// libraries and runs Fyne's package initialisers (translations, fonts,
// markdown), about 8 ms before main on every run; this one is a static
// binary without them. `go list -deps ./model/cli/bagscope` must never list
// fyne.io (the Makefile's lint checks it).
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bagscope/bagscope/model/cli"
)

// guiName is the name of the full, windowed bagscope.
const guiName = "bagscope-gui"

func main() {
	// An image from plot is drawn by the full binary: this one does not
	// link gonum/plot (model/cli/render_hook.go).
	cli.FullBinary = func() int { return execGUI(os.Args[1:]) }
	os.Exit(cli.Main(execGUI))
}

// execGUI replaces this process with bagscope-gui running args (the
// window's, as model/cli parsed them, or a whole command line); it returns
// only on failure.
func execGUI(args []string) int {
	gui, err := findGUI()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bagscope: the window and plot images need %s: %v\n", guiName, err)
		return cli.ExitProblems
	}
	err = syscall.Exec(gui, append([]string{gui}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "bagscope: starting %s: %v\n", gui, err)
	return cli.ExitProblems
}

// findGUI returns the path of bagscope-gui: beside this executable (as
// `make build` leaves them), in ../libexec/bagscope (as `make install` puts
// it), following symbolic links to this executable.
func findGUI() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(self); err == nil {
		self = p
	}
	dir := filepath.Dir(self)
	tried := []string{
		filepath.Join(dir, guiName),
		filepath.Join(dir, "..", "libexec", "bagscope", guiName),
	}
	for _, p := range tried {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("not found at " + tried[0] + " or " + tried[1] + " (run `make build`, or build it with `go build -o bagscope-gui .`)")
}
