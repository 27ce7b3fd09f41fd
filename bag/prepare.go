package bag

// Prepare is work on one message that needs no other message (decoding
// it, formatting it as text): run ahead of a time-ordered read on the
// goroutines that read the messages, where the format reads in parallel
// (an MCAP file's chunk workers, while the chunk's bytes are in that
// core's cache), so that the goroutine that merges the messages in time
// order only orders them. It appends what it makes of m to dst and
// returns it, with ok false when it leaves the message to the reader
// (the reader then does the work itself, in order, as without a hook).
// It is called from several goroutines at once, at most once per message;
// m and its Data are valid during the call only.
type Prepare func(m *Message, dst []byte) (out []byte, ok bool)

// PreparedIter is a time-ordered message iterator that also gives what
// its Prepare made of the current message.
type PreparedIter interface {
	MessageIter
	// Prepared returns the bytes Prepare appended for the current message
	// and whether it prepared it; valid until the next call to Next.
	Prepared() ([]byte, bool)
}

// Preparer is a Storage whose time-ordered read runs a Prepare on the
// goroutines that read the messages. The bytes prepared are held with the
// chunk they came from, and count against the bound on what is read ahead.
type Preparer interface {
	PreparedMessages(f MessageFilter, prep Prepare) PreparedIter
}

// PreparedMessages iterates over the messages of s that f selects, in the
// order and with the damage reporting of s.Messages(f), giving with each
// what prep made of it: prepared on the goroutines that read the messages
// where s reads in parallel (Preparer, through the seam's own wrappers),
// else on goroutines of their own, ahead of the caller (prepareAhead), or,
// with one core, on this goroutine as Next gives the message. The iterator answers
// the same optional questions as s.Messages' (Skipped, Suspects, ...),
// through Unwrap.
func PreparedMessages(s Storage, f MessageFilter, prep Prepare) PreparedIter {
	switch v := s.(type) {
	case Preparer:
		return v.PreparedMessages(f, prep)
	case *fileStorage:
		return PreparedMessages(v.Storage, f, prep)
	case *messageZstd:
		// The hook sees the message decompressed, as the reader does.
		inner := PreparedMessages(v.Storage, f, inflatingPrepare(prep))
		it := &zstdIter{MessageIter: inner}
		it.hint, _ = inner.(zstdHinter)
		if it.hint == nil {
			if u, ok := inner.(interface{ Unwrap() MessageIter }); ok {
				it.hint, _ = u.Unwrap().(zstdHinter)
			}
		}
		return &zstdPrepared{zstdIter: it, inner: inner}
	}
	// A storage that reads on one goroutine: the hook runs on the other
	// cores, the read on a goroutine of its own (prepare_ahead.go).
	return prepareAhead(s.Messages(f), prep)
}

// inflatingPrepare runs prep on a message decompressed as messageZstd
// gives it; a message that does not decompress is left to the reader
// (which skips it and says so).
func inflatingPrepare(prep Prepare) Prepare {
	var pool = make(chan []byte, 8)
	return func(m *Message, dst []byte) ([]byte, bool) {
		if !compressedMessage(m) {
			return prep(m, dst)
		}
		var buf []byte
		select {
		case buf = <-pool:
		default:
		}
		c := *m
		buf, err := inflate(&c, buf)
		if err != nil {
			return dst, false
		}
		out, ok := prep(&c, dst)
		select {
		case pool <- buf:
		default:
		}
		return out, ok
	}
}

// zstdPrepared is messageZstd's prepared read: the format's prepared
// iterator, its messages decompressed on this goroutine as zstdIter does
// (what the hook made of them was made from them decompressed).
type zstdPrepared struct {
	*zstdIter
	inner PreparedIter
}

func (it *zstdPrepared) Prepared() ([]byte, bool) { return it.inner.Prepared() }

// inlinePrepared runs the hook on the reading goroutine, for a storage
// that does not read in parallel.
type inlinePrepared struct {
	MessageIter
	prep Prepare
	buf  []byte
	ok   bool
}

func (it *inlinePrepared) Next() bool {
	if !it.MessageIter.Next() {
		return false
	}
	it.buf, it.ok = it.prep(it.MessageIter.Message(), it.buf[:0])
	return true
}

func (it *inlinePrepared) Prepared() ([]byte, bool) { return it.buf, it.ok }

// Unwrap returns the storage's own iterator.
func (it *inlinePrepared) Unwrap() MessageIter { return it.MessageIter }

// Skipped lists what the read skipped, as the storage's iterator says.
func (it *inlinePrepared) Skipped() []ByteRange { return IterSkipped(it.MessageIter) }

// Suspects counts the suspect messages given, where the storage's
// iterator counts them.
func (it *inlinePrepared) Suspects() uint64 {
	if s, ok := it.MessageIter.(interface{ Suspects() uint64 }); ok {
		return s.Suspects()
	}
	return 0
}

// LostMessages is the storage's iterator's, where it counts them.
func (it *inlinePrepared) LostMessages() uint64 {
	if s, ok := it.MessageIter.(interface{ LostMessages() uint64 }); ok {
		return s.LostMessages()
	}
	return 0
}

// LostRanges is the storage's iterator's (a recording of several files).
func (it *inlinePrepared) LostRanges() []LostRange { return iterLost(it.MessageIter) }

// PrepareInline gives it with prep run on this goroutine as Next gives
// each message: for a read of a few messages, which need not prepare whole
// chunks ahead.
func PrepareInline(it MessageIter, prep Prepare) PreparedIter {
	return &inlinePrepared{MessageIter: it, prep: prep}
}
