package uitest

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// RefPython is the Debian python with the reference rosbag.
const RefPython = oracletest.Python

// ClockScript writes and reads the /clock bag with the reference rosbag
// (from a package two folders under the repository's root).
const ClockScript = "../../testdata/oracle/clock_points.py"

// ClockBag writes, with the reference writer, a bag with /x and a /clock at
// half speed that starts after /x and pauses (testdata/oracle/clock_points.py),
// in a temporary folder. It skips when the reference rosbag is missing,
// except in CI.
func ClockBag(t testing.TB) string {
	t.Helper()
	oracletest.RequireRef(t)
	path := filepath.Join(t.TempDir(), "clock.bag")
	if out, err := exec.Command(RefPython, ClockScript, "write", path).CombinedOutput(); err != nil {
		t.Fatalf("clock_points.py write: %v\n%s", err, out)
	}
	return path
}
