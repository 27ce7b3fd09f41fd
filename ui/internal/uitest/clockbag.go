package uitest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RefPython is the Debian python with the reference rosbag.
const RefPython = "/usr/bin/python3"

// ClockScript writes and reads the /clock bag with the reference rosbag
// (from a package two folders under the repository's root).
const ClockScript = "../../testdata/oracle/clock_points.py"

// ClockBag writes, with the reference writer, a bag with /x and a /clock at
// half speed that starts after /x and pauses (testdata/oracle/clock_points.py),
// in a temporary folder. It skips when the reference rosbag is missing,
// except in CI.
func ClockBag(t testing.TB) string {
	t.Helper()
	if err := exec.Command(RefPython, "-c", "import rosbag").Run(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the reference rosbag is required in CI: %v", err)
		}
		t.Skipf("skipping: no reference rosbag (%v); CI never skips this", err)
	}
	path := filepath.Join(t.TempDir(), "clock.bag")
	if out, err := exec.Command(RefPython, ClockScript, "write", path).CombinedOutput(); err != nil {
		t.Fatalf("clock_points.py write: %v\n%s", err, out)
	}
	return path
}
