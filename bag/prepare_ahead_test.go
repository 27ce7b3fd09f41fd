package bag

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"testing"
)

// fakeIter gives n messages whose Data (reusing one buffer, as the
// formats' iterators do) hold their index, of sizes from 0 bytes to twice
// aheadBytes, then ends with err; it counts a skipped range every 1000
// messages and a suspect every 7th.
type fakeIter struct {
	n, i     int
	buf      []byte
	msg      Message
	conn     Connection
	err      error
	skipped  []ByteRange
	suspects uint64
	closed   bool
}

func fakeSize(i int) int {
	switch {
	case i%997 == 5:
		return 2 * aheadBytes // larger than a batch
	case i%13 == 0:
		return 0
	}
	return 8 + (i*7919)%3000
}

func fakeData(i int, buf []byte) []byte {
	buf = buf[:0]
	for len(buf) < fakeSize(i) {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(i))
	}
	return buf[:fakeSize(i)]
}

func (f *fakeIter) Next() bool {
	if f.i >= f.n {
		return false
	}
	i := f.i
	f.i++
	f.buf = fakeData(i, f.buf)
	f.msg = Message{Conn: &f.conn, Time: TimeFromNanos(int64(i)), Data: f.buf, Loc: Loc{Block: int64(i)}}
	if i%7 == 0 {
		f.msg.Suspect = "suspect"
		f.suspects++
	}
	if i%1000 == 999 {
		f.skipped = append(f.skipped, ByteRange{Start: int64(i), End: int64(i + 1), Why: "skipped"})
	}
	return true
}

func (f *fakeIter) Message() *Message    { return &f.msg }
func (f *fakeIter) Err() error           { return f.err }
func (f *fakeIter) Close()               { f.closed = true }
func (f *fakeIter) Skipped() []ByteRange { return f.skipped }
func (f *fakeIter) Suspects() uint64     { return f.suspects }
func (f *fakeIter) DataMayBeZstd() bool  { return f.msg.Loc.Block%2 == 0 }
func fakePrep(m *Message, dst []byte) ([]byte, bool) {
	if m.Loc.Block%5 == 3 {
		return dst, false // left to the reader
	}
	return fmt.Appendf(dst, "%d:%d:%x", m.Time.Nanos(), len(m.Data), m.Data[:min(len(m.Data), 16)]), true
}

// TestPrepareAhead: the messages prepared ahead on other goroutines come
// in the read's order with the read's bytes and what the hook makes of
// each, as the hook run inline gives them; the read's error and what it
// skipped and counted as suspect are the storage iterator's; a caller
// that stops early, or asks before the end, stops the read.
func TestPrepareAhead(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: prepareAhead runs the hook inline")
	}
	const n = 20000
	boom := errors.New("boom")
	t.Run("whole", func(t *testing.T) {
		inner := &fakeIter{n: n, err: boom}
		it := prepareAhead(inner, fakePrep)
		if _, ok := it.(*aheadPrepared); !ok {
			t.Fatalf("prepareAhead gave %T", it)
		}
		var want []byte
		i := 0
		for it.Next() {
			m := it.Message()
			if m.Time.Nanos() != int64(i) || m.Loc.Block != int64(i) || !bytes.Equal(m.Data, fakeData(i, nil)) || (m.Suspect != "") != (i%7 == 0) {
				t.Fatalf("message %d: time %d, %d bytes, suspect %q: not the read's", i, m.Time.Nanos(), len(m.Data), m.Suspect)
			}
			got, ok := it.Prepared()
			want, wantOK := fakePrep(m, want[:0])
			if ok != wantOK || ok && !bytes.Equal(got, want) {
				t.Fatalf("message %d prepared %q, %v; inline: %q, %v", i, got, ok, want, wantOK)
			}
			if h := it.(zstdHinter).DataMayBeZstd(); h != (i%2 == 0) {
				t.Fatalf("message %d: DataMayBeZstd %v, the read's %v", i, h, i%2 == 0)
			}
			i++
		}
		if i != n {
			t.Fatalf("%d messages, want %d", i, n)
		}
		if err := it.Err(); !errors.Is(err, boom) {
			t.Errorf("Err %v, want the read's %v", err, boom)
		}
		if sk := IterSkipped(it); len(sk) != n/1000 {
			t.Errorf("%d ranges skipped, want %d", len(sk), n/1000)
		}
		if s := suspectsOf(it); s != (n+6)/7 {
			t.Errorf("%d suspects, want %d", s, (n+6)/7)
		}
		it.Close()
		if !inner.closed {
			t.Error("the storage's iterator was not closed")
		}
	})
	t.Run("stopped early", func(t *testing.T) {
		for _, stop := range []int{0, 1, 300, 5000} {
			inner := &fakeIter{n: n}
			it := prepareAhead(inner, fakePrep)
			for i := 0; i < stop; i++ {
				if !it.Next() || it.Message().Loc.Block != int64(i) {
					t.Fatalf("message %d not given", i)
				}
			}
			// Asking stops the read: the storage's iterator is then
			// read no further, and Next gives no more.
			_ = IterSkipped(it)
			at := inner.i
			if it.Next() {
				t.Errorf("stopped after %d: Next gave a message after a question", stop)
			}
			if inner.i != at || at > stop+2*runtime.GOMAXPROCS(0)*aheadMessages+aheadMessages {
				t.Errorf("stopped after %d: the read went on to %d (at %d when asked)", stop, inner.i, at)
			}
			it.Close()
			if !inner.closed {
				t.Error("the storage's iterator was not closed")
			}
		}
	})
	t.Run("closed early", func(t *testing.T) {
		inner := &fakeIter{n: n}
		it := prepareAhead(inner, fakePrep)
		it.Next()
		it.Close()
		if !inner.closed {
			t.Error("the storage's iterator was not closed")
		}
	})
	t.Run("empty", func(t *testing.T) {
		it := prepareAhead(&fakeIter{}, fakePrep)
		if it.Next() || it.Err() != nil {
			t.Error("an empty read gave a message or an error")
		}
		it.Close()
	})
}
