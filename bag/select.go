package bag

import "slices"

// Select returns a view of s that holds only what f selects: the
// connections f names (by topic or ID; all when it names none) and, of
// their messages, those in f's time range. A writer given the view (a
// converted or repaired copy of part of a recording) writes only those.
// Summary, Blocks, BlockIndex and Check still describe the whole
// recording, and ReadMessage reads any message a Loc names. A zero f
// returns s itself.
//
// The view does not unwrap to s: what a writer copies from a format's own
// reader besides the messages (an MCAP's attachments and metadata) is
// left out, as `mcap filter` leaves it out unless asked.
func Select(s Storage, f MessageFilter) Storage {
	if len(f.Topics) == 0 && len(f.Conns) == 0 && f.Start.IsZero() && f.End.IsZero() {
		return s
	}
	v := &selected{Storage: s, f: f, byID: map[uint32]*Connection{}}
	for _, c := range s.Connections() {
		if f.selectsConn(c) {
			v.conns = append(v.conns, c)
			v.byID[c.ID] = c
		}
	}
	return v
}

// selectsConn reports whether f selects the connection c (its time range
// aside).
func (f MessageFilter) selectsConn(c *Connection) bool {
	if len(f.Topics) == 0 && len(f.Conns) == 0 {
		return true
	}
	return slices.Contains(f.Topics, c.Topic) || slices.Contains(f.Conns, c.ID)
}

// selected is Select's view.
type selected struct {
	Storage
	f     MessageFilter
	conns []*Connection
	byID  map[uint32]*Connection
}

func (v *selected) Connections() []*Connection { return v.conns }

func (v *selected) Connection(id uint32) *Connection { return v.byID[id] }

// Messages reads the messages both the view's filter and g select.
func (v *selected) Messages(g MessageFilter) MessageIter {
	f := MessageFilter{Start: v.f.Start, End: v.f.End}
	for _, c := range v.conns {
		if g.selectsConn(c) {
			f.Conns = append(f.Conns, c.ID)
		}
	}
	if f.Start.Before(g.Start) {
		f.Start = g.Start
	}
	if !g.End.IsZero() && (f.End.IsZero() || g.End.Before(f.End)) {
		f.End = g.End
	}
	if len(f.Conns) == 0 || !f.End.IsZero() && f.End.Before(f.Start) {
		return noMessages{}
	}
	return v.Storage.Messages(f)
}

// noMessages is an iterator over nothing.
type noMessages struct{}

func (noMessages) Next() bool        { return false }
func (noMessages) Message() *Message { return nil }
func (noMessages) Err() error        { return nil }
func (noMessages) Close()            {}
