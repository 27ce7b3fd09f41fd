package rosmsg

// msgLayout is a message type's field layout plan for one wire format: the
// fields whose size depends on the data (strings, variable arrays, messages
// holding those) and, for each field, the bytes from the end of the last
// such field before it (or from the message's start) to its start. Those
// bytes depend only on where they start modulo 8 in CDR, which aligns every
// value to its size (at most 8) counted from the byte after the 4-byte
// header, and not at all in ROS 1, which has no alignment. The fixed-size
// fields and fixed arrays in between are jumped over without reading them.
type msgLayout struct {
	vars   []int    // the variable-size fields, in definition order
	before []int32  // per field: how many variable-size fields precede it
	tail   [][8]int // per field: bytes from the base to its start, by phase
}

// layoutOf returns m's layout plan for the wire format (cdr or ROS 1),
// building it once.
func layoutOf(m *MsgPlan, cdr bool) *msgLayout {
	i := 0
	if cdr {
		i = 1
	}
	if l := m.layout[i].Load(); l != nil {
		return l
	}
	l := &msgLayout{before: make([]int32, len(m.Fields)), tail: make([][8]int, len(m.Fields))}
	var run []*FieldPlan // fixed fields since the last variable one
	for k := range m.Fields {
		f := &m.Fields[k]
		l.before[k] = int32(len(l.vars))
		for ph := range 8 {
			off := 4 + ph
			for _, g := range run {
				if cdr {
					off = cdrSimField(g, off)
				} else {
					off += g.Size
				}
			}
			l.tail[k][ph] = off - 4 - ph
		}
		fixed := f.Size >= 0
		if cdr {
			fixed = cdrFixed(f, map[*MsgPlan]bool{})
		}
		if fixed {
			run = append(run, f)
		} else {
			l.vars = append(l.vars, k)
			run = run[:0]
		}
	}
	if m.layout[i].CompareAndSwap(nil, l) {
		return l
	}
	return m.layout[i].Load()
}

// FieldFinder finds the offsets of fields through each message type's
// layout plan, and remembers, for the last few message starts it was asked
// about, where the variable-size fields it skipped end: a later look-up in
// the same message (another term of an expression, a later field) goes on
// from there instead of from the message's start. It gives exactly what
// Cursor.FieldOffset gives. Reset it for each new message data; the zero
// value is ready to use. A FieldFinder is one goroutine's.
type FieldFinder struct {
	memo [finderMemos]finderMemo
	next int
	gen  uint32 // the memos of this message data have this gen
}

const finderMemos = 8

// finderMemo is the ends of the first n variable-size fields of the
// message of plan m starting at start.
type finderMemo struct {
	m     *MsgPlan
	start int
	gen   uint32
	ends  []int
}

// Reset forgets the message starts seen (call it for each new message).
func (ff *FieldFinder) Reset() {
	ff.gen++
	if ff.gen == 0 {
		for i := range ff.memo {
			ff.memo[i].m = nil
		}
	}
}

// FieldOffset is Cursor.FieldOffset through the layout plan of m.
func (ff *FieldFinder) FieldOffset(c Cursor, m *MsgPlan, off, k int) (int, bool) {
	if k < 0 || k >= len(m.Fields) {
		return off, false
	}
	if k == 0 {
		return off, true
	}
	if !c.cdr && m.Fields[k].Offset >= 0 {
		return c.FieldOffset(m, off, k)
	}
	l := layoutOf(m, c.cdr)
	start, base := off, off
	if nv := int(l.before[k]); nv > 0 {
		var ok bool
		if base, ok = ff.varEnd(c, m, l, start, nv); !ok {
			return c.FieldOffset(m, start, k)
		}
	}
	off = base + l.tail[k][(base-4)&7]
	if base < 0 || off > len(c.data) {
		// Some field before k does not fit: let the plain walk say where.
		return c.FieldOffset(m, start, k)
	}
	return off, true
}

// varEnd returns the end of variable-size field nv-1 (the nv-th) of the
// message of plan m at start, going on from the memo of that start.
func (ff *FieldFinder) varEnd(c Cursor, m *MsgPlan, l *msgLayout, start, nv int) (int, bool) {
	var me *finderMemo
	for i := range ff.memo {
		if ff.memo[i].m == m && ff.memo[i].start == start && ff.memo[i].gen == ff.gen {
			me = &ff.memo[i]
			break
		}
	}
	if me == nil {
		me = &ff.memo[ff.next]
		ff.next = (ff.next + 1) % finderMemos
		me.m, me.start, me.gen, me.ends = m, start, ff.gen, me.ends[:0]
	}
	for len(me.ends) < nv {
		j := len(me.ends)
		base := start
		if j > 0 {
			base = me.ends[j-1]
		}
		k := l.vars[j]
		off := base + l.tail[k][(base-4)&7]
		if base < 0 || off > len(c.data) {
			return off, false
		}
		f := &m.Fields[k]
		var ok bool
		if c.cdr && f.Kind == KindMessage && !f.Array && f.Size != 0 {
			// Through the type's skip program, as Validate skips it.
			off, ok = cdrSkipMsgFast(f.Msg, c.data, off, c.be)
		} else {
			off, ok = c.Skip(f, off)
		}
		if !ok {
			return off, false
		}
		me.ends = append(me.ends, off)
	}
	return me.ends[nv-1], true
}
