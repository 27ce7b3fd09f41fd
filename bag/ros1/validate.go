package ros1

import (
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// maxBadPerChunk bounds the undecodable messages a chunk lists; the rest
// are counted.
const maxBadPerChunk = 20

// badMessage is a message that does not decode against its definition.
type badMessage struct {
	off  uint32 // offset of its record in the chunk's data
	conn uint32
	err  error
}

// validator decodes every message of a chunk against its connection's
// definition, on the loading workers (see loadChunks). It is safe for
// concurrent use.
type validator struct {
	conns map[uint32]*Connection // read only
	cache rosmsg.Cache
}

// newValidator decodes the messages of conns.
func newValidator(conns map[uint32]*Connection) *validator {
	return &validator{conns: conns}
}

// plan returns the decoding plan of a connection's messages, or nil when
// it has none (no or a broken definition: the doctor reports those once).
func (v *validator) plan(conn uint32) *rosmsg.Plan {
	c := v.conns[conn]
	if c == nil || c.MessageDefinition == "" {
		return nil
	}
	p, err := v.cache.GetSchema("ros1msg", "ros1", c.Type, c.MessageDefinition)
	if err != nil {
		return nil
	}
	return p
}

// chunk validates the messages in l.data up to its first damaged record,
// filling l.bad and l.moreBad.
func (v *validator) chunk(l *loadedChunk) {
	data := l.data
	var lastConn uint32
	var lastPlan *rosmsg.Plan
	havePlan := false
	var plans chunkConns[*rosmsg.Plan]
	for off := 0; off+8 <= len(data); {
		dstart, end, ok := recordAt(data, off)
		if !ok {
			return
		}
		op, conn, _, hasConn, _, ok, _ := scanHeaderPlain(data[off+4 : dstart-4])
		if !ok || op == 0 {
			return
		}
		if op == OpMessageData && hasConn {
			if !havePlan || conn != lastConn {
				p, ok := plans.find(conn)
				if !ok {
					p = v.plan(conn)
					plans.keep(conn, p)
				}
				lastConn, lastPlan, havePlan = conn, p, true
			}
			if lastPlan != nil {
				if err := lastPlan.Validate(data[dstart:end]); err != nil {
					if len(l.bad) < maxBadPerChunk {
						l.bad = append(l.bad, badMessage{uint32(off), conn, err})
					} else {
						l.moreBad++
					}
				}
			}
		}
		off = end
	}
}
