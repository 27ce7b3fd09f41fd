package ros1

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// sharedBags is where the real bags shared by the project live (beside the
// checkout, in CI too).
const sharedBags = "../../../shared/bags"

// refPython is the Python that has the reference rosbag installed.
const refPython = oracletest.Python

// requireRef skips the test when the reference rosbag is missing, unless
// running in CI, where it must be there.
func requireRef(t testing.TB) {
	t.Helper()
	oracletest.RequireRef(t)
}

// requireShared skips the test when ../shared/bags is missing, unless in CI.
func requireShared(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the shared bags are required in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
}

// ros1Bags returns every file under the shared bags and testdata/ that
// starts with "#ROSBAG V", plus the files named *.bag that do not (empty or
// broken ones), sorted.
func ros1Bags(t testing.TB) []string {
	t.Helper()
	requireShared(t)
	var out []string
	for _, root := range []string{sharedBags, "../../testdata"} {
		err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			if strings.HasSuffix(p, ".bag") || strings.HasSuffix(p, ".bag.active") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("found only %d bags under %s and ../testdata", len(out), sharedBags)
	}
	return out
}

// damagedBagName matches the names of the shared bags that say they are
// damaged.
var damagedBagName = regexp.MustCompile(`(?i)trunc|unindex|empty|corrupt|broken|bad|cut|active|invalid|crash|damag`)

// sweepSample: without -long, TestCheckCleanBags and TestWalkAndIndexAgree
// read one in sweepSample of the undamaged shared bags (45 and 36 s of
// bag/ros1's wall time at load 17-30, every bag).
const sweepSample = 2

// sampledROS1Bags is ros1Bags for the sweeps that read every bag: without
// -long, the fixtures, every shared bag whose name says it is damaged, and
// one in every of the other shared bags (in path order, the same every
// run; BAGSCOPE_SAMPLE shifts which); -long (make test-long) every one.
// what names them in the test's log.
func sampledROS1Bags(t testing.TB, every int, what string) []string {
	t.Helper()
	sweeptest.Note(t, every, what)
	var out []string
	i := 0
	for _, p := range ros1Bags(t) {
		if strings.HasPrefix(p, sharedBags) && !damagedBagName.MatchString(filepath.Base(p)) {
			i++
			if !sweeptest.Keep(i-1, every) {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// runRef runs a reference script and returns its output.
func runRef(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(refPython, append([]string{script}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", script, strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// shortName is a bag's path relative to the shared folder, for sub-test names.
func shortName(p string) string {
	p = strings.TrimPrefix(p, sharedBags+"/")
	return strings.TrimPrefix(p, "../../")
}
