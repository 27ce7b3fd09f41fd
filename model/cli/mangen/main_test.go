package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPages writes the man pages and checks there is one per command,
// each with its flags and the exit table; man(1), when installed, renders
// them without a warning.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	if err := write(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bagscope", "bagscope-info", "bagscope-cat", "bagscope-check", "bagscope-fix", "bagscope-plot", "bagscope-verify"} {
		page, err := os.ReadFile(filepath.Join(dir, name+".1"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, want := range []string{".TH \"BAGSCOPE\" \"1\"", "data lost or problems found", "a repair or conversion that kept less than everything"} {
			if !strings.Contains(string(page), want) {
				t.Errorf("%s.1 lacks %q", name, want)
			}
		}
		if name == "bagscope-cat" && !strings.Contains(string(page), "--topics") {
			t.Errorf("bagscope-cat.1 lacks --topics")
		}
		if _, err := exec.LookPath("man"); err == nil {
			// troff's warnings go to stderr ("troff: <standard input>:3:
			// warning: ..."); the page's own text may say "warning".
			var stderr strings.Builder
			cmd := exec.Command("man", "--warnings", "-l", "-Tutf8", filepath.Join(dir, name+".1"))
			cmd.Stderr = &stderr
			_, err := cmd.Output()
			if err != nil || strings.Contains(stderr.String(), "warning") {
				t.Errorf("man %s.1: %v\n%.500s", name, err, stderr.String())
			}
		}
	}
}
