package expr

import (
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// stepKind is one move of a field path's walk.
type stepKind uint8

const (
	sField stepKind = iota // from a message's start to its field k (a new level)
	sIndex                 // from array field f to element idx
	sKey                   // to the first element whose key (in a key array) is key
	sMatch                 // to the first element whose match read equals the value
)

// step is one move of a walk; a walk goes from a message start (the
// message's first field, or an element's start) to a value.
type step struct {
	kind stepKind
	m    *rosmsg.MsgPlan   // sField: the message
	k    int               // sField: the field
	f    *rosmsg.FieldPlan // sIndex, sKey, sMatch: the array
	idx  int
	// sKey: the key array is field keyField of the message whose start
	// the walk saw at level keyLevel.
	key      string
	keyLevel int
	keyMsg   *rosmsg.MsgPlan
	keyField int
	// sMatch: what is read from each element and the value it must equal.
	match    *walk
	matchStr bool
	matchNum float64
}

// walk is a compiled field path from a base (the message, or the current
// element of a var) to a leaf.
type walk struct {
	base  int // var id, or -1 for the message
	steps []step
	leaf  leaf
	keyed bool // has an sKey step, which needs the message starts
}

type leafKind uint8

const (
	lScalar  leafKind = iota // a number or bool of field.Kind (part: time secs or nsecs)
	lString                  // a string or wstring
	lTimeMsg                 // a ROS 2 Time or Duration message, read as seconds
	lMsg                     // a message (for len and norm)
	lArray                   // an array field without selector (for len, norm, min, ...)
)

type leaf struct {
	kind  leafKind
	field *rosmsg.FieldPlan // the field read (the array for lArray)
	vk    rosmsg.Kind       // lScalar: the kind read
	part  uint8             // lScalar of time or duration: 1 secs, 2 nsecs
	msg   *rosmsg.MsgPlan   // lMsg, lTimeMsg
}

// status of a walk.
type status uint8

const (
	stOK     status = iota
	stAbsent        // an index, key or match this message does not hold
	stBad           // the data ends inside the walk
)

// levels is how many message starts a walk remembers for key arrays.
const maxLevels = 32

// locate runs w's steps from its base and returns the leaf's offset.
func (s *State) locate(w *walk) (int, status) {
	if w.keyed {
		var levels [maxLevels]int
		return s.walkFrom(w, &levels)
	}
	return s.walkFrom(w, nil)
}

// walkFrom is locate, saving the message starts in levels when not nil.
func (s *State) walkFrom(w *walk, levels *[maxLevels]int) (int, status) {
	off := s.root
	if w.base >= 0 {
		off = s.vars[w.base].off
	}
	nl := 0
	cur := s.cur
	for i := range w.steps {
		st := &w.steps[i]
		switch st.kind {
		case sField:
			if levels != nil && nl < maxLevels {
				levels[nl] = off
			}
			nl++
			var ok bool
			if off, ok = s.ff.FieldOffset(cur, st.m, off, st.k); !ok {
				return s.bad(off)
			}
		case sIndex:
			n, first, ok := cur.Array(st.f, off)
			if !ok {
				return s.bad(off)
			}
			if st.idx >= n {
				return off, stAbsent
			}
			if off, ok = s.elemAt(st.f, first, st.idx); !ok {
				return s.bad(off)
			}
			if s.err != nil {
				return off, stBad
			}
		case sKey:
			n, first, ok := cur.Array(st.f, off)
			if !ok {
				return s.bad(off)
			}
			if levels == nil || st.keyLevel >= nl || st.keyLevel >= maxLevels {
				return off, stAbsent
			}
			kmsg := st.keyMsg
			ko, ok := s.ff.FieldOffset(cur, kmsg, levels[st.keyLevel], st.keyField)
			if !ok {
				return s.bad(ko)
			}
			kf := &kmsg.Fields[st.keyField]
			kn, kfirst, ok := cur.Array(kf, ko)
			if !ok {
				return s.bad(ko)
			}
			if kn != n {
				return off, stAbsent
			}
			found := -1
			for j := 0; j < kn; j++ {
				if !s.step() {
					return off, stBad
				}
				var b []byte
				b, kfirst, ok = cur.Str(kf.Kind, kfirst, s.keyBuf[:0])
				if !ok {
					return s.bad(kfirst)
				}
				if string(b) == st.key {
					found = j
					break
				}
			}
			if found < 0 {
				return off, stAbsent
			}
			if off, ok = s.elemAt(st.f, first, found); !ok {
				return s.bad(off)
			}
			if s.err != nil {
				return off, stBad
			}
		case sMatch:
			n, first, ok := cur.Array(st.f, off)
			if !ok {
				return s.bad(off)
			}
			stride := cur.Stride(st.f)
			elem := first
			found := false
			for j := 0; j < n; j++ {
				if !s.step() {
					return off, stBad
				}
				if s.matches(st, elem) {
					found = true
					break
				}
				if s.err != nil {
					return off, stBad
				}
				if stride >= 0 {
					elem += stride
				} else if elem, ok = cur.SkipElem(st.f, elem); !ok {
					return s.bad(elem)
				}
			}
			if !found {
				return off, stAbsent
			}
			off = elem
		}
	}
	return off, stOK
}

// matches reports whether the element at elem has the match value.
func (s *State) matches(st *step, elem int) bool {
	saved := s.root
	s.root = elem
	off, status := s.locate(st.match)
	s.root = saved
	if status != stOK {
		return false
	}
	l := &st.match.leaf
	switch l.kind {
	case lString:
		b, _, ok := s.cur.Str(l.vk, off, s.keyBuf[:0])
		if !ok {
			s.bad(off)
			return false
		}
		return string(b) == st.key
	case lScalar, lTimeMsg:
		v := s.readLeaf(l, off, -1)
		return v.k != vNone && v.float() == st.matchNum
	}
	return false
}

// elemAt returns the offset of element i of array f whose first element
// is at first.
func (s *State) elemAt(f *rosmsg.FieldPlan, first, i int) (int, bool) {
	if stride := s.cur.Stride(f); stride >= 0 {
		return first + i*stride, true
	}
	off := first
	var ok bool
	for range i {
		if !s.step() {
			return off, true
		}
		if off, ok = s.cur.SkipElem(f, off); !ok {
			return off, false
		}
	}
	return off, true
}

// bad records that the data ends inside a walk.
func (s *State) bad(off int) (int, status) {
	if s.err == nil {
		s.err = &DataError{Offset: off}
	}
	return off, stBad
}

// step counts one unit of work and reports whether the budget allows it.
func (s *State) step() bool {
	s.steps++
	if s.steps > MaxSteps {
		if s.err == nil {
			s.err = ErrBudget
		}
		return false
	}
	return true
}

// scalarVal is the value of the bits Cursor.Scalar reads of kind k.
func scalarVal(k rosmsg.Kind, bits uint64) val {
	if k == rosmsg.KindBool {
		return val{k: vBool, i: int64(bits)}
	}
	if i, ok := rosmsg.ScalarInt(k, bits); ok {
		return val{k: vInt, i: i}
	}
	switch k {
	case rosmsg.KindTime:
		return val{k: vFloat, f: rosmsg.ScalarFloat(k, bits), i: int64(uint32(bits))*1e9 + int64(uint32(bits>>32)), tm: 1}
	case rosmsg.KindDuration:
		return val{k: vFloat, f: rosmsg.ScalarFloat(k, bits), i: int64(int32(uint32(bits)))*1e9 + int64(int32(uint32(bits>>32))), tm: 2}
	}
	return val{k: vFloat, f: rosmsg.ScalarFloat(k, bits)}
}

// readLeaf reads the value of leaf l at off (recording it as term id's
// value when id >= 0).
func (s *State) readLeaf(l *leaf, off int, id int) val {
	cur := s.cur
	switch l.kind {
	case lScalar:
		k := l.vk
		if l.part != 0 {
			// A ROS 1 time or duration's secs (int32/uint32) or nsecs.
			if l.part == 2 {
				off += 4
			}
			k = rosmsg.KindUint32
			if l.vk == rosmsg.KindDuration {
				k = rosmsg.KindInt32
			}
		}
		bits, ok := cur.Scalar(k, off)
		if !ok {
			s.bad(off)
			return val{}
		}
		return scalarVal(k, bits)
	case lString:
		var buf []byte
		if id >= 0 {
			buf = s.wbuf[id]
		}
		b, _, ok := cur.Str(l.vk, off, buf)
		if !ok {
			s.bad(off)
			return val{}
		}
		if l.vk == rosmsg.KindWString && id >= 0 {
			s.wbuf[id] = b
		}
		return val{k: vStr, s: b}
	case lTimeMsg:
		sec, ok1 := cur.Scalar(rosmsg.KindInt32, off)
		nsec, ok2 := cur.Scalar(rosmsg.KindUint32, off+4)
		if !ok1 || !ok2 {
			s.bad(off)
			return val{}
		}
		tm := uint8(1)
		if strings.HasSuffix(l.msg.Type, "/Duration") {
			tm = 2
		}
		return val{k: vFloat, f: float64(int64(int32(uint32(sec)))) + float64(uint32(nsec))*1e-9,
			i: int64(int32(uint32(sec)))*1e9 + int64(uint32(nsec)), tm: tm}
	case lMsg:
		return val{k: vBool, i: 1}
	}
	return val{}
}
