package rosmsg

import "sort"

// PathSet is several compiled paths of one plan read together in one walk
// of the message: the ops two paths have in common from the message start
// (the header's string, the fields before both) run once, and each path
// goes on from there. It reads what each Path.Bits reads. A PathSet is
// immutable and safe for concurrent use; Read does not allocate.
type PathSet struct {
	paths  []*Path
	order  []int // paths in walk order (sorted by ops, so shared prefixes sit side by side)
	share  []int // share[j]: ops path order[j] has in common with order[j-1]
	cdr    bool
	maxOps int
}

// PathValues is what a PathSet read from one message, indexed as the
// paths given to NewPathSet: Bits[i] and OK[i] are what Path.Bits returns
// for path i. It is also the walk's scratch space: one per goroutine.
type PathValues struct {
	Bits []uint64
	OK   []bool
	offs []int // the offset before each op of the paths walked so far
}

// NewPathSet returns the set of paths, all compiled for the same plan.
func NewPathSet(paths []*Path) *PathSet {
	s := &PathSet{paths: paths, order: make([]int, len(paths)), share: make([]int, len(paths))}
	for i := range paths {
		s.order[i] = i
	}
	if len(paths) > 0 {
		s.cdr = paths[0].cdr
	}
	for _, p := range paths {
		s.maxOps = max(s.maxOps, len(p.ops))
	}
	sort.SliceStable(s.order, func(a, b int) bool { return lessOps(paths[s.order[a]].ops, paths[s.order[b]].ops) })
	for j := 1; j < len(s.order); j++ {
		a, b := paths[s.order[j-1]], paths[s.order[j]]
		n := 0
		for n < len(a.ops) && n < len(b.ops) && a.ops[n] == b.ops[n] {
			n++
		}
		s.share[j] = n
	}
	return s
}

// lessOps orders op lists so that lists with a common start sort side by
// side (the fields by their position in their message).
func lessOps(a, b []pathOp) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := &a[i], &b[i]
		if x.code != y.code {
			return x.code < y.code
		}
		if x.n != y.n {
			return x.n < y.n
		}
		if x.field != y.field {
			// Different fields at the same op: no order between them
			// matters for sharing, only that equal ones stay together.
			return x.field != nil && y.field != nil && x.field.Name < y.field.Name
		}
	}
	return len(a) < len(b)
}

// Len returns the number of paths.
func (s *PathSet) Len() int { return len(s.paths) }

// NewValues returns the values and scratch space for Read.
func (s *PathSet) NewValues() *PathValues {
	n := len(s.paths)
	return &PathValues{Bits: make([]uint64, n), OK: make([]bool, n), offs: make([]int, s.maxOps+1)}
}

// Read reads each path's value from one serialized message into v (from
// NewValues of this set).
func (s *PathSet) Read(data []byte, v *PathValues) {
	ok, bits, offs := v.OK, v.Bits, v.offs
	be, start := false, 0
	if s.cdr {
		var hok bool
		if be, hok = cdrHeaderOK(data); !hok {
			clear(ok)
			return
		}
		start = 4
	}
	valid := 0 // offs[i] holds for i < valid
	for j, pi := range s.order {
		p := s.paths[pi]
		ok[pi] = false
		from, off := s.share[j], start
		if from > 0 {
			if from >= valid {
				// The walk that would have led here failed before: so
				// does this one.
				continue
			}
			off = offs[from]
		}
		var fail seekFail
		var stop int
		if s.cdr {
			off, fail, stop = p.seekCDRFrom(data, be, from, off, offs)
		} else {
			off, fail, stop = p.seekFrom(data, from, off, offs)
		}
		valid = stop + 1
		if fail.code != seekOK || p.part != 0 {
			continue
		}
		if s.cdr {
			bits[pi] = readScalarCDR(p.kind, data, off, be)
		} else {
			bits[pi] = readScalar(p.kind, data, off)
		}
		ok[pi] = true
	}
}
