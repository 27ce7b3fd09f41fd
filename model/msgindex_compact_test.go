package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/msgref"
)

// fakeBlocks is a bag.Storage of blocks with given index entries: enough
// for BuildMessageIndex (Blocks, BlockIndex, Connection).
type fakeBlocks struct {
	bag.Storage
	blocks []*bag.Block
	index  map[*bag.Block][]bag.IndexEntry
	conns  map[uint32]*bag.Connection
}

func (f *fakeBlocks) Blocks() []*bag.Block { return f.blocks }
func (f *fakeBlocks) BlockIndex(b *bag.Block) ([]bag.IndexEntry, error) {
	return f.index[b], nil
}
func (f *fakeBlocks) Connection(id uint32) *bag.Connection { return f.conns[id] }

// compactCase is a topic's messages as blocks list them: blocks[k] holds
// the messages of one block in the order its index lists them.
type compactCase struct {
	name   string
	blocks [][]msgref.Ref
}

// compactCases are the inputs the compact index must agree with the plain
// sorted slice on.
func compactCases() []compactCase {
	r := rand.New(rand.NewPCG(14, 9))
	var cases []compactCase
	add := func(name string, blocks [][]msgref.Ref) { cases = append(cases, compactCase{name, blocks}) }

	// steady: one block after another, a steady rate with jitter.
	steady := func(nblocks, per int, pos func(k int) int64) [][]msgref.Ref {
		var out [][]msgref.Ref
		t := int64(1_600_000_000e9)
		for k := range nblocks {
			var b []msgref.Ref
			for i := range per {
				t += 5e6 + r.Int64N(1e5)
				b = append(b, msgref.Ref{T: t, Loc: msgref.Loc{ChunkPos: pos(k), Offset: uint32(4117 + i*379), Conn: 3}})
			}
			out = append(out, b)
		}
		return out
	}
	add("empty", nil)
	add("one message", [][]msgref.Ref{{{T: 7, Loc: msgref.Loc{ChunkPos: 4117, Offset: 12, Conn: 1}}}})
	add("steady, one block", steady(1, 1000, func(int) int64 { return 4117 }))
	add("steady, many blocks", steady(500, 37, func(k int) int64 { return 4117 + int64(k)*800_000 }))
	add("exactly a checkpoint span", steady(1, cpEvery, func(int) int64 { return 100 }))
	add("a checkpoint span and one", steady(1, cpEvery+1, func(int) int64 { return 100 }))
	// Multi-file recordings put the part in the block's high bits.
	add("multi-file parts", steady(40, 50, func(k int) int64 { return bag.JoinPart(k/10, 4117+int64(k%10)*1000) }))

	// equal times: many messages at one time, in file order.
	var eq []msgref.Ref
	for i := range 300 {
		eq = append(eq, msgref.Ref{T: 1_000_000_000 + int64(i/100), Loc: msgref.Loc{ChunkPos: 4117, Offset: uint32(i * 10), Conn: 1}})
	}
	add("equal times", [][]msgref.Ref{eq})

	// huge gaps, times at the ends of int64, offsets at the ends of uint32.
	add("huge gaps", [][]msgref.Ref{{
		{T: math.MinInt64, Loc: msgref.Loc{ChunkPos: 1, Offset: math.MaxUint32, Conn: math.MaxUint32}},
		{T: -1, Loc: msgref.Loc{ChunkPos: math.MaxInt64, Offset: 0, Conn: 0}},
		{T: 0, Loc: msgref.Loc{ChunkPos: math.MinInt64, Offset: 5}},
		{T: 1, Loc: msgref.Loc{ChunkPos: -7, Offset: math.MaxUint32}},
		{T: 1 << 40, Loc: msgref.Loc{ChunkPos: 2, Offset: 1}},
		{T: math.MaxInt64 - 1, Loc: msgref.Loc{ChunkPos: 3, Offset: 9, Conn: 2}},
		{T: math.MaxInt64, Loc: msgref.Loc{ChunkPos: 3, Offset: 2, Conn: 2}},
	}})

	// non-monotonic times within a block, and two connections whose lists
	// the block gives one after the other.
	var shuffled [][]msgref.Ref
	for k := range 60 {
		var b []msgref.Ref
		for i := range 80 {
			t := int64(k)*1e9 + r.Int64N(1.2e9) // overlaps the next block
			b = append(b, msgref.Ref{T: t, Loc: msgref.Loc{ChunkPos: int64(k) * 1000, Offset: uint32(i * 8), Conn: uint32(i % 2)}})
		}
		slices.SortStableFunc(b, func(x, y msgref.Ref) int { return int(x.Conn) - int(y.Conn) })
		shuffled = append(shuffled, b)
	}
	add("non-monotonic within blocks, overlapping blocks", shuffled)

	// blocks in file order whose times run backwards: every block a
	// segment of its own.
	var backwards [][]msgref.Ref
	for k := range 100 {
		var b []msgref.Ref
		for i := range 20 {
			b = append(b, msgref.Ref{T: int64(100-k)*1e6 + int64(i), Loc: msgref.Loc{ChunkPos: int64(k), Offset: uint32(i)}})
		}
		backwards = append(backwards, b)
	}
	add("blocks in reverse time order", backwards)

	// one message per block (an unchunked MCAP, a .db3's rows).
	var rows [][]msgref.Ref
	for i := range 500 {
		rows = append(rows, []msgref.Ref{{T: int64(i) * 3e6, Loc: msgref.Loc{ChunkPos: int64(i + 1), Conn: uint32(i % 3)}}})
	}
	add("a block per message", rows)

	// random everything.
	var random [][]msgref.Ref
	for k := range 30 {
		var b []msgref.Ref
		for i := range 1 + r.IntN(200) {
			b = append(b, msgref.Ref{T: r.Int64N(1e6), Loc: msgref.Loc{ChunkPos: int64(k), Offset: uint32(i), Conn: uint32(r.IntN(4))}})
		}
		random = append(random, b)
	}
	add("random", random)
	return cases
}

// plainIndex is what the compact index replaces: every message in a
// slice, sorted by time, ties in file order.
func plainIndex(blocks [][]msgref.Ref) []msgref.Ref {
	var all []msgref.Ref
	for _, b := range blocks {
		all = append(all, b...)
	}
	slices.SortStableFunc(all, refCompare)
	return all
}

// checkAgainstPlain compares every lookup of tm with the same lookup on
// the plain slice.
func checkAgainstPlain(t *testing.T, tm *TopicMessages, want []msgref.Ref) {
	t.Helper()
	if tm.Len() != len(want) {
		t.Fatalf("Len %d, want %d", tm.Len(), len(want))
	}
	for i, w := range want {
		if got := tm.At(i); got != w {
			t.Fatalf("At(%d) = %+v, want %+v", i, got, w)
		}
	}
	n := 0
	for i, r := range tm.All() {
		if i != n || r != want[i] {
			t.Fatalf("All: %d %+v at step %d, want %+v", i, r, n, want[n])
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("All yields %d, want %d", n, len(want))
	}
	bounds := []int{-3, 0, 1, cpEvery - 1, cpEvery, cpEvery + 1, len(want) / 2, len(want) - 1, len(want), len(want) + 5}
	for _, lo := range bounds {
		for _, hi := range bounds {
			var got []msgref.Ref
			next := max(lo, 0)
			for i, r := range tm.Range(lo, hi) {
				if i != next {
					t.Fatalf("Range(%d, %d) yields position %d, want %d", lo, hi, i, next)
				}
				next++
				got = append(got, r)
			}
			w := want[min(max(lo, 0), len(want)):max(min(hi, len(want)), min(max(lo, 0), len(want)))]
			if !slices.Equal(got, w) {
				t.Fatalf("Range(%d, %d) = %d messages, want %d", lo, hi, len(got), len(w))
			}
		}
	}
	// Search and Nearest at every time, one either side, and the extremes.
	probes := []int64{math.MinInt64, math.MaxInt64, 0}
	for _, w := range want {
		probes = append(probes, w.T, w.T-1, w.T+1)
	}
	for _, ns := range probes {
		ws := sort.Search(len(want), func(i int) bool { return want[i].T >= ns })
		if got := tm.Search(ns); got != ws {
			t.Fatalf("Search(%d) = %d, want %d", ns, got, ws)
		}
		wn := -1
		if len(want) > 0 {
			wn = ws
			if ws == len(want) {
				wn = ws - 1
			} else if ws > 0 && ns-want[ws-1].T <= want[ws].T-ns {
				wn = ws - 1
			}
		}
		if got := tm.Nearest(ns); got != wn {
			t.Fatalf("Nearest(%d) = %d, want %d", ns, got, wn)
		}
	}
	for i, w := range want {
		// IndexOf finds the first message equal to w.
		wi := slices.Index(want, w)
		if got := tm.IndexOf(w); got != wi {
			t.Fatalf("IndexOf(message %d) = %d, want %d", i, got, wi)
		}
	}
	if got := tm.IndexOf(msgref.Ref{T: 42, Loc: msgref.Loc{ChunkPos: -99, Offset: 1}}); got != -1 {
		t.Fatalf("IndexOf(absent) = %d", got)
	}
}

// TestCompactIndexMatchesPlain builds each case both ways the compact
// index is made, from a list (NewTopicMessages) and block by block
// (BuildMessageIndex, which sorts within blocks and merges overlapping
// ones), and compares every lookup with the plain sorted slice.
func TestCompactIndexMatchesPlain(t *testing.T) {
	for _, c := range compactCases() {
		t.Run(c.name, func(t *testing.T) {
			want := plainIndex(c.blocks)
			var flat []msgref.Ref
			for _, b := range c.blocks {
				flat = append(flat, b...)
			}
			t.Run("NewTopicMessages", func(t *testing.T) {
				checkAgainstPlain(t, NewTopicMessages("/t", flat), want)
			})
			t.Run("builder, input order", func(t *testing.T) {
				// No sorting within blocks: every step back in time
				// starts a segment that finish merges.
				b := topicBuilder{tm: &TopicMessages{Topic: "/t"}}
				for _, r := range flat {
					b.add(r)
				}
				b.finish()
				checkAgainstPlain(t, b.tm, want)
			})
			t.Run("BuildMessageIndex", func(t *testing.T) {
				if !allRepresentable(flat) || len(c.blocks) == 0 {
					t.Skip("times outside bag.Time, or no blocks (read through Messages)")
				}
				f := &fakeBlocks{index: map[*bag.Block][]bag.IndexEntry{}, conns: map[uint32]*bag.Connection{}}
				for k, b := range c.blocks {
					blk := &bag.Block{Offset: int64(k)}
					f.blocks = append(f.blocks, blk)
					for _, r := range b {
						f.index[blk] = append(f.index[blk], bag.IndexEntry{Time: timeOfNanos(r.T), Conn: r.Conn, Loc: bag.Loc{Block: r.ChunkPos, Offset: r.Offset}})
						f.conns[r.Conn] = &bag.Connection{ID: r.Conn, Topic: "/t"}
					}
				}
				x, err := BuildMessageIndex(context.Background(), f, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkAgainstPlain(t, x.Topic("/t"), want)
			})
		})
	}
}

// timeOfNanos is bag.TimeFromNanos; bag.Time holds unsigned seconds.
func timeOfNanos(ns int64) bag.Time { return bag.TimeFromNanos(ns) }

func allRepresentable(refs []msgref.Ref) bool {
	for _, r := range refs {
		if r.T < 0 || r.T > math.MaxUint32*1e9 {
			return false
		}
	}
	return true
}

// TestCompactIndexSize checks the point of the compact form: a steady
// topic takes a few bytes a message, not msgref.Ref's 24.
func TestCompactIndexSize(t *testing.T) {
	for _, c := range compactCases() {
		if c.name != "steady, many blocks" {
			continue
		}
		tm := NewTopicMessages("/t", plainIndex(c.blocks))
		per := float64(tm.Bytes()) / float64(tm.Len())
		t.Logf("%d messages in %d bytes: %.2f bytes a message", tm.Len(), tm.Bytes(), per)
		if per > 8 {
			t.Errorf("%.2f bytes a message, want at most 8", per)
		}
		// The property test's lookups cross pages only if there are some.
		if len(tm.data.pages) < 4 {
			t.Errorf("%d pages: the case no longer crosses pages", len(tm.data.pages))
		}
	}
}

// BenchmarkTopicMessages measures the lookups on a million-message topic.
func BenchmarkTopicMessages(b *testing.B) {
	var refs []msgref.Ref
	r := rand.New(rand.NewPCG(1, 2))
	t := int64(1_600_000_000e9)
	for i := range 1_000_000 {
		t += 5e6 + r.Int64N(1e5)
		refs = append(refs, msgref.Ref{T: t, Loc: msgref.Loc{ChunkPos: 4117 + int64(i/2700)*800_000, Offset: uint32(4117 + (i%2700)*290), Conn: 3}})
	}
	tm := NewTopicMessages("/imu", refs)
	b.Logf("%.2f bytes a message", float64(tm.Bytes())/float64(tm.Len()))
	for _, bc := range []struct {
		name string
		f    func(i int)
	}{
		{"At", func(i int) { tm.At(i * 7919 % tm.Len()) }},
		{"Search", func(i int) { tm.Search(refs[i*7919%len(refs)].T) }},
		{"All", func(int) {
			for range tm.All() {
			}
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				bc.f(i)
				i++
			}
		})
	}
}

// TestCompactIndexRandomShapes compares the compact index with the plain
// slice on many small random topics: random time steps (zero, tiny, huge),
// chunks revisited out of order, connections switching, offsets going
// back, in the order they come and through the builder's segments.
func TestCompactIndexRandomShapes(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 14))
		n := r.IntN(3 * cpEvery)
		var refs []msgref.Ref
		var tm int64 = r.Int64N(1 << 62)
		for range n {
			switch r.IntN(4) {
			case 0: // the same time
			case 1:
				tm += r.Int64N(1000)
			case 2:
				tm += r.Int64N(1 << 40)
			case 3:
				tm -= r.Int64N(1 << 30) // back in time: a new segment
			}
			refs = append(refs, msgref.Ref{T: tm, Loc: msgref.Loc{
				ChunkPos: bag.JoinPart(r.IntN(3), r.Int64N(8)*1_000_000),
				Offset:   r.Uint32(),
				Conn:     uint32(r.IntN(3)),
			}})
		}
		want := slices.Clone(refs)
		slices.SortStableFunc(want, refCompare)
		b := topicBuilder{tm: &TopicMessages{Topic: "/r"}}
		for _, x := range refs {
			b.add(x)
		}
		b.finish()
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkAgainstPlain(t, b.tm, want) })
	}
}
