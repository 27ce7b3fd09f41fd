package model

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
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

// TestSaveRepairedMCAP writes a repaired copy of an MCAP cut in the middle
// of its chunk: the copy is an indexed MCAP holding exactly the messages the
// document salvaged, and it is readable by all.
func TestSaveRepairedMCAP(t *testing.T) {
	data, err := os.ReadFile("../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "cut.mcap")
	os.WriteFile(in, data[:len(data)*2/3], 0o644)
	d, err := Open(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Info.Scanned == nil {
		t.Fatal("a cut MCAP was not read by scanning")
	}
	salvaged := messageLines(t, d.Storage)
	if len(salvaged) == 0 {
		t.Fatal("nothing salvaged from two thirds of the file")
	}
	out := filepath.Join(dir, "cut-repaired.mcap")
	rep, err := SaveRepaired(d, out)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != uint64(len(salvaged)) {
		t.Errorf("report says %d messages kept, %d were salvaged", rep.Messages, len(salvaged))
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("copy: %v, mode %v", err, st.Mode())
	}
	r, err := OpenStorage(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.FileInfo().Indexed {
		t.Error("the copy is not indexed")
	}
	if got := messageLines(t, r); strings.Join(got, "\n") != strings.Join(salvaged, "\n") {
		t.Errorf("the copy holds %d messages, not the %d salvaged ones", len(got), len(salvaged))
	}
}

// messageLines lists a storage's messages as topic, time and bytes.
func messageLines(t *testing.T, s bag.Storage) []string {
	t.Helper()
	var out []string
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		out = append(out, fmt.Sprintf("%s %s %x", m.Conn.Topic, m.Time, m.Data))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRepairCutDB3 repairs a .db3 cut by a crash, as a .db3 and as an
// MCAP: both hold exactly the rows the rescue reader recovered, the .db3
// passes SQLite's own integrity check, and the losses are reported.
func TestRepairCutDB3(t *testing.T) {
	src := "../../shared/bags/facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3"
	data, err := os.ReadFile(src)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "crashed.db3")
	os.WriteFile(in, data[:600000], 0o644)
	s, err := OpenStorage(in)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := messageLines(t, s)
	if len(want) == 0 || s.FileInfo().Scanned == nil {
		t.Fatalf("%d rows rescued, scanned %v", len(want), s.FileInfo().Scanned)
	}
	for _, out := range []string{filepath.Join(dir, "fixed.db3"), filepath.Join(dir, "fixed.mcap")} {
		rep, err := WriteRepaired(s, out, "", 0)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if rep.Complete() || rep.Messages != uint64(len(want)) {
			t.Errorf("%s: report says %d kept, complete %v; %d rescued, some lost", out, rep.Messages, rep.Complete(), len(want))
		}
		r, err := OpenStorage(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := messageLines(t, r); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s holds %d messages, not the %d rescued", out, len(got), len(want))
		}
		if r.FileInfo().Scanned != nil {
			t.Errorf("%s needed a rescue itself", out)
		}
		r.Close()
	}
	if py, err := exec.LookPath("/usr/bin/python3"); err == nil {
		out, err := exec.Command(py, "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('pragma integrity_check').fetchone()[0])", filepath.Join(dir, "fixed.db3")).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "ok" {
			t.Errorf("SQLite's integrity check of the repaired .db3: %s %v", out, err)
		}
	}
}
