package ros1

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func checkBytes(t *testing.T, data []byte) *CheckReport {
	t.Helper()
	rep, err := Check(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCheckCleanBags runs the doctor on every real, well-formed bag: no
// errors. Without -long, one in sweepSample of the undamaged shared bags
// (sampledROS1Bags).
func TestCheckCleanBags(t *testing.T) {
	for _, p := range sampledROS1Bags(t, sweepSample, "the shared bags not named as damaged") {
		if strings.Contains(p, "Tiryoh") && (strings.Contains(p, "truncated") || strings.Contains(p, "unindexed")) || strings.Contains(p, "empty-file") {
			continue
		}
		t.Run(shortName(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rep := checkBytes(t, data)
			for _, f := range rep.Findings {
				if f.Severity == Error {
					t.Errorf("error at %d: %s", f.Offset, f.Message)
				}
			}
			b, _ := Open(p)
			s, _ := b.Summary()
			if rep.Messages != s.Messages {
				t.Errorf("check counted %d messages, the index %d", rep.Messages, s.Messages)
			}
		})
	}
}

// TestCheckFindsDamage damages a bag in one place at a time and checks
// that the doctor names the problem at the right offset.
func TestCheckFindsDamage(t *testing.T) {
	orig, err := os.ReadFile("../../testdata/lz4-multichunk.bag")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open("../../testdata/lz4-multichunk.bag")
	if err != nil {
		t.Fatal(err)
	}
	ci := b.ChunkInfos[3]
	ch, _ := b.ChunkHeader(ci)
	idx, _ := b.ChunkIndex(ci)
	conn := b.Connections[0]
	b.Close()
	put32 := func(c []byte, off int64, v uint32) { binary.LittleEndian.PutUint32(c[off:], v) }
	fieldOff := func(r Record, name string) int64 {
		for _, f := range r.Header {
			if f.Name == name {
				return r.HeaderOffset + int64(f.Offset) + 4 + int64(len(name)) + 1
			}
		}
		t.Fatalf("no field %s", name)
		return 0
	}
	tests := []struct {
		name   string
		mutate func(c []byte) []byte
		sev    Severity
		offset int64
		text   string
	}{
		{"index entry time", func(c []byte) []byte {
			c[idx[0].DataOffset] ^= 1
			return c
		}, Error, idx[0].Offset, "points at"},
		{"index data count", func(c []byte) []byte {
			// A count that no longer matches the chunk (the record is then
			// unreadable, so the scan falls back to walking the chunk).
			put32(c, fieldOff(idx[0].Record, "count"), idx[0].Count+1)
			return c
		}, Warning, idx[0].Offset, "index data record cannot be read"},
		{"chunk info start time", func(c []byte) []byte {
			put32(c, fieldOff(ci.Record, "start_time"), ci.Start.Sec-1)
			return c
		}, Error, ci.Offset, "chunk info says"},
		{"chunk info connection count", func(c []byte) []byte {
			put32(c, ci.DataOffset+4, ci.Conns[0].Count+2)
			return c
		}, Error, ci.Offset, "messages of connection"},
		{"chunk info position", func(c []byte) []byte {
			binary.LittleEndian.PutUint64(c[fieldOff(ci.Record, "chunk_pos"):], uint64(ch.Offset+1))
			return c
		}, Error, ci.Offset, "where there is no chunk record"},
		{"lz4 content checksum", func(c []byte) []byte {
			c[ch.End()-1] ^= 0xff
			return c
		}, Error, ch.Offset, "checksum"},
		{"bag header connection count", func(c []byte) []byte {
			put32(c, 13+4+4+3+1+4+int64(len("index_pos="))+8+4+int64(len("conn_count=")), 99)
			return c
		}, Error, 17, "bag header says 99 connections"},
		{"md5sum", func(c []byte) []byte {
			i := bytes.Index(c[conn.DataOffset:], []byte(conn.MD5Sum))
			c[conn.DataOffset+int64(i)] ^= 1
			return c
		}, Warning, conn.Offset, "md5"},
		{"zero padding", func(c []byte) []byte {
			return append(append(bytes.Clone(c[:ch.Offset]), make([]byte, 49)...), c[ch.Offset:]...)
		}, Warning, ch.Offset, "49 bytes of zero padding"},
		{"truncated", func(c []byte) []byte {
			return c[:len(c)-30]
		}, Error, -1, "truncated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := checkBytes(t, tc.mutate(bytes.Clone(orig)))
			for _, f := range rep.Findings {
				if f.Severity == tc.sev && (tc.offset < 0 || f.Offset == tc.offset) && strings.Contains(f.Message, tc.text) {
					return
				}
			}
			t.Fatalf("no %s at %d containing %q; findings:\n%s", tc.sev, tc.offset, tc.text, findingsText(rep))
		})
	}
}

func findingsText(r *CheckReport) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s @%d (%s): %s\n", f.Severity, f.Offset, f.Op, f.Message)
	}
	return b.String()
}

// TestCheckContext checks the progress of a check (rising to the chunks'
// total data length, which it must equal) and that a cancelled check stops
// with the context's error.
func TestCheckContext(t *testing.T) {
	const path = "../../testdata/bz2-multichunk.bag"
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var want int64
	for _, ci := range b.ChunkInfos {
		ch, err := b.ChunkAt(ci.ChunkPos)
		if err != nil {
			t.Fatal(err)
		}
		want += int64(ch.DataLen)
	}
	if len(b.ChunkInfos) < 3 {
		t.Fatalf("%d chunks; the test needs several", len(b.ChunkInfos))
	}

	var calls int
	var last, total int64
	rep, err := CheckContext(context.Background(), f, st.Size(), func(done, tot int64) {
		if done < last || tot != want {
			t.Errorf("progress %d of %d after %d (chunk data: %d bytes)", done, tot, last, want)
		}
		calls++
		last, total = done, tot
	})
	if err != nil || rep.Errors() != 0 {
		t.Fatalf("check: %v, %d errors", err, rep.Errors())
	}
	if last != total || calls <= len(b.ChunkInfos) {
		t.Errorf("progress ended at %d of %d after %d calls for %d chunks", last, total, calls, len(b.ChunkInfos))
	}

	// Cancelled after the second chunk.
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	_, err = CheckContext(ctx, f, st.Size(), func(done, tot int64) {
		if seen++; seen == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || seen != 2 {
		t.Errorf("cancelled check: %v after %d progress calls", err, seen)
	}
}
