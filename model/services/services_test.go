package services

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/services/servicestest"
)

const shared = "../../../shared/bags/ros2__rosbag2/"

// sharedBags are rosbag2's own recordings with service events (Jazzy).
var sharedBags = []string{
	shared + "rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.db3",
	shared + "rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap",
	shared + "rosbag2_cpp/test/rosbag2_cpp/bags/only_services.mcap",
	shared + "rosbag2_tests/resources/mcap/bag_with_topics_and_service_events",
	shared + "rosbag2_tests/resources/sqlite3/bag_with_topics_and_service_events",
}

func open(t *testing.T, path string) bag.Storage {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		reftest.SkipOrFail(t, err)
	}
	st, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// generated writes servicestest's recording.
func generated(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "actions.mcap")
	if err := servicestest.WriteMCAP(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// rawMsg is one message as the oracle decodes it.
type rawMsg struct {
	Topic string `json:"topic"`
	Time  struct {
		Secs  int64 `json:"secs"`
		Nsecs int64 `json:"nsecs"`
	} `json:"time"`
	Msg  map[string]any `json:"msg"`
	Skip string         `json:"skip"`
}

func (m rawMsg) t() int64 { return m.Time.Secs*1e9 + m.Time.Nsecs }

// oracle reads path's messages with the npm oracles: @mcap/core and
// @foxglove/rosmsg2-serialization for MCAP, @foxglove/rosbag2-web for
// .db3 files and folders.
func oracle(t *testing.T, path string) []rawMsg {
	t.Helper()
	modules := os.Getenv("BAGSCOPE_ORACLES")
	if modules == "" {
		home, _ := os.UserHomeDir()
		modules = filepath.Join(home, ".cache", "bagscope-npm", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(modules, "@mcap", "core")); err != nil {
		reftest.SkipOrFail(t, "the npm oracles are not installed (make oracles): "+err.Error())
	}
	script := "../../testdata/oracle/mcap_cat.mjs"
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.IsDir() {
		ents, _ := os.ReadDir(path)
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".mcap") {
				path = filepath.Join(path, e.Name())
			}
		}
	}
	if fi.IsDir() && !strings.HasSuffix(path, ".mcap") || strings.HasSuffix(path, ".db3") {
		script = "../../testdata/oracle/db3_cat.mjs"
	}
	cmd := reftest.NodeCommand(script, path)
	cmd.Env = append(os.Environ(), "BAGSCOPE_ORACLES="+modules)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle %s: %v\n%s", script, err, errb.String())
	}
	var msgs []rawMsg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m rawMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("oracle line %q: %v", sc.Text(), err)
		}
		if m.Skip != "" && (strings.HasSuffix(m.Topic, ServiceEventSuffix) || IsActionTopic(m.Topic)) {
			t.Fatalf("the oracle could not decode %s: %s", m.Topic, m.Skip)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func num(v any) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case json.Number:
		n, _ := x.Int64()
		return n
	}
	panic(fmt.Sprintf("not a number: %v", v))
}

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	return v
}

func stamp(v any) int64 {
	s := v.(map[string]any)
	return num(s["sec"])*1e9 + num(s["nanosec"])
}

func b64hex(v any) string {
	b, err := base64.StdEncoding.DecodeString(v.(string))
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// refCall is a call as the test pairs the oracle's events: per service,
// the events of one (client_gid, sequence_number) until an event type
// comes again.
type refCall struct {
	service, gid string
	seq          int64
	recv         [4]int64 // receive time by event type, 0: none
	stamp        [4]int64
	req, resp    map[string]any
}

func (c *refCall) first() int64 {
	t := int64(0)
	for _, r := range c.recv {
		if r != 0 && (t == 0 || r < t) {
			t = r
		}
	}
	return t
}

func refPairs(msgs []rawMsg) []*refCall {
	var calls []*refCall
	open := map[string]*refCall{}
	for _, m := range msgs {
		if !strings.HasSuffix(m.Topic, ServiceEventSuffix) || m.Msg == nil {
			continue
		}
		svc := strings.TrimSuffix(m.Topic, ServiceEventSuffix)
		info := m.Msg["info"].(map[string]any)
		kind := num(info["event_type"])
		gid := b64hex(info["client_gid"])
		seq := num(info["sequence_number"])
		key := fmt.Sprint(svc, gid, seq)
		c := open[key]
		if c == nil || c.recv[kind] != 0 {
			c = &refCall{service: svc, gid: gid, seq: seq}
			calls = append(calls, c)
			open[key] = c
		}
		c.recv[kind], c.stamp[kind] = m.t(), stamp(info["stamp"])
		if l := m.Msg["request"].([]any); len(l) == 1 {
			c.req = l[0].(map[string]any)
		}
		if l := m.Msg["response"].([]any); len(l) == 1 {
			c.resp = l[0].(map[string]any)
		}
	}
	slices.SortStableFunc(calls, func(a, b *refCall) int { return int(min(max(a.first()-b.first(), -1), 1)) })
	return calls
}

// refLatency is the request (sent, else received) to the response
// (received, else sent).
func refLatency(c *refCall) (int64, bool) {
	from, to := c.stamp[0], c.stamp[3]
	if c.recv[0] == 0 {
		from = c.stamp[1]
	}
	if c.recv[3] == 0 {
		to = c.stamp[2]
	}
	if c.recv[0] == 0 && c.recv[1] == 0 || c.recv[2] == 0 && c.recv[3] == 0 {
		return 0, false
	}
	return to - from, true
}

// TestServicePairsMatchEvents: the calls Read pairs, their sides, times,
// latencies and statuses, and each service's counts and latency min,
// median and max, are those the test pairs from the raw events the npm
// oracles decode, on rosbag2's recordings and the generated one.
func TestServicePairsMatchEvents(t *testing.T) {
	for _, path := range append(slices.Clone(sharedBags), "generated") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if path == "generated" {
				path = generated(t)
			}
			st := open(t, path)
			ref := refPairs(oracle(t, path))
			if len(ref) == 0 {
				t.Fatal("the oracle found no service event")
			}
			rep, err := Read(context.Background(), st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Undecodable != 0 {
				t.Errorf("%d undecodable: %s", rep.Undecodable, rep.FirstUndecodable)
			}
			if len(rep.Calls) != len(ref) {
				t.Fatalf("%d calls, the events pair into %d", len(rep.Calls), len(ref))
			}
			type counts struct {
				calls, answered, missing int
				lat                      []int64
			}
			want := map[string]*counts{}
			for i, r := range ref {
				c := &rep.Calls[i]
				s := rep.Services[c.Service]
				if s.Name != r.service || hex.EncodeToString(c.Client[:]) != r.gid || c.Seq != r.seq {
					t.Errorf("call %d: %s %x #%d, the events' %s %s #%d", i, s.Name, c.Client, c.Seq, r.service, r.gid, r.seq)
					continue
				}
				for k := range 4 {
					if c.Has[k] != (r.recv[k] != 0) || c.Has[k] && (c.Events[k].Ref.T != r.recv[k] || c.Events[k].Stamp != r.stamp[k]) {
						t.Errorf("call %d %s #%d: %s has %v at %d stamp %d, the events': at %d stamp %d", i, r.service, r.seq, EventType(k), c.Has[k], c.Events[k].Ref.T, c.Events[k].Stamp, r.recv[k], r.stamp[k])
					}
				}
				gotL, gotOK := c.Latency()
				wantL, wantOK := refLatency(r)
				if gotL != wantL || gotOK != wantOK {
					t.Errorf("call %d %s #%d: latency %d %v, the events' %d %v", i, r.service, r.seq, gotL, gotOK, wantL, wantOK)
				}
				// The summaries are the request and response as decoded.
				for _, side := range []struct {
					got  string
					want map[string]any
				}{{c.Request, r.req}, {c.Response, r.resp}} {
					if (side.got == "") != (side.want == nil) {
						t.Errorf("call %d %s #%d: summary %q, the events' %v", i, r.service, r.seq, side.got, side.want)
					} else if side.want != nil && !strings.HasSuffix(side.got, "…") {
						var got map[string]any
						if err := json.Unmarshal([]byte(side.got), &got); err != nil || fmt.Sprint(got) != fmt.Sprint(side.want) {
							t.Errorf("call %d %s #%d: summary %s, the events' %v (%v)", i, r.service, r.seq, side.got, side.want, err)
						}
					}
				}
				w := want[r.service]
				if w == nil {
					w = &counts{}
					want[r.service] = w
				}
				w.calls++
				req, resp := r.recv[0] != 0 || r.recv[1] != 0, r.recv[2] != 0 || r.recv[3] != 0
				if resp {
					w.answered++
				} else if req {
					w.missing++
				}
				if l, ok := refLatency(r); ok {
					w.lat = append(w.lat, l)
				}
			}
			// A service whose topic has no event has no call.
			for _, s := range rep.Services {
				if want[s.Name] == nil && (s.Calls != 0 || s.Events != 0) {
					t.Errorf("%s: %d calls, %d events; the oracle read none", s.Name, s.Calls, s.Events)
				}
			}
			for name, w := range want {
				s := rep.Service(name)
				if s == nil {
					t.Errorf("no service %s", name)
					continue
				}
				if s.Calls != w.calls || s.Answered != w.answered || s.Missing != w.missing {
					t.Errorf("%s: %d calls, %d answered, %d missing; the events: %d, %d, %d", name, s.Calls, s.Answered, s.Missing, w.calls, w.answered, w.missing)
				}
				n, lo, med, hi, sampled := s.Latency()
				slices.Sort(w.lat)
				if n != len(w.lat) || sampled {
					t.Errorf("%s: %d latencies (sampled %v), the events %d", name, n, sampled, len(w.lat))
					continue
				}
				if n > 0 {
					m := w.lat[n/2]
					if n%2 == 0 {
						m = (w.lat[n/2-1] + w.lat[n/2]) / 2
					}
					if lo != w.lat[0] || hi != w.lat[n-1] || med != m {
						t.Errorf("%s: latency min/median/max %d/%d/%d, the events' %d/%d/%d", name, lo, med, hi, w.lat[0], m, w.lat[n-1])
					}
				}
			}
		})
	}
}

// refGoal is a goal as the test reads it from the oracle's messages.
type refGoal struct {
	feedback    int
	transitions []int64
	accepted    *bool
	result      *int64
}

// TestGoalsMatchEvents: each goal's feedback count, status transitions,
// acceptance and result status are those the oracle's feedback, status
// and service event messages say of its goal_id.
func TestGoalsMatchEvents(t *testing.T) {
	path := generated(t)
	msgs := oracle(t, path)
	goals := map[string]*refGoal{}
	g := func(v any) *refGoal {
		id := b64hex(v)
		if goals[id] == nil {
			goals[id] = &refGoal{}
		}
		return goals[id]
	}
	for _, m := range msgs {
		switch {
		case strings.HasSuffix(m.Topic, "/_action/feedback"):
			g(field(m.Msg, "goal_id", "uuid")).feedback++
		case strings.HasSuffix(m.Topic, "/_action/status"):
			for _, s := range m.Msg["status_list"].([]any) {
				s := s.(map[string]any)
				r := g(field(s, "goal_info", "goal_id", "uuid"))
				st := num(s["status"])
				if n := len(r.transitions); n == 0 || r.transitions[n-1] != st {
					r.transitions = append(r.transitions, st)
				}
			}
		}
	}
	// Responses name no goal: their request, paired by the test, does.
	for _, c := range refPairs(msgs) {
		if c.req == nil || c.resp == nil {
			continue
		}
		switch {
		case strings.HasSuffix(c.service, "/_action/send_goal"):
			a := c.resp["accepted"].(bool)
			g(field(c.req, "goal_id", "uuid")).accepted = &a
		case strings.HasSuffix(c.service, "/_action/get_result"):
			s := num(c.resp["status"])
			g(field(c.req, "goal_id", "uuid")).result = &s
		}
	}
	rep, err := Read(context.Background(), open(t, path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Goals) != len(goals) || len(goals) == 0 {
		t.Fatalf("%d goals, the messages name %d", len(rep.Goals), len(goals))
	}
	for _, goal := range rep.Goals {
		id := hex.EncodeToString(goal.ID[:])
		r := goals[id]
		if r == nil {
			t.Errorf("goal %s is not in the messages", goal.ID)
			continue
		}
		var tr []int64
		for _, x := range goal.Transitions {
			tr = append(tr, int64(x.Status))
		}
		if goal.Feedback != r.feedback || !slices.Equal(tr, r.transitions) {
			t.Errorf("goal %s: %d feedback, transitions %v; the messages: %d, %v", goal.ID, goal.Feedback, tr, r.feedback, r.transitions)
		}
		if goal.Responded != (r.accepted != nil) || r.accepted != nil && goal.Accepted != *r.accepted {
			t.Errorf("goal %s: responded %v accepted %v; the messages: %v", goal.ID, goal.Responded, goal.Accepted, r.accepted)
		}
		if goal.HasResult != (r.result != nil) || r.result != nil && int64(goal.ResultStatus) != *r.result {
			t.Errorf("goal %s: result %v %v; the messages: %v", goal.ID, goal.HasResult, goal.ResultStatus, r.result)
		}
	}
}
