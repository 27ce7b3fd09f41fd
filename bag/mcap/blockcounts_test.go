package mcap

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	lib "github.com/foxglove/mcap/go/mcap"
)

// TestBlockIndexCountsCountBlockIndex checks that BlockIndexCounts (what
// verify counts beside its read) returns, block by block, the entries
// BlockIndex lists counted per channel and the same error: on every shared
// MCAP file and on a generated one whole and with bytes of its message
// index records changed (lengths, channels, entry offsets), so that both
// the walk's checks and BlockIndex's fallback to the chunk's records are
// met. Each block is counted by a reader whose Blocks has counted every
// chunk (the counts taken from it) and by one that has not (the records
// read).
func TestBlockIndexCountsCountBlockIndex(t *testing.T) {
	files := map[string][]byte{}
	for _, p := range sharedMCAPs(t) {
		files[filepath.Base(p)] = readFile(t, p)
	}
	data, _ := genMCAP(t, variant{name: "zstd", compression: lib.CompressionZSTD, chunked: true}, 3000, 4096)
	files["generated"] = data
	x := openBytes(t, data)
	if len(x.chunks) < 10 {
		t.Fatalf("%d chunks; the test needs 10", len(x.chunks))
	}
	// Damage: in every third chunk's message index records, one byte of
	// the record length, the channel, the entries' length or an entry's
	// offset (its high bytes: past the chunk).
	for i, c := range x.chunks {
		if i%3 != 0 {
			continue
		}
		for id, o := range c.MsgIdx {
			for _, at := range []int64{1, 3, 9, 11, 15 + 8 + 5} {
				d := append([]byte(nil), data...)
				d[int64(o)+at] ^= 0x41
				files[fmt.Sprintf("chunk %d channel %d byte %d", i, id, at)] = d
			}
			break
		}
	}
	failed, compared := 0, 0
	for name, d := range files {
		r, err := NewReader(bytes.NewReader(d), int64(len(d)), "")
		if err != nil {
			continue
		}
		fresh, err := NewReader(bytes.NewReader(d), int64(len(d)), "")
		if err != nil {
			t.Fatalf("%s: opened once, not twice: %v", name, err)
		}
		for _, b := range r.Blocks() {
			ents, werr := r.BlockIndex(b)
			want := map[uint32]uint64{}
			for _, e := range ents {
				want[e.Conn]++
			}
			got, gerr := r.BlockIndexCounts(b)
			compared++
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || !maps.Equal(got, want) {
				t.Errorf("%s: block at %d: BlockIndexCounts %v, %v; BlockIndex counted %v, %v", name, b.Offset, got, gerr, want, werr)
			}
			got, gerr = fresh.BlockIndexCounts(b)
			if fresh.counted.Load() {
				t.Fatalf("%s: BlockIndexCounts counted every chunk", name)
			}
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || !maps.Equal(got, want) {
				t.Errorf("%s: block at %d, Blocks not called: BlockIndexCounts %v, %v; BlockIndex counted %v, %v", name, b.Offset, got, gerr, want, werr)
			}
			if c := r.chunkAt(b.Offset); c == nil || r.walkMessageIndex(c, func(uint16, []byte) bool { return true }) != nil {
				failed++ // BlockIndex's fallback: the chunk's own records
			}
		}
		r.Close()
		fresh.Close()
	}
	if failed == 0 || compared < 20 {
		t.Errorf("%d blocks compared, %d of them with message index records that do not read: the damage must make some", compared, failed)
	}
}
