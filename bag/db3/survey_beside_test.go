package db3

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
)

// wholeRead reads every message of a folder's file opened from data, and
// returns what it gave (row, time, topic, the data's length and SHA-256,
// mark, one a line), the read's error and the store's report of the rescue,
// if any. The data is hashed, not printed: printing every row's bytes in
// hex was over half of TestSurveyBesideTheRead's own CPU under -race.
func wholeRead(t *testing.T, data []byte, path string) string {
	t.Helper()
	s, err := Open(bytes.NewReader(data), int64(len(data)), path)
	if err != nil {
		return "open: " + err.Error()
	}
	defer s.Close()
	var b strings.Builder
	it := s.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		fmt.Fprintf(&b, "%d %d %s %d %x %q\n", RowID(m.Loc), m.Time.Nanos(), m.Conn.Topic, len(m.Data), sha256.Sum256(m.Data), m.Suspect)
	}
	fmt.Fprintf(&b, "err %v\n", it.Err())
	it.Close()
	if sc := s.FileInfo().Scanned; sc != nil {
		fmt.Fprintf(&b, "rescued: %v; parsed to %d; skipped %v; lost %d; suspect %d; notes %q\n", sc.Reason, sc.ParsedTo, sc.Skipped, sc.LostMessages, sc.Suspect, sc.Notes)
	}
	return b.String()
}

// TestSurveyBesideTheRead: a read of every message surveys the file's
// pages beside the read (see healIter) rather than before its first
// message. On a folder's file (which opens without a survey) damaged on
// one page at a time, every b-tree page in turn (interior pages of the
// messages table and its index's pages, the topics table, sqlite_master,
// and one in eight of the table's leaves),
// each in three ways, the read gives the same messages (row, time, topic,
// data, mark), ends with the same error and leaves the same report of the
// rescue as the read that surveys first; and the healthy file reads the
// same both ways. Run on two cores or more, the survey and the read race:
// the answer must not depend on which is ahead.
func TestSurveyBesideTheRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 1000)
	healthy, _ := os.ReadFile(p)
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	ps := db3test.PageSize
	if len(healthy)%ps != 0 {
		t.Fatalf("the file's %d bytes are not whole pages of %d", len(healthy), ps)
	}
	damages := []struct {
		name   string
		damage func(pg []byte, hoff int)
	}{
		{"fragment count changed", func(pg []byte, hoff int) { pg[hoff+7] += 3 }},
		{"first two cell pointers swapped", func(pg []byte, hoff int) {
			if pg[hoff] != pageTableLeaf && pg[hoff] != pageIndexLeaf && pg[hoff] != pageTableInterior && pg[hoff] != pageIndexInterior {
				return
			}
			h := 8
			if pg[hoff] == pageTableInterior || pg[hoff] == pageIndexInterior {
				h = 12
			}
			if binary.BigEndian.Uint16(pg[hoff+3:]) < 2 {
				return
			}
			a, b := pg[hoff+h:hoff+h+2], pg[hoff+h+2:hoff+h+4]
			x, y := binary.BigEndian.Uint16(a), binary.BigEndian.Uint16(b)
			binary.BigEndian.PutUint16(a, y)
			binary.BigEndian.PutUint16(b, x)
		}},
		{"page zeroed after its header", func(pg []byte, hoff int) { clear(pg[hoff+12:]) }},
	}
	surveyFirst.Store(true)
	want := wholeRead(t, healthy, folderOf(t, healthy, meta))
	surveyFirst.Store(false)
	if got := wholeRead(t, healthy, folderOf(t, healthy, meta)); got != want {
		t.Fatalf("the healthy file reads differently with the survey beside the read")
	}
	if strings.Contains(want, "rescued") || strings.Count(want, "\n") != 1001 {
		t.Fatalf("the healthy file reads as damaged, or not every row:\n%.300s", want)
	}
	rescued := 0
	leaves := 0
	for n := 1; n*ps <= len(healthy); n++ {
		switch healthy[(n-1)*ps+headerOffset(uint32(n))] {
		case pageTableLeaf:
			// The messages table's leaves are most of the pages, and
			// alike: one in eight.
			if leaves++; leaves%8 != 1 {
				continue
			}
		case pageTableInterior, pageIndexLeaf, pageIndexInterior:
		default:
			continue // an overflow or free page: no structure to damage
		}
		for _, d := range damages {
			data := bytes.Clone(healthy)
			d.damage(data[(n-1)*ps:n*ps], headerOffset(uint32(n)))
			if bytes.Equal(data, healthy) {
				continue
			}
			surveyFirst.Store(true)
			first := wholeRead(t, data, folderOf(t, data, meta))
			surveyFirst.Store(false)
			beside := wholeRead(t, data, folderOf(t, data, meta))
			if first != beside {
				t.Errorf("page %d, %s: the read with the survey beside it gives\n%.400s\nwith the survey first\n%.400s", n, d.name, diffFrom(beside, first), diffFrom(first, beside))
			}
			if strings.Contains(first, "rescued") {
				rescued++
			}
		}
	}
	if rescued == 0 {
		t.Errorf("no damaged copy was rescued: the damage is not what the survey finds")
	}
	t.Logf("%d damaged copies rescued", rescued)
}

// diffFrom returns a from the first line where it differs from b.
func diffFrom(a, b string) string {
	la, lb := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	for i := range la {
		if i >= len(lb) || la[i] != lb[i] {
			return fmt.Sprintf("(line %d) %s", i+1, strings.Join(la[i:], ""))
		}
	}
	return "(the same lines, fewer)"
}
