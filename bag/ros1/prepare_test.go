package ros1

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// describeMsg is a Prepare for the tests: it writes what it sees of a
// message (so that a message handed over with another's prepared bytes
// shows) and leaves every seventh message to the reader.
func describeMsg(m *bag.Message, dst []byte) ([]byte, bool) {
	crc := crc32.ChecksumIEEE(m.Data)
	if crc%7 == 0 {
		return append(dst, "partial output of a message left to the reader"...), false
	}
	return fmt.Appendf(dst, "%s %d %x %d %d %d %q|", m.Conn.Topic, m.Time.Nanos(), crc, m.Loc.Block, m.Loc.Offset, m.DataOffset, m.Suspect), true
}

// TestPreparedMessages: a read whose hook runs on the workers that load
// the chunks gives the messages in the iterator's order, each with what
// the hook makes of that very message (or left to the reader), and skips,
// loses and marks what the iterator does: on every bag of testdata, whole
// and with a chunk damaged, with filters.
func TestPreparedMessages(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/*.bag")
	dir := t.TempDir()
	read := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files := []string{p}
		if b, err := NewReader(bytes.NewReader(data), int64(len(data))); err == nil && len(b.ChunkInfos) > 1 {
			ci := b.ChunkInfos[len(b.ChunkInfos)/2]
			if ch, err := b.ChunkHeader(ci); err == nil {
				bad := bytes.Clone(data)
				for i := ch.DataOffset + int64(ch.DataLen)/3; i < ch.DataOffset+int64(ch.DataLen)/3+16; i++ {
					bad[i] ^= 0x5a
				}
				q := filepath.Join(dir, "damaged-"+filepath.Base(p))
				if err := os.WriteFile(q, bad, 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, q)
			}
		}
		for _, file := range files {
			s, err := bag.OpenFile(file)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			sum, _ := s.Summary()
			filters := []bag.MessageFilter{{}}
			if sum != nil && len(s.Connections()) > 1 {
				mid := bag.TimeFromNanos((sum.Start.Nanos() + sum.End.Nanos()) / 2)
				filters = append(filters, bag.MessageFilter{Topics: []string{s.Connections()[0].Topic}}, bag.MessageFilter{Start: mid})
			}
			for _, f := range filters {
				read += comparePrepared(t, file, s, f)
			}
			s.Close()
		}
	}
	if read == 0 {
		t.Fatal("no message read")
	}
}

// comparePrepared reads f through bag.PreparedMessages and through
// Messages with describeMsg run in order, and fails unless both give the
// same messages, prepared bytes, skipped ranges and lost counts.
func comparePrepared(t *testing.T, name string, s bag.Storage, f bag.MessageFilter) int {
	t.Helper()
	type got struct {
		desc     string
		prepared string
		ok       bool
	}
	run := func(it bag.MessageIter, prepared func() ([]byte, bool)) ([]got, string) {
		defer it.Close()
		var out []got
		for it.Next() {
			m := it.Message()
			d, _ := describeMsg(m, nil)
			g := got{desc: string(d)}
			if prepared != nil {
				b, ok := prepared()
				g.prepared, g.ok = string(b), ok
			} else if b, ok := describeMsg(m, nil); ok {
				g.prepared, g.ok = string(b), true
			}
			out = append(out, g)
		}
		if err := it.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var lost, suspects uint64
		if l, ok := it.(interface{ LostMessages() uint64 }); ok {
			lost = l.LostMessages()
		}
		if l, ok := it.(interface{ Suspects() uint64 }); ok {
			suspects = l.Suspects()
		}
		return out, fmt.Sprint(bag.IterSkipped(it), lost, suspects)
	}
	want, wantLoss := run(s.Messages(f), nil)
	pit := bag.PreparedMessages(s, f, describeMsg)
	have, haveLoss := run(pit, pit.Prepared)
	if len(have) != len(want) {
		t.Fatalf("%s %+v: %d messages prepared, %d read", name, f, len(have), len(want))
	}
	for i := range have {
		if have[i] != want[i] {
			t.Fatalf("%s %+v: message %d: prepared read gives %+v, in order %+v", name, f, i, have[i], want[i])
		}
	}
	if haveLoss != wantLoss {
		t.Fatalf("%s %+v: prepared read lost %s, the iterator %s", name, f, haveLoss, wantLoss)
	}
	return len(have)
}
