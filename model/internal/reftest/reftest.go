// Package reftest holds what the tests of model and its rooms share
// besides bag/oracletest (the references and the skip rule, which it
// passes on): the shared bags and decoding one message of a fixture.
package reftest

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Python is the Python that has the reference rosbag installed.
const Python = oracletest.Python

// SkipOrFail skips a test that lacks what only CI must have (the reference
// rosbag, the shared bags), and fails it in CI (oracletest.SkipOrFail).
func SkipOrFail(t testing.TB, why any) {
	t.Helper()
	oracletest.SkipOrFail(t, fmt.Sprintf("%v (make deps installs the reference rosbag; the shared bags live in ../shared)", why))
}

// RequireRef skips or fails (in CI) a test when the reference rosbag is
// missing.
func RequireRef(t testing.TB) {
	t.Helper()
	oracletest.RequireRef(t)
}

// SharedBagPaths lists every .bag and .bag.active file under dir, the
// shared bags as the calling test's folder reaches them. Without them the
// test fails in CI and is skipped elsewhere.
func SharedBagPaths(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".bag") || strings.HasSuffix(p, ".bag.active")) {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		SkipOrFail(t, "no bags under "+dir)
	}
	return paths
}

// DecodeNth decodes message n (from 0) of topic in the ROS 1 bag at path.
func DecodeNth(t *testing.T, path, topic string, n int) *rosmsg.Node {
	t.Helper()
	b, err := ros1.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	it := ros1.NewStore(b).Messages(bag.MessageFilter{Topics: []string{topic}})
	defer it.Close()
	for k := 0; it.Next(); k++ {
		if k < n {
			continue
		}
		m := it.Message()
		var cache rosmsg.Cache
		plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
		if err != nil {
			t.Fatal(err)
		}
		root, err := plan.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("%s has no message %d on %s", path, n, topic)
	return nil
}
