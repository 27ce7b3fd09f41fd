package series

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// LatencyPath is the field path of a topic's derived series "header.stamp
// minus receive time", in seconds: "/imu.@latency". It exists for types
// with a header.
const LatencyPath = "@latency"

// ErrUnknownTopic and ErrUnknownField are what a field reference that does
// not resolve wraps.
var (
	ErrUnknownTopic = errors.New("unknown topic")
	ErrUnknownField = errors.New("unknown field")
)

// FieldRef names one plottable field of a topic: "/imu.linear_acceleration.x"
// is Topic "/imu", Path "linear_acceleration.x".
type FieldRef struct {
	Topic string
	Path  string
}

// String returns the reference as written: topic, '.', path.
func (r FieldRef) String() string { return r.Topic + "." + r.Path }

// IsLatency reports whether r names the derived latency series.
func (r FieldRef) IsLatency() bool { return r.Path == LatencyPath }

// bareTopic drops a leading slash, so "rosout" and "/rosout" compare equal.
func bareTopic(s string) string { return strings.TrimPrefix(s, "/") }

// ParseFieldRef splits s into a topic of topics and a field path: the
// longest topic that s starts with followed by '.' (topics may contain dots;
// a leading slash may be left out or added). It checks the topic only; see
// ResolveField for the path.
func ParseFieldRef(s string, topics []string) (FieldRef, error) {
	bs := bareTopic(s)
	best, bestLen := "", -1
	for _, t := range topics {
		bt := bareTopic(t)
		if len(bs) > len(bt)+1 && strings.HasPrefix(bs, bt) && bs[len(bt)] == '.' {
			// Prefer the longest topic, then the one spelt like s.
			if len(bt) > bestLen || (len(bt) == bestLen && strings.HasPrefix(s, t)) {
				best, bestLen = t, len(bt)
			}
		}
	}
	if bestLen >= 0 {
		return FieldRef{Topic: best, Path: bs[bestLen+1:]}, nil
	}
	for _, t := range topics {
		if bareTopic(t) == strings.TrimSuffix(bs, ".") {
			return FieldRef{}, fmt.Errorf("%w: %q names topic %s but no field (write %s.FIELD)", ErrUnknownField, s, t, t)
		}
	}
	sorted := append([]string(nil), topics...)
	sort.Strings(sorted)
	return FieldRef{}, fmt.Errorf("%w in %q; the bag's topics are: %s", ErrUnknownTopic, s, strings.Join(sorted, ", "))
}

// Topics returns the bag's distinct topics, sorted.
func Topics(b bag.Storage) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range b.Connections() {
		if !seen[c.Topic] {
			seen[c.Topic] = true
			out = append(out, c.Topic)
		}
	}
	sort.Strings(out)
	return out
}

// topicConns returns the connections of topic.
func topicConns(b bag.Storage, topic string) []*bag.Connection {
	var out []*bag.Connection
	for _, c := range b.Connections() {
		if c.Topic == topic {
			out = append(out, c)
		}
	}
	return out
}

// ResolveField parses s against the bag's topics and checks that the path
// compiles for every connection of the topic. An unknown topic lists the
// topics; an unknown field suggests close paths.
func ResolveField(b bag.Storage, cache *rosmsg.Cache, s string) (FieldRef, error) {
	ref, err := ParseFieldRef(s, Topics(b))
	if err != nil {
		return ref, err
	}
	_, err = compileRef(b, cache, ref)
	return ref, err
}

// connPaths is a field reference compiled for each connection of its topic
// (nil for the latency series).
type connPaths map[uint32]*rosmsg.Selection

// compileRef compiles ref's path (or, for the latency series, the header
// stamp) for every connection of its topic. Connections whose type lacks
// the field (a topic published with several types) are left out; it is an
// error only when none has it.
func compileRef(b bag.Storage, cache *rosmsg.Cache, ref FieldRef) (connPaths, error) {
	conns := topicConns(b, ref.Topic)
	if len(conns) == 0 {
		return nil, fmt.Errorf("%w %s; the bag's topics are: %s", ErrUnknownTopic, ref.Topic, strings.Join(Topics(b), ", "))
	}
	out := connPaths{}
	var firstErr error
	for _, c := range conns {
		p, err := compileConn(cache, ref, c)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		out[c.ID] = p
	}
	if len(out) == 0 {
		return nil, firstErr
	}
	return out, nil
}

// compileConn compiles ref for one connection; a nil selection with a nil
// error is the latency series.
func compileConn(cache *rosmsg.Cache, ref FieldRef, c *bag.Connection) (*rosmsg.Selection, error) {
	plan, err := planFor(cache, c)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", ref.Topic, c.Type, err)
	}
	if ref.IsLatency() {
		if _, err := CompileStamp(plan); err != nil {
			return nil, fmt.Errorf("%w: %s (%s) has no header.stamp for %s", ErrUnknownField, ref.Topic, c.Type, LatencyPath)
		}
		return nil, nil
	}
	p, err := rosmsg.CompileSelection(plan, ref.Path)
	if err != nil {
		detail := err.Error()
		var re *rosmsg.Error
		if errors.As(err, &re) && re.Msg != "" {
			detail = re.Msg
		}
		hint := ""
		if s := rosmsg.SuggestPaths(ref.Path, plan.Paths()); len(s) > 0 {
			for i := range s {
				s[i] = ref.Topic + "." + s[i]
			}
			hint = "; did you mean " + strings.Join(s, ", ") + "?"
		}
		return nil, fmt.Errorf("%w %q of %s (%s): %s%s", ErrUnknownField, ref.Path, ref.Topic, c.Type, detail, hint)
	}
	return p, nil
}

// Stamp reads a message's header.stamp exactly, as seconds and
// nanoseconds.
type Stamp struct {
	secs, nsecs *rosmsg.Path
	// fixed: both are CDR int32 and uint32 (builtin_interfaces/Time) at
	// the offsets secOff and nsecOff in every message (the header first,
	// as ROS 2 messages have it), read there directly; end is the least
	// length of a message that holds both.
	fixed                bool
	secOff, nsecOff, end int
}

// CompileStamp compiles the header.stamp paths of plan: secs and nsecs
// (ROS 1 time), or sec and nanosec (ROS 2 builtin_interfaces/Time).
func CompileStamp(plan *rosmsg.Plan) (Stamp, error) {
	var first error
	for _, f := range [][2]string{{"secs", "nsecs"}, {"sec", "nanosec"}} {
		s, err := rosmsg.CompilePath(plan, "header.stamp."+f[0])
		if err == nil {
			var n *rosmsg.Path
			if n, err = rosmsg.CompilePath(plan, "header.stamp."+f[1]); err == nil {
				return newStamp(s, n), nil
			}
		}
		if first == nil {
			first = err
		}
	}
	return Stamp{}, first
}

// newStamp is the Stamp of paths s and n, fixed where they allow.
func newStamp(s, n *rosmsg.Path) Stamp {
	st := Stamp{secs: s, nsecs: n}
	so, sok := s.FixedCDR()
	no, nok := n.FixedCDR()
	if sok && nok && s.Kind() == rosmsg.KindInt32 && n.Kind() == rosmsg.KindUint32 {
		st.fixed, st.secOff, st.nsecOff, st.end = true, so, no, max(so, no)+4
	}
	return st
}

// Nanos reads the stamp of one message as nanoseconds since the epoch.
func (p Stamp) Nanos(data []byte) (int64, error) {
	if p.fixed && len(data) >= p.end && data[0] == 0 && data[1] <= 1 {
		var s, n uint32
		if data[1] == 1 {
			s, n = binary.LittleEndian.Uint32(data[p.secOff:]), binary.LittleEndian.Uint32(data[p.nsecOff:])
		} else {
			s, n = binary.BigEndian.Uint32(data[p.secOff:]), binary.BigEndian.Uint32(data[p.nsecOff:])
		}
		return int64(int32(s))*1e9 + int64(n), nil
	}
	s, err := p.secs.Float64(data)
	if err != nil {
		return 0, err
	}
	n, err := p.nsecs.Float64(data)
	if err != nil {
		return 0, err
	}
	return int64(s)*1e9 + int64(n), nil
}

var indexRE = regexp.MustCompile(`\[[^\]]*\]?`)

// normIndex writes every array index or selector as [0], the form
// Plan.Paths uses.
func normIndex(s string) string { return indexRE.ReplaceAllString(s, "[0]") }
