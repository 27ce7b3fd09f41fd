// Package servicestest writes a ROS 2 MCAP recording with service events
// and an action, as rosbag2 records them since Kilted, for the tests of
// model/services and of the Services tab: calls recorded by the client,
// the server or both, calls whose response is missing, a response whose
// request is missing, a sequence number used again, and an action's goals
// that succeed, are rejected, are canceled and stay open.
package servicestest

import (
	"cmp"
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/foxglove/mcap/go/mcap"
)

// Start is the recording's first receive time (ns since the epoch).
const Start = int64(1_700_000_000_000_000_000)

// Event types of service_msgs/ServiceEventInfo.
const (
	ReqSent  = 0
	ReqRecv  = 1
	RespSent = 2
	RespRecv = 3
)

// Clients' gids.
var (
	ClientA = gid(0xa1)
	ClientB = gid(0xb2)
	ClientF = gid(0xf3) // the action client
)

func gid(b byte) [16]byte {
	var g [16]byte
	g[0], g[1], g[15] = 1, 0x0f, b
	return g
}

// Goal ids of the action's goals: G1 succeeds, G2 is rejected, G3 is
// canceled, G4 is still executing when the recording ends.
var G1, G2, G3, G4 = uuid(1), uuid(2), uuid(3), uuid(4)

func uuid(n byte) [16]byte {
	var u [16]byte
	for i := range u {
		u[i] = n*16 + byte(i)
	}
	return u
}

const sep = "\n================================================================================\n"

const eventInfo = "MSG: service_msgs/ServiceEventInfo\nuint8 REQUEST_SENT = 0\nuint8 REQUEST_RECEIVED = 1\nuint8 RESPONSE_SENT = 2\nuint8 RESPONSE_RECEIVED = 3\n" +
	"uint8 event_type\nbuiltin_interfaces/Time stamp\nchar[16] client_gid\nint64 sequence_number\n"

const uuidDef = "MSG: unique_identifier_msgs/UUID\nuint8[16] uuid\n"
const goalInfoDef = "MSG: action_msgs/GoalInfo\nunique_identifier_msgs/UUID goal_id\nbuiltin_interfaces/Time stamp\n"

// actionEvent is the full ros2msg definition of an action service's
// event type (pkg/action/X_Part_Event).
func actionEvent(part, req, resp string, deps ...string) string {
	base := "example_interfaces/action/Fibonacci_" + part
	s := "service_msgs/ServiceEventInfo info\n" + base + "_Request[<=1] request\n" + base + "_Response[<=1] response\n" +
		sep + eventInfo + sep + "MSG: " + base + "_Request\n" + req + sep + "MSG: " + base + "_Response\n" + resp
	for _, d := range deps {
		s += sep + d
	}
	return s
}

// Topics and their types and schemas.
type topic struct {
	name, typ, schema string
}

var topics = []topic{
	{"/compute/_service_event", "example_interfaces/srv/AddTwoInts_Event", "int64 a\nint64 b\n---\nint64 sum\n"},
	{"/reset/_service_event", "example_interfaces/srv/AddTwoInts_Event", "int64 a\nint64 b\n---\nint64 sum\n"},
	{"/fibonacci/_action/send_goal/_service_event", "example_interfaces/action/Fibonacci_SendGoal_Event",
		actionEvent("SendGoal", "unique_identifier_msgs/UUID goal_id\nexample_interfaces/action/Fibonacci_Goal goal\n",
			"bool accepted\nbuiltin_interfaces/Time stamp\n", uuidDef, "MSG: example_interfaces/action/Fibonacci_Goal\nint32 order\n")},
	// get_result's schema is in the form of a .srv text (request, ---,
	// response, then its dependencies), send_goal's a full definition:
	// both are read.
	{"/fibonacci/_action/get_result/_service_event", "example_interfaces/action/Fibonacci_GetResult_Event",
		"unique_identifier_msgs/UUID goal_id\n---\nint8 status\nexample_interfaces/action/Fibonacci_Result result\n" +
			sep + uuidDef + sep + "MSG: example_interfaces/action/Fibonacci_Result\nint32[] sequence\n"},
	{"/fibonacci/_action/cancel_goal/_service_event", "action_msgs/srv/CancelGoal_Event",
		"action_msgs/GoalInfo goal_info\n---\nint8 return_code\naction_msgs/GoalInfo[] goals_canceling\n" + sep + goalInfoDef + sep + uuidDef},
	{"/fibonacci/_action/feedback", "example_interfaces/action/Fibonacci_FeedbackMessage",
		"unique_identifier_msgs/UUID goal_id\nexample_interfaces/action/Fibonacci_Feedback feedback\n" + sep + uuidDef +
			sep + "MSG: example_interfaces/action/Fibonacci_Feedback\nint32[] sequence\n"},
	{"/fibonacci/_action/status", "action_msgs/msg/GoalStatusArray",
		"action_msgs/GoalStatus[] status_list\n" + sep + "MSG: action_msgs/GoalStatus\naction_msgs/GoalInfo goal_info\nint8 status\n" + sep + goalInfoDef + sep + uuidDef},
	{"/chatter", "std_msgs/msg/String", "string data\n"},
}

// cdr builds a little-endian CDR message.
type cdr struct{ b []byte }

func newCDR() *cdr { return &cdr{b: []byte{0, 1, 0, 0}} }

func (c *cdr) align(n int) {
	for (len(c.b)-4)%n != 0 {
		c.b = append(c.b, 0)
	}
}
func (c *cdr) u8(v uint8)    { c.b = append(c.b, v) }
func (c *cdr) u32(v uint32)  { c.align(4); c.b = binary.LittleEndian.AppendUint32(c.b, v) }
func (c *cdr) i32(v int32)   { c.u32(uint32(v)) }
func (c *cdr) i64(v int64)   { c.align(8); c.b = binary.LittleEndian.AppendUint64(c.b, uint64(v)) }
func (c *cdr) raw(b []byte)  { c.b = append(c.b, b...) }
func (c *cdr) time(ns int64) { c.i32(int32(ns / 1e9)); c.u32(uint32(ns % 1e9)) }
func (c *cdr) str(s string)  { c.u32(uint32(len(s) + 1)); c.raw([]byte(s)); c.u8(0) }
func (c *cdr) ints(v []int32) {
	c.u32(uint32(len(v)))
	for _, x := range v {
		c.i32(x)
	}
}

// event writes a service event: info, then request[] and response[] of
// at most one element, written by body for the side that carries one.
func event(kind uint8, stamp int64, g [16]byte, seq int64, body func(*cdr)) []byte {
	c := newCDR()
	c.u8(kind)
	c.time(stamp)
	c.raw(g[:])
	c.i64(seq)
	isReq := kind == ReqSent || kind == ReqRecv
	for _, side := range []bool{true, false} {
		if side == isReq && body != nil {
			c.u32(1)
			body(c)
		} else {
			c.u32(0)
		}
	}
	return c.b
}

type msg struct {
	topic string
	t     int64 // receive time, ms from Start
	data  []byte
}

func ms(v float64) int64 { return Start + int64(math.Round(v*1e6)) }

// Scenario is the recording's messages, in receive-time order.
func scenario() []msg {
	var out []msg
	add := func(topic string, at float64, data []byte) { out = append(out, msg{topic, ms(at), data}) }
	// The stamp of an event is 50 µs before its receive time.
	ev := func(topic string, at float64, kind uint8, g [16]byte, seq int64, body func(*cdr)) {
		add(topic, at, event(kind, ms(at)-50_000, g, seq, body))
	}
	two := func(a, b int64) func(*cdr) { return func(c *cdr) { c.i64(a); c.i64(b) } }
	sum := func(s int64) func(*cdr) { return func(c *cdr) { c.i64(s) } }
	const svc, reset = "/compute/_service_event", "/reset/_service_event"
	// 1: both sides, answered (latency 4 ms client to client).
	ev(svc, 1000, ReqSent, ClientA, 1, two(1, 2))
	ev(svc, 1001, ReqRecv, ClientA, 1, two(1, 2))
	ev(svc, 1003, RespSent, ClientA, 1, sum(3))
	ev(svc, 1004, RespRecv, ClientA, 1, sum(3))
	// 2: sent and received, never answered.
	ev(svc, 2000, ReqSent, ClientA, 2, two(5, 5))
	ev(svc, 2001, ReqRecv, ClientA, 2, two(5, 5))
	// 3: a client whose side was not recorded: server side only, 10 ms.
	ev(svc, 3000, ReqRecv, ClientB, 1, two(7, 8))
	ev(svc, 3010, RespSent, ClientB, 1, sum(15))
	// 4: a response whose request is not in the recording.
	ev(svc, 4000, RespRecv, ClientB, 2, sum(99))
	// 5: the sequence number 1 of client A again (a restarted client):
	// a new call, answered in 2 ms.
	ev(svc, 5000, ReqSent, ClientA, 1, two(2, 2))
	ev(svc, 5001, ReqRecv, ClientA, 1, two(2, 2))
	ev(svc, 5001.5, RespSent, ClientA, 1, sum(4))
	ev(svc, 5002, RespRecv, ClientA, 1, sum(4))
	// /reset: recorded by its server only; the second call unanswered.
	ev(reset, 1500, ReqRecv, ClientB, 7, two(0, 0))
	ev(reset, 1520, RespSent, ClientB, 7, sum(0))
	ev(reset, 6000, ReqRecv, ClientB, 8, two(0, 1))

	// The action: the client's side of its services, the server's topics.
	const sg, gr, cg = "/fibonacci/_action/send_goal/_service_event", "/fibonacci/_action/get_result/_service_event", "/fibonacci/_action/cancel_goal/_service_event"
	const fb, st = "/fibonacci/_action/feedback", "/fibonacci/_action/status"
	goalReq := func(id [16]byte, order int32) func(*cdr) { return func(c *cdr) { c.raw(id[:]); c.i32(order) } }
	accepted := func(ok bool, at float64) func(*cdr) {
		return func(c *cdr) {
			if ok {
				c.u8(1)
			} else {
				c.u8(0)
			}
			c.time(ms(at))
		}
	}
	idOnly := func(id [16]byte) func(*cdr) { return func(c *cdr) { c.raw(id[:]) } }
	result := func(status int8, seq ...int32) func(*cdr) { return func(c *cdr) { c.u8(uint8(status)); c.ints(seq) } }
	feedback := func(at float64, id [16]byte, seq ...int32) {
		c := newCDR()
		c.raw(id[:])
		c.ints(seq)
		add(fb, at, c.b)
	}
	type gs struct {
		id     [16]byte
		status int8
	}
	status := func(at float64, list ...gs) {
		c := newCDR()
		c.u32(uint32(len(list)))
		for _, s := range list {
			c.raw(s.id[:])
			c.time(ms(at))
			c.u8(uint8(s.status))
		}
		add(st, at, c.b)
	}
	// G1: accepted, executes, three feedbacks, succeeds.
	ev(sg, 10000, ReqSent, ClientF, 1, goalReq(G1, 5))
	ev(sg, 10002, RespRecv, ClientF, 1, accepted(true, 10001))
	status(10003, gs{G1, 1})
	ev(gr, 10004, ReqSent, ClientF, 1, idOnly(G1))
	status(10010, gs{G1, 2})
	feedback(10100, G1, 0, 1)
	feedback(10200, G1, 0, 1, 1)
	feedback(10300, G1, 0, 1, 1, 2)
	status(10500, gs{G1, 4})
	ev(gr, 10501, RespRecv, ClientF, 1, result(4, 0, 1, 1, 2, 3))
	// G2: rejected.
	ev(sg, 11000, ReqSent, ClientF, 2, goalReq(G2, -1))
	ev(sg, 11001, RespRecv, ClientF, 2, accepted(false, 11000.5))
	// G3: accepted, executes, canceled.
	ev(sg, 12000, ReqSent, ClientF, 3, goalReq(G3, 20))
	ev(sg, 12002, RespRecv, ClientF, 3, accepted(true, 12001))
	status(12003, gs{G1, 4}, gs{G3, 1})
	ev(gr, 12004, ReqSent, ClientF, 2, idOnly(G3))
	status(12010, gs{G1, 4}, gs{G3, 2})
	feedback(12100, G3, 0)
	feedback(12200, G3, 0, 1)
	ev(cg, 12500, ReqSent, ClientF, 1, func(c *cdr) { c.raw(G3[:]); c.time(0) })
	ev(cg, 12502, RespRecv, ClientF, 1, func(c *cdr) { c.u8(0); c.u32(1); c.raw(G3[:]); c.time(ms(12501)) })
	status(12510, gs{G1, 4}, gs{G3, 3})
	status(12600, gs{G1, 4}, gs{G3, 5})
	ev(gr, 12601, RespRecv, ClientF, 2, result(5, 0, 1))
	// G4: accepted and executing at the end; its result never comes.
	ev(sg, 13000, ReqSent, ClientF, 4, goalReq(G4, 50))
	ev(sg, 13002, RespRecv, ClientF, 4, accepted(true, 13001))
	ev(gr, 13003, ReqSent, ClientF, 3, idOnly(G4))
	status(13004, gs{G1, 4}, gs{G3, 5}, gs{G4, 2})
	feedback(13500, G4, 0)
	c := newCDR()
	c.str("the end")
	add("/chatter", 14000, c.b)
	return out
}

// WriteMCAP writes the recording to path.
func WriteMCAP(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 4096, Compression: mcap.CompressionZSTD, IncludeCRC: true})
	if err != nil {
		return err
	}
	if err := w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagscope servicestest"}); err != nil {
		return err
	}
	chans := map[string]uint16{}
	for i, tp := range topics {
		id := uint16(i + 1)
		if err := w.WriteSchema(&mcap.Schema{ID: id, Name: tp.typ, Encoding: "ros2msg", Data: []byte(strings.TrimSpace(tp.schema) + "\n")}); err != nil {
			return err
		}
		if err := w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: tp.name, MessageEncoding: "cdr"}); err != nil {
			return err
		}
		chans[tp.name] = id
	}
	msgs := scenario()
	// Receive-time order, as a recorder writes them.
	sortByTime(msgs)
	for i, m := range msgs {
		if err := w.WriteMessage(&mcap.Message{ChannelID: chans[m.topic], Sequence: uint32(i), LogTime: uint64(m.t), PublishTime: uint64(m.t), Data: m.data}); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func sortByTime(msgs []msg) {
	slices.SortStableFunc(msgs, func(a, b msg) int { return cmp.Compare(a.t, b.t) })
}
