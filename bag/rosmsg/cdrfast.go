package rosmsg

// cdrProg is a message type's CDR skip program for Validate: its fields
// with every run of fixed-layout fields (primitives, fixed arrays of them,
// messages made only of those) merged into one step whose length depends
// only on where the run starts modulo 8, since CDR aligns every value to
// its size, at most 8, counted from the byte after the 4-byte header.
type cdrProg struct {
	steps []cdrStep
}

type cdrStep struct {
	run   bool
	size  [8]int     // run: bytes consumed from a start at phase p
	field *FieldPlan // otherwise: the field, skipped as cdrSkipField does
}

// cdrFixed reports whether field f's layout does not depend on the data.
func cdrFixed(f *FieldPlan, seen map[*MsgPlan]bool) bool {
	if f.Size == 0 {
		return true
	}
	if f.Array && f.Len < 0 {
		return false
	}
	switch f.Kind {
	case KindString, KindWString:
		return false
	case KindMessage:
		return cdrFixedMsg(f.Msg, seen)
	}
	return f.ElemSize > 0
}

func cdrFixedMsg(m *MsgPlan, seen map[*MsgPlan]bool) bool {
	if m == nil || seen[m] {
		return false
	}
	seen[m] = true
	defer delete(seen, m)
	for i := range m.Fields {
		if !cdrFixed(&m.Fields[i], seen) {
			return false
		}
	}
	return true
}

// cdrSimField advances off over a fixed-layout field, as cdrSkipField
// would over any data long enough.
func cdrSimField(f *FieldPlan, off int) int {
	if f.Size == 0 {
		return off
	}
	n := 1
	if f.Array {
		n = f.Len
		if n == 0 {
			return off
		}
	}
	if f.Kind == KindMessage {
		if f.Msg.Size == 0 {
			return off
		}
		for range n {
			off = cdrSimMsg(f.Msg, off)
		}
		return off
	}
	return cdrAlign(off, f.ElemSize) + n*f.ElemSize
}

func cdrSimMsg(m *MsgPlan, off int) int {
	if m.Size == 0 {
		return off
	}
	if len(m.Fields) == 0 {
		return off + 1
	}
	for i := range m.Fields {
		off = cdrSimField(&m.Fields[i], off)
	}
	return off
}

// progOf returns m's skip program, building it once.
func progOf(m *MsgPlan) *cdrProg {
	if p := m.prog.Load(); p != nil {
		return p
	}
	p := &cdrProg{}
	var run []*FieldPlan
	flush := func() {
		if len(run) == 0 {
			return
		}
		st := cdrStep{run: true}
		for ph := range 8 {
			off := 4 + ph
			for _, f := range run {
				off = cdrSimField(f, off)
			}
			st.size[ph] = off - 4 - ph
		}
		p.steps = append(p.steps, st)
		run = run[:0]
	}
	for i := range m.Fields {
		f := &m.Fields[i]
		if cdrFixed(f, map[*MsgPlan]bool{}) {
			run = append(run, f)
			continue
		}
		flush()
		p.steps = append(p.steps, cdrStep{field: f})
	}
	flush()
	if m.prog.CompareAndSwap(nil, p) {
		return p
	}
	return m.prog.Load()
}

// cdrSkipMsgFast is cdrSkipMsg through m's skip program.
func cdrSkipMsgFast(m *MsgPlan, data []byte, off int, be bool) (int, bool) {
	if m.Size == 0 {
		return off, true
	}
	if len(m.Fields) == 0 {
		if off >= len(data) {
			return off, false
		}
		return off + 1, true
	}
	for _, st := range progOf(m).steps {
		if st.run {
			n := st.size[(off-4)&7]
			if n > len(data)-off {
				return off, false
			}
			off += n
			continue
		}
		f := st.field
		var ok bool
		switch {
		case f.Kind == KindMessage && !f.Array:
			off, ok = cdrSkipMsgFast(f.Msg, data, off, be)
		case f.Kind == KindMessage && f.Msg.Size != 0:
			off, ok = cdrSkipMsgArray(f, data, off, be)
		default:
			off, ok = cdrSkipField(f, data, off, be)
		}
		if !ok {
			return off, false
		}
	}
	return off, true
}

// cdrSkipMsgArray skips an array of messages element by element through
// the element type's program, bounded as cdrSkipElems bounds it.
func cdrSkipMsgArray(f *FieldPlan, data []byte, off int, be bool) (int, bool) {
	n := f.Len
	if n < 0 {
		off = cdrAlign(off, 4)
		if off > len(data)-4 {
			return off, false
		}
		n = int(cdrU32(data, off, be))
		off += 4
	}
	if n == 0 {
		return off, true
	}
	min := f.Msg.MinSize
	if left := len(data) - off; left < 0 || min > 0 && n > left/min || min == 0 && n > maxZeroSizeCount {
		return off, false
	}
	var ok bool
	for range n {
		if off, ok = cdrSkipMsgFast(f.Msg, data, off, be); !ok {
			return off, false
		}
	}
	return off, true
}
