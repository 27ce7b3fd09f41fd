package bag

import (
	"runtime"
	"sync"
)

// A storage that reads on one goroutine (a .db3 file, a folder of
// several files) would leave a Prepare to the goroutine that gives the
// messages: `bagscope cat` formatting every message of a .db3 as text on
// one core while the other sits idle. prepareAhead reads the messages on
// a goroutine of its own, in batches, copied, and prepares each batch on
// as many goroutines as there are cores, while the caller takes the
// batches in order: the order and the messages are the read's, only the
// work of the hook moves.
//
// The read runs at most aheadDepth batches ahead of the caller, each at
// most aheadMessages messages or aheadBytes bytes of message data (or one
// message, when it is larger), so what it holds is bounded. The questions
// an iterator answers about its read (Err, Skipped, Suspects,
// LostMessages, LostRanges) are asked of the storage's iterator once the
// read has stopped: at its end, or stopped early by the first question,
// after which Next gives no more (a caller that stops before the end is
// told of what the read met while running ahead).

const (
	aheadMessages = 256
	aheadBytes    = 1 << 20
)

// aheadBatch is a run of messages read, copied, and what the hook made of
// each.
type aheadBatch struct {
	msgs []Message
	data []byte // the messages' Data, one after another
	out  []byte // the prepared bytes, one message's after another
	ends []int  // message i's prepared bytes are out[ends[i-1]:ends[i]]
	ok   []bool
	// hint holds the storage iterator's DataMayBeZstd of each message,
	// when it gives one.
	hint []bool
	done chan struct{} // closed once every message is prepared
}

// aheadPrepared is the iterator prepareAhead returns.
type aheadPrepared struct {
	inner MessageIter
	prep  Prepare
	order chan *aheadBatch // batches in read order; closed at the read's end
	work  chan *aheadBatch // batches to prepare
	free  chan *aheadBatch // batches the caller is done with
	stop  chan struct{}
	wg    sync.WaitGroup

	halted   bool
	stopOnce sync.Once
	cur      *aheadBatch
	i        int
	hinter   zstdHinter
}

// prepareAhead gives it's messages with prep run on other goroutines (see
// above); with one core it runs prep inline.
func prepareAhead(it MessageIter, prep Prepare) PreparedIter {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 {
		return &inlinePrepared{MessageIter: it, prep: prep}
	}
	depth := 2 * workers
	a := &aheadPrepared{inner: it, prep: prep, order: make(chan *aheadBatch, depth), work: make(chan *aheadBatch, depth),
		free: make(chan *aheadBatch, depth+2), stop: make(chan struct{})}
	a.hinter, _ = it.(zstdHinter)
	a.wg.Add(1 + workers)
	go a.read()
	for range workers {
		go a.prepare()
	}
	return a
}

// read reads the messages into batches, on its own goroutine.
func (a *aheadPrepared) read() {
	defer a.wg.Done()
	defer close(a.work)
	defer close(a.order)
	for {
		var b *aheadBatch
		select {
		case b = <-a.free:
		default:
			b = &aheadBatch{}
		}
		b.msgs, b.data, b.hint = b.msgs[:0], b.data[:0], b.hint[:0]
		b.done = make(chan struct{})
		more := true
		for len(b.msgs) < aheadMessages && len(b.data) < aheadBytes {
			if more = a.inner.Next(); !more {
				break
			}
			m := *a.inner.Message()
			b.data = append(b.data, m.Data...)
			b.msgs = append(b.msgs, m) // m.Data is pointed at b.data below
			if a.hinter != nil {
				b.hint = append(b.hint, a.hinter.DataMayBeZstd())
			}
		}
		if len(b.msgs) == 0 {
			return
		}
		// b.data may have moved as it grew: point each message's Data at
		// its bytes in the final array.
		off := 0
		for i := range b.msgs {
			n := len(b.msgs[i].Data)
			b.msgs[i].Data = b.data[off : off+n : off+n]
			off += n
		}
		select {
		case a.order <- b:
		case <-a.stop:
			return
		}
		select {
		case a.work <- b:
		case <-a.stop:
			return
		}
		if !more {
			return
		}
	}
}

// prepare runs the hook on each message of the batches given it.
func (a *aheadPrepared) prepare() {
	defer a.wg.Done()
	for b := range a.work {
		b.out, b.ends, b.ok = b.out[:0], b.ends[:0], b.ok[:0]
		for i := range b.msgs {
			var ok bool
			b.out, ok = a.prep(&b.msgs[i], b.out)
			b.ends = append(b.ends, len(b.out))
			b.ok = append(b.ok, ok)
		}
		close(b.done)
	}
}

func (a *aheadPrepared) Next() bool {
	if a.halted {
		return false
	}
	if a.cur != nil && a.i+1 < len(a.cur.msgs) {
		a.i++
		return true
	}
	if a.cur != nil {
		select {
		case a.free <- a.cur:
		default:
		}
		a.cur = nil
	}
	b, ok := <-a.order
	if !ok {
		a.halt()
		return false
	}
	select {
	case <-b.done:
	case <-a.stop:
		return false
	}
	a.cur, a.i = b, 0
	return true
}

func (a *aheadPrepared) Message() *Message {
	if a.cur == nil {
		return &Message{}
	}
	return &a.cur.msgs[a.i]
}

func (a *aheadPrepared) Prepared() ([]byte, bool) {
	if a.cur == nil {
		return nil, false
	}
	start := 0
	if a.i > 0 {
		start = a.cur.ends[a.i-1]
	}
	return a.cur.out[start:a.cur.ends[a.i]], a.cur.ok[a.i]
}

// DataMayBeZstd is the storage iterator's answer for the current message
// (true, may be, when it gives none).
func (a *aheadPrepared) DataMayBeZstd() bool {
	if a.cur == nil || a.i >= len(a.cur.hint) {
		return true
	}
	return a.cur.hint[a.i]
}

// halt stops the read and the hooks and waits for them: the storage's
// iterator is then the caller's to ask.
func (a *aheadPrepared) halt() {
	a.stopOnce.Do(func() {
		close(a.stop)
		a.wg.Wait()
		a.halted = true
	})
}

func (a *aheadPrepared) Err() error {
	a.halt()
	return a.inner.Err()
}

func (a *aheadPrepared) Close() {
	a.halt()
	a.inner.Close()
}

// Skipped lists what the read skipped, as the storage's iterator says.
func (a *aheadPrepared) Skipped() []ByteRange {
	a.halt()
	return IterSkipped(a.inner)
}

// Suspects counts the suspect messages read, where the storage's
// iterator counts them.
func (a *aheadPrepared) Suspects() uint64 {
	a.halt()
	return suspectsOf(a.inner)
}

// LostMessages is the storage's iterator's, where it counts them.
func (a *aheadPrepared) LostMessages() uint64 {
	a.halt()
	if s, ok := a.inner.(interface{ LostMessages() uint64 }); ok {
		return s.LostMessages()
	}
	return 0
}

// LostRanges is the storage's iterator's (a recording of several files).
func (a *aheadPrepared) LostRanges() []LostRange {
	a.halt()
	return iterLost(a.inner)
}
