package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildFront builds this command into dir and returns its path.
func buildFront(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bagscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestNoFyne guards the reason this command exists: it must not link Fyne.
func TestNoFyne(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "fyne.io/") || strings.Contains(p, "go-gl/") {
			t.Errorf("model/cli/bagscope depends on %s", p)
		}
	}
}

// TestCommandsAndWindow runs a command in the front itself and hands
// everything else, arguments intact, to bagscope-gui beside it (or in
// ../libexec/bagscope); a stand-in script plays bagscope-gui.
func TestCommandsAndWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, layout := range []string{"beside", "libexec", "missing"} {
		t.Run(layout, func(t *testing.T) {
			dir := t.TempDir()
			binDir := filepath.Join(dir, "bin")
			front := buildFront(t, binDir)
			guiDir := binDir
			if layout == "libexec" {
				guiDir = filepath.Join(dir, "libexec", "bagscope")
			}
			if layout != "missing" {
				if err := os.MkdirAll(guiDir, 0o755); err != nil {
					t.Fatal(err)
				}
				script := "#!/bin/sh\necho \"gui:$*\"\n"
				if err := os.WriteFile(filepath.Join(guiDir, guiName), []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
			}

			out, err := exec.Command(front, "info", "../../../testdata/lz4-multichunk.bag").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "compression:  lz4 [47/47 chunks]") {
				t.Fatalf("info: %v\n%s", err, out)
			}

			out, err = exec.Command(front, "--tab", "Records", "a b.bag").CombinedOutput()
			if layout == "missing" {
				if err == nil || !strings.Contains(string(out), "the window needs bagscope-gui") {
					t.Fatalf("without bagscope-gui: %v\n%s", err, out)
				}
				return
			}
			if err != nil || string(out) != "gui:--tab Records a b.bag\n" {
				t.Fatalf("window: %v, output %q", err, out)
			}
		})
	}
}
