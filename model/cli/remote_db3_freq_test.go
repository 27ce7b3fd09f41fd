package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// TestRemoteDb3FreqEqualsLocal: `info --freq` builds the message index
// (each topic's rate); over a URL a .db3's index comes from the messages
// table's leaves read in parts where those are mostly data (issue 25).
// On every shared .db3 and on generated ones (rows of 4-200 bytes and
// /image rows of 5-20 kB spilling onto overflow pages over three topics,
// one silent; small rows only; 512-byte pages; a row of an unknown
// topic; and damaged variants of the large rows' file: pages of garbage,
// zeroed pages, a cut), served by nginx, the output must be the local
// file's, line for line but the fetched line, its damage reports (file
// and byte offset) and exit code included.
func TestRemoteDb3FreqEqualsLocal(t *testing.T) {
	var shared []string
	filepath.Walk(sharedBags, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && strings.HasSuffix(p, ".db3") {
			shared = append(shared, strings.TrimPrefix(p, sharedBags+"/"))
		}
		return nil
	})
	if len(shared) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no shared .db3 in CI")
		}
		t.Skip("skipping: no shared .db3 files in " + sharedBags)
	}
	gen := t.TempDir()
	mk := func(name string, n int, opts ...string) string {
		db3test.Write(t, filepath.Join(gen, name), n, opts...)
		return name
	}
	generated := []string{
		mk("large.db3", 4000),
		mk("small.db3", 20000, "--small"),
		mk("pages512.db3", 2000, "--page-size", "512"),
		mk("unknown.db3", 3000, "--unknown-topic"),
	}
	healthy, err := os.ReadFile(filepath.Join(gen, "large.db3"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range db3test.Damaged(healthy) {
		switch {
		case tc.Name == "random pages garbage", tc.Name == "zeroed pages", tc.Name == "b-tree pages garbage", tc.Name == "cut at 2000000":
		default:
			continue
		}
		data, _ := tc.Damage(healthy)
		name := strings.ReplaceAll(tc.Name, " ", "_") + ".db3"
		if err := os.WriteFile(filepath.Join(gen, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		generated = append(generated, name)
	}
	sharedWeb := remotetest.Nginx(t, sharedBags)
	genWeb := remotetest.Nginx(t, gen)
	check := func(t *testing.T, local, url string) {
		wantOut, _, wantCode := run("info", "--freq", local)
		gotOut, stderr, code := run("info", "--freq", "--allow-remote-scan", url)
		if code != wantCode {
			t.Fatalf("exit %d, local %d; stderr %s", code, wantCode, stderr)
		}
		if unlike(gotOut, url) != unlike(wantOut, local) {
			t.Fatalf("output differs:\nremote:\n%s\nlocal:\n%s", clipText(gotOut), clipText(wantOut))
		}
		if !strings.Contains(wantOut, "Hz") && wantCode == 0 {
			t.Logf("no rates in:\n%s", clipText(wantOut))
		}
	}
	for _, rel := range shared {
		t.Run(strings.ReplaceAll(rel, "/", "|"), func(t *testing.T) {
			check(t, filepath.Join(sharedBags, rel), sharedWeb.URL+rel)
		})
	}
	for _, name := range generated {
		t.Run(name, func(t *testing.T) {
			check(t, filepath.Join(gen, name), genWeb.URL+name)
		})
	}
}
