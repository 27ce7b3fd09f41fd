// Package diagtest makes recordings of diagnostics for the tests of
// model/diag, model/cli and ui/diagview: one spec of messages, written as
// a ROS 1 bag by the reference rosbag (testdata/oracle/diag.py) and as a
// ROS 2 MCAP by the npm oracles (testdata/oracle/make_diag_mcap.mjs), and
// read back by the reference readers (diag.py dump, mcap_cat.mjs) into
// plain Reports the tests compute their expectations from.
package diagtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// Start is the recordings' first receive time, nanoseconds since the epoch.
const Start = int64(1_700_000_000_250_000_000)

// StatusSpec is one status of a message, as the reference readers give it.
type StatusSpec struct {
	Level      uint8       `json:"level"`
	Name       string      `json:"name"`
	Message    string      `json:"message"`
	HardwareID string      `json:"hardware_id"`
	Values     [][2]string `json:"values"`
}

// Message is one DiagnosticArray message.
type Message struct {
	Topic    string       `json:"topic"`
	TimeNS   int64        `json:"time_ns"`
	StampNS  int64        `json:"stamp_ns,omitempty"`
	Statuses []StatusSpec `json:"statuses"`
}

// Spec is the messages of a generated recording: /diagnostics from two
// drivers at 2 Hz for 20 s with levels that change (one driver stops at
// 12 s, a status appears at 5 s), and /diagnostics_agg at 1 Hz.
func Spec() []Message {
	r := rand.New(rand.NewPCG(26, 1))
	var out []Message
	level := map[string]uint8{}
	step := func(name string) uint8 {
		// Levels hold for a while, then change.
		if r.IntN(6) == 0 {
			level[name] = uint8(r.IntN(4))
		}
		return level[name]
	}
	words := [][]string{{"OK", "running"}, {"voltage low", "temperature high"}, {"overheat", "no data"}, {"no report", "timeout"}}
	status := func(name, hw string) StatusSpec {
		lv := step(name)
		s := StatusSpec{Level: lv, Name: name, HardwareID: hw, Message: words[lv][r.IntN(2)]}
		s.Values = [][2]string{{"temperature", fmt.Sprintf("%.1f", 30+20*r.Float64())}, {"count", fmt.Sprint(r.IntN(1000))}}
		return s
	}
	for i := 0; i < 40; i++ {
		t := Start + int64(i)*500_000_000
		var sts []StatusSpec
		sts = append(sts, status("motor_driver: left wheel", "mc-01"), status("motor_driver: right wheel", "mc-01"))
		if i < 24 {
			sts = append(sts, status("lidar: front", "sick-7"))
		}
		if i >= 10 {
			sts = append(sts, status("battery", "bms"))
		}
		out = append(out, Message{Topic: "/diagnostics", TimeNS: t, StampNS: t - 1_000_000, Statuses: sts})
		if i%2 == 1 {
			agg := []StatusSpec{status("/Robot/Drives", ""), status("/Robot/Sensors", "")}
			out = append(out, Message{Topic: "/diagnostics_agg", TimeNS: t + 100_000_000, StampNS: t, Statuses: agg})
		}
	}
	return out
}

// Root is the repository's root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

func writeSpec(t testing.TB, msgs []Message) string {
	t.Helper()
	// Times as strings: JavaScript's JSON numbers are float64.
	type specMessage struct {
		Topic    string       `json:"topic"`
		TimeNS   string       `json:"time_ns"`
		StampNS  string       `json:"stamp_ns"`
		Statuses []StatusSpec `json:"statuses"`
	}
	var out []specMessage
	for _, m := range msgs {
		out = append(out, specMessage{m.Topic, fmt.Sprint(m.TimeNS), fmt.Sprint(m.StampNS), m.Statuses})
	}
	b, err := json.Marshal(map[string]any{"messages": out})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Bag writes msgs as a ROS 1 bag with the reference rosbag, or skips (in
// CI fails) without it.
func Bag(t testing.TB, msgs []Message) string {
	t.Helper()
	reftest.RequireRef(t)
	if err := exec.Command(reftest.Python, "-c", "import diagnostic_msgs.msg").Run(); err != nil {
		reftest.SkipOrFail(t, "Debian's python3-diagnostic-msgs is not installed (make deps): "+err.Error())
	}
	out := filepath.Join(t.TempDir(), "diag.bag")
	cmd := exec.Command(reftest.Python, filepath.Join(Root(), "testdata", "oracle", "diag.py"), "write", writeSpec(t, msgs), out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("diag.py write: %v\n%s", err, b)
	}
	return out
}

// MCAP writes msgs as a ROS 2 MCAP with the npm oracles, or skips (in CI
// fails) without them.
func MCAP(t testing.TB, msgs []Message) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "diag.mcap")
	oracletest.Run(t, "make_diag_mcap.mjs", writeSpec(t, msgs), out)
	return out
}

// Reference reads every DiagnosticArray message of path with the
// reference reader: rosbag for a .bag, @mcap/core and
// @foxglove/rosmsg2-serialization (mcap_cat.mjs) for an MCAP.
func Reference(t testing.TB, path string) []Message {
	t.Helper()
	if filepath.Ext(path) == ".bag" {
		reftest.RequireRef(t)
		out, err := exec.Command(reftest.Python, filepath.Join(Root(), "testdata", "oracle", "diag.py"), "dump", path).Output()
		if err != nil {
			t.Fatalf("diag.py dump: %v", err)
		}
		var msgs []Message
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			var m Message
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("diag.py line %q: %v", sc.Text(), err)
			}
			msgs = append(msgs, m)
		}
		return msgs
	}
	out := oracletest.Run(t, "mcap_cat.mjs", path)
	var msgs []Message
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var line struct {
			Topic string
			Type  string
			Time  struct{ Secs, Nsecs int64 }
			Msg   struct {
				Status []struct {
					Level      uint8
					Name       string `json:"name"`
					Message    string `json:"message"`
					HardwareID string `json:"hardware_id"`
					Values     []struct{ Key, Value string }
				}
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("mcap_cat.mjs line %q: %v", sc.Text(), err)
		}
		if line.Type != "diagnostic_msgs/msg/DiagnosticArray" {
			continue
		}
		m := Message{Topic: line.Topic, TimeNS: line.Time.Secs*1e9 + line.Time.Nsecs}
		for _, s := range line.Msg.Status {
			st := StatusSpec{Level: s.Level, Name: s.Name, Message: s.Message, HardwareID: s.HardwareID, Values: [][2]string{}}
			for _, kv := range s.Values {
				st.Values = append(st.Values, [2]string{kv.Key, kv.Value})
			}
			m.Statuses = append(m.Statuses, st)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// Latest is each status's latest report at or before at (nanoseconds),
// keyed by topic and name, computed from msgs.
func Latest(msgs []Message, at int64) map[[2]string]StatusSpec {
	out := map[[2]string]StatusSpec{}
	for _, m := range msgs {
		if m.TimeNS > at {
			continue
		}
		for _, s := range m.Statuses {
			out[[2]string{m.Topic, s.Name}] = s
		}
	}
	return out
}

// Changes are the times a status's level changes in msgs, in order: its
// first report, a report of another level than its last, and, for a
// status that stopped reporting (no report for more than twice its
// longest interval before end), one longest interval after its last
// report.
func Changes(msgs []Message, end int64) []int64 {
	type state struct {
		level     uint8
		last, gap int64
		reports   int
	}
	states := map[[2]string]*state{}
	set := map[int64]bool{}
	for _, m := range msgs {
		for _, s := range m.Statuses {
			k := [2]string{m.Topic, s.Name}
			st := states[k]
			if st == nil {
				st = &state{level: s.Level, last: m.TimeNS}
				states[k] = st
				set[m.TimeNS] = true
			}
			if s.Level != st.level {
				set[m.TimeNS] = true
			}
			st.gap = max(st.gap, m.TimeNS-st.last)
			st.level, st.last = s.Level, m.TimeNS
			st.reports++
		}
	}
	for _, st := range states {
		if st.reports > 1 && end-st.last > 2*st.gap {
			set[st.last+st.gap] = true
		}
	}
	var out []int64
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
