package services

import (
	"context"
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
			ref := servicestest.Pairs(servicestest.Oracle(t, path))
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
				if s.Name != r.Service || hex.EncodeToString(c.Client[:]) != r.GID || c.Seq != r.Seq {
					t.Errorf("call %d: %s %x #%d, the events' %s %s #%d", i, s.Name, c.Client, c.Seq, r.Service, r.GID, r.Seq)
					continue
				}
				for k := range 4 {
					if c.Has[k] != (r.Recv[k] != 0) || c.Has[k] && (c.Events[k].Ref.T != r.Recv[k] || c.Events[k].Stamp != r.Stamp[k]) {
						t.Errorf("call %d %s #%d: %s has %v at %d stamp %d, the events': at %d stamp %d", i, r.Service, r.Seq, EventType(k), c.Has[k], c.Events[k].Ref.T, c.Events[k].Stamp, r.Recv[k], r.Stamp[k])
					}
				}
				gotL, gotOK := c.Latency()
				wantL, wantOK := servicestest.Latency(r)
				if gotL != wantL || gotOK != wantOK {
					t.Errorf("call %d %s #%d: latency %d %v, the events' %d %v", i, r.Service, r.Seq, gotL, gotOK, wantL, wantOK)
				}
				// The summaries are the request and response as decoded.
				for _, side := range []struct {
					got  string
					want map[string]any
				}{{c.Request, r.Req}, {c.Response, r.Resp}} {
					if (side.got == "") != (side.want == nil) {
						t.Errorf("call %d %s #%d: summary %q, the events' %v", i, r.Service, r.Seq, side.got, side.want)
					} else if side.want != nil && !strings.HasSuffix(side.got, "…") {
						var got map[string]any
						if err := json.Unmarshal([]byte(side.got), &got); err != nil || fmt.Sprint(got) != fmt.Sprint(side.want) {
							t.Errorf("call %d %s #%d: summary %s, the events' %v (%v)", i, r.Service, r.Seq, side.got, side.want, err)
						}
					}
				}
				w := want[r.Service]
				if w == nil {
					w = &counts{}
					want[r.Service] = w
				}
				w.calls++
				req, resp := r.Recv[0] != 0 || r.Recv[1] != 0, r.Recv[2] != 0 || r.Recv[3] != 0
				if resp {
					w.answered++
				} else if req {
					w.missing++
				}
				if l, ok := servicestest.Latency(r); ok {
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
	msgs := servicestest.Oracle(t, path)
	goals := map[string]*refGoal{}
	g := func(v any) *refGoal {
		id := servicestest.B64Hex(v)
		if goals[id] == nil {
			goals[id] = &refGoal{}
		}
		return goals[id]
	}
	for _, m := range msgs {
		switch {
		case strings.HasSuffix(m.Topic, "/_action/feedback"):
			g(servicestest.Field(m.Msg, "goal_id", "uuid")).feedback++
		case strings.HasSuffix(m.Topic, "/_action/status"):
			for _, s := range m.Msg["status_list"].([]any) {
				s := s.(map[string]any)
				r := g(servicestest.Field(s, "goal_info", "goal_id", "uuid"))
				st := servicestest.Num(s["status"])
				if n := len(r.transitions); n == 0 || r.transitions[n-1] != st {
					r.transitions = append(r.transitions, st)
				}
			}
		}
	}
	// Responses name no goal: their request, paired by the test, does.
	for _, c := range servicestest.Pairs(msgs) {
		if c.Req == nil || c.Resp == nil {
			continue
		}
		switch {
		case strings.HasSuffix(c.Service, "/_action/send_goal"):
			a := c.Resp["accepted"].(bool)
			g(servicestest.Field(c.Req, "goal_id", "uuid")).accepted = &a
		case strings.HasSuffix(c.Service, "/_action/get_result"):
			s := servicestest.Num(c.Resp["status"])
			g(servicestest.Field(c.Req, "goal_id", "uuid")).result = &s
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
