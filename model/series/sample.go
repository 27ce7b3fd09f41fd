package series

import (
	"context"
	"strings"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Sampling limits.
const (
	// sampleMessages is how many messages SampleFields reads at each end
	// of a topic.
	sampleMessages = 200
	// sampleKeyed and sampleIndexed bound the element names listed per
	// "[*]" path: names by key, names by index.
	sampleKeyed   = 1024
	sampleIndexed = 64
	// sampleRange bounds the elements read per array and message.
	sampleRange = "[0:1024]"
	// maxSamples is how many recordings' samples are kept for CompleteField.
	maxSamples = 8
)

// FieldSample is what a sample of each topic's messages holds: per topic,
// the plottable paths of its type with every element and key actually
// seen ("/joint_states.position[shoulder_pan]",
// "/tf.transforms[child_frame_id=base_link].transform.translation.x").
type FieldSample struct {
	paths map[string][]string // topic -> paths past the topic, in order
}

// Paths returns the sampled paths of topic (past "TOPIC."), and whether
// the topic was sampled. For each array path it lists the "[*]" form, the
// elements seen (by key when the array has one, else the first 64
// indices, at most 1024 keys) and the "[0]" form, in definition order.
func (s *FieldSample) Paths(topic string) ([]string, bool) {
	if s == nil {
		return nil, false
	}
	p, ok := s.paths[topic]
	return p, ok
}

var sampleReg struct {
	sync.Mutex
	order []bag.Storage
	by    map[bag.Storage]*FieldSample
}

func recordSample(b bag.Storage, s *FieldSample) {
	sampleReg.Lock()
	defer sampleReg.Unlock()
	if sampleReg.by == nil {
		sampleReg.by = map[bag.Storage]*FieldSample{}
	}
	if _, ok := sampleReg.by[b]; !ok {
		sampleReg.order = append(sampleReg.order, b)
		if len(sampleReg.order) > maxSamples {
			delete(sampleReg.by, sampleReg.order[0])
			sampleReg.order = sampleReg.order[1:]
		}
	}
	sampleReg.by[b] = s
}

// SampleOf returns the sample SampleFields last recorded for b, or nil.
func SampleOf(b bag.Storage) *FieldSample {
	sampleReg.Lock()
	defer sampleReg.Unlock()
	return sampleReg.by[b]
}

// SampleFields reads the first and the last 200 messages of every topic
// of b (the index says where they are; without one, the first 200 only)
// and lists the elements and keys their arrays hold, for CompleteField,
// which uses the sample recorded for b from then on. It takes a moment on
// a large recording: call it in the background. It stops with ctx's error.
func SampleFields(ctx context.Context, b bag.Storage, cache *rosmsg.Cache) (*FieldSample, error) {
	s := &FieldSample{paths: map[string][]string{}}
	blocks := b.Blocks()
	// The topics the summary counts no messages of are not read: reading
	// one looks through every message for none (a .db3 has no blocks to
	// say where a topic's messages lie), the whole file over a network.
	// A summary that counts some messages lists every connection that
	// has any.
	var counts map[uint32]uint64
	if sum, err := b.Summary(); err == nil && sum != nil && sum.Indexed && len(sum.ConnMessages) > 0 {
		counts = sum.ConnMessages
	}
	for _, topic := range Topics(b) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		empty := counts != nil
		for _, c := range topicConns(b, topic) {
			if counts[c.ID] > 0 {
				empty = false
			}
		}
		paths, err := sampleTopic(ctx, b, cache, blocks, topic, empty)
		if err != nil {
			return nil, err
		}
		s.paths[topic] = paths
	}
	recordSample(b, s)
	return s, nil
}

// sampler collects the element names one "[*]" path reads.
type sampler struct {
	sel    *rosmsg.Selection
	keyed  bool
	names  []string
	seen   map[string]bool
	prefix int
}

func (s *sampler) Value(name []byte, _ float64) {
	limit := sampleIndexed
	if s.keyed {
		limit = sampleKeyed
	}
	if len(s.names) >= limit || s.seen[string(name[s.prefix:])] {
		return
	}
	n := string(name[s.prefix:])
	s.seen[n] = true
	s.names = append(s.names, n)
}

// sampleTopic lists topic's sampled paths.
func sampleTopic(ctx context.Context, b bag.Storage, cache *rosmsg.Cache, blocks []*bag.Block, topic string, empty bool) ([]string, error) {
	conns := topicConns(b, topic)
	type connPlan struct {
		plan     *rosmsg.Plan
		samplers map[string]*sampler // by "[*]" path
		walk     []*sampler
	}
	plans := map[uint32]*connPlan{}
	ids := map[uint32]bool{}
	for _, c := range conns {
		ids[c.ID] = true
		plan, err := planFor(cache, c)
		if err != nil {
			continue
		}
		cp := &connPlan{plan: plan, samplers: map[string]*sampler{}}
		for _, p := range plan.SelectorPaths() {
			if !strings.Contains(p, "[*]") {
				continue
			}
			sel, err := rosmsg.CompileSelection(plan, strings.ReplaceAll(p, "[*]", sampleRange))
			if err != nil {
				continue
			}
			sm := &sampler{sel: sel, keyed: sel.Keyed(), seen: map[string]bool{}, prefix: len(topic) + 1}
			cp.samplers[p] = sm
			cp.walk = append(cp.walk, sm)
		}
		plans[c.ID] = cp
	}
	// The windows: from the start to the block where the topic's first
	// messages end, and from the block where its last ones begin.
	var head, tail bag.MessageFilter
	head.Topics, tail.Topics = []string{topic}, []string{topic}
	n := 0
	for _, blk := range blocks {
		for id, c := range blk.Counts {
			if ids[id] {
				n += int(c)
			}
		}
		if n >= sampleMessages {
			head.End = blk.End
			break
		}
	}
	n = 0
	for i := len(blocks) - 1; i >= 0; i-- {
		for id, c := range blocks[i].Counts {
			if ids[id] {
				n += int(c)
			}
		}
		if n >= sampleMessages {
			tail.Start = blocks[i].Start
			break
		}
	}
	read := func(f bag.MessageFilter, last bool) error {
		it := b.Messages(f)
		defer it.Close()
		var name []byte
		seen := 0
		for it.Next() {
			if seen&63 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			seen++
			if !last && seen > sampleMessages {
				break
			}
			m := it.Message()
			cp := plans[m.Conn.ID]
			if cp == nil {
				continue
			}
			for _, sm := range cp.walk {
				name = append(name[:0], topic...)
				name = append(name, '.')
				name, _ = sm.sel.Walk(m.Data, name, sm)
			}
		}
		return it.Err()
	}
	if !empty { // else no messages to sample: the paths alone
		if err := read(head, false); err != nil {
			return nil, err
		}
		if len(blocks) > 0 && !tail.Start.IsZero() {
			if err := read(tail, true); err != nil {
				return nil, err
			}
		}
	}
	// The list: each plan's paths, "[*]" paths followed by what was seen
	// and their "[0]" form.
	var out []string
	added := map[string]bool{}
	add := func(p string) {
		if !added[p] {
			added[p] = true
			out = append(out, p)
		}
	}
	for _, c := range conns {
		cp := plans[c.ID]
		if cp == nil {
			continue
		}
		tpl, wild := cp.plan.Paths(), cp.plan.SelectorPaths()
		for i := 0; i < len(tpl) && i < len(wild); i++ {
			if sm := cp.samplers[wild[i]]; sm != nil {
				add(wild[i])
				for _, n := range sm.names {
					add(n)
				}
			}
			add(tpl[i])
		}
	}
	return out, nil
}
