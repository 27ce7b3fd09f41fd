package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
)

// TestSaveRepaired writes a repaired copy of an opened, cut bag: the copy
// is indexed and holds the salvaged messages, the document is unchanged,
// and the input is never the output.
func TestSaveRepaired(t *testing.T) {
	src := "../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"
	if _, err := os.Stat(src); err != nil && os.Getenv("CI") == "" {
		t.Skip("shared bags missing")
	}
	in := filepath.Join(t.TempDir(), "cut.bag")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, data, 0o644)
	d, err := Open(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	chunks := len(d.Bag.ChunkInfos)
	out := filepath.Join(t.TempDir(), "fixed.bag")
	rep, err := SaveRepaired(d, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != 3 || rep.Complete() {
		t.Fatalf("report %+v", rep)
	}
	b, err := ros1.Open(out)
	if err != nil {
		t.Fatalf("the copy is not an indexed bag: %v", err)
	}
	s, _ := b.Summary()
	b.Close()
	if s.Messages != 3 {
		t.Fatalf("the copy holds %d messages", s.Messages)
	}
	if len(d.Bag.ChunkInfos) != chunks {
		t.Fatal("repairing changed the open document")
	}
	if _, err := SaveRepaired(d, in); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("wrote over the input: %v", err)
	}
	if got, _ := os.ReadFile(in); string(got) != string(data) {
		t.Fatal("the input changed")
	}
}
