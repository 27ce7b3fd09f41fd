package ros1

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// quickReports runs the quick doctor on the bag at path twice: on a store
// nothing was read through, and on one whose messages (those of topics,
// or all) were read first with VouchReads asked, so that the doctor takes
// the read's vouches. It returns both reports and how many chunks the
// read vouched for. The first run's workers vouch for the chunks they
// decompress (walkOnWorkers): a third run, with the doctor walking every
// chunk itself, must say the same.
func quickReports(t *testing.T, path string, topics []string) (plain, vouched *bag.CheckReport, n int) {
	t.Helper()
	ctx := bag.WithQuickCheck(context.Background())
	open := func() *Store {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		st, _ := f.Stat()
		b, err := NewReaderOrScan(f, st.Size())
		if err != nil {
			return nil
		}
		return NewStore(b)
	}
	s := open()
	if s == nil {
		return nil, nil, 0
	}
	walkOnWorkers = false
	walked, werr := s.Check(ctx, nil)
	walkOnWorkers = true
	s = open()
	plain, perr := s.Check(ctx, nil)
	if (perr == nil) != (werr == nil) || !reflect.DeepEqual(plain, walked) {
		t.Errorf("%s: the doctor walking every chunk says (error %v)\n%s\nwith its workers' vouches (error %v)\n%s", path, werr, showReport(walked), perr, showReport(plain))
	}
	s = open()
	s.VouchReads()
	it := s.Messages(bag.MessageFilter{Topics: topics})
	for it.Next() {
	}
	it.Close()
	n = len(s.Bag.taken())
	vouched, verr := s.Check(ctx, nil)
	if (perr == nil) != (verr == nil) {
		t.Fatalf("%s: the doctor's error is %v alone, %v after a read", path, perr, verr)
	}
	return plain, vouched, n
}

// vouchSample: without -long, TestVouchedDoctorSaysTheSame,
// TestReadVouchesAreTheWalks and TestVisitVouchesAreTheWalks read the
// fixtures, the shared bags named as damaged and one in vouchSample of the
// other shared bags (sampledROS1Bags): the three were 380 s of bag/ros1's
// wall time at load 17-30 (238, 90 and 51 s). -long reads every one.
const vouchSample = 2

// TestVouchedDoctorSaysTheSame checks that the quick doctor after a read
// that vouched for the chunks it decompressed says exactly what it says
// alone (every finding, its offset and words, the counts), on every ROS 1
// bag shared with the project, whole and after a read of one topic only,
// and that a whole read of an intact bag vouches for every chunk.
func TestVouchedDoctorSaysTheSame(t *testing.T) {
	vouchedAny := 0
	for _, p := range sampledROS1Bags(t, vouchSample, "the shared bags not named as damaged") {
		for _, one := range []bool{false, true} {
			var topics []string
			if one {
				b, err := Open(p)
				if err != nil || len(b.Connections) == 0 {
					if err == nil {
						b.Close()
					}
					continue
				}
				topics = []string{b.Connections[len(b.Connections)/2].Topic}
				b.Close()
			}
			plain, vouched, n := quickReports(t, p, topics)
			if !reflect.DeepEqual(plain, vouched) {
				t.Errorf("%s (topics %v): the doctor alone says\n%s\nafter a read that vouched for %d chunks\n%s", p, topics, showReport(plain), n, showReport(vouched))
			}
			vouchedAny += n
			if plain != nil && !one && plain.Errors() == 0 {
				b, err := Open(p)
				if err == nil {
					if want := countClosed(b); n != want {
						t.Errorf("%s: a read of the intact bag vouched for %d of its %d chunks", p, n, want)
					}
					b.Close()
				}
			}
		}
	}
	if vouchedAny == 0 {
		t.Fatal("no read vouched for any chunk")
	}
}

// countClosed counts the chunks of b's index.
func countClosed(b *Bag) int { return len(b.ChunkInfos) }

// TestVouchedDoctorOnDamage is TestVouchedDoctorSaysTheSame on damaged
// copies of multi-chunk bags: cut in a chunk and in the index, a byte
// flipped in a chunk's data, an index entry's time or offset changed, a
// chunk info's count changed, a chunk's connection record renamed (so its
// messages come before any definition).
//
// Without -long, each bag takes one in damageSample of the damages (in
// the order of their names, shifted by one for each bag, so that every
// damage is still made to half of the bags); -long every damage to every
// bag.
func TestVouchedDoctorOnDamage(t *testing.T) {
	const damageSample = 2
	sweeptest.Note(t, damageSample, "each bag's damages (every damage is made to half of the bags)")
	srcs := []string{"../../testdata/none-multichunk.bag", "../../testdata/lz4-multichunk.bag", "../../testdata/bz2-multichunk.bag",
		sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag", sharedBags + "/embarktrucks__embag/@7695f345/test/test.bag", sharedBags + "/cruise-automation__rosbag.js/fixtures/example-unsorted-chunks.bag"}
	for si, src := range srcs {
		if _, err := os.Stat(src); err != nil {
			requireShared(t)
			t.Fatal(err)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Open(src)
		if err != nil {
			t.Fatal(err)
		}
		if len(b.ChunkInfos) < 2 {
			b.Close()
			t.Fatalf("%s has %d chunks; the test needs 2", src, len(b.ChunkInfos))
		}
		ci := b.ChunkInfos[1]
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			t.Fatal(err)
		}
		idx, err := b.ChunkIndex(ci)
		if err != nil || len(idx) == 0 || len(idx[0].Entries) == 0 {
			t.Fatalf("%s: chunk index: %v", src, err)
		}
		first, _ := b.ChunkHeader(b.ChunkInfos[0])
		last := b.ChunkInfos[len(b.ChunkInfos)-1]
		lastCh, _ := b.ChunkHeader(last)
		b.Close()
		x := idx[0]
		k := int64(len(x.Entries) / 2)
		damages := map[string]func(d []byte) []byte{
			"cut in a chunk":        func(d []byte) []byte { return d[:ch.DataOffset+int64(ch.DataLen)/2] },
			"cut in the last chunk": func(d []byte) []byte { return d[:lastCh.DataOffset+int64(lastCh.DataLen)/3] },
			"cut in the index":      func(d []byte) []byte { return d[:len(d)-40] },
			"chunk byte flipped":    func(d []byte) []byte { d[ch.DataOffset+int64(ch.DataLen)/2] ^= 0xff; return d },
			"index entry time":      func(d []byte) []byte { d[x.DataOffset+12*k+4] ^= 0x10; return d },
			"index entry offset":    func(d []byte) []byte { d[x.DataOffset+12*k+8] ^= 0x04; return d },
			"index entries swapped": func(d []byte) []byte { swap12(d, x.DataOffset, 0, len(x.Entries)-1); return d },
			"chunk info count":      func(d []byte) []byte { d[ci.DataOffset+4] ^= 0x01; return d },
			"chunk info time": func(d []byte) []byte {
				d[ci.HeaderOffset+int64(headerFieldAt(d, ci.Record, "start_time"))] ^= 0x01
				return d
			},
			"connection record moved": func(d []byte) []byte { return renameConnInChunk(d, first) },
		}
		for i, name := range slices.Sorted(maps.Keys(damages)) {
			if !sweeptest.Keep(i+si, damageSample) {
				continue
			}
			damage := damages[name]
			t.Run(filepath.Base(src)+"/"+name, func(t *testing.T) {
				d := damage(append([]byte(nil), data...))
				p := filepath.Join(t.TempDir(), "damaged.bag")
				if err := os.WriteFile(p, d, 0o644); err != nil {
					t.Fatal(err)
				}
				for _, topics := range [][]string{nil, {x.connTopic(src)}} {
					plain, vouched, n := quickReports(t, p, topics)
					if !reflect.DeepEqual(plain, vouched) {
						t.Errorf("topics %v: the doctor alone says\n%s\nafter a read that vouched for %d chunks\n%s", topics, showReport(plain), n, showReport(vouched))
					}
				}
			})
		}
	}
}

// connTopic returns the topic of the index data record's connection in the
// bag at path.
func (x *IndexData) connTopic(path string) string {
	b, err := Open(path)
	if err != nil {
		return ""
	}
	defer b.Close()
	if c := b.connByID[x.Conn]; c != nil {
		return c.Topic
	}
	return ""
}

// swap12 swaps the i-th and j-th 12-byte index entries of the index data
// record whose data starts at off.
func swap12(d []byte, off int64, i, j int) {
	a, b := d[off+12*int64(i):off+12*int64(i)+12], d[off+12*int64(j):off+12*int64(j)+12]
	var t [12]byte
	copy(t[:], a)
	copy(a, b)
	copy(b, t[:])
}

// headerFieldAt returns the offset, within r's header, of the value of its
// field name.
func headerFieldAt(d []byte, r Record, name string) int {
	for _, f := range r.Header {
		if f.Name == name {
			return f.Offset + 4 + len(name) + 1
		}
	}
	panic(fmt.Sprintf("no field %s", name))
}

// renameConnInChunk changes the op of the first connection record of an
// uncompressed chunk into one the walk does not know, so the messages
// after it use a connection nothing defined before them (a compressed
// chunk is left as it is: its bytes cannot be edited in place).
func renameConnInChunk(d []byte, ch *Chunk) []byte {
	if ch.Compression != CompressionNone {
		return d
	}
	data := d[ch.DataOffset : ch.DataOffset+int64(ch.DataLen)]
	w := NewChunkWalker(data, ch.Offset)
	for w.Next() {
		r := w.Record()
		if r.Op != OpConnection {
			continue
		}
		for _, f := range r.Header {
			if f.Name == "conn" {
				// Another ID: the record defines a connection nothing uses.
				data[r.HeaderOffset+int64(f.Offset)+4+5] ^= 0x40
				return d
			}
		}
	}
	return d
}

// showReport formats a report's findings and counts for a failure.
func showReport(r *bag.CheckReport) string {
	if r == nil {
		return "  (no report)"
	}
	s := fmt.Sprintf("  indexed %v, %d messages, %d undecoded, bytes %v\n", r.Indexed, r.Messages, r.Undecoded, r.Bytes)
	for _, f := range r.Findings {
		s += fmt.Sprintf("  %s at %d (%s): %s\n", f.Severity, f.Offset, f.Record, f.Message)
	}
	return s
}
