package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// oldRecording is a recordings row as catalogues were written before the
// validator column (a subset of that schema's columns).
type oldRecording struct {
	Path     string    `parquet:"path"`
	Format   string    `parquet:"format"`
	Size     int64     `parquet:"size"`
	MTime    time.Time `parquet:"mtime,timestamp(nanosecond)"`
	Indexed  bool      `parquet:"indexed"`
	Messages int64     `parquet:"messages"`
	Health   string    `parquet:"health"`
}

// TestOldCatalogueStaysIncremental: a catalogue written before the
// validator column reads (the column empty), and its row of an unchanged
// local recording is kept, not read again.
func TestOldCatalogueStaysIncremental(t *testing.T) {
	rec, err := filepath.Abs("../../testdata/robot.bag")
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(rec)
	if err != nil {
		t.Fatal(err)
	}
	cat := t.TempDir()
	part := filepath.Join(cat, RecordingsTable, partition(0, 1))
	os.MkdirAll(part, 0o755)
	f, err := os.Create(filepath.Join(part, RecordingsTable+".parquet"))
	if err != nil {
		t.Fatal(err)
	}
	// 12345 messages: what no read of robot.bag gives, so a kept row
	// shows.
	if err := parquet.Write(f, []oldRecording{{Path: rec, Format: "ROS 1 bag", Size: st.Size(), MTime: st.ModTime(), Indexed: true, Messages: 12345, Health: "ok"}}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	rows, err := ReadRecordings(cat)
	if err != nil || len(rows) != 1 || rows[0].Validator != "" || rows[0].Messages != 12345 {
		t.Fatalf("the old catalogue reads %+v, %v; want its one row, no validator", rows, err)
	}
	recs, _, rep, err := Collect(context.Background(), []string{rec}, Options{Out: cat})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Read != 0 || rep.Reused != 1 || len(recs) != 1 || recs[0].Messages != 12345 {
		t.Errorf("%+v, rows %+v; want the old row kept, nothing read", rep, recs)
	}
	// Asked for more than the old row holds, it is read again.
	recs, _, rep, err = Collect(context.Background(), []string{rec}, Options{Out: cat, ReadAll: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Read != 1 || recs[0].Messages == 12345 {
		t.Errorf("with --read-all: %+v, rows %+v; want it read", rep, recs)
	}
}
