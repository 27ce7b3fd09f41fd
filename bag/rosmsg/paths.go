package rosmsg

import "strconv"

// Limits of Paths.
const (
	maxPathDepth     = 10    // nested message levels followed
	maxPaths         = 10000 // paths returned
	maxListedIndices = 64    // fixed arrays up to this length list every index
	maxPathVisits    = 1 << 17
)

// Paths lists the plottable field paths of the plan's type (numbers, bool,
// time and duration), in definition order, for autocompletion. A variable
// array appears once with the placeholder index [0] ("ranges[0]",
// "transforms[0].transform.translation.x"): the caller substitutes the index
// it wants. A fixed array lists every index when it has at most 64
// elements ("orientation_covariance[0]" ... "[8]"), else only [0]. Time and
// duration appear once (in seconds), without their ".secs"/".nsecs" forms.
// Nesting is followed 10 levels deep and the list stops at 10000 paths.
func (p *Plan) Paths() []string {
	l := lister{}
	l.list(p.Root, "", 0)
	return l.out
}

// SelectorPaths is Paths with every variable array, and every fixed array
// longer than 64, written "[*]" ("position[*]",
// "transforms[*].transform.translation.x"): paths for CompileSelection that
// read every element. Byte arrays (uint8, char) keep "[0]". The two lists
// have the same length and order.
func (p *Plan) SelectorPaths() []string {
	l := lister{all: true}
	l.list(p.Root, "", 0)
	return l.out
}

type lister struct {
	out    []string
	visits int  // fields looked at, bounding nested fixed arrays of messages
	all    bool // "[*]" rather than "[0]"
}

func (l *lister) list(m *MsgPlan, prefix string, depth int) {
	if depth >= maxPathDepth {
		return
	}
	out := &l.out
	for i := range m.Fields {
		f := &m.Fields[i]
		if f.Kind != KindMessage && !f.Kind.Plottable() {
			continue // string, wstring
		}
		names := []string{prefix + f.Name}
		if f.Array {
			switch {
			case f.Len == 0:
				continue
			case f.Len > 0 && f.Len <= maxListedIndices:
				names = names[:0]
				for k := 0; k < f.Len; k++ {
					names = append(names, prefix+f.Name+"["+strconv.Itoa(k)+"]")
				}
			case l.all && !f.IsBytes():
				names[0] += "[*]"
			default:
				names[0] += "[0]"
			}
		}
		for _, n := range names {
			l.visits++
			if len(*out) >= maxPaths || l.visits > maxPathVisits {
				return
			}
			if f.Kind == KindMessage {
				l.list(f.Msg, n+".", depth+1)
			} else {
				*out = append(*out, n)
			}
		}
	}
}
