package bag_test

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	_ "github.com/bagscope/bagscope/bag/ros1"
	_ "github.com/bagscope/bagscope/bag/rosbag2"
)

// Every shared recording is opened through nginx (http://) and versitygw
// (s3://) and must read exactly as the local file does: its summary, every
// message and the doctor's findings.

// sharedRecordings lists the shared recordings by their path below
// sharedBags: every recording file of INDEX.tsv, and each folder with a
// metadata.yaml as its folder and as its metadata.yaml.
func sharedRecordings(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedBags, "INDEX.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		rel, _, _ := strings.Cut(sc.Text(), "\t")
		switch {
		case filepath.Base(rel) == "metadata.yaml":
			out = append(out, rel, filepath.Dir(rel)+"/")
		case bag.IsRecordingName(rel):
			out = append(out, rel)
		}
	}
	if len(out) < 100 {
		t.Fatalf("INDEX.tsv lists %d recordings; want the shared set", len(out))
	}
	return out
}

// describe writes what a recording reads as, to compare two opens of it:
// everything but its path.
func describe(s bag.Storage) string {
	var b strings.Builder
	fi := s.FileInfo()
	fmt.Fprintf(&b, "format %s %s profile %s indexed %v scanned %v warnings %d files %d\n", fi.Format, fi.Version, fi.Profile, fi.Indexed, fi.Scanned != nil, len(fi.Warnings), len(fi.Files))
	if sum, err := s.Summary(); sum != nil {
		fmt.Fprintf(&b, "summary %d messages %d chunks %v..%v %v err %v\n", sum.Messages, sum.Chunks, sum.Start, sum.End, sum.Compression, err != nil)
		for _, tp := range sum.Topics {
			fmt.Fprintf(&b, "topic %s %s %d\n", tp.Topic, tp.Type, tp.Messages)
		}
	}
	it := s.Messages(bag.MessageFilter{})
	n := 0
	for it.Next() {
		m := it.Message()
		fmt.Fprintf(&b, "m %s %v %v %d %08x\n", m.Conn.Topic, m.Time, m.PublishTime, len(m.Data), crc32.ChecksumIEEE(m.Data))
		n++
	}
	fmt.Fprintf(&b, "read %d err %v\n", n, it.Err() != nil)
	it.Close()
	return b.String()
}

// tree lists a folder's files with sizes and times, to see that reading
// wrote nothing there.
func tree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %d %v", p, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestRemoteRecordingsReadAsLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nginx and versitygw and reads every shared recording three times")
	}
	before := tree(t, sharedBags)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)

	web := remotetest.Nginx(t, sharedBags)
	s3 := remotetest.Versity(t, "bags")
	s3.Env(t, false)
	s3.Upload(t, "bags", "", sharedBags)
	defer remote.SetDefault(nil)

	for _, rel := range sharedRecordings(t) {
		t.Run(rel, func(t *testing.T) {
			local := filepath.Join(sharedBags, filepath.FromSlash(rel))
			ls, lerr := bag.OpenWith(local, bag.OpenOptions{})
			want := ""
			if lerr == nil {
				want = describe(ls)
				ls.Close()
			}
			for _, u := range []string{web.URL + rel, "s3://bags/" + rel} {
				if strings.HasSuffix(rel, "/") && strings.HasPrefix(u, "http") {
					// An HTTP folder is its metadata.yaml's (listed too).
					continue
				}
				// A client of its own: nothing fetched for an earlier
				// open is reused, so the open's requests are its own.
				remote.SetDefault(remote.NewClient(remote.Options{Endpoint: s3.Endpoint}))
				rs, rerr := bag.OpenWith(u, bag.OpenOptions{AllowRemoteScan: true})
				if (lerr == nil) != (rerr == nil) {
					t.Fatalf("%s: local open %v, remote open %v", u, lerr, rerr)
				}
				if rerr != nil {
					continue
				}
				got := describe(rs)
				tr := bag.TransferOf(rs)
				rs.Close()
				if got != want {
					t.Fatalf("%s reads otherwise than the local file:\nremote:\n%s\nlocal:\n%s", u, clip(got), clip(want))
				}
				// A folder whose metadata lists files it lacks reads none.
				if !tr.Remote || (tr.Requests == 0 && strings.Contains(got, "\nm ")) {
					t.Errorf("%s: TransferOf = %+v, want the remote files' requests", u, tr)
				}
			}
		})
	}
	if after := tree(t, sharedBags); after != before {
		t.Error("reading the recordings through nginx changed the folder it serves")
	}
	// The cache holds decompressed copies of FILE-mode .zstd files and
	// nothing else: no copy of a .db3, no journal.
	filepath.WalkDir(cache, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && !strings.Contains(p, filepath.Join("bagscope", "zstd")) {
			t.Errorf("reading remote recordings wrote %s", p)
		}
		return nil
	})
}

// clip keeps a description short enough to read in a failure.
func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

func TestRemoteScanNeedsConsent(t *testing.T) {
	web := remotetest.Nginx(t, sharedBags)
	tests := []struct {
		rel  string
		scan bool // the file has no usable index
	}{
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", true},
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap", false},
		{"UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag", false},
		{"ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3", false},
	}
	for _, tc := range tests {
		t.Run(tc.rel, func(t *testing.T) {
			s, err := bag.OpenWith(web.URL+tc.rel, bag.OpenOptions{})
			if !tc.scan {
				if err != nil {
					t.Fatalf("an indexed file: %v", err)
				}
				s.Close()
				return
			}
			var ce *bag.ScanConsentError
			if !errors.Is(err, bag.ErrRemoteScan) || !errors.As(err, &ce) {
				t.Fatalf("a file without its index opened without consent: %v", err)
			}
			if ce.Size == 0 || !strings.Contains(err.Error(), "--allow-remote-scan") {
				t.Errorf("the error does not state the size and the way to allow it: %v", err)
			}
			s, err = bag.OpenWith(web.URL+tc.rel, bag.OpenOptions{AllowRemoteScan: true})
			if err != nil {
				t.Fatalf("with consent: %v", err)
			}
			if s.FileInfo().Scanned == nil {
				t.Error("opened with consent, but not as scanned")
			}
			s.Close()
		})
	}
}

// someRecordings are one of each format and layout, for the slower tests.
var someRecordings = []string{
	"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap",
	"UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag",
	"ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3",
	"ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag/metadata.yaml",
}

func TestRemoteFaults(t *testing.T) {
	web := remotetest.Nginx(t, sharedBags)
	x := remotetest.StartToxiproxy(t)
	p := x.Proxy(t, "nginx", web.Addr)
	p.Latency(t, 50)
	// A quarter of the connections are cut after 20 kB, and every
	// fourth request that gets through answers 503.
	p.Toxic(t, "cut", "limit_data", "downstream", 0.25, map[string]any{"bytes": 20 << 10})
	faults := remotetest.NewFaults(t, "http://"+p.Addr)
	faults.Every503(4)
	c := remote.NewClient(remote.Options{MaxAttempts: 12, Backoff: 5 * time.Millisecond})
	remote.SetDefault(c)
	defer remote.SetDefault(nil)
	for _, rel := range someRecordings {
		t.Run(rel, func(t *testing.T) {
			ls, err := bag.OpenWith(filepath.Join(sharedBags, rel), bag.OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := describe(ls)
			ls.Close()
			rs, err := bag.OpenWith(faults.URL+rel, bag.OpenOptions{})
			if err != nil {
				t.Fatalf("through latency, cut connections and 503s: %v", err)
			}
			got := describe(rs)
			rs.Close()
			if got != want {
				t.Fatalf("reads otherwise than the local file:\nremote:\n%s\nlocal:\n%s", clip(got), clip(want))
			}
		})
	}
	if c.Stats().Retries == 0 {
		t.Error("no request was retried: the faults were not injected")
	}
}

func TestRemoteSecretsStayHidden(t *testing.T) {
	web := remotetest.Nginx(t, sharedBags)
	faults := remotetest.NewFaults(t, web.URL)
	remote.SetDefault(remote.NewClient(remote.Options{Backoff: time.Millisecond}))
	defer remote.SetDefault(nil)
	const secret = "SECRETSIGNATURE0123"
	query := "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIASECRETKEYID&X-Amz-Date=20300101T000000Z&X-Amz-Expires=600&X-Amz-Security-Token=SECRETTOKEN&X-Amz-Signature=" + secret
	hidden := func(t *testing.T, what, s string) {
		t.Helper()
		for _, v := range []string{secret, "AKIASECRETKEYID", "SECRETTOKEN"} {
			if strings.Contains(s, v) {
				t.Errorf("%s shows a secret: %s", what, s)
			}
		}
	}
	for i, rel := range someRecordings[:3] {
		s, err := bag.OpenWith(faults.URL+rel+query, bag.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hidden(t, "FileInfo.Path", s.FileInfo().Path)
		sum, _ := s.Summary()
		hidden(t, "Summary.Path", sum.Path)
		// (The .db3 opens its folder, which nginx serves to anyone.)
		if i < 2 && !strings.Contains(s.FileInfo().Path, "X-Amz-Signature=…") {
			t.Errorf("FileInfo.Path = %s, want the signature shown as …", s.FileInfo().Path)
		}
		s.Close()
	}
	// Refused: the errors name the URL, redacted.
	for _, code := range []int{403, 404, 500} {
		faults.Status(func(int, *http.Request) int { return code })
		remote.SetDefault(remote.NewClient(remote.Options{Backoff: time.Millisecond}))
		_, err := bag.OpenWith(faults.URL+someRecordings[0]+query, bag.OpenOptions{})
		if err == nil {
			t.Fatalf("a %d opened", code)
		}
		hidden(t, fmt.Sprintf("the error of a %d", code), err.Error())
	}
	// An expired presigned URL says so.
	faults.Status(func(int, *http.Request) int { return 403 })
	remote.SetDefault(remote.NewClient(remote.Options{Backoff: time.Millisecond}))
	expired := strings.Replace(query, "20300101T000000Z", "20200101T000000Z", 1)
	_, err := bag.OpenWith(faults.URL+someRecordings[0]+expired, bag.OpenOptions{})
	if !errors.Is(err, remote.ErrExpired) || !strings.Contains(err.Error(), "expired") {
		t.Errorf("an expired presigned URL: %v, want it to say it expired", err)
	}
	hidden(t, "the error of an expired URL", fmt.Sprint(err))
}
