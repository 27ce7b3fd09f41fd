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

// TestStoreRecordsFieldTypes checks the header fields as listed: each
// names its type as the ROS 1 views did (op, uint32, time, string) and
// starts with its 4-byte length prefix, the length the bytes hold.
func TestStoreRecordsFieldTypes(t *testing.T) {
	s := openStore(t, "../../assets/sample.bag")
	data, err := os.ReadFile("../../assets/sample.bag")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"header_len": "uint32", "data_len": "uint32", "op": "op", "index_pos": "uint64",
		"conn": "uint32", "topic": "string", "start_time": "time", "compression": "string", "connection md5sum": "string"}
	seen := map[string]bool{}
	for _, r := range listAll(t, s, VersionLineLen) {
		for _, f := range r.Fields {
			if w, ok := want[f.Name]; ok {
				seen[f.Name] = true
				if f.Type != w {
					t.Errorf("%s at %d: field %s has type %q, want %q", r.Kind, r.Offset, f.Name, f.Type, w)
				}
			}
			if f.Prefix == 0 {
				continue
			}
			at := r.Offset + f.Start
			if n := int64(le32(data[at:])); f.Prefix != 4 || at+4+n != r.Offset+f.End {
				t.Errorf("%s at %d: field %s: prefix %d says %d bytes, the field has %d", r.Kind, r.Offset, f.Name, f.Prefix, n, f.End-f.Start-4)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no field %s listed", name)
		}
	}
}

// TestStoreIndexRecords checks that each chunk's index record is its
// chunk info, as the bag's index lists it.
func TestStoreIndexRecords(t *testing.T) {
	s := openStore(t, "../../testdata/lz4-multichunk.bag")
	kinds := map[int64]string{}
	for _, r := range listAll(t, s, 0) {
		kinds[r.Offset] = r.Kind
	}
	for _, ci := range s.Bag.ChunkInfos {
		offs, ok := s.IndexRecords(ci.ChunkPos)
		if !ok || len(offs) != 1 || offs[0] != ci.Offset || kinds[offs[0]] != "chunk info" {
			t.Errorf("chunk at %d: index records %v (%v), want the chunk info at %d", ci.ChunkPos, offs, ok, ci.Offset)
		}
	}
}

// TestStoreRecordsPastDamage lists every shared bag that must be scanned:
// every chunk the scan found is listed (a salvaged one marked damaged),
// records come in byte order, and each reads again as listed.
func TestStoreRecordsPastDamage(t *testing.T) {
	scanned := 0
	for _, p := range ros1Bags(t) {
		b, err := OpenOrScan(p)
		if err != nil || b.Scan == nil {
			if err == nil {
				b.Close()
			}
			continue
		}
		b.Close()
		scanned++
		t.Run(p, func(t *testing.T) {
			s := openStore(t, p)
			recs := listAll(t, s, 0)
			at := map[int64]*bag.Record{}
			for i, r := range recs {
				at[r.Offset] = r
				if i > 0 && r.Offset <= recs[i-1].Offset {
					t.Fatalf("record %d at %d is not after record %d at %d", i, r.Offset, i-1, recs[i-1].Offset)
				}
				if r.Damaged {
					continue
				}
				again := listFirst(t, s, r.Offset)
				if again == nil || again.Offset != r.Offset || again.Kind != r.Kind {
					t.Errorf("record %d, a %s at %d, reads again as %+v", i, r.Kind, r.Offset, again)
				}
			}
			for _, ci := range s.Bag.ChunkInfos {
				r := at[ci.ChunkPos]
				if r == nil || r.Kind != "chunk" {
					t.Errorf("the chunk at %d, which the scan read, is listed as %+v", ci.ChunkPos, r)
				}
			}
			if o := s.Bag.Scan.Open; o != nil {
				if r := at[o.Pos]; r == nil || !r.Damaged {
					t.Errorf("the open chunk at %d should be listed as damaged: %+v", o.Pos, r)
				}
			}
		})
	}
	if scanned == 0 {
		t.Fatal("no shared bag needed scanning: the test checks nothing")
	}
}

// listFirst lists the one record at from.
func listFirst(t *testing.T, s *Store, from int64) *bag.Record {
	t.Helper()
	var got *bag.Record
	if err := s.Records(context.Background(), from, func(r *bag.Record) bool { got = r; return false }); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestStoreRecordsPastDamagedChunk breaks the header of a chunk in the
// middle of an indexed bag: the list holds the records before it, marks
// the bytes up to the next chunk the index knows damaged, and lists every
// later record.
func TestStoreRecordsPastDamagedChunk(t *testing.T) {
	src := "../../testdata/none-multichunk.bag"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	intact := openStore(t, src)
	want := listAll(t, intact, 0)
	cis := intact.Bag.ChunkInfos
	if len(cis) < 3 {
		t.Fatalf("fixture has %d chunks, want at least 3", len(cis))
	}
	bad, next := cis[1].ChunkPos, cis[2].ChunkPos
	// A header length running past the end of the file.
	copy(data[bad:], []byte{0xff, 0xff, 0xff, 0x7f})
	path := filepath.Join(t.TempDir(), "damaged.bag")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got := listAll(t, openStore(t, path), 0)
	checkCover(t, got, 0, int64(len(data)))
	listed := map[int64]bool{}
	damaged := 0
	for _, r := range got {
		listed[r.Offset] = true
		if r.Damaged {
			damaged++
			if r.Offset != bad || r.Err == nil {
				t.Errorf("damaged %s at %d (%v), want the bytes from %d", r.Kind, r.Offset, r.Err, bad)
			}
		}
	}
	if damaged != 1 {
		t.Errorf("%d damaged records, want 1", damaged)
	}
	for _, r := range want {
		if (r.Offset < bad || r.Offset >= next) && !listed[r.Offset] {
			t.Errorf("the %s at %d, outside the damaged chunk, is not listed", r.Kind, r.Offset)
		}
	}
}
