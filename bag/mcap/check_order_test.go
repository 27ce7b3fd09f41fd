package mcap

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

// TestCheckSaysTheSameEveryRun: the doctor's check of each chunk index
// against its message index records gives a finding per channel at the
// chunk index's offset. Run after run they must be the same findings in
// the same order: by offset, then channel.
func TestCheckSaysTheSameEveryRun(t *testing.T) {
	type fixture struct {
		name string
		data []byte
	}
	var fixtures []fixture
	for _, v := range []variant{{name: "zstd", compression: lib.CompressionZSTD, chunked: true}, {name: "lz4", compression: lib.CompressionLZ4, chunked: true}} {
		data, _ := genMCAP(t, v, 300, 1024)
		fixtures = append(fixtures, fixture{"generated " + v.name, data})
	}
	// A real recording with three channels or more in a chunk.
	for _, p := range sharedMCAPs(t) {
		data := readFile(t, p)
		r, err := NewReader(bytesReader(data), int64(len(data)), p)
		if err != nil || r.info.Scanned != nil {
			continue
		}
		if slices.ContainsFunc(r.chunks, func(c *chunk) bool { return c.IndexAt > 0 && len(c.MsgIdx) >= 3 }) {
			fixtures = append(fixtures, fixture{p[strings.LastIndex(p, "/")+1:], data})
			break
		}
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			data := slices.Clone(fx.data)
			// In the first chunk index with three channels or more, every
			// channel is renamed (so each is named where there is no
			// record, and each record is left out); in the others, every
			// message index offset is one off.
			renamed := false
			for _, c := range openBytes(t, fx.data).chunks {
				if c.IndexAt == 0 || len(c.MsgIdx) < 2 {
					continue
				}
				p := c.IndexAt + recHeaderLen + 32
				n := int64(binary.LittleEndian.Uint32(data[p:]))
				rename := !renamed && len(c.MsgIdx) >= 3
				renamed = renamed || rename
				for e := p + 4; e+10 <= p+4+n; e += 10 {
					if rename {
						binary.LittleEndian.PutUint16(data[e:], 200+binary.LittleEndian.Uint16(data[e:]))
					} else {
						binary.LittleEndian.PutUint64(data[e+2:], binary.LittleEndian.Uint64(data[e+2:])+1)
					}
				}
			}
			if !renamed {
				t.Fatal("no chunk index with three channels")
			}
			var first []bag.Finding
			for run := range 20 {
				rep, err := openBytes(t, data).Check(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				if run > 0 {
					if !slices.Equal(rep.Findings, first) {
						t.Fatalf("run %d says\n%s\nthe first run said\n%s", run, findingsList(rep.Findings), findingsList(first))
					}
					continue
				}
				first = rep.Findings
				for _, w := range []string{"message_index_offsets names", "message_index_offsets leaves out channel"} {
					at := map[int64]int{}
					for _, f := range first {
						if strings.Contains(f.Message, w) {
							at[f.Offset]++
						}
					}
					if slices.Max(append(slices.Collect(maps.Values(at)), 0)) < 3 {
						t.Fatalf("want 3 findings %q at one offset, got %v in:\n%s", w, at, findingsList(first))
					}
				}
				if !slices.IsSortedFunc(first, func(a, b bag.Finding) int { return int(a.Offset - b.Offset) }) {
					t.Fatalf("findings not in offset order:\n%s", findingsList(first))
				}
			}
		})
	}
}

func findingsList(fs []bag.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %d %v: %s\n", f.Offset, f.Severity, f.Message)
	}
	return b.String()
}

// TestCheckUndefinedChannelInPlainChunk: a chunk of message records only
// is checked from the list its worker made (checkJob.plain); a message on
// a channel no record defines is found there as in a walk.
func TestCheckUndefinedChannelInPlainChunk(t *testing.T) {
	data, _ := genMCAP(t, variant{name: "none", compression: lib.CompressionNone, chunked: true}, 300, 1024)
	r := openBytes(t, data)
	if len(r.chunks) < 3 {
		t.Fatalf("%d chunks", len(r.chunks))
	}
	// The first chunk holds the schemas and channels; the second only
	// messages. Its records start after its times, sizes, CRC, an empty
	// compression name and the records' length.
	c := r.chunks[1]
	recs := c.Offset + recHeaderLen + 8 + 8 + 8 + 4 + 4 + 8
	if Op(data[recs]) != OpMessage {
		t.Fatalf("chunk at %d starts with op %d", c.Offset, data[recs])
	}
	binary.LittleEndian.PutUint16(data[recs+recHeaderLen:], 77)
	n := int64(binary.LittleEndian.Uint64(data[recs-8:]))
	binary.LittleEndian.PutUint32(data[c.Offset+recHeaderLen+24:], crc32.ChecksumIEEE(data[recs:recs+n]))
	rep, err := openBytes(t, data).Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "message at 0 in the chunk is on channel 77, which no channel record before it defines"
	var found []string
	for _, f := range rep.Findings {
		if f.Offset == c.Offset {
			found = append(found, f.Message)
		}
	}
	if !slices.Contains(found, want) {
		t.Errorf("the chunk at %d: %q, want %q", c.Offset, found, want)
	}
}
