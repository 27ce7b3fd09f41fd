// Package rosmsgtest holds what the tests of rosmsg and its subpackages
// (expr) share: the shared recordings and the first messages of each of
// their connections with the message's plan. It is imported by tests only.
package rosmsgtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// SharedRecordings lists the recordings under dir (../shared/bags as the
// calling test's folder reaches it): ROS 1 bags, MCAP files and rosbag2
// folders (a folder with a metadata.yaml). Without any the test fails in
// CI and is skipped elsewhere.
func SharedRecordings(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case e.IsDir():
			if _, err := os.Stat(filepath.Join(p, "metadata.yaml")); err == nil {
				out = append(out, p)
				return filepath.SkipDir
			}
		case strings.HasSuffix(p, ".bag") || strings.HasSuffix(p, ".mcap"):
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no recordings under %s (CI needs ../shared)", dir)
		}
		t.Skipf("skipping (CI never skips this): no recordings under %s", dir)
	}
	return out
}

// EachFirstMessages calls fn with the first perConn messages of each
// connection of every recording under dir (SharedRecordings) whose
// definition makes a plan, with the plan. A recording that does not open
// is passed over (damaged on purpose: the bag tests say how), as is a
// connection without a plan.
func EachFirstMessages(t testing.TB, dir string, perConn int, fn func(path string, plan *rosmsg.Plan, m *bag.Message)) {
	t.Helper()
	for _, path := range SharedRecordings(t, dir) {
		s, err := model.OpenStorage(path)
		if err != nil {
			continue
		}
		var cache rosmsg.Cache
		seen := map[uint32]int{}
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
			m := it.Message()
			if seen[m.Conn.ID] >= perConn {
				continue
			}
			seen[m.Conn.ID]++
			plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
			if err != nil {
				continue
			}
			fn(path, plan, m)
		}
		it.Close()
		s.Close()
	}
}
