package mcap

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// vouchRead is how a test reads the messages before the doctor: through
// the time-ordered iterator or the visitor, of every topic or of one.
type vouchRead struct {
	visit bool
	topic string
}

func (v vouchRead) String() string {
	how := "iter"
	if v.visit {
		how = "visit"
	}
	if v.topic == "" {
		return how + " all"
	}
	return how + " " + v.topic
}

// vouchReports runs the doctor on data twice: on a reader nothing was read
// through, checking every chunk record by record (fullCheck: no vouch of a
// read or of its own workers), and on one whose messages were read first
// (as rd says) with VouchReads asked, so that the doctor takes the read's
// vouches and its workers'. It returns
// both reports, how many chunks the read vouched for, and the bytes each
// doctor read; ok is false when the file does not open.
func vouchReports(t *testing.T, data []byte, rd vouchRead) (plain, vouched *bag.CheckReport, n int, plainBytes, vouchedBytes int64, ok bool) {
	t.Helper()
	ctx := context.Background()
	open := func() (*Reader, *countingReader) {
		cr := &countingReader{r: bytes.NewReader(data)}
		x, err := NewReader(cr, int64(len(data)), "")
		if err != nil {
			return nil, nil
		}
		return x, cr
	}
	x, cr := open()
	if x == nil {
		return nil, nil, 0, 0, 0, false
	}
	x.fullCheck = true
	before := cr.n.Load()
	plain, perr := x.Check(ctx, nil)
	plainBytes = cr.n.Load() - before
	x, cr = open()
	x.VouchReads()
	var f bag.MessageFilter
	if rd.topic != "" {
		f.Topics = []string{rd.topic}
	}
	if rd.visit {
		if _, err := x.VisitMessagesSkipped(ctx, f, func(*bag.Message) {}); err != nil {
			t.Fatalf("visit: %v", err)
		}
	} else {
		it := x.Messages(f)
		for it.Next() {
		}
		it.Close()
	}
	n = len(x.taken())
	before = cr.n.Load()
	vouched, verr := x.Check(ctx, nil)
	vouchedBytes = cr.n.Load() - before
	if (perr == nil) != (verr == nil) {
		t.Fatalf("the doctor's error is %v alone, %v after a read", perr, verr)
	}
	return plain, vouched, n, plainBytes, vouchedBytes, true
}

// sameReports runs vouchReports for every way of reading and fails the
// test where the doctor says anything else after a read that vouched; it
// returns the most chunks a read vouched for.
func sameReports(t *testing.T, name string, data []byte) (most int) {
	t.Helper()
	x, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
	reads := []vouchRead{{}, {visit: true}}
	if err == nil && len(x.conns) > 0 {
		tp := x.conns[len(x.conns)/2].Topic
		reads = append(reads, vouchRead{topic: tp}, vouchRead{visit: true, topic: tp})
	}
	if err == nil {
		// With a message visitor (the decoding pass), the doctor takes
		// no read's vouch, and its workers' where they fit: it must say
		// the same and hand on the same messages.
		var reps [2]*bag.CheckReport
		var visited [2][]rec
		for i, full := range []bool{true, false} {
			x, _ := NewReader(bytes.NewReader(data), int64(len(data)), "")
			x.fullCheck = full
			var mu sync.Mutex
			reps[i], _ = x.Check(bag.WithMessageVisitor(context.Background(), func(m *bag.Message) {
				mu.Lock()
				visited[i] = append(visited[i], rec{Time: uint64(m.Time.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)})
				mu.Unlock()
			}), nil)
			sortRecs(visited[i])
		}
		if !reflect.DeepEqual(reps[0], reps[1]) || !reflect.DeepEqual(visited[0], visited[1]) {
			t.Errorf("%s: the doctor with a visitor, chunk by chunk, says (%d messages visited)\n%s\nfrom its workers' vouches (%d visited)\n%s",
				name, len(visited[0]), findingsList(reps[0].Findings), len(visited[1]), findingsList(reps[1].Findings))
		}
	}
	for _, rd := range reads {
		plain, vouched, n, _, _, ok := vouchReports(t, data, rd)
		if !ok {
			continue
		}
		if !reflect.DeepEqual(plain, vouched) {
			t.Errorf("%s (%v): the doctor alone says (%d messages)\n%s\nafter a read that vouched for %d chunks (%d messages)\n%s",
				name, rd, plain.Messages, findingsList(plain.Findings), n, vouched.Messages, findingsList(vouched.Findings))
		}
		most = max(most, n)
	}
	return most
}

// TestVouchedDoctorSaysTheSame checks that the doctor after a read that
// vouched for the chunks it decompressed says exactly what it says alone
// (every finding, its offset and words, the counts), on every MCAP file
// shared with the project, whole and cut at several offsets, and on
// generated multi-chunk files of each compression; that a whole read of an
// intact generated file vouches for every chunk of message records only
// (all but the first, which holds the schemas and channels); and that the
// doctor then reads less than half the bytes it reads alone.
func TestVouchedDoctorSaysTheSame(t *testing.T) {
	// The shared files' chunks hold their schemas and channels with
	// their messages (a read vouches for none of those): the doctor
	// reads them all, and must say the same.
	for _, p := range sharedMCAPs(t) {
		data := readFile(t, p)
		sameReports(t, filepath.Base(p), data)
		for _, k := range []int{3, 2} {
			cut := len(data) * (k - 1) / k
			sameReports(t, fmt.Sprintf("%s cut at %d", filepath.Base(p), cut), data[:cut])
		}
	}
	for _, c := range []lib.CompressionFormat{lib.CompressionNone, lib.CompressionLZ4, lib.CompressionZSTD} {
		v := variant{name: compressionName(string(c)), compression: c, chunked: true}
		data, _ := genMCAP(t, v, 600, 2048)
		chunks := len(openBytes(t, data).chunks)
		if chunks < 10 {
			t.Fatalf("%s: %d chunks; the test needs 10", v.name, chunks)
		}
		if n := sameReports(t, v.name, data); n != chunks-1 {
			t.Errorf("%s: a whole read vouched for %d of the %d chunks (all but the first)", v.name, n, chunks)
		}
		// In chunks of 1 MiB, the doctor after the read reads the
		// chunks' headers (and the 64 KiB its walk reads at a time), not
		// their bytes: it reads at least half their bytes less.
		big, _ := genMCAP(t, v, 40000, 1<<20)
		plain, vouched, n, pb, vb, _ := vouchReports(t, big, vouchRead{})
		if len(plain.Findings) > 0 || !reflect.DeepEqual(plain, vouched) {
			t.Errorf("%s: the intact file has findings:\n%s\n%s", v.name, findingsList(plain.Findings), findingsList(vouched.Findings))
		}
		var chunkBytes int64
		for _, c := range openBytes(t, big).chunks[1:] {
			chunkBytes += c.Length
		}
		t.Logf("%s: %d chunks vouched (%d bytes), %d bytes read by the doctor after, %d alone", v.name, n, chunkBytes, vb, pb)
		if 2*(pb-vb) < chunkBytes || n < 2 {
			t.Errorf("%s: the doctor after a read that vouched for %d chunks of %d bytes read %d bytes, alone %d", v.name, n, chunkBytes, vb, pb)
		}
	}
}

// mcapDamages returns damaged copies of the generated multi-chunk file
// data: the classes of the damage sweeps (4 KiB overwritten with noise, 4
// KiB zeroed, cut, each at several offsets), and damage the vouches must
// not hide: message index entries with a time, an offset changed, swapped,
// or one listed twice; the data section's CRC; the statistics' count; a
// chunk index's times; and, in an uncompressed chunk (its CRC made right),
// a message moved to a channel no record defines and two messages' times
// swapped.
func mcapDamages(t *testing.T, data []byte, compressed bool) map[string][]byte {
	x := openBytes(t, data)
	out := map[string][]byte{}
	edit := func(name string, fn func(d []byte)) {
		d := slices.Clone(data)
		fn(d)
		out[name] = d
	}
	const offsets = 8
	size := int64(len(data))
	spread := func(seed int64) []int64 {
		r := rand.New(rand.NewSource(seed))
		var o []int64
		for i := range int64(offsets) {
			lo, hi := size*i/offsets, size*(i+1)/offsets
			o = append(o, lo+r.Int63n(max(hi-lo, 1)))
		}
		return o
	}
	for i, off := range spread(1) {
		edit(fmt.Sprintf("overwrite@%d", off), func(d []byte) {
			r := rand.New(rand.NewSource(int64(i) + 7))
			for j := off; j < min(off+4096, size); j++ {
				d[j] = byte(r.Intn(256))
			}
		})
	}
	for _, off := range spread(2) {
		off := off / 4096 * 4096
		edit(fmt.Sprintf("zeroed@%d", off), func(d []byte) { clear(d[off:min(off+4096, size)]) })
	}
	for _, off := range spread(3) {
		out[fmt.Sprintf("cut@%d", off)] = slices.Clone(data[:off])
	}
	// A message index record of the fourth chunk: its channel's lowest
	// offset, its entries after the 15-byte header.
	c := x.chunks[3]
	chans := slices.Sorted(func(yield func(uint16) bool) {
		for id := range c.MsgIdx {
			if !yield(id) {
				return
			}
		}
	})
	mi := int64(c.MsgIdx[chans[0]])
	entries := mi + messageIndexHeader
	count := (int64(binary.LittleEndian.Uint64(data[mi+1:])) - 6) / 16
	if count < 3 {
		t.Fatalf("the chunk at %d has %d entries for channel %d", c.Offset, count, chans[0])
	}
	entry := func(k int64) int64 { return entries + 16*k }
	edit("index entry time", func(d []byte) { d[entry(1)] ^= 0x01 })
	edit("index entry offset", func(d []byte) { d[entry(1)+8] ^= 0x04 })
	edit("index entries swapped", func(d []byte) {
		a, b := slices.Clone(d[entry(0):entry(1)]), slices.Clone(d[entry(count-1):entry(count)])
		copy(d[entry(0):], b)
		copy(d[entry(count-1):], a)
	})
	edit("index entry twice", func(d []byte) { copy(d[entry(1):entry(2)], d[entry(2):entry(3)]) })
	edit("index entry count", func(d []byte) {
		// The records field says one entry fewer: the last is left out.
		binary.LittleEndian.PutUint32(d[mi+recHeaderLen+2:], uint32(16*(count-1)))
	})
	if x.foot != nil {
		for _, r := range topRecords(t, data) {
			switch r.Op {
			case OpDataEnd:
				edit("data section crc", func(d []byte) { d[r.Offset+recHeaderLen] ^= 0x01 })
			case OpStatistics:
				edit("statistics count", func(d []byte) { d[r.Offset+recHeaderLen] ^= 0x01 })
			case OpChunkIndex:
				if uint64(r.Offset) == uint64(c.IndexAt) {
					edit("chunk index start", func(d []byte) { d[r.Offset+recHeaderLen] ^= 0x01 })
				}
			}
		}
	}
	if !compressed {
		// The records of the third chunk: after its times, sizes, CRC,
		// an empty compression name and the records' length.
		c := x.chunks[2]
		recs := c.Offset + recHeaderLen + 8 + 8 + 8 + 4 + 4 + 8
		n := int64(binary.LittleEndian.Uint64(data[recs-8:]))
		fixCRC := func(d []byte) {
			binary.LittleEndian.PutUint32(d[c.Offset+recHeaderLen+24:], crc32.ChecksumIEEE(d[recs:recs+n]))
		}
		edit("message on an undefined channel", func(d []byte) {
			binary.LittleEndian.PutUint16(d[recs+recHeaderLen:], 77)
			fixCRC(d)
		})
		edit("message times swapped", func(d []byte) {
			second := recs + recHeaderLen + int64(binary.LittleEndian.Uint64(d[recs+1:]))
			a, b := recs+recHeaderLen+6, second+recHeaderLen+6
			ta, tb := slices.Clone(d[a:a+8]), slices.Clone(d[b:b+8])
			copy(d[a:], tb)
			copy(d[b:], ta)
			fixCRC(d)
		})
	}
	return out
}

// topRecords lists data's top-level records.
func topRecords(t *testing.T, data []byte) []topRec {
	var out []topRec
	err := openBytes(t, data).walkTop(context.Background(), 0, func(r *topRec, _ *window) bool {
		out = append(out, *r)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVouchedDoctorOnDamage is TestVouchedDoctorSaysTheSame on damaged
// copies of generated multi-chunk files of each compression (mcapDamages),
// each read whole and by one topic, through the iterator and the visitor.
func TestVouchedDoctorOnDamage(t *testing.T) {
	for _, c := range []lib.CompressionFormat{lib.CompressionNone, lib.CompressionLZ4, lib.CompressionZSTD} {
		v := variant{name: compressionName(string(c)), compression: c, chunked: true, attach: true}
		data, _ := genMCAP(t, v, 600, 2048)
		damaged := 0
		for name, d := range mcapDamages(t, data, c != lib.CompressionNone) {
			t.Run(v.name+"/"+name, func(t *testing.T) {
				sameReports(t, name, d)
				if plain, _, _, _, _, ok := vouchReports(t, d, vouchRead{}); ok && len(plain.Findings) > 0 {
					damaged++
				}
			})
		}
		if damaged < 20 {
			t.Errorf("%s: only %d damaged copies have findings", v.name, damaged)
		}
	}
}
