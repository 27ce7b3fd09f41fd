package bag

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// zstdMagic starts every zstd frame (compressedMessage spells it out).
// rosbag2's MESSAGE compression mode stores each message as one frame; a
// CDR message starts with 00 instead.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// MaxMessageSize bounds what a compressed message may inflate to.
const MaxMessageSize = 1 << 30

// messageZstd undoes rosbag2's MESSAGE compression mode for any format: a
// CDR message whose bytes are a zstd frame is decompressed as it is read.
type messageZstd struct {
	Storage
}

// WithMessageDecompression returns s reading every CDR message stored as a
// zstd frame (rosbag2's MESSAGE compression mode) decompressed. NewStorage
// applies it to every storage it opens; a storage without CDR connections
// is returned as it is.
func WithMessageDecompression(s Storage) Storage {
	for _, c := range s.Connections() {
		if c.Encoding == "cdr" {
			return &messageZstd{Storage: s}
		}
	}
	return s
}

// Unwrap returns the storage behind the decompression.
func (s *messageZstd) Unwrap() Storage { return s.Storage }

var zstdDecoders = sync.Pool{New: func() any {
	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxMessageSize))
	return d
}}

// compressedMessage reports whether m is a CDR message stored as a zstd frame.
func compressedMessage(m *Message) bool {
	d := m.Data
	// Spelled out, not bytes.HasPrefix: inlined, as it runs for every message.
	return len(d) >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd && m.Conn != nil && m.Conn.Encoding == "cdr"
}

// inflate replaces m.Data with its decompressed bytes, appended to buf.
func inflate(m *Message, buf []byte) ([]byte, error) {
	d := zstdDecoders.Get().(*zstd.Decoder)
	defer zstdDecoders.Put(d)
	out, err := d.DecodeAll(m.Data, buf[:0])
	if err != nil {
		return buf, fmt.Errorf("offset %d in block at %d: message on %s is a zstd frame that does not decompress: %w", m.DataOffset, m.Loc.Block, m.Conn.Topic, err)
	}
	m.Data = out
	return out, nil
}

func (s *messageZstd) Messages(f MessageFilter) MessageIter {
	it := &zstdIter{MessageIter: s.Storage.Messages(f)}
	it.hint, _ = it.MessageIter.(zstdHinter)
	return it
}

// zstdHinter is an iterator that knows whether the current message's data
// can be a zstd frame without the data being read again (an MCAP
// iterator looks when it decompresses the chunk, on another goroutine,
// while the bytes are in that core's cache).
type zstdHinter interface{ DataMayBeZstd() bool }

func (s *messageZstd) ReadMessage(conn uint32, loc Loc) (*Message, error) {
	m, err := s.Storage.ReadMessage(conn, loc)
	if err != nil || !compressedMessage(m) {
		return m, err
	}
	c := *m
	if _, err := inflate(&c, nil); err != nil {
		return nil, err
	}
	return &c, nil
}

// zstdIter decompresses the compressed messages of an iterator. A message
// that does not decompress is skipped and reported through Skipped.
type zstdIter struct {
	MessageIter
	buf  []byte
	hint zstdHinter // nil when the iterator gives no hint
	// cur is the message given: the iterator's own, or msg, a
	// decompressed copy.
	cur     *Message
	msg     Message
	skipped []ByteRange
}

func (it *zstdIter) Next() bool {
	for it.MessageIter.Next() {
		m := it.MessageIter.Message()
		if (it.hint != nil && !it.hint.DataMayBeZstd()) || !compressedMessage(m) {
			it.cur = m
			return true
		}
		it.msg = *m
		it.cur = &it.msg
		buf, err := inflate(&it.msg, it.buf)
		it.buf = buf
		if err != nil {
			it.skipped = append(it.skipped, ByteRange{Start: m.Loc.Block, End: m.Loc.Block, Why: err.Error()})
			continue
		}
		return true
	}
	return false
}

func (it *zstdIter) Message() *Message {
	if it.cur == nil {
		return &it.msg
	}
	return it.cur
}

// Unwrap returns the format's own iterator.
func (it *zstdIter) Unwrap() MessageIter { return it.MessageIter }

// Skipped lists what the read could not use: the iterator's own skipped
// ranges, then the messages that did not decompress.
func (it *zstdIter) Skipped() []ByteRange {
	var out []ByteRange
	if sk, ok := it.MessageIter.(interface{ Skipped() []ByteRange }); ok {
		out = append(out, sk.Skipped()...)
	}
	return append(out, it.skipped...)
}
