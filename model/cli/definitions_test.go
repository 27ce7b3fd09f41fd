package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model"
)

// TestMissingDefinitions: a .db3 written before Iron carries no message
// definitions. The standard types decode from bagscope's own; a custom
// type shows as bytes with a line saying what to do, and decodes once
// --msgs names a folder with its .msg files.
func TestMissingDefinitions(t *testing.T) {
	std := sharedBags + "/foxglove__mcap/testdata/db3/chatter.db3"
	custom := sharedBags + "/UbiquityRobotics__fiducials/fiducial_slam/test/aruco_transforms.db3"
	for _, p := range []string{std, custom} {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("shared bags missing in CI: %v", err)
			}
			t.Skipf("skipping: %v", err)
		}
	}
	out, stderr, code := run("cat", std)
	// Where the definition came from is said on stderr (issue 28 point 10).
	note := "note: std_msgs/msg/String (/chatter) has no definition in the recording: decoded with bagscope's standard definitions"
	if code != 0 || !strings.Contains(out, `data: 'Hello World: 31'`) || !strings.Contains(stderr, note) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("standard type: exit %d, stderr %q, output %.200q", code, stderr, out)
	}

	saved := model.Definitions
	t.Cleanup(func() { model.Definitions = saved })
	out, stderr, code = run("cat", custom)
	if code != 0 || !strings.Contains(out, "bytes of cdr, not decoded") || !strings.Contains(stderr, "--msgs DIR") {
		t.Errorf("custom type without --msgs: exit %d, stderr %q, output %.200q", code, stderr, out)
	}

	dir := filepath.Join(t.TempDir(), "fiducial_msgs", "msg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "FiducialTransformArray.msg"), []byte("std_msgs/Header header\nint32 image_seq\nFiducialTransform[] transforms\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "FiducialTransform.msg"), []byte("int32 fiducial_id\ngeometry_msgs/Transform transform\nfloat64 image_error\nfloat64 object_error\nfloat64 fiducial_area\n"), 0o644)
	out, stderr, code = run("cat", "--msgs", filepath.Dir(filepath.Dir(dir)), custom)
	if code != 0 || !strings.Contains(stderr, "decoded with "+dir) || !strings.Contains(out, "fiducial_id: 103") {
		t.Errorf("custom type with --msgs: exit %d, stderr %q, output %.300q", code, stderr, out)
	}
}
