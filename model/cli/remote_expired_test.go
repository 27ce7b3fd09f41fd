package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// A presigned URL the S3 server (versitygw) refuses because it expired
// says "expired" and what to do, never its signature; the same URL
// signed now opens (so the refusal is the expiry's, not the signing's).
func TestRemoteExpiredPresignedURL(t *testing.T) {
	s3 := remotetest.Versity(t, "bags")
	data, err := os.ReadFile(filepath.Join(testdata, "robot.bag"))
	if err != nil {
		t.Fatal(err)
	}
	s3.Put(t, "bags", "robot.bag", data)
	defer remote.SetDefault(nil)

	fresh := s3.Presign(t, "bags", "robot.bag", time.Now(), time.Hour)
	remote.SetDefault(remote.NewClient(remote.Options{}))
	if out, stderr, code := run("info", fresh); code != ExitOK || !strings.Contains(out, "robot.bag") {
		t.Fatalf("info of a fresh presigned URL: exit %d\n%s%s", code, out, stderr)
	}

	old := s3.Presign(t, "bags", "robot.bag", time.Now().Add(-2*time.Hour), time.Minute)
	sig := old[strings.Index(old, "X-Amz-Signature=")+len("X-Amz-Signature="):]
	remote.SetDefault(remote.NewClient(remote.Options{}))
	for _, args := range [][]string{{"info", old}, {"info", "--json", old}, {"cat", old}} {
		out, stderr, code := run(args...)
		t.Logf("%s: exit %d: %s%s", args[0], code, out, stderr)
		if code == ExitOK || !strings.Contains(out+stderr, "expired") || !strings.Contains(out+stderr, "new presigned URL") {
			t.Errorf("%s of an expired presigned URL: exit %d, want an error saying it expired and what to do:\n%s%s", args[0], code, out, stderr)
		}
		if strings.Contains(out+stderr, sig) {
			t.Errorf("%s shows the URL's signature:\n%s%s", args[0], out, stderr)
		}
	}
}
