package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/services/servicestest"
)

// TestInfoServicesMatchEvents: `info --json` counts each service's calls,
// answered and missing ones, and its latency min/median/max, as the test
// pairs the raw events the npm oracles decode (by client_gid and
// sequence_number), on rosbag2's recordings and a generated one with an
// action and missing responses; `info` says the same in a line; a
// recording without service events has no "services".
func TestInfoServicesMatchEvents(t *testing.T) {
	const shared = "../../../shared/bags/ros2__rosbag2/"
	gen := filepath.Join(t.TempDir(), "actions.mcap")
	if err := servicestest.WriteMCAP(gen); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{
		shared + "rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.db3",
		shared + "rosbag2_cpp/test/rosbag2_cpp/bags/only_services.mcap",
		shared + "rosbag2_tests/resources/sqlite3/bag_with_topics_and_service_events",
		gen,
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				reftest.SkipOrFail(t, err)
			}
			type want struct {
				calls, answered, missing int
				lat                      []int64
			}
			wants := map[string]*want{}
			msgs := servicestest.Oracle(t, path)
			// The goals the action's messages name: feedback and status
			// by goal_id, send_goal requests by theirs.
			goals := map[string]bool{}
			for _, m := range msgs {
				switch {
				case strings.HasSuffix(m.Topic, "/_action/feedback"):
					goals[servicestest.B64Hex(servicestest.Field(m.Msg, "goal_id", "uuid"))] = true
				case strings.HasSuffix(m.Topic, "/_action/status"):
					for _, s := range m.Msg["status_list"].([]any) {
						goals[servicestest.B64Hex(servicestest.Field(s.(map[string]any), "goal_info", "goal_id", "uuid"))] = true
					}
				}
			}
			pairs := servicestest.Pairs(msgs)
			for _, c := range pairs {
				if strings.HasSuffix(c.Service, "/_action/send_goal") && c.Req != nil {
					goals[servicestest.B64Hex(servicestest.Field(c.Req, "goal_id", "uuid"))] = true
				}
			}
			for _, c := range pairs {
				w := wants[c.Service]
				if w == nil {
					w = &want{}
					wants[c.Service] = w
				}
				w.calls++
				if c.Recv[2] != 0 || c.Recv[3] != 0 {
					w.answered++
				} else {
					w.missing++
				}
				if l, ok := servicestest.Latency(c); ok {
					w.lat = append(w.lat, l)
				}
			}
			out, stderr, code := run("info", "--json", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct {
				Services []struct {
					Service                  string
					Calls, Answered, Missing int
					LatencyMin               *float64 `json:"latency_min"`
					LatencyMedian            *float64 `json:"latency_median"`
					LatencyMaxJSON           *float64 `json:"latency_max"`
				} `json:"services"`
				Actions []struct {
					Action string
					Goals  int
					States map[string]int
				} `json:"actions"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			text, _, _ := run("info", path)
			seen := 0
			for _, s := range got.Services {
				w := wants[s.Service]
				if w == nil {
					if s.Calls != 0 {
						t.Errorf("%s: %d calls, the events name none", s.Service, s.Calls)
					}
					continue
				}
				seen++
				if s.Calls != w.calls || s.Answered != w.answered || s.Missing != w.missing {
					t.Errorf("%s: %d calls, %d answered, %d missing; the events: %d, %d, %d", s.Service, s.Calls, s.Answered, s.Missing, w.calls, w.answered, w.missing)
				}
				slices.Sort(w.lat)
				if n := len(w.lat); n > 0 {
					med := w.lat[n/2]
					if n%2 == 0 {
						med = (w.lat[n/2-1] + w.lat[n/2]) / 2
					}
					sec := func(ns int64) float64 { return float64(ns) / 1e9 }
					if s.LatencyMin == nil || s.LatencyMedian == nil || s.LatencyMaxJSON == nil ||
						*s.LatencyMin != sec(w.lat[0]) || *s.LatencyMedian != sec(med) || *s.LatencyMaxJSON != sec(w.lat[n-1]) {
						t.Errorf("%s: latency %v/%v/%v, the events %v/%v/%v", s.Service, s.LatencyMin, s.LatencyMedian, s.LatencyMaxJSON, sec(w.lat[0]), sec(med), sec(w.lat[n-1]))
					}
				} else if s.LatencyMin != nil {
					t.Errorf("%s: latency %v without a call with both", s.Service, *s.LatencyMin)
				}
				line := fmt.Sprintf("%s: %d call", s.Service, w.calls)
				if !strings.Contains(text, line) || !strings.Contains(text, fmt.Sprintf("%d answered, %d missing", w.answered, w.missing)) {
					t.Errorf("info does not say %q:\n%s", line, text)
				}
			}
			ng := 0
			for _, a := range got.Actions {
				ng += a.Goals
				n := 0
				for _, c := range a.States {
					n += c
				}
				if n != a.Goals {
					t.Errorf("%s: %d goals, %d by state", a.Action, a.Goals, n)
				}
			}
			if ng != len(goals) {
				t.Errorf("%d goals, the messages name %d", ng, len(goals))
			}
			if seen != len(wants) {
				t.Errorf("%d services with events, the events name %d", seen, len(wants))
			}
		})
	}
	out, _, _ := run("info", "--json", "../../testdata/ros2-mixed.mcap")
	if strings.Contains(out, `"services"`) {
		t.Errorf("a recording without service events has services: %s", out)
	}
}
