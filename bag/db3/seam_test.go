package db3_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
)

// TestZeroedHeaderOpensByName: a .db3 whose first bytes were zeroed has no
// magic left, so the seam goes by its name, and the rescue reader gets its
// rows back.
func TestZeroedHeaderOpensByName(t *testing.T) {
	src := "../../../shared/bags/ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3"
	data, err := os.ReadFile(src)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	clear(data[:100])
	dir := t.TempDir()
	for _, name := range []string{"zeroed.db3", "zeroed.bin"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := bag.OpenFile(p)
		if name == "zeroed.bin" {
			if err == nil {
				s.Close()
				t.Errorf("%s: opened a file with neither magic nor a known name", name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum, _ := s.Summary()
		if sum == nil || sum.Messages == 0 {
			t.Errorf("%s: no messages recovered (%+v)", name, sum)
		}
		if s.FileInfo().Scanned == nil {
			t.Errorf("%s: the rescue is not reported", name)
		}
		s.Close()
	}
}
