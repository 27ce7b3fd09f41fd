package bag_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// gs:// goes through Google Cloud Storage's S3-compatible XML API with
// HMAC keys as AWS credentials; BAGSCOPE_GS_ENDPOINT_URL points it at
// another store. Here that is versitygw, which speaks the same API: every
// format, a rosbag2 folder by its prefix (listed) and a FILE-mode .zstd
// file read as the local ones do; an s3:// endpoint (--endpoint-url) is
// not used for gs://.
func TestGSThroughS3API(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s3 := remotetest.Versity(t, "gsbags")
	s3.Env(t, false)
	t.Setenv("BAGSCOPE_GS_ENDPOINT_URL", s3.Endpoint)
	recs := []string{
		"facontidavide__PlotJuggler/datasamples/tilt_laser.bag",
		"foxglove__mcap/testdata/db3/chatter.db3",
		"ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/file_compression/file_compression_0.db3.zstd",
		"facontidavide__PlotJuggler/datasamples/rosbag2_test/",
	}
	mcaps := 0
	for _, rel := range sharedRecordings(t) {
		if strings.HasSuffix(rel, ".mcap") && mcaps < 2 {
			recs = append(recs, rel)
			mcaps++
		}
	}
	for _, rel := range recs {
		dir := strings.TrimSuffix(rel, "/")
		if !strings.HasSuffix(rel, "/") {
			dir = filepath.Dir(rel)
		}
		s3.Upload(t, "gsbags", dir+"/", filepath.Join(sharedBags, filepath.FromSlash(dir)))
	}
	defer remote.SetDefault(nil)
	for _, rel := range recs {
		t.Run(rel, func(t *testing.T) {
			ls, err := bag.Open(filepath.Join(sharedBags, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			want := describe(ls)
			ls.Close()
			// An S3 endpoint of its own that is not the store: gs://
			// must not go there.
			remote.SetDefault(remote.NewClient(remote.Options{Endpoint: "http://127.0.0.1:9"}))
			rs, err := bag.OpenWith("gs://gsbags/"+rel, bag.OpenOptions{AllowRemoteScan: true})
			if err != nil {
				t.Fatal(err)
			}
			got := describe(rs)
			tr := bag.TransferOf(rs)
			rs.Close()
			if got != want {
				t.Fatalf("gs:// reads otherwise than the local file:\n%s\nlocal:\n%s", clip(got), clip(want))
			}
			if !tr.Remote || tr.Requests == 0 {
				t.Errorf("TransferOf = %+v, want the store's requests", tr)
			}
		})
	}
}
