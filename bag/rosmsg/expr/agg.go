package expr

import (
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// varDef is an array whose elements a [*] or a range walks: the paths
// that share its text up to the selector read the same element.
type varDef struct {
	id     int
	text   string // the path up to and including the selector
	parent int    // the var whose element the walk starts from, or -1
	steps  *walk  // from the parent's element (or the message) to the array field
	f      *rosmsg.FieldPlan
	lo, hi int // elements [lo, hi); hi -1 is open
	depth  int // vars above it, itself included
}

// varState is a var's current element.
type varState struct {
	off int
	idx int
}

type aggFunc uint8

const (
	gAny aggFunc = iota
	gAll
	gCount // true iterations
	gLen   // iterations with a value
	gMin
	gMax
	gSum
	gMean
	gNorm
)

var aggNames = map[string]aggFunc{"any": gAny, "all": gAll, "count": gCount, "len": gLen,
	"min": gMin, "max": gMax, "sum": gSum, "mean": gMean, "norm": gNorm}

// aggNode evaluates its argument for every combination of elements of the
// vars it binds, and combines the values.
type aggNode struct {
	fn   aggFunc
	arg  node
	vars []*varDef // bound here, parents first
}

type accum struct {
	fn      aggFunc
	n       int64 // values seen (gCount: true ones)
	unknown bool
	best    val
	sum     float64
	isInt   bool
	isum    int64
	done    bool // decided (any found true, all found false)
}

func (a *aggNode) eval(s *State) val {
	acc := accum{fn: a.fn, isInt: true}
	a.loop(s, 0, &acc)
	if s.err != nil {
		return val{}
	}
	return acc.result()
}

// loop walks the elements of var vi and those after it.
func (a *aggNode) loop(s *State, vi int, acc *accum) {
	if vi == len(a.vars) {
		acc.add(a.arg.eval(s))
		return
	}
	vd := a.vars[vi]
	off, st := s.locate(vd.steps)
	if st != stOK {
		if st == stAbsent {
			acc.unknown = true
		}
		return
	}
	n, first, ok := s.cur.Array(vd.f, off)
	if !ok {
		s.bad(off)
		return
	}
	lo, hi := min(vd.lo, n), n
	if vd.hi >= 0 {
		hi = min(vd.hi, n)
	}
	stride := s.cur.Stride(vd.f)
	elem := first
	if lo > 0 {
		if elem, ok = s.elemAt(vd.f, first, lo); !ok {
			s.bad(elem)
			return
		}
	}
	saved := s.vars[vd.id]
	defer func() { s.vars[vd.id] = saved }()
	for i := lo; i < hi; i++ {
		if !s.step() {
			return
		}
		s.vars[vd.id] = varState{off: elem, idx: i}
		a.loop(s, vi+1, acc)
		if acc.done || s.err != nil {
			return
		}
		if i+1 < hi {
			if stride >= 0 {
				elem += stride
			} else if elem, ok = s.cur.SkipElem(vd.f, elem); !ok {
				s.bad(elem)
				return
			}
		}
	}
}

func (acc *accum) add(v val) {
	switch acc.fn {
	case gAny:
		switch {
		case v.isTrue():
			acc.done, acc.n = true, 1
		case v.k == vNone:
			acc.unknown = true
		}
	case gAll:
		switch {
		case v.k == vBool && v.i == 0:
			acc.done, acc.n = true, 1
		case v.k == vNone:
			acc.unknown = true
		}
	case gCount:
		if v.isTrue() {
			acc.n++
		}
	case gLen:
		if v.k != vNone {
			acc.n++
		}
	default:
		if v.k != vInt && v.k != vFloat {
			return
		}
		acc.n++
		switch acc.fn {
		case gMin, gMax:
			if acc.n == 1 {
				acc.best = v
				return
			}
			c, ok := compare(v, acc.best)
			if !ok {
				acc.best = val{k: vFloat, f: math.NaN()}
				acc.done = true
			} else if acc.fn == gMax && c > 0 || acc.fn == gMin && c < 0 {
				acc.best = v
			}
		case gNorm:
			f := v.float()
			acc.sum += f * f
		default: // sum, mean
			if acc.isInt && v.k == vInt {
				r := acc.isum + v.i
				if (r > acc.isum) == (v.i > 0) {
					acc.isum = r
					acc.sum += float64(v.i)
					return
				}
			}
			if acc.isInt {
				acc.isInt = false
				acc.sum = float64(acc.isum)
			}
			acc.sum += v.float()
		}
	}
}

func (acc *accum) result() val {
	switch acc.fn {
	case gAny:
		if acc.done {
			return boolVal(true)
		}
		if acc.unknown {
			return val{}
		}
		return boolVal(false)
	case gAll:
		if acc.done {
			return boolVal(false)
		}
		if acc.unknown {
			return val{}
		}
		return boolVal(true)
	case gCount, gLen:
		return val{k: vInt, i: acc.n}
	case gMin, gMax:
		return acc.best
	case gNorm:
		return val{k: vFloat, f: math.Sqrt(acc.sum)}
	case gSum:
		if acc.isInt {
			return val{k: vInt, i: acc.isum}
		}
		return val{k: vFloat, f: acc.sum}
	case gMean:
		if acc.n == 0 {
			return val{}
		}
		if acc.isInt {
			return val{k: vFloat, f: float64(acc.isum) / float64(acc.n)}
		}
		return val{k: vFloat, f: acc.sum / float64(acc.n)}
	}
	return val{}
}

// arrayNode combines the elements of an array field named without a
// selector: len(ranges), norm(position), max(ranges).
type arrayNode struct {
	fn aggFunc
	w  *walk
}

func (a *arrayNode) eval(s *State) val {
	off, st := s.locate(a.w)
	if st != stOK {
		return val{}
	}
	f := a.w.leaf.field
	n, first, ok := s.cur.Array(f, off)
	if !ok {
		s.bad(off)
		return val{}
	}
	if a.fn == gLen {
		return val{k: vInt, i: int64(n)}
	}
	acc := accum{fn: a.fn, isInt: true}
	l := leaf{kind: lScalar, field: f, vk: f.Kind}
	if rosmsg.IsTimeMsg(f.Msg) {
		l = leaf{kind: lTimeMsg, field: f, msg: f.Msg}
	}
	stride := s.cur.Stride(f)
	elem := first
	for i := 0; i < n; i++ {
		if !s.step() {
			return val{}
		}
		acc.add(s.readLeaf(&l, elem, -1))
		if acc.done || s.err != nil {
			break
		}
		if i+1 < n {
			if stride >= 0 {
				elem += stride
			} else if elem, ok = s.cur.SkipElem(f, elem); !ok {
				s.bad(elem)
				return val{}
			}
		}
	}
	if s.err != nil {
		return val{}
	}
	return acc.result()
}
