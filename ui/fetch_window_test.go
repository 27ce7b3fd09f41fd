package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/fetch"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// The window of a remote recording (issue 25):
//   - a status line says what reading it fetched, and follows the reads;
//   - a remote file without its index asks before it is read whole,
//     stating its size, and opens as the local file does once confirmed;
//   - a presigned URL that expired (refused by a real S3 server) says so.
func TestRemoteWindow(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	// Larger than what opening fetches and keeps (the index, the chunks
	// shown and the file's read-ahead), so that a read of every message
	// fetches more: the one TestRemoteWindowReadsWhatItShows reads too.
	linkWindowMCAP(t, filepath.Join(root, "w.mcap"))
	robot, err := os.ReadFile(uitest.Testdata(t, "robot.bag"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(root, "cut.bag")
	if err := os.WriteFile(cut, robot[:len(robot)*3/4], 0o644); err != nil {
		t.Fatal(err)
	}
	// A rosbag2 FILE-mode file: compressed whole, read whole.
	zst := uitest.SharedBags(t, "ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/file_compression/file_compression_1.db3.zstd")
	zdata, err := os.ReadFile(zst)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "fc_1.db3.zstd"), zdata, 0o644); err != nil {
		t.Fatal(err)
	}
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	// A cache smaller than the file: a second read fetches again.
	remote.SetDefault(remote.NewClient(remote.Options{CacheBytes: 256 << 10}))

	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	open := func(t *testing.T, url string) *bagView {
		t.Helper()
		opened = nil
		c.openPath(url, nil)
		if opened == nil {
			t.Fatalf("%s: the window never finished opening", url)
		}
		v := opened
		t.Cleanup(func() { v.win.Close() })
		return v
	}
	// waitLine waits until the status line shows the counters as they
	// are (it polls them): state, not a time. The minute only bounds a
	// line that never catches up (it was 10 s, short under load).
	waitLine := func(t *testing.T, v *bagView) string {
		t.Helper()
		var want string
		for end := time.Now().Add(time.Minute); time.Now().Before(end); {
			want = fetch.Line(bag.TransferOf(v.doc.Storage), 0)
			if strings.HasPrefix(v.views.fetch.Text(), want) {
				return want
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatalf("the status line says %q, want %q", v.views.fetch.Text(), want)
		return ""
	}

	t.Run("status line", func(t *testing.T) {
		v := open(t, web.URL+"w.mcap")
		if v.err != nil || v.views == nil || v.views.fetch == nil {
			t.Fatalf("opened with %v; a remote recording's window has a status line", v.err)
		}
		first := waitLine(t, v)
		if !strings.Contains(first, "fetched") || !strings.Contains(first, "request") {
			t.Errorf("status line %q", first)
		}
		var shown string
		v.views.fetch.Hold(func() { shown = uitest.Shown(v.win) })
		if !strings.Contains(shown, first) {
			t.Errorf("the window does not show %q", first)
		}
		// A read of every message fetches more: the line follows.
		before := bag.TransferOf(v.doc.Storage)
		it := v.doc.Storage.Messages(bag.MessageFilter{})
		for it.Next() {
		}
		it.Close()
		if after := bag.TransferOf(v.doc.Storage); after.Bytes <= before.Bytes {
			t.Fatalf("reading every message fetched nothing more (%d bytes before, %d after)", before.Bytes, after.Bytes)
		}
		if second := waitLine(t, v); second == first {
			t.Errorf("the status line stayed %q", second)
		}
		// A local recording has none.
		local := open(t, filepath.Join(root, "w.mcap"))
		if local.views == nil || local.views.fetch != nil {
			t.Error("a local recording's window has a remote status line")
		}
	})

	for _, tc := range []struct{ name, local string }{{"cut.bag", cut}, {"fc_1.db3.zstd", zst}} {
		t.Run("scan needs consent: "+tc.name, func(t *testing.T) {
			v := open(t, web.URL+tc.name)
			var scan *bag.ScanConsentError
			if !errors.As(v.err, &scan) {
				t.Fatalf("a remote file without its index opened with %v; want the question", v.err)
			}
			fi, err := os.Stat(tc.local)
			if err != nil {
				t.Fatal(err)
			}
			size := human.Size(fi.Size())
			shown := uitest.Shown(v.win)
			if !strings.Contains(shown, size) || !strings.Contains(shown, "Read all of "+tc.name+"?") {
				t.Fatalf("the question does not state the size %s:\n%s", size, shown)
			}
			test.Tap(uitest.FindButton(t, v.win.Content(), "Download "+size))
			if opened == nil || opened.err != nil || opened.doc == nil {
				t.Fatalf("after the confirmation: %+v", opened)
			}
			local, err := model.Open(t.Context(), tc.local, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer local.Close()
			if got, want := opened.doc.Summary.Messages, local.Summary.Messages; got != want || got == 0 {
				t.Errorf("the remote file read whole has %d messages, the local file %d", got, want)
			}
		})
	}

	t.Run("expired presigned URL", func(t *testing.T) {
		s3 := remotetest.Versity(t, "bags")
		s3.Put(t, "bags", "robot.bag", robot)
		u := s3.Presign(t, "bags", "robot.bag", time.Now().Add(-2*time.Hour), time.Minute)
		sig := u[strings.Index(u, "X-Amz-Signature=")+len("X-Amz-Signature="):]
		v := open(t, u)
		if !errors.Is(v.err, remote.ErrExpired) {
			t.Fatalf("opened with %v, want ErrExpired", v.err)
		}
		shown := uitest.Shown(v.win)
		if !strings.Contains(shown, "expired") || !strings.Contains(shown, "ask whoever shared it for a new one") {
			t.Errorf("the window does not say the URL expired:\n%s", shown)
		}
		if strings.Contains(shown+v.win.Title(), sig) {
			t.Error("the window shows the URL's signature")
		}
	})
}
