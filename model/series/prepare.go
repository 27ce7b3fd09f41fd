package series

import (
	"encoding/binary"
	"math"
	"sync"

	"github.com/bagscope/bagscope/bag"
)

// The extraction reads its fields on the goroutines that read the
// messages (bag.PreparedMessages): prepared encodes, per message, what
// the time-ordered loop would read from the message's bytes (its header
// stamp, and each slot's values in the order the walk gives them, with
// their names where the series are named per element), and replay hands
// them to the sinks in time order. The sinks keep all the state.
//
// A message's bytes: when the connection needs a stamp, 1 and the stamp
// (8 bytes), or 0 and nothing more (the stamp cannot be read); then per
// slot with a path: the count of values (4 bytes), 1 if the walk failed
// (1 byte), and each value as its name's length (2 bytes) and name, when
// the reference's series are named per element, then its bits (8 bytes).

// recorder is the Sink the workers walk into.
type recorder struct {
	b     []byte
	n     uint32
	names bool
	name  []byte
	over  bool // a name too long to record: the message is left to the loop
}

func (w *recorder) Value(name []byte, v float64) {
	w.n++
	if w.names {
		if len(name) > math.MaxUint16 {
			w.over = true
			return
		}
		w.b = binary.LittleEndian.AppendUint16(w.b, uint16(len(name)))
		w.b = append(w.b, name...)
	}
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}

var recorders = sync.Pool{New: func() any { return new(recorder) }}

// prepare reads what the loop reads of m (see above); byConn is only read.
func prepare(byConn map[uint32]*connSlots, m *bag.Message, dst []byte) ([]byte, bool) {
	cs := byConn[m.Conn.ID]
	if cs == nil {
		return dst, false
	}
	if cs.needStamp {
		stamp, err := cs.stamp.Nanos(m.Data)
		if err != nil {
			return append(dst, 0), true
		}
		dst = append(dst, 1)
		dst = binary.LittleEndian.AppendUint64(dst, uint64(stamp))
	}
	w := recorders.Get().(*recorder)
	defer recorders.Put(w)
	for _, sl := range cs.slots {
		if sl.sel == nil {
			continue
		}
		at := len(dst)
		w.b, w.n, w.names, w.over = append(dst, 0, 0, 0, 0, 0), 0, sl.r.fixed == nil, false
		w.name = append(w.name[:0], sl.r.ref.Topic...)
		w.name = append(w.name, '.')
		var err error
		w.name, err = sl.sel.Walk(m.Data, w.name, w)
		dst = w.b
		w.b = nil
		if w.over {
			return dst[:at], false
		}
		binary.LittleEndian.PutUint32(dst[at:], w.n)
		if err != nil {
			dst[at+4] = 1
		}
	}
	return dst, true
}

// preparedStamp reads the stamp prepare recorded: the rest of b, the
// stamp, and whether it could be read.
func preparedStamp(b []byte) ([]byte, int64, bool) {
	if b[0] == 0 {
		return b[1:], 0, false
	}
	return b[9:], int64(binary.LittleEndian.Uint64(b[1:])), true
}

// replay hands one slot's recorded values to r and returns the rest of b
// and whether the walk failed.
func replay(b []byte, r *refSink) ([]byte, bool) {
	n := binary.LittleEndian.Uint32(b)
	failed := b[4] != 0
	b = b[5:]
	for range n {
		var name []byte
		if r.fixed == nil {
			l := int(binary.LittleEndian.Uint16(b))
			name, b = b[2:2+l], b[2+l:]
		}
		r.Value(name, math.Float64frombits(binary.LittleEndian.Uint64(b)))
		b = b[8:]
	}
	return b, failed
}
