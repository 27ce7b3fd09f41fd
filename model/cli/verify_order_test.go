package cli

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
)

// tiedProblems damages a copy of a multi-chunk bag so that two problems,
// found while checking two chunks (on two goroutines), fall at one
// place, the start of chunk d: chunk c's chunk info lists one connection
// more than index data records follow it (so its index runs into chunk d,
// "expected an index data record"), and an index entry of chunk d points
// at offset 0 of its data.
func tiedProblems(t *testing.T, src string, c, d int) []byte {
	t.Helper()
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ci, di := b.ChunkInfos[c], b.ChunkInfos[d]
	idx, err := b.ChunkIndex(di)
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Clone(orig)
	// An entry of chunk d that is not at offset 0, pointed at 0.
	done := false
	for _, x := range idx {
		for k, e := range x.Entries {
			if e.Offset != 0 && !done {
				binary.LittleEndian.PutUint32(out[x.DataOffset+int64(12*k)+8:], 0)
				done = true
			}
		}
	}
	if !done {
		t.Fatal("no index entry to move")
	}
	// Chunk c's chunk info record, with one (connection, count) more.
	hdr := bytes.Clone(out[ci.HeaderOffset : ci.HeaderOffset+int64(ci.HeaderLen)])
	at := bytes.Index(hdr, []byte("count="))
	if at < 0 {
		t.Fatal("no count field in the chunk info header")
	}
	binary.LittleEndian.PutUint32(hdr[at+6:], ci.Count+1)
	data := bytes.Clone(out[ci.DataOffset : ci.DataOffset+int64(ci.DataLen)])
	data = binary.LittleEndian.AppendUint32(data, ci.Conns[0].Conn)
	data = binary.LittleEndian.AppendUint32(data, 1)
	var rec []byte
	rec = binary.LittleEndian.AppendUint32(rec, uint32(len(hdr)))
	rec = append(rec, hdr...)
	rec = binary.LittleEndian.AppendUint32(rec, uint32(len(data)))
	rec = append(rec, data...)
	return append(append(out[:ci.Offset:ci.Offset], rec...), out[ci.Pos.End():]...)
}

// TestVerifySaysTiedProblemsInOneOrder: chunks are checked on several
// goroutines, so two problems at one place, found in two chunks, came in
// the order the goroutines finished. Run after run verify must say the
// same, and problems at one place go by their words.
func TestVerifySaysTiedProblemsInOneOrder(t *testing.T) {
	cases := []struct {
		file string
		c, d int
	}{
		{"none-multichunk.bag", 2, 3},
		{"none-multichunk.bag", 0, 1},
		{"lz4-multichunk.bag", 1, 2},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s chunks %d,%d", tc.file, tc.c, tc.d), func(t *testing.T) {
			src := testdata + "/" + tc.file
			bad := tiedProblems(t, src, tc.c, tc.d)
			b, err := ros1.Open(src)
			if err != nil {
				t.Fatal(err)
			}
			at := b.ChunkInfos[tc.d].ChunkPos
			b.Close()
			p := filepath.Join(t.TempDir(), "damaged.bag")
			if err := os.WriteFile(p, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			// Both at the start of chunk d: "offset 0 in chunk at D" goes
			// before "offset D (chunk record)".
			want := []string{fmt.Sprintf("offset 0 in chunk at %d (", at), fmt.Sprintf("offset %d (chunk record): expected an index data record", at)}
			var first string
			for n := range 20 {
				_, stderr, _ := run("verify", p)
				if n > 0 {
					if stderr != first {
						t.Fatalf("run %d says\n%s\nthe first run said\n%s", n, stderr, first)
					}
					continue
				}
				first = stderr
				i, j := strings.Index(stderr, want[0]), strings.Index(stderr, want[1])
				if i < 0 || j < 0 || i > j {
					t.Fatalf("want %q then %q in:\n%s", want[0], want[1], stderr)
				}
			}
		})
	}
}
