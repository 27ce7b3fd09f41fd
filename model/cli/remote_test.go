package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// The commands on URLs: every shared recording served by nginx and by an
// S3 server reads as the local file does, and the commands that write
// write locally.

// remoteRecordings lists the shared recordings (paths below sharedBags):
// every recording file of INDEX.tsv and each folder with a metadata.yaml,
// as its metadata.yaml and (for S3) as its folder.
func remoteRecordings(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(sharedBags, "INDEX.tsv"))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %v", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		rel, _, _ := strings.Cut(sc.Text(), "\t")
		switch {
		case filepath.Base(rel) == "metadata.yaml":
			out = append(out, rel, filepath.Dir(rel)+"/")
		case bag.IsRecordingName(rel):
			out = append(out, rel)
		}
	}
	return out
}

// remoteClass is a recording's format and layout: its extension, a
// metadata.yaml or a folder, the damaged ones (damagedName: cut, unindexed,
// empty; read by the remote scan) a class of their own.
func remoteClass(rel string) string {
	class := filepath.Ext(rel)
	switch {
	case strings.HasSuffix(rel, "/"):
		class = "folder"
	case filepath.Base(rel) == "metadata.yaml":
		class = "metadata.yaml"
	}
	if damagedName.MatchString(filepath.Base(rel)) {
		class += " damaged"
	}
	return class
}

// remoteSample is what TestRemoteCatEqualsLocal reads on which server:
// keep[rel][i] says whether it reads rel's i-th URL (servers.urls: S3,
// then nginx). With -long (make test-long) every recording on every
// server. Without it, for each server, one recording of each class
// (remoteClass), the servers' picks apart within a class: ~15 remote cats
// instead of ~91 (200 s of model/cli's sequential tests at load 17-31).
// BAGSCOPE_SAMPLE=K picks other recordings (sweeptest.Keep).
func remoteSample(rels []string) map[string][]bool {
	byClass := map[string][]string{}
	for _, rel := range rels {
		c := remoteClass(rel)
		byClass[c] = append(byClass[c], rel)
	}
	keep := map[string][]bool{}
	for _, class := range byClass {
		for i, rel := range class {
			keep[rel] = []bool{sweeptest.Keep(i, len(class)), sweeptest.Keep(i+1, len(class))}
		}
	}
	return keep
}

// servers serves the shared recordings over HTTP (nginx) and S3
// (versitygw, bucket "bags"), for the rest of the test.
type servers struct {
	web  *remotetest.HTTPServer
	s3   *remotetest.S3Server
	root string // the folder nginx serves: a private copy of sharedBags
}

// startServers serves a private copy of the shared recordings, so that
// what the commands do to the served folder is told apart from what
// other tests running at the same time do to ../shared/bags.
func startServers(t *testing.T) servers {
	t.Helper()
	root := filepath.Join(t.TempDir(), "bags")
	if err := os.CopyFS(root, os.DirFS(sharedBags)); err != nil {
		t.Fatalf("copying %s to serve it: %v", sharedBags, err)
	}
	web := remotetest.Nginx(t, root)
	s3 := remotetest.Versity(t, "bags")
	s3.Env(t, false)
	s3.Upload(t, "bags", "", root)
	return servers{web, s3, root}
}

// urls returns the URLs of a recording with the flags they need.
func (s servers) urls(rel string) [][]string {
	out := [][]string{{"s3://bags/" + rel, "--endpoint-url", s.s3.Endpoint}}
	if !strings.HasSuffix(rel, "/") {
		// An HTTP folder is named by its metadata.yaml (listed too).
		out = append(out, []string{s.web.URL + rel})
	}
	return out
}

func tree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil {
			if info, err := e.Info(); err == nil {
				lines = append(lines, fmt.Sprintf("%s %d %d", p, info.Size(), info.ModTime().UnixNano()))
			}
		}
		return nil
	})
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// treeDiff lists the lines of one tree listing missing from the other.
func treeDiff(before, after string) string {
	was := map[string]bool{}
	for _, l := range strings.Split(before, "\n") {
		was[l] = true
	}
	is := map[string]bool{}
	var out []string
	for _, l := range strings.Split(after, "\n") {
		is[l] = true
		if !was[l] {
			out = append(out, "+ "+l)
		}
	}
	for _, l := range strings.Split(before, "\n") {
		if !is[l] {
			out = append(out, "- "+l)
		}
	}
	return strings.Join(out, "\n")
}

func TestRemoteCatEqualsLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nginx and versitygw and cats every shared recording three times")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	srv := startServers(t)
	before := tree(t, srv.root)
	rels := remoteRecordings(t)
	keep := remoteSample(rels)
	if !sweeptest.Long() {
		t.Logf("sampled: for each server one recording of each format and layout (damaged ones apart), BAGSCOPE_SAMPLE=%d picks which; go test -long, or make test-long, reads every one on every server", sweeptest.Shift())
	}
	for _, rel := range rels {
		var urls [][]string
		for i, u := range srv.urls(rel) {
			if keep[rel][i] {
				urls = append(urls, u)
			}
		}
		if len(urls) == 0 {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			local := filepath.Join(sharedBags, filepath.FromSlash(rel))
			want, _, wantCode := run("cat", "--json", local)
			for _, u := range urls {
				args := append([]string{"cat", "--json", "--allow-remote-scan"}, u...)
				got, stderr, code := run(args...)
				if code != wantCode || got != want {
					t.Fatalf("cat --json %s: exit %d (local %d), %d bytes of output (local %d), equal %v\nstderr: %s", u[0], code, wantCode, len(got), len(want), got == want, stderr)
				}
			}
		})
	}
	if after := tree(t, srv.root); after != before {
		t.Errorf("the commands changed the folder nginx serves:\n%s", treeDiff(before, after))
	}
}

// someRemote are one recording of each format and layout.
var someRemote = []string{
	"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap",
	"UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag",
	"ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3",
	"ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag/metadata.yaml",
	"ros2__rosbag2/rosbag2_py/test/resources/mcap/wbag/",
	"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag",
}

// unlike replaces what differs between the local and the remote output of
// a command: the path or URL, and what was fetched.
func unlike(out, path string) string {
	out = strings.ReplaceAll(out, path, "PATH")
	out = strings.ReplaceAll(out, strings.TrimSuffix(path, "/"), "PATH")
	if strings.HasSuffix(path, "metadata.yaml") {
		// A metadata.yaml opens its folder, which the output names.
		dir := strings.TrimSuffix(strings.TrimSuffix(path, "metadata.yaml"), "/")
		out = strings.ReplaceAll(out, dir+"/", "PATH")
		out = strings.ReplaceAll(out, dir, "PATH")
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "fetched:") || strings.HasPrefix(t, "Fetched:") {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

func TestRemoteCommands(t *testing.T) {
	srv := startServers(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	work := t.TempDir()
	commands := [][]string{
		{"info"},
		{"check", "--json"},
		{"records", "--json"},
		{"verify"},
		{"cat", "-n", "3"},
	}
	for _, rel := range someRemote {
		local := filepath.Join(sharedBags, filepath.FromSlash(rel))
		for _, u := range srv.urls(rel) {
			for _, c := range commands {
				name := strings.Join(c, " ") + " " + u[0]
				t.Run(strings.ReplaceAll(name, "/", "|"), func(t *testing.T) {
					wantOut, _, wantCode := run(append(c, local)...)
					gotOut, stderr, code := run(append(append(append([]string{}, c...), "--allow-remote-scan"), u...)...)
					if code != wantCode {
						t.Fatalf("exit %d, local %d; stderr %s", code, wantCode, stderr)
					}
					if unlike(gotOut, u[0]) != unlike(wantOut, local) {
						t.Fatalf("output differs:\nremote:\n%s\nlocal:\n%s", clipText(gotOut), clipText(wantOut))
					}
				})
			}
		}
	}

	t.Run("info reports what was fetched", func(t *testing.T) {
		for _, rel := range someRemote[:5] {
			u := srv.web.URL + rel
			out, stderr, code := run("info", u)
			if code != 0 || !strings.Contains(strings.ToLower(out), "fetched:") || !strings.Contains(out, "request") {
				t.Fatalf("info %s: exit %d, no fetched line:\n%s%s", u, code, out, stderr)
			}
		}
		u := srv.web.URL + someRemote[1]
		out, _, _ := run("info", "--json", u)
		var j struct {
			Fetched *struct{ Bytes, Requests int64 } `json:"fetched"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil || j.Fetched == nil || j.Fetched.Requests == 0 || j.Fetched.Bytes == 0 {
			t.Fatalf("info --json has no fetched bytes and requests: %s (%v)", out, err)
		}
		out, _, _ = run("info", "--json", filepath.Join(sharedBags, someRemote[1]))
		if strings.Contains(out, `"fetched"`) {
			t.Errorf("info --json of a local file says it fetched: %s", out)
		}
	})

	t.Run("a file without its index needs consent", func(t *testing.T) {
		u := srv.web.URL + someRemote[5]
		_, stderr, code := run("info", u)
		if code != ExitUsage || !strings.Contains(stderr, "--allow-remote-scan") {
			t.Fatalf("info of a cut remote bag without --allow-remote-scan: exit %d, %s", code, stderr)
		}
		if _, _, code := run("info", "--allow-remote-scan", u); code == ExitUsage {
			t.Fatal("with --allow-remote-scan it still does not open")
		}
	})

	t.Run("fix and convert write locally", func(t *testing.T) {
		for _, rel := range []string{someRemote[0], someRemote[5]} {
			u := srv.web.URL + rel
			wantPath := filepath.Join(work, "local-"+filepath.Base(rel))
			gotPath := filepath.Join(work, "remote-"+filepath.Base(rel))
			_, _, wantCode := run("fix", filepath.Join(sharedBags, rel), wantPath)
			_, stderr, code := run("fix", "--allow-remote-scan", u, gotPath)
			if code != wantCode {
				t.Fatalf("fix %s: exit %d, local %d: %s", u, code, wantCode, stderr)
			}
			want, _ := os.ReadFile(wantPath)
			got, err := os.ReadFile(gotPath)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("fix of the URL wrote otherwise than fix of the local file (%v)", err)
			}
		}
		_, stderr, code := run("convert", srv.web.URL+someRemote[1], filepath.Join(work, "x.mcap"))
		if code != 0 {
			t.Fatalf("convert of a URL: exit %d, %s", code, stderr)
		}
		_, stderr, code = run("fix", filepath.Join(sharedBags, someRemote[0]), srv.web.URL+"out.mcap")
		if code != ExitUsage || !strings.Contains(stderr, "local") {
			t.Fatalf("fix to a URL: exit %d, %s; want a usage error saying copies are written locally", code, stderr)
		}
	})

	t.Run("presigned secrets stay hidden", func(t *testing.T) {
		const secret = "SUPERSECRETSIG42"
		q := "?X-Amz-Credential=AKIAHIDDENKEY&X-Amz-Date=20300101T000000Z&X-Amz-Expires=60&X-Amz-Signature=" + secret
		for _, c := range [][]string{{"info"}, {"info", "--json"}, {"cat", "-n", "2"}, {"check", "--json"}} {
			for _, u := range []string{srv.web.URL + someRemote[0] + q, srv.web.URL + "missing.mcap" + q} {
				out, stderr, _ := run(append(c, u)...)
				for _, s := range []string{secret, "AKIAHIDDENKEY"} {
					if strings.Contains(out+stderr, s) {
						t.Errorf("%v %s shows %s:\n%s%s", c, u, s, out, stderr)
					}
				}
			}
		}
	})

	// Nothing was written beside the recordings, nor in the cache but the
	// decompressed copies of .zstd files.
	filepath.WalkDir(cache, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && !strings.Contains(p, filepath.Join("bagscope", "zstd")) {
			t.Errorf("the remote commands wrote %s", p)
		}
		return nil
	})
}

func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}
