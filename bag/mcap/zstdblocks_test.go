package mcap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand"
	"os"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/klauspost/compress/zstd"
)

// streamDecode decodes a zstd stream with the library's stream decoder,
// as far as it goes: what it yields and the error it stops with.
func streamDecode(t *testing.T, src []byte) ([]byte, error) {
	t.Helper()
	z, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	out, err := io.ReadAll(z)
	return out, err
}

// TestZstdUnitAtMatchesTheDecoder: the units zstdUnitAt finds in a stream
// of two frames (several blocks each, with content checksums) and a
// skippable frame are where the library's own decoder says they are: cut
// at a block's end, the stream yields one block more than cut a byte
// before it (a frame's last block comes out only with the frame's
// checksum, and is one unit with it). The first block's size is the one
// zstd.Header reads.
func TestZstdUnitAtMatchesTheDecoder(t *testing.T) {
	r := rand.New(rand.NewSource(22))
	plain := make([]byte, 700<<10)
	for i := range plain {
		// Compressible, not trivially: a few symbols, runs of repeats.
		plain[i] = byte(r.Intn(6)) + 'a'
		if i > 64 && r.Intn(3) == 0 {
			plain[i] = plain[i-64]
		}
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	frame1 := enc.EncodeAll(plain[:400<<10], nil)
	frame2 := enc.EncodeAll(plain[400<<10:], nil)
	skippable := binary.LittleEndian.AppendUint32(nil, zstdSkippableMagic+3)
	skippable = binary.LittleEndian.AppendUint32(skippable, 5)
	skippable = append(skippable, "hello"...)
	src := append(append(append([]byte(nil), frame1...), skippable...), frame2...)

	var h zstd.Header
	if err := h.Decode(src); err != nil || !h.FirstBlock.OK {
		t.Fatalf("the library reads no first block: %v", err)
	}
	type unit struct{ start, end int }
	var units []unit
	for at := 0; at < len(src); {
		s, e := zstdUnitAt(src, at)
		if s != at || e <= s {
			t.Fatalf("the unit at %d is [%d, %d)", at, s, e)
		}
		// Every byte of the unit is placed in it.
		if s2, e2 := zstdUnitAt(src, e-1); s2 != s || e2 != e {
			t.Fatalf("byte %d is placed in [%d, %d), not [%d, %d)", e-1, s2, e2, s, e)
		}
		units = append(units, unit{s, e})
		at = e
	}
	if s, e := zstdUnitAt(src, len(src)); s != len(src) || e != len(src) {
		t.Errorf("past the end: [%d, %d)", s, e)
	}
	if got := units[1].end - units[1].start - zstdBlockHeaderLen; got != h.FirstBlock.CompressedSize {
		t.Errorf("the first block holds %d bytes, zstd.Header says %d", got, h.FirstBlock.CompressedSize)
	}
	blocks := 0
	for i, u := range units {
		if u.start == len(frame1) {
			if u.end-u.start != len(skippable) {
				t.Errorf("the skippable frame is [%d, %d)", u.start, u.end)
			}
			continue
		}
		whole, werr := streamDecode(t, src[:u.end])
		less, _ := streamDecode(t, src[:u.end-1])
		switch {
		case i == 0 || u.start == len(frame1)+len(skippable):
			// A frame header yields nothing.
		case u.end == len(frame1) || u.end == len(src):
			// A frame's last block with its checksum: the frame is whole.
			if werr != nil {
				t.Errorf("cut after the frame's end at %d: %v", u.end, werr)
			}
			fallthrough
		default:
			blocks++
			if len(whole) <= len(less) {
				t.Errorf("unit [%d, %d): cut at its end the stream yields %d bytes, a byte before %d", u.start, u.end, len(whole), len(less))
			}
			if !bytes.Equal(whole, plain[:len(whole)]) {
				t.Errorf("unit [%d, %d): the prefix decodes to other bytes", u.start, u.end)
			}
		}
	}
	if blocks < 6 {
		t.Errorf("%d blocks found; the stream holds at least 6 (700 KiB in 128 KiB blocks)", blocks)
	}
}

// chunkRecords returns the file offsets of a chunk record's compressed
// records, read by the specification (op, length, start, end,
// uncompressed size and CRC, compression string, records length).
func chunkRecords(data []byte, off int64) (from, to int64) {
	p := off + 1 + 8 + 8 + 8 + 8 + 4
	n := int64(binary.LittleEndian.Uint32(data[p:]))
	p += 4 + n
	l := int64(binary.LittleEndian.Uint64(data[p:]))
	return p + 8, p + 8 + l
}

// messagesIn counts the whole message records in a chunk's decompressed
// records (a record cut by their end is not counted).
func messagesIn(recs []byte) uint64 {
	var n uint64
	for p := 0; len(recs)-p >= recHeaderLen; {
		l := binary.LittleEndian.Uint64(recs[p+1:])
		if l > uint64(len(recs)-p-recHeaderLen) {
			break
		}
		if Op(recs[p]) == OpMessage {
			n++
		}
		p += recHeaderLen + int(l)
	}
	return n
}

// TestDamagedZstdChunkSaysWhereTheReadStopped: a 1 MiB zstd chunk (as
// rosbag2 writes them) overwritten nine tenths of the way in yields the
// messages of its blocks before the damage. The lost range says which
// bytes yielded them (Readable) and the bytes from there on are the
// unreadable ones, both when the file is read through its index and when
// it is scanned. The library's stream decoder is the oracle: the chunk's
// compressed records cut where the range says the read stopped yield
// exactly what the whole damaged stream yields, holding exactly the
// messages the range says were recovered, and the damage lies past that
// point.
func TestDamagedZstdChunkSaysWhereTheReadStopped(t *testing.T) {
	b, err := ros1.OpenOrScan(sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	var out bytes.Buffer
	_, err = Write(&out, ros1.NewStore(b), WriteOptions{Compression: "zstd", ChunkSize: 1 << 20})
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	intact := out.Bytes()
	blocks := openBytes(t, intact).Blocks()
	if len(blocks) < 2 {
		t.Fatalf("%d chunks", len(blocks))
	}
	c := blocks[0]
	recsFrom, recsTo := chunkRecords(intact, c.Offset)
	damaged := append([]byte(nil), intact...)
	at := c.Offset + c.Len*9/10
	for i := at; i < at+256; i++ {
		damaged[i] = 0xff
	}
	yield, _ := streamDecode(t, damaged[recsFrom:recsTo])

	scanned := append([]byte(nil), damaged...)
	copy(scanned[len(scanned)-40:], make([]byte, 40)) // no footer: the file is scanned

	for _, tc := range []struct {
		name string
		data []byte
		lost func(x *Reader) []bag.ByteRange
	}{
		{"read through the index", damaged, func(x *Reader) []bag.ByteRange {
			it := x.Messages(bag.MessageFilter{})
			for it.Next() {
			}
			defer it.Close()
			return bag.IterSkipped(it)
		}},
		{"scanned", scanned, func(x *Reader) []bag.ByteRange {
			if x.FileInfo().Scanned == nil {
				t.Fatal("the file was not scanned")
			}
			return x.FileInfo().Scanned.Skipped
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r *bag.ByteRange
			lost := tc.lost(openBytes(t, tc.data))
			for i := range lost {
				if lost[i].Start == c.Offset {
					r = &lost[i]
				}
			}
			if r == nil {
				t.Fatalf("no lost range at the chunk %d: %+v", c.Offset, lost)
			}
			from := r.Start + r.Readable
			if r.Readable <= 0 || from <= recsFrom || from > at {
				t.Fatalf("the read stopped at %d (Readable %d); the records start at %d, the damage at %d", from, r.Readable, recsFrom, at)
			}
			prefix, perr := streamDecode(t, damaged[recsFrom:from])
			if !errors.Is(perr, io.ErrUnexpectedEOF) {
				t.Errorf("the records cut at %d: %v, want a stream cut between blocks", from, perr)
			}
			if !bytes.Equal(prefix, yield) {
				t.Errorf("the bytes before %d yield %d bytes, the whole damaged stream %d", from, len(prefix), len(yield))
			}
			if n := messagesIn(prefix); n != r.Recovered || n == 0 {
				t.Errorf("%d messages recovered; the bytes before %d hold %d", r.Recovered, from, n)
			}
			if !bytes.Contains([]byte(r.Why), []byte("zstd block at file offsets")) {
				t.Errorf("the reason does not name the failing block: %s", r.Why)
			}
			lr := bag.LostRange{ByteRange: *r}
			if u := lr.Unreadable(); u != r.End-from {
				t.Errorf("%d bytes unreadable, want the %d from %d to the chunk's end", u, r.End-from, from)
			}
		})
	}
}

// TestZstdChunkOfNonsenseSaysWhereTheReadStopped: a flipped bit in a zstd
// chunk (testdata/ros2-mixed.mcap at byte 200,000) decompresses without
// error into records that stop making sense, and the chunk's CRC fails.
// The records read before that point are kept, suspect; the lost range
// says they came from the bytes before the end of the zstd block whose
// output stops making sense, and that the bytes after it yielded nothing.
// The library's decoder is the oracle: cut there, the chunk's stream ends
// between blocks, yields the records recovered, and differs from the
// intact copy's output inside it (so the records recovered are rightly
// suspect).
func TestZstdChunkOfNonsenseSaysWhereTheReadStopped(t *testing.T) {
	intact, err := os.ReadFile("../../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	const flip = 200000
	damaged := append([]byte(nil), intact...)
	damaged[flip] ^= 0xff
	c := openBytes(t, intact).Blocks()[0]
	recsFrom, recsTo := chunkRecords(intact, c.Offset)
	if flip < recsFrom || flip >= recsTo {
		t.Fatalf("byte %d is not in the first chunk's records [%d, %d)", flip, recsFrom, recsTo)
	}
	x := openBytes(t, damaged)
	it := x.Messages(bag.MessageFilter{})
	suspect := 0
	for it.Next() {
		if it.Message().Suspect != "" {
			suspect++
		}
	}
	lost := bag.IterSkipped(it)
	it.Close()
	var r *bag.ByteRange
	for i := range lost {
		if lost[i].Start == c.Offset {
			r = &lost[i]
		}
	}
	if r == nil {
		t.Fatalf("no lost range at the chunk %d: %+v", c.Offset, lost)
	}
	from := r.Start + r.Readable
	if r.Readable <= 0 || from <= flip || from >= c.Offset+c.Len {
		t.Fatalf("the read stopped at %d (Readable %d); the flipped byte is %d, the chunk ends at %d", from, r.Readable, flip, c.Offset+c.Len)
	}
	whole, _ := streamDecode(t, intact[recsFrom:recsTo])
	prefix, perr := streamDecode(t, damaged[recsFrom:from])
	if !errors.Is(perr, io.ErrUnexpectedEOF) {
		t.Errorf("the records cut at %d: %v, want a stream cut between blocks", from, perr)
	}
	if bytes.Equal(prefix, whole[:min(len(prefix), len(whole))]) {
		t.Error("the bytes the records were read from decompress as the intact copy's: the flip is not in them")
	}
	if n := messagesIn(prefix); r.Recovered == 0 || r.Recovered > n || uint64(suspect) != r.Recovered {
		t.Errorf("%d messages recovered (%d read suspect); the bytes before %d hold %d records", r.Recovered, suspect, from, n)
	}
	if !bytes.Contains([]byte(r.Why), []byte("decompresses to records that make no sense")) {
		t.Errorf("the reason does not name the block: %s", r.Why)
	}
	if u := (bag.LostRange{ByteRange: *r}).Unreadable(); u != r.End-from {
		t.Errorf("%d bytes unreadable, want the %d from %d to the chunk's end", u, r.End-from, from)
	}
}
