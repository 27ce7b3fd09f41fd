package services

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
)

// ErrNone says a recording has no service events and no action topics.
var ErrNone = errors.New("the recording has no service events (…/_service_event topics) and no action topics")

// Report is a recording's service calls and action goals.
type Report struct {
	// Services are the recorded services, by name.
	Services []*Service
	// Calls are the calls in the order of their first event, at most
	// MaxCalls; CallsLeftOut counts the later ones (in their service's
	// numbers, not here).
	Calls        []Call
	CallsLeftOut int
	// Actions are the actions, by name; Goals their goals in the order
	// the recording first mentions them, at most MaxGoals (GoalsLeftOut
	// counts the rest).
	Actions      []*Action
	Goals        []Goal
	GoalsLeftOut int
	// Events counts the messages read.
	Events int
	// Undecodable counts the messages that could not be decoded (or were
	// not service events or action messages), FirstUndecodable says the
	// first.
	Undecodable      int
	FirstUndecodable string
	// Flushes counts the times more than pendingCap calls waited for a
	// response at once, and all were closed (a later response of one of
	// them is a call without a request).
	Flushes int
}

// Service returns the service named name, or nil.
func (r *Report) Service(name string) *Service {
	for _, s := range r.Services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Connections returns the IDs of st's service event and action topic
// connections.
func Connections(st bag.Storage) []uint32 {
	var ids []uint32
	for _, c := range st.Connections() {
		if IsServiceEventTopic(c.Topic, c.Type) || IsActionTopic(c.Topic) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Options tune Read.
type Options struct {
	// Progress, when set, is told the messages read so far of the total
	// the summary counts.
	Progress func(done, total int64)
	// Done, when set, is given the finished iterator before it is
	// closed, to ask what the read skipped (bag.DamageAfter).
	Done func(it bag.MessageIter)
}

// Read reads st's service events and action topics once and pairs them
// into calls and goals. A read that stops (damage, ctx) returns what was
// read so far with the error.
func Read(ctx context.Context, st bag.Storage, opt Options) (*Report, error) {
	ids := Connections(st)
	if len(ids) == 0 {
		return nil, ErrNone
	}
	var total int64
	if s, _ := st.Summary(); s != nil {
		for _, id := range ids {
			total += int64(s.ConnMessages[id])
		}
	}
	b := newBuilder(st, ids)
	cache := &rosmsg.Cache{}
	// One message's tree at a time: what a call or goal keeps is copied
	// out of it.
	var scratch rosmsg.Scratch
	it := st.Messages(bag.MessageFilter{Conns: ids})
	defer it.Close()
	var done int64
	var err error
	for it.Next() {
		if done%256 == 0 {
			if err = ctx.Err(); err != nil {
				break
			}
			if opt.Progress != nil {
				opt.Progress(done, total)
			}
		}
		done++
		m := it.Message()
		plan, perr := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
		if perr != nil {
			b.undecodable(m, perr)
			continue
		}
		n, derr := plan.DecodeScratch(m.Data, &scratch)
		if derr != nil {
			b.undecodable(m, derr)
			continue
		}
		b.message(m, n)
	}
	if opt.Progress != nil {
		opt.Progress(done, total)
	}
	if opt.Done != nil {
		opt.Done(it)
	}
	if err == nil {
		err = it.Err()
	}
	return b.finish(), err
}

// callKey is a call's identity within a service.
type callKey struct {
	svc int
	gid GID
	seq int64
}

// pending is a call waiting for more events.
type pending struct {
	idx   int // in Report.Calls, -1 when not kept
	first int64
	has   [numEventTypes]bool
	ev    [numEventTypes]Event
	// goal is the goal_id of an action's send_goal or get_result
	// request.
	goal    UUID
	hasGoal bool
}

type builder struct {
	r       *Report
	svcOf   map[uint32]int // connection -> service
	topicOf map[uint32]string
	sides   []sideSeen // by service
	// actionOf is the action (index) and part of each service and topic.
	svcAction []actionRef
	actions   map[string]int
	pending   map[callKey]*pending
	goals     map[UUID]int // -1: not kept
}

type sideSeen struct{ client, server bool }

type actionRef struct {
	action int // -1 for a plain service
	part   string
}

func newBuilder(st bag.Storage, ids []uint32) *builder {
	b := &builder{r: &Report{}, svcOf: map[uint32]int{}, topicOf: map[uint32]string{}, actions: map[string]int{},
		pending: map[callKey]*pending{}, goals: map[UUID]int{}}
	conns := map[uint32]*bag.Connection{}
	for _, c := range st.Connections() {
		conns[c.ID] = c
	}
	// Services and actions by name, so the report reads the same
	// whatever the connections' order.
	byName := map[string]int{}
	var names, actions []string
	for _, id := range ids {
		c := conns[id]
		b.topicOf[id] = c.Topic
		if IsServiceEventTopic(c.Topic, c.Type) {
			name := strings.TrimSuffix(c.Topic, ServiceEventSuffix)
			if _, ok := byName[name]; !ok {
				byName[name] = -1
				names = append(names, name)
			}
			if a, _, ok := actionPart(name); ok {
				actions = append(actions, a)
			}
		} else if a, _, ok := actionPart(c.Topic); ok {
			actions = append(actions, a)
		}
	}
	slices.Sort(names)
	slices.Sort(actions)
	actions = slices.Compact(actions)
	for _, a := range actions {
		b.actions[a] = len(b.r.Actions)
		b.r.Actions = append(b.r.Actions, &Action{Name: a, States: map[string]int{}})
	}
	for i, name := range names {
		byName[name] = i
		s := &Service{Name: name, Topic: name + ServiceEventSuffix}
		b.r.Services = append(b.r.Services, s)
		ar := actionRef{action: -1}
		if a, part, ok := actionPart(name); ok {
			ar = actionRef{action: b.actions[a], part: part}
		}
		b.svcAction = append(b.svcAction, ar)
	}
	b.sides = make([]sideSeen, len(names))
	for _, id := range ids {
		c := conns[id]
		if IsServiceEventTopic(c.Topic, c.Type) {
			i := byName[strings.TrimSuffix(c.Topic, ServiceEventSuffix)]
			b.svcOf[id] = i
			if b.r.Services[i].Type == "" {
				b.r.Services[i].Type = c.Type
			}
		}
	}
	return b
}

func (b *builder) undecodable(m *bag.Message, err error) {
	b.r.Undecodable++
	if b.r.Undecodable == 1 {
		b.r.FirstUndecodable = fmt.Sprintf("%s at %s: %v", m.Conn.Topic, m.Time, err)
	}
}

func refOf(m *bag.Message) msgref.Ref {
	return msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
}

func (b *builder) message(m *bag.Message, n *rosmsg.Node) {
	b.r.Events++
	if svc, ok := b.svcOf[m.Conn.ID]; ok {
		if err := b.serviceEvent(svc, m, n); err != nil {
			b.undecodable(m, err)
		}
		return
	}
	a, part, _ := actionPart(b.topicOf[m.Conn.ID])
	ai := b.actions[a]
	var err error
	switch part {
	case FeedbackTopic:
		err = b.feedback(ai, m, n)
	case StatusTopic:
		err = b.status(ai, m, n)
	}
	if err != nil {
		b.undecodable(m, err)
	}
}

// serviceEvent pairs one event of service svc into its call.
func (b *builder) serviceEvent(svc int, m *bag.Message, n *rosmsg.Node) error {
	info := n.Field("info")
	if info == nil {
		return errors.New("not a service event: no info")
	}
	et, seqN, gidN := info.Field("event_type"), info.Field("sequence_number"), info.Field("client_gid")
	stamp, okStamp := stampOf(info.Field("stamp"))
	if et == nil || seqN == nil || gidN == nil || !okStamp {
		return errors.New("not a service_msgs/ServiceEventInfo")
	}
	kind := EventType(et.Uint())
	if kind >= numEventTypes {
		return fmt.Errorf("unknown event_type %d", et.Uint())
	}
	gid, ok := bytes16(gidN)
	if !ok {
		return errors.New("client_gid is not 16 bytes")
	}
	s := b.r.Services[svc]
	s.Events++
	if kind == RequestSent || kind == ResponseReceived {
		b.sides[svc].client = true
	} else {
		b.sides[svc].server = true
	}
	key := callKey{svc: svc, gid: gid, seq: seqN.Int()}
	p := b.pending[key]
	if p != nil && p.has[kind] {
		// The same event again: a new call reusing the key.
		b.close(key, p)
		p = nil
	}
	ref := refOf(m)
	if p == nil {
		if len(b.pending) >= pendingCap {
			b.flush()
		}
		p = &pending{idx: -1, first: ref.T}
		if len(b.r.Calls) < callCap {
			p.idx = len(b.r.Calls)
			b.r.Calls = append(b.r.Calls, Call{Service: svc, Client: gid, Seq: key.seq})
		} else {
			b.r.CallsLeftOut++
		}
		b.pending[key] = p
	}
	p.has[kind] = true
	p.ev[kind] = Event{Ref: ref, Stamp: stamp}
	var body *rosmsg.Node
	if kind.isRequest() {
		body = first(n.Field("request"))
	} else {
		body = first(n.Field("response"))
	}
	if p.idx >= 0 && body != nil {
		c := &b.r.Calls[p.idx]
		if kind.isRequest() && c.Request == "" {
			c.Request = summary(body)
		} else if !kind.isRequest() && c.Response == "" {
			c.Response = summary(body)
		}
	}
	if ar := b.svcAction[svc]; ar.action >= 0 && body != nil {
		b.actionEvent(ar, kind, p, ref, body)
	}
	if b.complete(svc, p) {
		b.close(key, p)
	}
	return nil
}

// complete says a call has every event the sides its service records
// give: no later event can belong to it.
func (b *builder) complete(svc int, p *pending) bool {
	sd := b.sides[svc]
	if sd.client && !(p.has[RequestSent] && p.has[ResponseReceived]) {
		return false
	}
	if sd.server && !(p.has[RequestReceived] && p.has[ResponseSent]) {
		return false
	}
	return true
}

// close counts a call in its service and keeps its events.
func (b *builder) close(key callKey, p *pending) {
	delete(b.pending, key)
	s := b.r.Services[key.svc]
	s.Calls++
	req := p.has[RequestSent] || p.has[RequestReceived]
	resp := p.has[ResponseSent] || p.has[ResponseReceived]
	if resp {
		s.Answered++
	}
	if req && !resp {
		s.Missing++
	}
	if p.has[RequestSent] || p.has[ResponseReceived] {
		s.Client++
	}
	if p.has[RequestReceived] || p.has[ResponseSent] {
		s.Server++
	}
	if l, ok := latency(&p.has, &p.ev); ok {
		s.lat.add(l)
	}
	if p.idx >= 0 {
		c := &b.r.Calls[p.idx]
		c.Has, c.Events = p.has, p.ev
	}
}

// flush closes every waiting call, oldest first.
func (b *builder) flush() {
	b.r.Flushes++
	keys := slices.Collect(maps.Keys(b.pending))
	slices.SortFunc(keys, func(x, y callKey) int { return cmp.Compare(b.pending[x].first, b.pending[y].first) })
	for _, k := range keys {
		b.close(k, b.pending[k])
	}
}

func (b *builder) finish() *Report {
	if len(b.pending) > 0 {
		b.flush()
		b.r.Flushes--
	}
	for _, g := range b.r.Goals {
		a := b.r.Actions[g.Action]
		if _, ok := g.End(); !ok {
			a.Open++
		}
		a.States[g.State()]++
	}
	return b.r
}

// first is element 0 of a sequence of at most one (a service event's
// request or response), or nil.
func first(seq *rosmsg.Node) *rosmsg.Node {
	if seq == nil || seq.Len() == 0 {
		return nil
	}
	e, ok := seq.Elem(0)
	if !ok {
		return nil
	}
	return &e
}

// summary is a message on one line, cut at summaryLen.
func summary(n *rosmsg.Node) string {
	s := string(rosmsg.AppendJSON(nil, n))
	if len(s) <= summaryLen {
		return s
	}
	cut := summaryLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// bytes16 reads a 16-byte array (client_gid, a UUID's uuid): char[16] or
// uint8[16].
func bytes16(n *rosmsg.Node) (out [16]byte, ok bool) {
	if n == nil {
		return out, false
	}
	if bs := n.Bytes(); len(bs) == 16 {
		copy(out[:], bs)
		return out, true
	}
	if !n.Array || n.Len() != 16 {
		return out, false
	}
	for i := range 16 {
		e, ok := n.Elem(i)
		if !ok {
			return out, false
		}
		out[i] = byte(e.Uint())
	}
	return out, true
}

// stampOf reads a builtin_interfaces/Time (sec, nanosec) as nanoseconds.
func stampOf(n *rosmsg.Node) (int64, bool) {
	if n == nil {
		return 0, false
	}
	if n.Kind == rosmsg.KindTime && !n.Array {
		t := n.Time()
		return int64(t.Sec)*1e9 + int64(t.Nsec), true
	}
	s, ns := n.Field("sec"), n.Field("nanosec")
	if s == nil || ns == nil {
		return 0, false
	}
	return s.Int()*1e9 + int64(ns.Uint()), true
}
