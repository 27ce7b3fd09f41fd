package mcap

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

// describeMsg is a Prepare for the tests: it writes what it sees of a message
// (so that a message handed over with another's prepared bytes shows),
// leaves every seventh message to the reader and makes every 97th larger
// than a side segment, so that its bytes span segments.
func describeMsg(m *bag.Message, dst []byte) ([]byte, bool) {
	crc := crc32.ChecksumIEEE(m.Data)
	if crc%7 == 0 {
		return append(dst, "partial output of a message left to the reader"...), false
	}
	dst = fmt.Appendf(dst, "%s %d %d %x %d %d %d %q|", m.Conn.Topic, m.Time.Nanos(), m.PublishTime.Nanos(), crc, m.Loc.Block, m.Loc.Offset, m.DataOffset, m.Suspect)
	if crc%97 == 0 {
		dst = append(dst, bytes.Repeat([]byte{byte(crc)}, sideSeg+sideSeg/2)...)
	}
	return dst, true
}

// preparedRun reads f through bag.PreparedMessages and through Messages
// with describeMsg run in order, and fails unless both give the same
// messages with the same prepared bytes and the same skipped ranges.
func preparedRun(t *testing.T, name string, s bag.Storage, f bag.MessageFilter) int {
	t.Helper()
	type got struct {
		desc     string
		prepared []byte
		ok       bool
	}
	read := func(it bag.MessageIter, prepared func() ([]byte, bool)) ([]got, []bag.ByteRange) {
		defer it.Close()
		var out []got
		for it.Next() {
			m := it.Message()
			d, _ := describeMsg(m, nil)
			g := got{desc: string(d)}
			if prepared != nil {
				b, ok := prepared()
				g.prepared, g.ok = bytes.Clone(b), ok
			} else {
				b, ok := describeMsg(m, nil)
				if ok {
					g.prepared, g.ok = b, true
				}
			}
			out = append(out, g)
		}
		if err := it.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out, bag.IterSkipped(it)
	}
	want, wantSkipped := read(s.Messages(f), nil)
	pit := bag.PreparedMessages(s, f, describeMsg)
	have, haveSkipped := read(pit, pit.Prepared)
	if len(have) != len(want) {
		t.Fatalf("%s %+v: %d messages prepared, %d read", name, f, len(have), len(want))
	}
	for i := range have {
		h, w := have[i], want[i]
		if h.desc != w.desc || h.ok != w.ok || !bytes.Equal(h.prepared, w.prepared) {
			t.Fatalf("%s %+v: message %d: prepared read gives %s (prepared %v, %.80q), in order %s (prepared %v, %.80q)",
				name, f, i, h.desc, h.ok, h.prepared, w.desc, w.ok, w.prepared)
		}
	}
	if !slices.EqualFunc(haveSkipped, wantSkipped, func(a, b bag.ByteRange) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Fatalf("%s %+v: prepared read skipped %v, the iterator %v", name, f, haveSkipped, wantSkipped)
	}
	return len(have)
}

// TestPreparedMessages: a read whose hook runs on the workers gives the
// messages in the iterator's order, each with what the hook makes of that
// very message (also when it spans side segments or is left to the
// reader), and skips and marks what the iterator skips and marks: for
// every way of writing a file, with filters, cut and damaged.
func TestPreparedMessages(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 700, 1024)
			damaged := bytes.Clone(data)
			for i := len(damaged) / 3; i < len(damaged)/3+16; i++ {
				damaged[i] ^= 0x5a
			}
			n := 0
			for name, b := range map[string][]byte{"whole": data, "cut": data[:len(data)*2/3], "damaged": damaged} {
				r, err := NewReader(bytesReader(b), int64(len(b)), "")
				if err != nil {
					continue // nothing to read without the summary
				}
				const t0 = 1_700_000_000_000_000_000
				for _, f := range []bag.MessageFilter{{}, {Topics: []string{"/imu"}}, {Start: bag.TimeFromNanos(t0 + 200e6), End: bag.TimeFromNanos(t0 + 500e6)}} {
					n += preparedRun(t, name, r, f)
				}
			}
			if n == 0 {
				t.Fatal("no message read")
			}
		})
	}
}

// TestPreparedMessagesShared: the same on every shared MCAP recording
// (damaged ones among them), through the seam's wrappers as the commands
// open them.
func TestPreparedMessagesShared(t *testing.T) {
	for _, p := range sharedMCAPs(t) {
		s, err := bag.OpenFile(p)
		if err != nil {
			continue
		}
		preparedRun(t, p, s, bag.MessageFilter{})
		s.Close()
	}
}

// TestPreparedMessagesClose: a prepared read closed early (a command's -n)
// ends its goroutines, also one waiting for room in the budget.
func TestPreparedMessagesClose(t *testing.T) {
	data, _ := genMCAP(t, variants()[2], 2000, 1024)
	r := openBytes(t, data)
	before := runtime.NumGoroutine()
	for stop := range 5 {
		it := r.PreparedMessages(bag.MessageFilter{}, describeMsg)
		for i := 0; i < stop*100 && it.Next(); i++ {
			it.Message()
		}
		it.Close()
	}
	// Wait for the state: every reading goroutine gone.
	for runtime.NumGoroutine() > before {
		time.Sleep(time.Millisecond)
	}
}

// TestPreparedMessagesOverlappingChunks: chunks that all overlap in time
// are held by the merge together; with a budget smaller than one chunk,
// a prepared read still reads them all (the budget bounds what is read
// ahead, not what the merge holds), in the iterator's order.
func TestPreparedMessagesOverlappingChunks(t *testing.T) {
	var buf bytes.Buffer
	w, err := lib.NewWriter(&buf, &lib.WriterOptions{Chunked: true, ChunkSize: 2048, Compression: lib.CompressionZSTD, IncludeCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&lib.Header{Profile: "ros2"})
	w.WriteSchema(&lib.Schema{ID: 1, Name: "std_msgs/msg/String", Encoding: "ros2msg", Data: []byte("string data")})
	w.WriteChannel(&lib.Channel{ID: 1, SchemaID: 1, Topic: "/chatter", MessageEncoding: "cdr"})
	for i := range 3000 {
		// Every chunk spans from its first early message to its last
		// late one: all chunks overlap.
		ts := uint64(1e18) + uint64(i) + uint64(i%2)*1e12
		if err := w.WriteMessage(&lib.Message{ChannelID: 1, LogTime: ts, Data: fmt.Appendf(nil, "message %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := openBytes(t, buf.Bytes())
	if len(r.chunks) < 10 {
		t.Fatalf("%d chunks: the test needs many", len(r.chunks))
	}
	defer func(b int64) { preparedBudget = b }(preparedBudget)
	preparedBudget = 1
	if n := preparedRun(t, "overlapping", r, bag.MessageFilter{}); n != 3000 {
		t.Fatalf("%d messages read, want 3000", n)
	}
}
