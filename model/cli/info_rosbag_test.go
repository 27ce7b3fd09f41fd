package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// refInfo is the reference's `rosbag info` text of a bag (Bag.__str__, as
// the rosbag CLI prints it), with the connection indexes read for --freq.
const refInfo = `import rosbag, sys
with rosbag.Bag(sys.argv[1], 'r', skip_index=sys.argv[2] != 'freq') as b:
    print(b)
`

// TestInfoTextMatchesRosbag compares `info` with the reference's `rosbag
// info`, byte for byte, on a sample of the shared bags (every bag the
// reference opens; --freq's rows too, which bagscope follows with its own
// interval rows). The same TZ is used by both.
func TestInfoTextMatchesRosbag(t *testing.T) {
	requireRef(t)
	bags := allBags(t)
	var sample []string
	for i, p := range bags {
		if i%6 == 0 || strings.HasPrefix(p, testdata) {
			sample = append(sample, p)
		}
	}
	compared := 0
	for _, p := range sample {
		for _, mode := range []string{"plain", "freq"} {
			ref, err := exec.Command(refPython, "-c", refInfo, p, mode).Output()
			if err != nil {
				continue // the reference refuses it (unindexed, damaged)
			}
			args := []string{"info", p}
			if mode == "freq" {
				args = append(args, "--freq")
			}
			out, stderr, code := run(args...)
			if code != 0 {
				t.Errorf("%s %s: exit %d: %s", name(p), mode, code, stderr)
				continue
			}
			if mode == "freq" {
				if i := strings.Index(out, "\nintervals:"); i >= 0 {
					out = out[:i+1]
				}
			}
			if out != string(ref) {
				t.Errorf("%s %s:\n got:\n%s\nwant:\n%s", name(p), mode, out, ref)
			}
			compared++
		}
	}
	if compared < 10 {
		t.Errorf("only %d outputs compared", compared)
	}
}
