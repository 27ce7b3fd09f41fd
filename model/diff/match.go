package diff

import (
	"bytes"
	"context"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// maxGroup bounds the messages of one receive time held at once from each
// recording; a recording with more at one instant is matched in pieces of
// this many.
const maxGroup = 1 << 14

// maxMatchPairs bounds the work of matching one instant's messages by
// content; beyond it they are paired in order.
const maxMatchPairs = 1 << 20

// matcher matches the messages of A and B by receive time, topic by topic.
type matcher struct {
	res     *Result
	o       Options
	stores  [2]bag.Storage
	ordinal [2][]int64 // messages seen per topic on each side
	locs    map[*Difference][2]bag.Loc
	plans   [2]map[*bag.Connection]*rosmsg.Plan
	planErr [2]map[*bag.Connection]error
	cache   rosmsg.Cache
	groups  [2][]rec
	byTopic map[int32]*[2][]rec
}

func compareMessages(ctx context.Context, a, b bag.Storage, res *Result, o Options) error {
	byName := map[string]int32{}
	var names []string
	for i, t := range res.Topics {
		byName[t.Name] = int32(i)
		names = append(names, t.Name)
	}
	m := &matcher{res: res, o: o, stores: [2]bag.Storage{a, b}, locs: map[*Difference][2]bag.Loc{}, byTopic: map[int32]*[2][]rec{}}
	var total int64
	for i, s := range m.stores {
		m.ordinal[i] = make([]int64, len(res.Topics))
		m.plans[i] = map[*bag.Connection]*rosmsg.Plan{}
		m.planErr[i] = map[*bag.Connection]error{}
		if sum, _ := s.Summary(); sum != nil {
			total += int64(sum.Messages)
		}
	}
	if len(names) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srcs := [2]*source{
		start(ctx, a, names, newTopicIndex(a, byName)),
		start(ctx, b, names, newTopicIndex(b, byName)),
	}
	defer func() {
		cancel()
		for _, s := range srcs {
			s.drain()
			s.it.Close()
		}
	}()
	var done, reported int64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		ha, hb := srcs[0].peek(), srcs[1].peek()
		if ha == nil && hb == nil {
			break
		}
		var t int64
		switch {
		case ha == nil:
			t = hb.ns
		case hb == nil:
			t = ha.ns
		default:
			t = min(ha.ns, hb.ns)
		}
		for i, s := range srcs {
			g := m.groups[i][:0]
			for h := s.peek(); h != nil && h.ns == t && len(g) < maxGroup; h = s.peek() {
				g = append(g, s.take())
			}
			m.groups[i] = g
			done += int64(len(g))
		}
		m.instant()
		if o.Progress != nil && done-reported >= 1<<16 {
			reported = done
			o.Progress(done, total)
		}
	}
	for i, s := range srcs {
		if s.err != nil {
			return s.err
		}
		res.Its[i] = s.it
		res.Suspects[i] = s.suspects
	}
	// Where each first and last difference is, said once at the end.
	for _, t := range res.Topics {
		if t.Last == nil {
			t.Last = t.First
		}
		for _, d := range []*Difference{t.First, t.Last} {
			if d == nil {
				continue
			}
			locs := m.locs[d]
			for i := range 2 {
				if d.Index[i] >= 0 {
					d.Where[i] = bag.Where(m.stores[i], locs[i])
				}
			}
		}
	}
	return nil
}

// instant matches the messages of one receive time (m.groups).
func (m *matcher) instant() {
	ga, gb := m.groups[0], m.groups[1]
	// The usual case: one message on each side, of one topic.
	if len(ga) == 1 && len(gb) == 1 && ga[0].topic == gb[0].topic {
		m.count(0, &ga[0])
		m.count(1, &gb[0])
		m.pair(ga[0], gb[0])
		return
	}
	clear(m.byTopic)
	var order []int32
	for side, g := range m.groups {
		for i := range g {
			r := &g[i]
			m.count(side, r)
			l := m.byTopic[r.topic]
			if l == nil {
				l = &[2][]rec{}
				m.byTopic[r.topic] = l
				order = append(order, r.topic)
			}
			l[side] = append(l[side], *r)
		}
	}
	for _, topic := range order {
		l := m.byTopic[topic]
		la, lb := l[0], l[1]
		used := make([]bool, len(lb))
		var restA []rec
		// Equal payloads first, whatever their order at this instant.
		if len(la)*len(lb) <= maxMatchPairs {
			for _, a := range la {
				found := false
				for j, b := range lb {
					if !used[j] && bytes.Equal(a.data, b.data) {
						used[j], found = true, true
						break
					}
				}
				if !found {
					restA = append(restA, a)
				}
			}
		} else {
			restA = la
		}
		var restB []rec
		for j, b := range lb {
			if !used[j] {
				restB = append(restB, b)
			}
		}
		n := min(len(restA), len(restB))
		for i := range n {
			m.pair(restA[i], restB[i])
		}
		for _, a := range restA[n:] {
			m.note(Dropped, &a, nil, "", "", "", -1)
		}
		for _, b := range restB[n:] {
			m.note(Added, nil, &b, "", "", "", -1)
		}
	}
}

// count adds r to its side's figures, and numbers it on its topic.
func (m *matcher) count(side int, r *rec) {
	s := &m.res.Topics[r.topic].Side[side]
	t := bag.TimeFromNanos(r.ns)
	if s.Messages == 0 {
		s.First = t
	}
	s.Last = t
	s.Messages++
	m.res.Messages[side]++
	r.ordinal = m.ordinal[side][r.topic]
	m.ordinal[side][r.topic]++
}

// pair compares two messages of one topic at one receive time.
func (m *matcher) pair(a, b rec) {
	if bytes.Equal(a.data, b.data) {
		return
	}
	t := m.res.Topics[a.topic]
	if m.o.Values && t.Undecodable == "" {
		pa, err := m.plan(0, a.conn)
		var pb *rosmsg.Plan
		if err == nil {
			pb, err = m.plan(1, b.conn)
		}
		if err != nil {
			// The topic cannot be decoded: its messages are compared by
			// bytes, and the result says so.
			t.Undecodable = err.Error()
		} else {
			na, errA := pa.Decode(a.data)
			nb, errB := pb.Decode(b.data)
			if errA == nil && errB == nil {
				field, va, vb, differ := compareNodes(na, nb, "", m.o.Tolerance)
				if differ {
					m.note(Changed, &a, &b, field, va, vb, -1)
				}
				return
			}
			// A payload that does not hold its definition differs from
			// one that does, or from another that does not by its bytes.
			m.note(Changed, &a, &b, "", decodeNote(errA), decodeNote(errB), firstDiff(a.data, b.data))
			return
		}
	}
	m.note(Changed, &a, &b, "", "", "", firstDiff(a.data, b.data))
}

// decodeNote says why a payload could not be decoded ("" when it could).
func decodeNote(err error) string {
	if err == nil {
		return ""
	}
	return "undecodable: " + err.Error()
}

// plan returns the decoding plan of c's messages on one side.
func (m *matcher) plan(side int, c *bag.Connection) (*rosmsg.Plan, error) {
	if p, ok := m.plans[side][c]; ok {
		return p, nil
	}
	if err, ok := m.planErr[side][c]; ok {
		return nil, err
	}
	p, err := model.PlanFor(&m.cache, c)
	if err != nil {
		m.planErr[side][c] = err
		return nil, err
	}
	m.plans[side][c] = p
	return p, nil
}

// note records one difference of a's or b's topic.
func (m *matcher) note(k Kind, a, b *rec, field, va, vb string, at int) {
	r := a
	if r == nil {
		r = b
	}
	t := m.res.Topics[r.topic]
	switch k {
	case Changed:
		t.Changed++
	case Dropped:
		t.Dropped++
	case Added:
		t.Added++
	}
	d := &Difference{Kind: k, Time: bag.TimeFromNanos(r.ns), Index: [2]int64{-1, -1}, Size: [2]int{-1, -1}, Field: field, A: va, B: vb, At: at}
	var locs [2]bag.Loc
	for i, x := range []*rec{a, b} {
		if x != nil {
			d.Index[i] = x.ordinal
			d.Size[i] = len(x.data)
			d.Conn[i], d.Loc[i] = x.conn, x.loc
			locs[i] = x.loc
		}
	}
	if t.First == nil {
		t.First = d
		m.locs[d] = locs
		return
	}
	if t.Last != nil && t.Last != t.First {
		delete(m.locs, t.Last)
	}
	t.Last = d
	m.locs[d] = locs
}

// firstDiff returns the offset of the first byte where a and b differ,
// -1 when one is a prefix of the other.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
