package human

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/rosbag2"
)

// sharedBag is a file of ../../../shared/bags; the test skips without it
// outside CI.
func sharedBag(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "..", "shared", "bags", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bag missing in CI: %v", err)
		}
		t.Skipf("skipping (CI never skips this): %v", err)
	}
	return p
}

// TestStorageCompression names the compression of rosbag2 folders that
// rosbag2 compressed, as their metadata.yaml says (the reference: the
// writer's own record of what it did), and the chunks of other files.
func TestStorageCompression(t *testing.T) {
	// A MESSAGE-mode folder: the reindex test's four .db3 files with
	// the metadata.yaml rosbag2 wrote for them.
	reidx := "ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/"
	msgDir := t.TempDir()
	for _, f := range []string{"message_compression/message_compression_0.db3", "message_compression/message_compression_1.db3",
		"message_compression/message_compression_2.db3", "message_compression/message_compression_3.db3",
		"target_metadata/message_compression/metadata.yaml"} {
		data, err := os.ReadFile(sharedBag(t, reidx+f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(msgDir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path, want string
	}{
		{msgDir, "zstd, per message"},
		{sharedBag(t, "ros2__rosbag2/rosbag2_tests/resources/compressed_bag"), "zstd, per file"},
		{sharedBag(t, "ros2__rosbag2/rosbag2_py/test/resources/mcap/talker"), "zstd ×1 ("},
		{"../../testdata/lz4-multichunk.bag", "lz4 ×47 ("},
		// Uncompressed SQLite storage, a folder and a lone file: no
		// chunks to count, and nothing compressed.
		{sharedBag(t, "facontidavide__PlotJuggler/datasamples/rosbag2_test"), "none"},
		{sharedBag(t, "foxglove__mcap/testdata/db3/chatter.db3"), "none"},
	} {
		st, err := bag.Open(tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		s, err := st.Summary()
		if err != nil {
			t.Fatal(err)
		}
		if b := rosbag2.Of(st); b != nil && b.Metadata != nil && b.Metadata.CompressionMode == "MESSAGE" && s.Chunks != 0 {
			t.Errorf("%s: %d chunks in a MESSAGE-mode db3 folder", tc.path, s.Chunks)
		}
		got := StorageCompression(st, s)
		if !strings.HasPrefix(got, tc.want) || strings.Contains(got, "no chunks") {
			t.Errorf("%s: %q, want %q…", tc.path, got, tc.want)
		}
		st.Close()
	}
}

// TestStorageUnits: the header counts chunks, and for SQLite storage,
// which has none, the files (the folder's, as bag.Open found them).
func TestStorageUnits(t *testing.T) {
	for _, tc := range []struct {
		path, caption, value string
	}{
		{sharedBag(t, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag"), "Files", "5"},
		{sharedBag(t, "foxglove__mcap/testdata/db3/chatter.db3"), "Files", "1"},
		{sharedBag(t, "ros2__rosbag2/rosbag2_py/test/resources/mcap/talker"), "Chunks", "1"},
		{"../../testdata/lz4-multichunk.bag", "Chunks", "47"},
	} {
		st, err := bag.Open(tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		s, err := st.Summary()
		if err != nil {
			t.Fatal(err)
		}
		if c, v := StorageUnits(st, s); c != tc.caption || v != tc.value {
			t.Errorf("%s: %s %s, want %s %s", tc.path, c, v, tc.caption, tc.value)
		}
		st.Close()
	}
}
