package ros1

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// openStore opens a bag through the seam, as the window does (a damaged
// one scanned), and returns its Store.
func openStore(t *testing.T, path string) *Store {
	t.Helper()
	s, err := bag.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	st, ok := bag.Underlying(s).(*Store)
	if !ok {
		t.Fatalf("%s opens as %T, not a ROS 1 Store", path, bag.Underlying(s))
	}
	return st
}

// listAll lists a store's top-level records.
func listAll(t *testing.T, s *Store, from int64) []*bag.Record {
	t.Helper()
	var recs []*bag.Record
	if err := s.Records(context.Background(), from, func(r *bag.Record) bool { recs = append(recs, r); return true }); err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkCover checks that recs cover [from, end) in byte order without a
// gap or an overlap, and that each record's fields lie inside it, in byte
// order.
func checkCover(t *testing.T, recs []*bag.Record, from, end int64) {
	t.Helper()
	at := from
	for _, r := range recs {
		if r.Offset != at {
			t.Fatalf("record %s at %d, the previous one ends at %d", r.Kind, r.Offset, at)
		}
		fat := int64(0)
		for _, f := range r.Fields {
			if f.Start < fat || f.End < f.Start || f.End > r.Len {
				t.Fatalf("%s at %d: field %s at %d..%d (record %d bytes, previous field ends at %d)", r.Kind, r.Offset, f.Name, f.Start, f.End, r.Len, fat)
			}
			fat = f.End
		}
		at = r.Offset + r.Len
	}
	if at != end {
		t.Fatalf("the records end at %d, the data at %d", at, end)
	}
}

// refRecords is what ref_records.py prints.
type refRecords struct {
	IndexPos int64             `json:"index_pos"`
	Conns    map[string]string `json:"conns"`
	Chunks   []struct {
		Pos         int64             `json:"pos"`
		Compression string            `json:"compression"`
		Size        uint32            `json:"size"`
		Counts      map[string]uint32 `json:"counts"`
	} `json:"chunks"`
	Messages [][5]int64 `json:"messages"`
}

// TestStoreRecordsMatchReference lists healthy bags' records through the
// seam (bag.RecordLister) and compares them with where the reference
// rosbag finds them: the chunks (position, compression, size), the index
// section, every connection, and each chunk's message records (offset,
// connection, time). The records cover the file, and each chunk's records
// its data, without a gap.
func TestStoreRecordsMatchReference(t *testing.T) {
	requireShared(t)
	requireRef(t)
	for _, p := range []string{
		"cruise-automation__rosbag.js/fixtures/example.bag",
		"cruise-automation__rosbag.js/fixtures/example-lz4.bag",
		"cruise-automation__rosbag.js/fixtures/example-bz2.bag",
		"facontidavide__PlotJuggler/datasamples/tilt_laser.bag",
		"cra-ros-pkg__robot_localization/test/test2.bag",
		"embarktrucks__embag/test/test_2.bag",
	} {
		t.Run(p, func(t *testing.T) {
			path := filepath.Join(sharedBags, p)
			var ref refRecords
			if err := json.Unmarshal(runRef(t, "testdata/ref_records.py", path), &ref); err != nil {
				t.Fatal(err)
			}
			s := openStore(t, path)
			recs := listAll(t, s, 0)
			checkCover(t, recs, 0, s.Bag.Size())

			byOffset := map[int64]*bag.Record{}
			kinds := map[string]int{}
			for _, r := range recs {
				byOffset[r.Offset] = r
				kinds[r.Kind]++
				if r.Damaged {
					t.Errorf("healthy bag: damaged %s at %d: %v", r.Kind, r.Offset, r.Err)
				}
			}
			if h := recs[1]; h.Kind != "bag header" || !strings.Contains(h.Summary, fmt.Sprintf("index_pos %d", ref.IndexPos)) {
				t.Errorf("second record %s %q, want the bag header with index_pos %d", h.Kind, h.Summary, ref.IndexPos)
			}
			if kinds["chunk"] != len(ref.Chunks) || kinds["chunk info"] != len(ref.Chunks) || kinds["connection"] < len(ref.Conns) {
				t.Errorf("kinds %v, the reference has %d chunks and %d connections", kinds, len(ref.Chunks), len(ref.Conns))
			}
			for _, c := range ref.Chunks {
				r := byOffset[c.Pos]
				if r == nil || r.Kind != "chunk" || !strings.HasPrefix(r.Summary, fmt.Sprintf("%s, %d bytes", c.Compression, c.Size)) {
					t.Fatalf("at the reference's chunk %d: %+v", c.Pos, r)
				}
				inner, data, err := s.BlockRecords(c.Pos)
				if err != nil {
					t.Fatal(err)
				}
				checkCover(t, inner, 0, int64(len(data)))
				got := map[string]bool{}
				for _, ir := range inner {
					if ir.Kind != "message data" {
						continue
					}
					var conn, tm string
					for _, f := range ir.Fields {
						switch f.Name {
						case "conn":
							conn = f.Value
						case "time":
							tm, _, _ = strings.Cut(f.Value, " ")
						}
					}
					got[fmt.Sprintf("%d %s %s", ir.Offset, conn, tm)] = true
				}
				want := map[string]bool{}
				for _, m := range ref.Messages {
					if m[0] == c.Pos {
						want[fmt.Sprintf("%d %d %s", m[1], m[2], Time{Sec: uint32(m[3]), NSec: uint32(m[4])})] = true
					}
				}
				if len(got) != len(want) {
					t.Errorf("chunk %d: %d message records, the reference indexes %d", c.Pos, len(got), len(want))
				}
				for k := range want {
					if !got[k] {
						t.Errorf("chunk %d: no message record %q", c.Pos, k)
						break
					}
				}
			}
			// Listing from a record's offset starts there.
			last := recs[len(recs)-1]
			if from := listAll(t, s, last.Offset); len(from) != 1 || from[0].Offset != last.Offset {
				t.Errorf("from %d: %d records", last.Offset, len(from))
			}
		})
	}
}

// TestStoreRecordsDecodeData lists the data of connection, index data and
// chunk info records as fields: the connection header's topic and type,
// one field per index entry and per chunk info connection.
func TestStoreRecordsDecodeData(t *testing.T) {
	s := openStore(t, "../../assets/sample.bag")
	seen := map[string]bool{}
	for _, r := range listAll(t, s, 0) {
		names := map[string]string{}
		for _, f := range r.Fields {
			names[f.Name] = f.Value
		}
		switch r.Kind {
		case "connection":
			if !strings.HasPrefix(names["connection type"], `"`) || names["connection topic"] == "" || names["connection md5sum"] == "" {
				t.Errorf("connection at %d: fields %v", r.Offset, names)
			}
		case "index data":
			if !strings.HasPrefix(names["entry 0"], "time ") || names["count"] == "" {
				t.Errorf("index data at %d: fields %v", r.Offset, names)
			}
		case "chunk info":
			if !strings.HasPrefix(names["conn 0"], "conn ") {
				t.Errorf("chunk info at %d: fields %v", r.Offset, names)
			}
		}
		seen[r.Kind] = true
	}
	for _, k := range []string{"version line", "bag header", "chunk", "index data", "connection", "chunk info"} {
		if !seen[k] {
			t.Errorf("no %s record listed", k)
		}
	}
}

// TestStoreRecordsDamaged lists damaged bags: the records still cover the
// file, what does not parse is marked damaged with why, and nothing
// panics.
func TestStoreRecordsDamaged(t *testing.T) {
	requireShared(t)
	sample, err := os.ReadFile("../../assets/sample.bag")
	if err != nil {
		t.Fatal(err)
	}
	// The sample cut part way.
	cut := filepath.Join(t.TempDir(), "cut.bag")
	if err := os.WriteFile(cut, sample[:len(sample)*3/5], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		filepath.Join(sharedBags, "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"),
		cut,
	} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			s := openStore(t, p)
			recs := listAll(t, s, 0)
			checkCover(t, recs, 0, s.Bag.Size())
			damaged := 0
			for _, r := range recs {
				if r.Damaged {
					damaged++
					if r.Err == nil {
						t.Errorf("damaged %s at %d without a reason", r.Kind, r.Offset)
					}
				}
			}
			if damaged == 0 {
				t.Error("no record marked damaged")
			}
		})
	}
}
