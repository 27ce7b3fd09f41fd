package expr

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/internal/rosmsgtest"
)

// TestFastPathMatchesDecoder checks the terms read through a compiled
// rosmsg.Path (termNode.fast) against rosmsg's tree decoder on every
// numeric and bool field of the first messages of each connection of
// every shared recording (arrays at their first and last element), and
// against the generic walk on the same messages cut short (at fixed
// places, and around the value read and the end of its array): the same
// value, the same absence, the same error at the same offset. Likewise
// norm(MSG) of every message field outside arrays. And every message's
// fast paths read together in one walk (rosmsg.PathSet, as a program
// reads them) against each read alone, on the same cuts.
func TestFastPathMatchesDecoder(t *testing.T) {
	const perConn = 3
	var fast, indexed, norms, types, cutChecks, setChecks int
	seenTypes := map[string]bool{}
	rosmsgtest.EachFirstMessages(t, "../../../../shared/bags", perConn, func(path string, plan *rosmsg.Plan, m *bag.Message) {
		root, err := plan.Decode(m.Data)
		if err != nil {
			return // the bag tests report undecodable messages
		}
		if !seenTypes[plan.MessageEncoding+" "+plan.Type] {
			seenTypes[plan.MessageEncoding+" "+plan.Type] = true
			types++
		}
		data := append([]byte(nil), m.Data...)
		var leaves []fastLeaf
		collectLeaves(root, "", 0, &leaves)
		var paths []*rosmsg.Path
		cuts := map[int]bool{}
		for _, l := range leaves {
			where := fmt.Sprintf("%s: %s %s", filepath.Base(path), plan.Type, l.path)
			prog, tn := termProgram(t, plan, l.path)
			if tn == nil {
				continue
			}
			if scalarKind(l.node.Kind) && !strings.Contains(l.path, "[") && tn.fast == 0 {
				t.Errorf("%s: a %s field compiled without its fast path", where, l.node.Kind)
				continue
			}
			if tn.fast == 0 {
				continue
			}
			fast++
			if strings.Contains(l.path, "[") {
				indexed++
			}
			p, err := rosmsg.CompileStrictPath(plan, l.path)
			if err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			paths = append(paths, p)
			got := matchValues(prog, data)
			if got.err != nil || len(got.vals) != 1 {
				t.Errorf("%s: fast path read %v, %v", where, got.vals, got.err)
				continue
			}
			if msg := sameAsNode(got.vals[0], &l.node); msg != "" {
				t.Errorf("%s: %s", where, msg)
			}
			// The generic walk on the whole message and cut short,
			// also just before, inside and after the value and at
			// the end of its array.
			lcuts := cutsOf(len(data))
			if off, ok := walkOffset(prog, tn, data); ok {
				size := l.node.Kind.Size()
				for _, c := range []int{off, off + 1, off + size - 1, off + size, off + size + 1, arrayEnd(prog, tn, data) - 1} {
					if c > 0 && c < len(data) {
						lcuts = append(lcuts, c)
					}
				}
			}
			for _, c := range lcuts {
				cuts[c] = true
				withFast := matchValues(prog, data[:c])
				f := tn.fast
				tn.fast = 0
				slow := matchValues(prog, data[:c])
				tn.fast = f
				if withFast.String() != slow.String() {
					t.Errorf("%s cut at %d of %d bytes: fast path %s, walk %s", where, c, len(data), withFast, slow)
				}
				cutChecks++
			}
		}
		// All the message's paths in one walk, against each alone.
		set := rosmsg.NewPathSet(paths)
		vals := set.NewValues()
		bits, ok := vals.Bits, vals.OK
		for c := range cuts {
			set.Read(data[:c], vals)
			for i, p := range paths {
				b, o := p.Bits(data[:c])
				if o != ok[i] || o && b != bits[i] {
					t.Errorf("%s: %s %s cut at %d of %d bytes: alone %v %x, in a set of %d %v %x",
						filepath.Base(path), plan.Type, p, c, len(data), o, b, len(paths), ok[i], bits[i])
				}
				setChecks++
			}
		}
		var msgs []fastLeaf
		collectMsgs(root, "", 0, &msgs)
		for _, l := range msgs {
			where := fmt.Sprintf("%s: %s norm(%s)", filepath.Base(path), plan.Type, l.path)
			e, err := Parse("norm(" + l.path + ") == 0")
			if err != nil {
				continue
			}
			prog, err := e.Compile(plan, "")
			if err != nil {
				continue // no number fields
			}
			nn, _ := prog.root.(*cmpNode).l.(*msgNormNode)
			if nn == nil || nn.fast == nil {
				continue
			}
			norms++
			want := 0.0
			for _, k := range nn.fields {
				x, _ := l.node.Children[k].Float64()
				want += x * x
			}
			want = math.Sqrt(want)
			wantVal := fmt.Sprintf("error <nil>, value %d %x", vFloat, math.Float64bits(want))
			if got := normOf(prog, nn, data); !strings.HasSuffix(got, wantVal) && !(math.IsNaN(want) && strings.Contains(got, "error <nil>, value 3 7ff8")) {
				t.Errorf("%s: %s, the decoder %v", where, got, want)
			}
			for _, c := range cutsOf(len(data)) {
				withFast := normOf(prog, nn, data[:c])
				f := nn.fast
				nn.fast = nil
				slow := normOf(prog, nn, data[:c])
				nn.fast = f
				if withFast != slow {
					t.Errorf("%s cut at %d of %d bytes: fast path %s, walk %s", where, c, len(data), withFast, slow)
				}
				cutChecks++
			}
		}
	})
	if fast < 500 || indexed < 100 || types < 20 || norms < 100 || setChecks < 5000 {
		t.Fatalf("only %d fields (%d indexed) and %d norms of %d message types read by the fast path, %d read in sets", fast, indexed, norms, types, setChecks)
	}
	t.Logf("%d message types, %d fields (%d indexed) and %d norm(message)s read by the fast path, %d cut comparisons, %d in sets", types, fast, indexed, norms, cutChecks, setChecks)
}

// walkOffset is where the generic walk finds term tn's value in data.
func walkOffset(p *Program, tn *termNode, data []byte) (int, bool) {
	s := p.NewState()
	if _, err := p.Match(s, &Input{Data: data}); err != nil {
		return 0, false
	}
	off, st := s.locate(tn.w)
	return off, st == stOK
}

// arrayEnd is where the last array the walk of term tn indexes ends in
// data (0 when it indexes none).
func arrayEnd(p *Program, tn *termNode, data []byte) int {
	s := p.NewState()
	if _, err := p.Match(s, &Input{Data: data}); err != nil {
		return 0
	}
	for i := len(tn.w.steps) - 1; i >= 0; i-- {
		st := &tn.w.steps[i]
		if st.kind != sIndex {
			continue
		}
		w := &walk{base: -1, steps: tn.w.steps[:i]}
		off, status := s.locate(w)
		if status != stOK {
			return 0
		}
		n, first, ok := s.cur.Array(st.f, off)
		if !ok {
			return 0
		}
		return first + n*s.cur.Stride(st.f)
	}
	return 0
}

// normOf matches a "norm(PATH) == 0" program on data and evaluates its
// norm node again on the state the match left.
func normOf(p *Program, nn *msgNormNode, data []byte) string {
	s := p.NewState()
	ok, err := p.Match(s, &Input{Data: data})
	var v val
	if err == nil {
		v = nn.eval(s)
	}
	return fmt.Sprintf("match %v, error %v, value %d %x", ok, err, v.k, math.Float64bits(v.f))
}

// collectMsgs lists the message fields of n outside arrays.
func collectMsgs(n *rosmsg.Node, prefix string, depth int, out *[]fastLeaf) {
	if depth > 8 {
		return
	}
	for i := range n.Children {
		c := &n.Children[i]
		if c.Array || c.Kind != rosmsg.KindMessage {
			continue
		}
		*out = append(*out, fastLeaf{prefix + c.Name, *c})
		collectMsgs(c, prefix+c.Name+".", depth+1, out)
	}
}

type fastLeaf struct {
	path string
	node rosmsg.Node
}

// collectLeaves lists the number, bool, time and duration values of n
// (arrays at their first and last element), as expression paths.
func collectLeaves(n *rosmsg.Node, prefix string, depth int, out *[]fastLeaf) {
	if depth > 8 || len(*out) > 400 {
		return
	}
	for i := range n.Children {
		c := &n.Children[i]
		name := prefix + c.Name
		if c.Array {
			ln := c.Len()
			for _, j := range []int{0, ln - 1} {
				if j < 0 || j >= ln || (j == ln-1 && ln == 1) {
					continue
				}
				e, _ := c.Elem(j)
				ename := fmt.Sprintf("%s[%d]", name, j)
				if c.Kind == rosmsg.KindMessage {
					collectLeaves(&e, ename+".", depth+1, out)
				} else if c.Kind != rosmsg.KindString && c.Kind != rosmsg.KindWString {
					*out = append(*out, fastLeaf{ename, e})
				}
			}
			continue
		}
		switch c.Kind {
		case rosmsg.KindMessage:
			collectLeaves(c, name+".", depth+1, out)
		case rosmsg.KindString, rosmsg.KindWString:
		default:
			*out = append(*out, fastLeaf{name, *c})
		}
	}
}

// termProgram compiles "PATH == 0" and returns the program and its term,
// or nil when the path is not one an expression can name (a field named
// as a keyword, a char).
func termProgram(t *testing.T, plan *rosmsg.Plan, path string) (*Program, *termNode) {
	t.Helper()
	e, err := Parse(path + " == 0")
	if err != nil {
		return nil, nil
	}
	p, err := e.Compile(plan, "")
	if err != nil {
		return nil, nil
	}
	c, ok := p.root.(*cmpNode)
	if !ok {
		return nil, nil
	}
	tn, _ := c.l.(*termNode)
	return p, tn
}

type matchResult struct {
	ok   bool
	err  error
	vals []Value
}

func (r matchResult) String() string {
	return fmt.Sprintf("match %v, error %v, values %v", r.ok, r.err, r.vals)
}

func matchValues(p *Program, data []byte) matchResult {
	s := p.NewState()
	ok, err := p.Match(s, &Input{Data: data})
	return matchResult{ok, err, s.Values(nil)}
}

// sameAsNode compares a term's value with the decoder's node, bit for bit.
func sameAsNode(v Value, n *rosmsg.Node) string {
	switch n.Kind {
	case rosmsg.KindBool:
		if v.Kind != Bool || (v.Int != 0) != n.Bool() {
			return fmt.Sprintf("read %v, the decoder %v", v, n.Bool())
		}
	case rosmsg.KindFloat32, rosmsg.KindFloat64:
		want, _ := n.Float64()
		if v.Kind != Float || math.Float64bits(v.Float) != math.Float64bits(want) && !(math.IsNaN(v.Float) && math.IsNaN(want)) {
			return fmt.Sprintf("read %v, the decoder %v", v, want)
		}
	case rosmsg.KindUint64:
		if v.Kind == Int && uint64(v.Int) == n.Uint() || v.Kind == Float && v.Float == float64(n.Uint()) && n.Uint() > math.MaxInt64 {
			return ""
		}
		return fmt.Sprintf("read %v, the decoder %d", v, n.Uint())
	case rosmsg.KindInt8, rosmsg.KindInt16, rosmsg.KindInt32, rosmsg.KindInt64,
		rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32:
		if v.Kind != Int || v.Int != n.Int() {
			return fmt.Sprintf("read %v, the decoder %d", v, n.Int())
		}
	default:
		return fmt.Sprintf("a %s read by the fast path", n.Kind)
	}
	return ""
}

func cutsOf(n int) []int {
	out := []int{n}
	seen := map[int]bool{n: true}
	for _, c := range []int{0, 3, 4, 5, 9, 17, 33, 65, n / 2, n - 1} {
		if c > 0 && c < n && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
