package expr

import (
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// TestFastPathMatchesDecoder checks the terms read through a compiled
// rosmsg.Path (termNode.fast) against rosmsg's tree decoder on every
// numeric and bool field (outside arrays: see compiler.fastPath) of the
// first messages of each connection of every
// shared recording (arrays at their first and last element), and against
// the generic walk on the same messages cut short: the same value, the
// same absence, the same error at the same offset.
func TestFastPathMatchesDecoder(t *testing.T) {
	const perConn = 3
	recs := sharedRecordingPaths(t)
	var fast, types, cutChecks int
	seenTypes := map[string]bool{}
	for _, path := range recs {
		s, err := model.OpenStorage(path)
		if err != nil {
			continue // damaged on purpose: the bag tests say how
		}
		var cache rosmsg.Cache
		seen := map[uint32]int{}
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
			m := it.Message()
			if seen[m.Conn.ID] >= perConn {
				continue
			}
			seen[m.Conn.ID]++
			plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
			if err != nil {
				continue
			}
			root, err := plan.Decode(m.Data)
			if err != nil {
				continue // the bag tests report undecodable messages
			}
			if !seenTypes[plan.MessageEncoding+" "+plan.Type] {
				seenTypes[plan.MessageEncoding+" "+plan.Type] = true
				types++
			}
			data := append([]byte(nil), m.Data...)
			var leaves []fastLeaf
			collectLeaves(root, "", 0, &leaves)
			for _, l := range leaves {
				where := fmt.Sprintf("%s: %s %s", filepath.Base(path), plan.Type, l.path)
				prog, tn := termProgram(t, plan, l.path)
				if tn == nil {
					continue
				}
				if scalarKind(l.node.Kind) && !strings.Contains(l.path, "[") && tn.fast == nil {
					t.Errorf("%s: a %s field compiled without its fast path", where, l.node.Kind)
					continue
				}
				if tn.fast == nil {
					continue
				}
				fast++
				got := matchValues(prog, data)
				if got.err != nil || len(got.vals) != 1 {
					t.Errorf("%s: fast path read %v, %v", where, got.vals, got.err)
					continue
				}
				if msg := sameAsNode(got.vals[0], &l.node); msg != "" {
					t.Errorf("%s: %s", where, msg)
				}
				// The generic walk on the whole message and cut short.
				for _, c := range cutsOf(len(data)) {
					withFast := matchValues(prog, data[:c])
					f := tn.fast
					tn.fast = nil
					slow := matchValues(prog, data[:c])
					tn.fast = f
					if withFast.String() != slow.String() {
						t.Errorf("%s cut at %d of %d bytes: fast path %s, walk %s", where, c, len(data), withFast, slow)
					}
					cutChecks++
				}
			}
		}
		it.Close()
		s.Close()
	}
	if fast < 500 || types < 20 {
		t.Fatalf("only %d fields of %d message types read by the fast path", fast, types)
	}
	t.Logf("%d message types, %d fields read by the fast path, %d cut comparisons", types, fast, cutChecks)
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
				if j < 0 || (j == ln-1 && ln == 1) {
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

// sharedRecordingPaths lists the recordings of ../shared/bags.
func sharedRecordingPaths(t *testing.T) []string {
	t.Helper()
	dir := "../../../../shared/bags"
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case e.IsDir():
			if _, err := os.Stat(filepath.Join(p, "metadata.yaml")); err == nil {
				out = append(out, p)
				return filepath.SkipDir
			}
		case strings.HasSuffix(p, ".bag") || strings.HasSuffix(p, ".mcap"):
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no recordings under %s (CI needs ../shared)", dir)
		}
		t.Skipf("skipping (CI never skips this): no recordings under %s", dir)
	}
	return out
}
