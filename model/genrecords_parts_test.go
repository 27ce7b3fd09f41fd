package model

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/ros1"
)

// TestFileRecordsOfSeveralFiles: in a recording of several files (here two
// recordings combined, as File › Add Recording… makes them) the records of
// the second file have joined offsets (bag.JoinPart), past the first
// file's size. The list's reader reads each record's bytes from its own
// file, equal to the file's bytes at the record's own offset, and
// OffsetText names the file. The Records tab's hex view showed "0 bytes"
// for them: the reader stopped at the first file's size.
func TestFileRecordsOfSeveralFiles(t *testing.T) {
	files := []string{"../testdata/tf.bag", topicsMCAP}
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		a, b := files[order[0]], files[order[1]]
		t.Run(strings.ReplaceAll(a+"+"+b, "/", "_"), func(t *testing.T) {
			sa, sb := openStorage(t, a), openStorage(t, b)
			m, err := bag.Combine([]bag.Member{{Storage: sa}, {Storage: sb, Prefix: "B:", Offset: 123}})
			if err != nil {
				t.Fatal(err)
			}
			l := Lister(m)
			if l == nil {
				t.Fatal("a combination is not a RecordLister")
			}
			x, err := BuildFileRecords(context.Background(), l, sa.FileInfo().Size, nil)
			if err != nil {
				t.Fatal(err)
			}
			own := map[int][]byte{}
			for p, path := range []string{a, b} {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				own[p] = data
			}
			seen := map[int]int{}
			for i := range x.Len() {
				r := x.Record(i)
				p, off := bag.SplitPart(r.Offset)
				seen[p]++
				got := make([]byte, r.Len)
				n, err := x.ReaderAt().ReadAt(got, r.Offset)
				if n != len(got) || (err != nil && err != io.EOF) {
					t.Fatalf("record %d (%s at %s): read %d of %d bytes: %v", i, r.Kind, OffsetText(r.Offset), n, len(got), err)
				}
				if want := own[p][off : off+r.Len]; string(got) != string(want) {
					t.Fatalf("record %d (%s at %s): bytes differ from file %d's at %d", i, r.Kind, OffsetText(r.Offset), p+1, off)
				}
				text := OffsetText(r.Offset)
				if p > 0 && !strings.HasSuffix(text, " of file 2") || p == 0 && strings.Contains(text, "file") {
					t.Errorf("OffsetText(%d) = %q (file %d, byte %d)", r.Offset, text, p+1, off)
				}
			}
			if seen[0] == 0 || seen[1] == 0 {
				t.Errorf("records per file %v: want both files listed", seen)
			}
		})
	}
}
