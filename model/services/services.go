package services

import (
	"encoding/hex"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
)

// EventType is service_msgs/ServiceEventInfo's event_type.
type EventType uint8

// The event types, in their service_msgs order.
const (
	RequestSent EventType = iota
	RequestReceived
	ResponseSent
	ResponseReceived
	numEventTypes
)

// String is the event type's name in service_msgs.
func (e EventType) String() string {
	switch e {
	case RequestSent:
		return "REQUEST_SENT"
	case RequestReceived:
		return "REQUEST_RECEIVED"
	case ResponseSent:
		return "RESPONSE_SENT"
	case ResponseReceived:
		return "RESPONSE_RECEIVED"
	}
	return "UNKNOWN"
}

// isRequest says whether the event carries the request.
func (e EventType) isRequest() bool { return e == RequestSent || e == RequestReceived }

// Limits of what Read keeps.
const (
	// MaxCalls is how many calls Read keeps; later calls are counted in
	// their service's numbers only.
	MaxCalls = 100_000
	// MaxGoals is how many action goals Read keeps.
	MaxGoals = 50_000
	// summaryLen bounds a request's or response's one-line summary.
	summaryLen = 160
	// maxTransitions bounds the status transitions kept per goal.
	maxTransitions = 32
)

// The bounds Read keeps to; tests lower them.
var (
	callCap, goalCap = MaxCalls, MaxGoals
	// pendingCap is how many calls may wait for more events at once;
	// beyond it every waiting call is closed (see Report.Flushes).
	pendingCap = 200_000
	// latencyCap is the size of each service's latency sample.
	latencyCap = 1 << 14
)

// ServiceEventSuffix ends the topic rosbag2 records a service's events on.
const ServiceEventSuffix = "/_service_event"

// IsServiceEventTopic says whether topic and typ are a service's events:
// a topic ending in /_service_event of a type ending in _Event.
func IsServiceEventTopic(topic, typ string) bool {
	return strings.HasSuffix(topic, ServiceEventSuffix) && strings.HasSuffix(rosmsg.NormalizeROS2Type(typ), "_Event")
}

// Event is one recorded event of a call.
type Event struct {
	// Ref is the event's message; Ref.T its receive time.
	Ref msgref.Ref
	// Stamp is info.stamp (nanoseconds since the epoch).
	Stamp int64
}

// GID is a client's client_gid.
type GID [16]byte

// String is the gid in hex, with the trailing zeros of the usual rmw
// gids left out.
func (g GID) String() string {
	n := len(g)
	for n > 8 && g[n-1] == 0 {
		n--
	}
	return hex.EncodeToString(g[:n])
}

// Call is the recorded events of one request to a service.
type Call struct {
	// Service indexes Report.Services.
	Service int
	Client  GID
	Seq     int64
	// Events by EventType; Has says which were recorded.
	Events [numEventTypes]Event
	Has    [numEventTypes]bool
	// Request and Response summarize the request and the response (one
	// line, cut at summaryLen), "" when none was recorded.
	Request, Response string
}

// Time is the receive time of the call's first recorded event.
func (c *Call) Time() int64 {
	t := int64(0)
	for k := range numEventTypes {
		if c.Has[k] && (t == 0 || c.Events[k].Ref.T < t) {
			t = c.Events[k].Ref.T
		}
	}
	return t
}

// First is the call's first recorded event.
func (c *Call) First() Event {
	var e Event
	for k := range numEventTypes {
		if c.Has[k] && (e.Ref.T == 0 || c.Events[k].Ref.T < e.Ref.T) {
			e = c.Events[k]
		}
	}
	return e
}

// HasRequest says whether a request event was recorded.
func (c *Call) HasRequest() bool { return c.Has[RequestSent] || c.Has[RequestReceived] }

// Answered says whether a response event was recorded.
func (c *Call) Answered() bool { return c.Has[ResponseSent] || c.Has[ResponseReceived] }

// Missing says the call has a request and no response.
func (c *Call) Missing() bool { return c.HasRequest() && !c.Answered() }

// Latency is from the request (sent, else received) to the response
// (received, else sent), by the events' stamps; ok is false unless both
// were recorded.
func (c *Call) Latency() (ns int64, ok bool) {
	return latency(&c.Has, &c.Events)
}

func latency(has *[numEventTypes]bool, ev *[numEventTypes]Event) (int64, bool) {
	var from, to int64
	switch {
	case has[RequestSent]:
		from = ev[RequestSent].Stamp
	case has[RequestReceived]:
		from = ev[RequestReceived].Stamp
	default:
		return 0, false
	}
	switch {
	case has[ResponseReceived]:
		to = ev[ResponseReceived].Stamp
	case has[ResponseSent]:
		to = ev[ResponseSent].Stamp
	default:
		return 0, false
	}
	return to - from, true
}

// Sides says which sides recorded the call: "client", "server" or
// "client+server".
func (c *Call) Sides() string { return sides(&c.Has) }

func sides(has *[numEventTypes]bool) string {
	client := has[RequestSent] || has[ResponseReceived]
	server := has[RequestReceived] || has[ResponseSent]
	switch {
	case client && server:
		return "client+server"
	case client:
		return "client"
	case server:
		return "server"
	}
	return ""
}

// Status is the call's state in a word: "answered", "no response" (a
// request without a response) or "no request" (a response whose request
// was not recorded).
func (c *Call) Status() string {
	switch {
	case c.Missing():
		return "no response"
	case !c.HasRequest():
		return "no request"
	}
	return "answered"
}

// Service is one service's calls, counted.
type Service struct {
	// Name is the service ("/add_two_ints"), Topic its events' topic and
	// Type its events' type.
	Name, Topic, Type string
	// Calls counts its calls, Answered those with a response, Missing
	// those with a request and no response.
	Calls, Answered, Missing int
	// Client and Server count the calls each side recorded.
	Client, Server int
	// Events counts its events read.
	Events int
	lat    latencies
}

// Latency is the service's latencies (see Call.Latency): their number,
// min, median and max. Sampled says the median is that of a uniform
// sample (more calls had a latency than the sample holds); min and max are
// always exact.
func (s *Service) Latency() (n int, min, median, max int64, sampled bool) {
	return s.lat.n, s.lat.min, s.lat.median(), s.lat.max, s.lat.n > len(s.lat.sample)
}

// latencies keeps the count, min and max of a service's latencies and a
// reservoir sample of them.
type latencies struct {
	n        int
	min, max int64
	sample   []int64
	rng      uint64
}

func (l *latencies) add(ns int64) {
	if l.n == 0 || ns < l.min {
		l.min = ns
	}
	if l.n == 0 || ns > l.max {
		l.max = ns
	}
	l.n++
	if len(l.sample) < latencyCap {
		l.sample = append(l.sample, ns)
		return
	}
	// Algorithm R with a fixed xorshift sequence: the same recording
	// gives the same sample.
	if l.rng == 0 {
		l.rng = 0x9e3779b97f4a7c15
	}
	l.rng ^= l.rng << 13
	l.rng ^= l.rng >> 7
	l.rng ^= l.rng << 17
	if j := l.rng % uint64(l.n); j < uint64(len(l.sample)) {
		l.sample[j] = ns
	}
}

// median is the sample's median (the mean of the middle two for an even
// count), 0 without one.
func (l *latencies) median() int64 {
	if len(l.sample) == 0 {
		return 0
	}
	s := slices.Clone(l.sample)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return s[m-1] + (s[m]-s[m-1])/2
}
