package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const (
	sharedBags = "../../../shared/bags"
	testdata   = "../../testdata"
	refPython  = "/usr/bin/python3"
)

// requireRef skips when the reference rosbag is missing, except in CI.
func requireRef(t testing.TB) {
	t.Helper()
	if err := exec.Command(refPython, "-c", "import rosbag").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the reference rosbag is required in CI: %v (make deps installs it)", err)
		}
		t.Skipf("skipping: the reference rosbag is not installed (%v); run `make deps`. CI never skips this.", err)
	}
}

// allBags lists the shared bags and the project's fixtures.
func allBags(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
	var out []string
	for _, root := range []string{sharedBags, testdata} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".bag") {
				out = append(out, p)
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// run runs a command in-process and returns stdout, stderr and the status.
func run(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func name(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, sharedBags+"/"), "../../")
}
