package ui

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shared are the packages under ui that every view may import: the
// window's link, the shared widgets and the tests' helpers.
var shared = map[string]bool{"link": true, "widgets": true, "internal": true}

// TestViewsDoNotImportEachOther reads the imports of every file (tests
// too) of each view package under ui: a view imports the shared packages
// and model, never another view nor the window (package ui), which wires
// the views together (ARCHITECTURE.md).
func TestViewsDoNotImportEachOther(t *testing.T) {
	const uiPath = "github.com/bagscope/bagscope/ui"
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	views := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "testdata" || shared[d.Name()] {
			continue
		}
		view := d.Name()
		files, err := filepath.Glob(filepath.Join(view, "*.go"))
		if err != nil || len(files) == 0 {
			continue
		}
		views++
		for _, f := range files {
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if p == uiPath {
					t.Errorf("%s imports the window (package ui)", f)
					continue
				}
				rest, ok := strings.CutPrefix(p, uiPath+"/")
				if !ok {
					continue
				}
				if top, _, _ := strings.Cut(rest, "/"); top != view && !shared[top] {
					t.Errorf("%s imports the view %s: views reach each other only through ui/link", f, p)
				}
			}
		}
	}
	if views < 9 {
		t.Errorf("found %d view packages under ui, want the nine rooms at least", views)
	}
}

// TestNoFyneInOracletest keeps bag/oracletest test support: it imports
// the standard library only (no Fyne, nothing of bagscope's, so that bag's
// tests can import it), and outside _test.go files only test-support
// packages (whose names end in "test") import it, so that no program
// links it.
func TestNoFyneInOracletest(t *testing.T) {
	const oracletest = "github.com/bagscope/bagscope/bag/oracletest"
	users := 0
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		af, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		inPkg := filepath.ToSlash(filepath.Dir(p)) == "../bag/oracletest"
		for _, imp := range af.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case inPkg && !strings.HasSuffix(p, "_test.go") && strings.Contains(strings.Split(ip, "/")[0], "."):
				t.Errorf("%s imports %s: bag/oracletest uses the standard library only", p, ip)
			case ip == oracletest:
				users++
				if !strings.HasSuffix(p, "_test.go") && !strings.HasSuffix(af.Name.Name, "test") {
					t.Errorf("%s (package %s) imports bag/oracletest: only tests and test-support packages may", p, af.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if users == 0 {
		t.Error("no file imports bag/oracletest: is the walk reading the repository?")
	}
}
