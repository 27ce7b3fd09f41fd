package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/human"
)

// TestInfoNumbersAsTheWindow runs info on a split recording of 1799.87 s,
// written by the reference writer: its duration is "29:59s (1799s)" as
// rosbag info truncates and as the window's header says (it said
// "30:00s (1800s)"), and its size is in KiB, as the window says it.
func TestInfoNumbersAsTheWindow(t *testing.T) {
	requireRef(t)
	dir := t.TempDir()
	const script = `
import sys, rosbag, genpy
from std_msgs.msg import Int32
for name, t in (("run_0.bag", genpy.Time(1700000000, 123456789)), ("run_1.bag", genpy.Time(1700001799, 990000000))):
    with rosbag.Bag(sys.argv[1] + "/" + name, "w") as b:
        b.write("/n", Int32(1), t)
`
	if out, err := exec.Command(refPython, "-c", script, dir).CombinedOutput(); err != nil {
		t.Fatalf("writing the split recording: %v: %s", err, out)
	}
	out, errOut, code := run("info", dir)
	if code != 0 {
		t.Fatalf("info exited %d: %s", code, errOut)
	}
	var size int64
	for _, f := range []string{"run_0.bag", "run_1.bag"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		size += st.Size()
	}
	for _, want := range []string{"duration:     29:59s (1799s)\n", "size:         " + human.Size(size) + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(human.Size(size), "KiB") {
		t.Errorf("size %q is not in KiB", human.Size(size))
	}
}
