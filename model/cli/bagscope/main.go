// Command bagscope is the fast start of bagscope: it runs the headless
// commands (info, cat, plot, ...) itself, and executes the programs built
// beside it for the rest: bagscope-gui (the full bagscope, built from the
// repository root) for the window, plot images and s3:// URLs, and
// bagscope-tables (model/cli/bagscope-tables) for export and catalog; both
// beside it or in ../libexec/bagscope.
//
// It exists for start-up time: the full binary links Fyne's GL and X11
// libraries and runs Fyne's package initialisers (translations, fonts,
// markdown), about 8 ms before main on every run; this one is a static
// binary without them. `go list -deps ./model/cli/bagscope` must never list
// fyne.io (the Makefile's lint checks it).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bagscope/bagscope/model/cli"
)

// The programs this one executes, and what each is needed for.
const (
	// guiName is the full, windowed bagscope.
	guiName = "bagscope-gui"
	// tablesName is the front with the Parquet writer, without Fyne.
	tablesName = "bagscope-tables"
)

var (
	gui    = sibling{name: guiName, need: "the window, plot images and s3:// URLs need", build: "go build -o bagscope-gui ."}
	tables = sibling{name: tablesName, need: "export and catalog need", build: "CGO_ENABLED=0 go build -tags bagscope_front,bagscope_tables -o bagscope-tables ./model/cli/bagscope-tables"}
)

func main() {
	// An image from plot is drawn by the full binary: this one does not
	// link gonum/plot (model/cli/render_hook.go); tables are written by
	// bagscope-tables: this one does not link parquet-go
	// (model/cli/tables_front.go).
	cli.FullBinary = func() int { return gui.exec(os.Args[1:]) }
	cli.TablesBinary = func() int { return tables.exec(os.Args[1:]) }
	os.Exit(cli.Main(gui.exec))
}

// sibling is a program this one executes.
type sibling struct {
	name  string // its file name
	need  string // what needs it, said when it is missing
	build string // how to build it alone
}

// exec replaces this process with the program running args (the window's,
// as model/cli parsed them, or a whole command line); it returns only on
// failure.
func (s sibling) exec(args []string) int {
	path, err := s.find()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bagscope: %s %s: %v\n", s.need, s.name, err)
		return cli.ExitProblems
	}
	err = syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "bagscope: starting %s: %v\n", path, err)
	return cli.ExitProblems
}

// find returns the program's path: beside this executable (as `make
// build` leaves them), or in ../libexec/bagscope (as `make install` puts
// it), following symbolic links to this executable.
func (s sibling) find() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(self); err == nil {
		self = p
	}
	dir := filepath.Dir(self)
	tried := []string{
		filepath.Join(dir, s.name),
		filepath.Join(dir, "..", "libexec", "bagscope", s.name),
	}
	for _, p := range tried {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("not found at %s or %s (run `make build`, or build it with `%s`)", tried[0], tried[1], s.build)
}
