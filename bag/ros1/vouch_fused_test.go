package ros1

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestReadVouchesAreTheWalks checks that the vouch a read keeps of each
// chunk (made by the read's own walk of the records, collectVouching) is
// the one walkVouch makes from the chunk's data alone, on every ROS 1 bag
// shared with the project and on a chunk whose connection record is not
// one walkVouchFast takes (the doctor's walker then decides); and that a
// whole read keeps a vouch of every chunk walkVouch vouches for.
func TestReadVouchesAreTheWalks(t *testing.T) {
	paths := sampledROS1Bags(t, vouchSample, "the shared bags not named as damaged")
	// A copy of a multi-chunk bag whose first chunk's connection record
	// has another ID: walkVouchSlow's case.
	src := "../../testdata/none-multichunk.bag"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	first, err := b.ChunkHeader(b.ChunkInfos[0])
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	renamed := filepath.Join(t.TempDir(), "renamed.bag")
	if err := os.WriteFile(renamed, renameConnInChunk(data, first), 0o644); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, renamed)
	compared := 0
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		b, err := NewReaderOrScan(f, st.Size())
		if err != nil {
			f.Close()
			continue
		}
		s := NewStore(b)
		s.VouchReads()
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
		}
		it.Close()
		got := b.taken()
		for _, ci := range b.ChunkInfos {
			ch, err := b.ChunkHeader(ci)
			if err != nil {
				continue
			}
			d, err := b.readChunkData(ch, nil)
			var want *chunkVouch
			if err == nil && !ch.Open { // an open chunk is never vouched for
				want = walkVouch(ch, d)
			}
			if cv := got[ch.Offset]; !reflect.DeepEqual(cv, want) {
				t.Errorf("%s: chunk at %d: the read vouched\n%+v\nwalkVouch says\n%+v", p, ch.Offset, cv, want)
			}
			compared++
		}
		f.Close()
	}
	if compared < 100 {
		t.Fatalf("compared the vouches of only %d chunks", compared)
	}
}

// TestScanHeaderPlain checks scanHeaderPlain against scanHeader (its first
// six results, always) and scanMessageHeader (plain is its ok, and then the
// op, conn and time are its), on every record header of the testdata bags'
// chunks and on mutations of them: bytes flipped, fields doubled, cut or
// renamed.
func TestScanHeaderPlain(t *testing.T) {
	var headers [][]byte
	for _, p := range []string{"../../testdata/none-multichunk.bag", "../../testdata/lz4-multichunk.bag"} {
		b, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, ci := range b.ChunkInfos {
			ch, err := b.ChunkHeader(ci)
			if err != nil {
				t.Fatal(err)
			}
			d, err := b.readChunkData(ch, nil)
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(d); {
				dstart, end, ok := recordAt(d, off)
				if !ok {
					t.Fatalf("%s: chunk at %d: no record at %d", p, ch.Offset, off)
				}
				headers = append(headers, append([]byte(nil), d[off+4:dstart-4]...))
				off = end
			}
		}
		b.Close()
	}
	field := func(s string) []byte {
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
	}
	extra := [][]byte{
		nil,
		field("op=\x02"),
		field("op=\x00"),
		append(field("op=\x02"), field("op=\x02")...),
		append(append(field("op=\x02"), field("conn=\x01\x00\x00\x00")...), field("time=\x01\x00\x00\x00\x02\x00\x00\x00")...),
		append(append(field("op=\x02"), field("conn=\x01\x00\x00")...), field("time=\x01\x00\x00\x00\x02\x00\x00\x00")...),
		append(append(field("op=\x02\x02"), field("conn=\x01\x00\x00\x00")...), field("time=\x01\x00\x00\x00\x02\x00\x00\x00")...),
		append(append(field("op=\x07"), field("conn=\x01\x00\x00\x00")...), field("topic=/a")...),
		append(field("op=\x07"), field("noequals")...),
		append(field("op=\x02"), 1, 0),
	}
	rng := rand.New(rand.NewSource(29))
	n := len(headers)
	for i := 0; i < 20000; i++ {
		h := append([]byte(nil), headers[rng.Intn(n)]...)
		switch rng.Intn(4) {
		case 0: // a byte flipped
			if len(h) > 0 {
				h[rng.Intn(len(h))] ^= byte(1 << rng.Intn(8))
			}
		case 1: // cut
			h = h[:rng.Intn(len(h)+1)]
		case 2: // another record's fields after it
			h = append(h, headers[rng.Intn(n)]...)
		case 3: // a field name's letter changed
			if k := rng.Intn(len(h) + 1); k < len(h) && h[k] >= 'a' && h[k] <= 'z' {
				h[k] = 'a' + byte(rng.Intn(26))
			}
		}
		headers = append(headers, h)
	}
	headers = append(headers, extra...)
	plains := 0
	for _, h := range headers {
		op, conn, tm, hasConn, hasTime, ok, plain := scanHeaderPlain(h)
		op1, conn1, t1, hc1, ht1, ok1 := scanHeader(h)
		if op != op1 || conn != conn1 || tm != t1 || hasConn != hc1 || hasTime != ht1 || ok != ok1 {
			t.Fatalf("header %q: scanHeaderPlain says %v %d %v %v %v %v, scanHeader %v %d %v %v %v %v", h, op, conn, tm, hasConn, hasTime, ok, op1, conn1, t1, hc1, ht1, ok1)
		}
		op2, conn2, t2, ok2 := scanMessageHeader(h)
		if plain != ok2 || plain && (op != op2 || conn != conn2 || tm != t2) {
			t.Fatalf("header %q: scanHeaderPlain says plain %v (%v %d %v), scanMessageHeader %v (%v %d %v)", h, plain, op, conn, tm, ok2, op2, conn2, t2)
		}
		if plain {
			plains++
		}
	}
	if plains < 100 || plains == len(headers) {
		t.Fatalf("%d of %d headers plain: the mutations do not exercise both sides", plains, len(headers))
	}
}

// TestVisitVouchesAreTheWalks checks the doctor's visit of a chunk with
// its vouch made in the same walk (Store.visitChunk, as find's quick check
// runs it): the vouch is the one walkVouch makes from the chunk's data
// alone, and the messages handed on are those the ChunkWalker and
// parseMessageData read, in order, all of them when the visit says so. On
// every chunk of the ROS 1 bags shared with the project, on the renamed
// connection record of TestReadVouchesAreTheWalks, and on chunks of the
// testdata bags with bytes flipped in their records' headers.
func TestVisitVouchesAreTheWalks(t *testing.T) {
	type msg struct {
		off  uint32
		conn uint32
		t    bag.Time
		doff int64
		data string
	}
	// want is what the walker and parseMessageData read of d, and whether
	// they read every record.
	want := func(s *Store, ch *Chunk, d []byte) (out []msg, whole bool) {
		w := NewChunkWalker(d, ch.Offset)
		for w.Next() {
			rec := *w.Record()
			if rec.Op != OpMessageData {
				continue
			}
			md, err := parseMessageData(rec)
			if err != nil || s.byID[md.Conn] == nil {
				return out, false
			}
			out = append(out, msg{uint32(rec.Offset), md.Conn, md.Time, rec.DataOffset, string(w.Data())})
		}
		return out, w.Err() == nil
	}
	visits, whole, mutated := 0, 0, 0
	check := func(name string, s *Store, ch *Chunk, d []byte) {
		t.Helper()
		var got []msg
		visited, cv := s.visitChunk(ch, d, func(m *bag.Message) {
			if m.Conn != s.byID[m.Conn.ID] || m.Loc.Block != ch.Offset || m.PublishTime != m.Time {
				t.Errorf("%s: message at %d: conn %p, location %+v or publish time %v not the chunk's", name, m.Loc.Offset, m.Conn, m.Loc, m.PublishTime)
			}
			got = append(got, msg{m.Loc.Offset, m.Conn.ID, m.Time, m.DataOffset, string(m.Data)})
		}, true)
		if w := walkVouch(ch, d); !reflect.DeepEqual(cv, w) {
			t.Errorf("%s: the visit vouched\n%+v\nwalkVouch says\n%+v", name, cv, w)
		}
		ref, all := want(s, ch, d)
		if len(got) > len(ref) || !reflect.DeepEqual(got, ref[:len(got)]) {
			t.Errorf("%s: the visit handed on %d messages, not a prefix of the walker's %d", name, len(got), len(ref))
		}
		if visited && (!all || len(got) != len(ref)) {
			t.Errorf("%s: the visit says it handed on every message (%d), the walker reads %d (whole %v)", name, len(got), len(ref), all)
		}
		// A visit without the vouch hands on the same.
		n := 0
		if v, cv := s.visitChunk(ch, d, func(*bag.Message) { n++ }, false); v != visited || cv != nil || n != len(got) {
			t.Errorf("%s: without the vouch the visit says %v (%d messages, vouch %v), with it %v (%d)", name, v, n, cv != nil, visited, len(got))
		}
		visits++
		if visited {
			whole++
		}
	}
	rng := rand.New(rand.NewSource(31))
	for _, p := range sampledROS1Bags(t, vouchSample, "the shared bags not named as damaged") {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		b, err := NewReaderOrScan(f, st.Size())
		if err != nil {
			f.Close()
			continue
		}
		s := NewStore(b)
		for k, ci := range b.ChunkInfos {
			ch, err := b.ChunkHeader(ci)
			if err != nil {
				continue
			}
			d, err := b.readChunkData(ch, nil)
			if err != nil {
				continue
			}
			check(fmt.Sprintf("%s: chunk at %d", p, ch.Offset), s, ch, d)
			if !strings.HasPrefix(p, "../../testdata/") || k >= 4 {
				continue
			}
			// Bytes flipped in the records' headers (the op, conn and
			// time fields, their names and lengths).
			var heads []int
			for off := 0; off < len(d); {
				dstart, end, ok := recordAt(d, off)
				if !ok {
					break
				}
				for i := off; i < dstart-4; i++ {
					heads = append(heads, i)
				}
				off = end
			}
			for i := 0; i < 40 && len(heads) > 0; i++ {
				m := append([]byte(nil), d...)
				for j := rng.Intn(3); j >= 0; j-- {
					m[heads[rng.Intn(len(heads))]] ^= byte(1 << rng.Intn(8))
				}
				check(fmt.Sprintf("%s: chunk at %d, mutation %d", p, ch.Offset, i), s, ch, m)
				mutated++
			}
		}
		b.Close()
		f.Close()
	}
	if visits < 200 || whole < 100 || whole == visits || mutated < 100 {
		t.Fatalf("%d chunks visited (%d mutated), %d of them whole: the cases do not exercise both sides", visits, mutated, whole)
	}
}
