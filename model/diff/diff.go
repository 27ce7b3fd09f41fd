// Package diff compares two recordings topic by topic: their counts, rates
// and time spans, their types and definitions, and their messages, matched
// by receive time and compared by payload bytes or by decoded value (with a
// tolerance for floats). It reads both recordings at once, each on its own
// goroutine, and keeps only the messages that share one receive time, so its
// memory does not grow with the recordings. `bagscope diff` prints what it
// finds; the window's Diff tab shows the same.
package diff

import (
	"context"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// Options say what Compare compares.
type Options struct {
	// Topics, when not empty, are the only topics compared (a topic in
	// neither recording is simply absent from the result).
	Topics []string
	// Values compares decoded values instead of payload bytes: messages
	// whose bytes differ are equal when every field is, floats within
	// Tolerance.
	Values bool
	// Tolerance is how far two floats may be and still be equal:
	// |a-b| <= Tolerance * max(1, |a|, |b|). 0 asks for equal values.
	Tolerance float64
	// Progress, when set, hears of the messages read (both recordings)
	// out of those their summaries count.
	Progress func(done, total int64)
}

// Result is what Compare found.
type Result struct {
	// Topics lists every compared topic of either recording, by name.
	Topics []*Topic
	// ByValue says the messages were compared by decoded value.
	ByValue bool
	// Messages counts the messages read from A and from B.
	Messages [2]uint64
	// Its is each recording's iterator once read, for the caller's loss
	// report (bag.IterSkipped); Suspects counts the suspect messages read.
	Its      [2]bag.MessageIter
	Suspects [2]uint64
}

// Equal reports whether the two recordings are equal in the sense
// compared: the same topics, types, definitions and messages.
func (r *Result) Equal() bool {
	for _, t := range r.Topics {
		if !t.Equal() {
			return false
		}
	}
	return true
}

// Differing returns the topics that differ.
func (r *Result) Differing() []*Topic {
	var out []*Topic
	for _, t := range r.Topics {
		if !t.Equal() {
			out = append(out, t)
		}
	}
	return out
}

// Side is what one recording holds of a topic.
type Side struct {
	Present bool
	// Types lists the topic's types (one, unless its connections differ).
	Types []string
	// Definitions holds each type's definition key: its md5 sum where the
	// format keeps one (ROS 1), else its definition text without comments
	// and blank lines.
	Definitions []string
	// Messages counts the messages read; First and Last are the first and
	// last receive times (zero without messages).
	Messages    uint64
	First, Last bag.Time
}

// Rate returns the mean rate in Hz over the topic's span (0 with fewer
// than two messages or no span).
func (s *Side) Rate() float64 {
	if s.Messages < 2 {
		return 0
	}
	d := s.Last.Sub(s.First)
	if d <= 0 {
		return 0
	}
	return float64(s.Messages-1) / d
}

// Span returns the seconds from the first message to the last.
func (s *Side) Span() float64 {
	if s.Messages == 0 {
		return 0
	}
	return s.Last.Sub(s.First)
}

// Kind is how a message differs.
type Kind string

// Kinds of difference.
const (
	Changed Kind = "changed" // a message at the same receive time, with other content
	Dropped Kind = "dropped" // a message of A with no message of B at its receive time
	Added   Kind = "added"   // a message of B with no message of A at its receive time
)

// Difference is one differing message.
type Difference struct {
	Kind Kind
	Time bag.Time
	// Index is the message's position on its topic in A and in B (from
	// 0); -1 on the side that has no such message.
	Index [2]int64
	// Where says where each message is in its file (bag.Where); "" on
	// the side that has none.
	Where [2]string
	// Size is each message's payload size (-1 on the side that has none).
	Size [2]int
	// Conn and Loc are each message's connection and place (bag.Loc),
	// for reading it again (Storage.ReadMessage); nil and zero on the
	// side that has none.
	Conn [2]*bag.Connection
	Loc  [2]bag.Loc
	// Field is the first field that differs (by value), or "" with the
	// byte offset At of the first differing byte (by bytes; -1 when one
	// payload is a prefix of the other). A and B are the two values as
	// text, by value.
	Field string
	At    int
	A, B  string
}

// Topic is one topic compared.
type Topic struct {
	Name string
	Side [2]Side
	// Changed, Dropped and Added count the differing messages.
	Changed, Dropped, Added uint64
	// First and Last are the first and last differing messages (nil when
	// none differs).
	First, Last *Difference
	// Undecodable says why the topic was compared by bytes although
	// values were asked for ("" otherwise).
	Undecodable string
}

// OnlyIn returns 0 or 1 when the topic is in only that recording, else -1.
func (t *Topic) OnlyIn() int {
	switch {
	case t.Side[0].Present && !t.Side[1].Present:
		return 0
	case !t.Side[0].Present && t.Side[1].Present:
		return 1
	}
	return -1
}

// TypesDiffer reports whether the two recordings give the topic other
// types.
func (t *Topic) TypesDiffer() bool {
	return t.OnlyIn() < 0 && !slices.Equal(t.Side[0].Types, t.Side[1].Types)
}

// DefinitionsDiffer reports whether the types are the same but their
// definitions are not.
func (t *Topic) DefinitionsDiffer() bool {
	return t.OnlyIn() < 0 && !t.TypesDiffer() && !slices.Equal(t.Side[0].Definitions, t.Side[1].Definitions)
}

// Differences counts the differing messages.
func (t *Topic) Differences() uint64 { return t.Changed + t.Dropped + t.Added }

// Equal reports whether the topic is the same in both recordings.
func (t *Topic) Equal() bool {
	return t.OnlyIn() < 0 && !t.TypesDiffer() && !t.DefinitionsDiffer() && t.Differences() == 0
}

// Compare compares a and b (A and B) as o says.
func Compare(ctx context.Context, a, b bag.Storage, o Options) (*Result, error) {
	res := &Result{ByValue: o.Values}
	byName := map[string]*Topic{}
	for side, s := range []bag.Storage{a, b} {
		for _, c := range s.Connections() {
			if len(o.Topics) > 0 && !slices.Contains(o.Topics, c.Topic) {
				continue
			}
			t := byName[c.Topic]
			if t == nil {
				t = &Topic{Name: c.Topic}
				byName[c.Topic] = t
				res.Topics = append(res.Topics, t)
			}
			sd := &t.Side[side]
			sd.Present = true
			typ := NormalType(c.Type)
			if !slices.Contains(sd.Types, typ) {
				sd.Types = append(sd.Types, typ)
				sd.Definitions = append(sd.Definitions, definitionKey(c))
			}
		}
	}
	slices.SortFunc(res.Topics, func(x, y *Topic) int { return strings.Compare(x.Name, y.Name) })
	for _, t := range res.Topics {
		for i := range t.Side {
			sortTogether(t.Side[i].Types, t.Side[i].Definitions)
		}
	}
	if err := compareMessages(ctx, a, b, res, o); err != nil {
		return nil, err
	}
	return res, nil
}

// NormalType names a type the same whether a ROS 1 or a ROS 2 recording
// names it ("pkg/msg/T" and "pkg/T").
func NormalType(t string) string {
	if p, rest, ok := strings.Cut(t, "/msg/"); ok && !strings.Contains(rest, "/") {
		return p + "/" + rest
	}
	return t
}

// definitionKey is what two definitions of one type are compared by.
func definitionKey(c *bag.Connection) string {
	if c.MD5Sum != "" && c.MD5Sum != "*" {
		return "md5:" + c.MD5Sum
	}
	var lines []string
	for _, l := range strings.Split(c.Definition, "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		l = strings.Join(strings.Fields(l), " ")
		if l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// sortTogether sorts keys and reorders vals with them.
func sortTogether(keys, vals []string) {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	k, v := slices.Clone(keys), slices.Clone(vals)
	for i, j := range idx {
		keys[i], vals[i] = k[j], v[j]
	}
}
