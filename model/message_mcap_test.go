package model

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/msgref"
)

// sharedMCAPs returns every .mcap under the shared bags.
func sharedMCAPs(t *testing.T) []string {
	t.Helper()
	var paths []string
	filepath.WalkDir(sharedBags, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, ".mcap") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		reftest.SkipOrFail(t, "no .mcap under "+sharedBags)
	}
	return paths
}

// TestReadMessageMCAP reads every message of every shared MCAP by the
// location its message index gives and checks it against the iterator's:
// the same bytes, placed in its record (a chunk's uncompressed data or the
// record alone) with the record's fields as spans before the data, and the
// spans covering the record without gaps once decoded.
func TestReadMessageMCAP(t *testing.T) {
	for _, p := range sharedMCAPs(t) {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			want := map[msgref.Loc][]byte{}
			it := d.Storage.Messages(bag.MessageFilter{})
			for it.Next() {
				m := it.Message()
				want[msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}] = bytes.Clone(m.Data)
			}
			it.Close()
			x, err := BuildMessageIndex(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := NewMessageReader(d.Storage, nil)
			placed := 0
			for _, tm := range x.Topics {
				for _, ref := range tm.All() {
					m, err := r.Read(ref)
					if err != nil {
						t.Fatalf("%+v: %v", ref, err)
					}
					if w, ok := want[ref.Loc]; !ok || !bytes.Equal(m.Data, w) {
						t.Fatalf("%+v: read %d bytes, the iterator gave %d (found %v)", ref, len(m.Data), len(w), ok)
					}
					if !bytes.Equal(m.Context[m.DataOffset:m.DataOffset+int64(len(m.Data))], m.Data) {
						t.Fatalf("%+v: Data is not the context's bytes at DataOffset", ref)
					}
					if len(m.Header) > 1 {
						placed++
						root, _, err := r.Decode(m)
						if err != nil {
							continue // undecodable encodings: the spans are the record's alone
						}
						at := m.RecordStart
						for _, s := range MessageSpans(m, root) {
							if s.Start != at || s.End <= s.Start {
								t.Fatalf("%+v: span %v starts at %d, want %d", ref, s, s.Start, at)
							}
							at = s.End
						}
						if at > m.RecordEnd {
							t.Fatalf("%+v: spans end at %d, past the record's end %d", ref, at, m.RecordEnd)
						}
					}
				}
			}
			if placed == 0 && x.Count() > 0 && !strings.Contains(p, "soccer_goal") {
				t.Errorf("none of %d messages was placed in its record", x.Count())
			}
		})
	}
}
