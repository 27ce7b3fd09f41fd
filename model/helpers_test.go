package model

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/bagscope/bagscope/assets"
)

// refPython is the Python that has the reference rosbag installed.
const refPython = "/usr/bin/python3"

// skipOrFail skips a test that lacks what only CI must have (the reference
// rosbag, the shared bags), and fails it in CI.
func skipOrFail(t testing.TB, why any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("required in CI (make deps installs the reference rosbag; the shared bags live in ../shared): %v", why)
	}
	t.Skipf("skipping (CI never skips this): %v", why)
}

// requireRef skips or fails (in CI) a test when the reference rosbag is
// missing.
func requireRef(t testing.TB) {
	t.Helper()
	if err := exec.Command(refPython, "-c", "import rosbag").Run(); err != nil {
		skipOrFail(t, "the reference rosbag is not installed: "+err.Error())
	}
}

// openSampleDoc opens the embedded sample bag, closed when the test ends.
func openSampleDoc(t testing.TB) *Document {
	t.Helper()
	d, err := OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// openSampleIndexed opens the sample bag and builds its message index.
func openSampleIndexed(t testing.TB) (*Document, *MessageIndex) {
	t.Helper()
	d := openSampleDoc(t)
	x, err := BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, x
}
