package servicestest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

const eventSuffix = "/_service_event"

// RawMsg is one message as the oracle decodes it.
type RawMsg struct {
	Topic string `json:"topic"`
	Time  struct {
		Secs  int64 `json:"secs"`
		Nsecs int64 `json:"nsecs"`
	} `json:"time"`
	Msg  map[string]any `json:"msg"`
	Skip string         `json:"skip"`
}

// T is the receive time.
func (m RawMsg) T() int64 { return m.Time.Secs*1e9 + m.Time.Nsecs }

// Oracle reads path's messages with the npm oracles: @mcap/core and
// @foxglove/rosmsg2-serialization for MCAP, @foxglove/rosbag2-web for
// .db3 files and folders.
func Oracle(t testing.TB, path string) []RawMsg {
	t.Helper()
	script := "mcap_cat.mjs"
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
		script = "db3_cat.mjs"
	}
	out := oracletest.Run(t, script, path)
	var msgs []RawMsg
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m RawMsg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("oracle line %q: %v", sc.Text(), err)
		}
		if m.Skip != "" && (strings.HasSuffix(m.Topic, eventSuffix) || strings.Contains(m.Topic, "/_action/")) {
			t.Fatalf("the oracle could not decode %s: %s", m.Topic, m.Skip)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// Num is a JSON number.
func Num(v any) int64 {
	switch x := v.(type) {
	case float64:
		return int64(x)
	case json.Number:
		n, _ := x.Int64()
		return n
	}
	panic(fmt.Sprintf("not a number: %v", v))
}

// Field is a JSON value by its path.
func Field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		v = v.(map[string]any)[p]
	}
	return v
}

func stamp(v any) int64 {
	s := v.(map[string]any)
	return Num(s["sec"])*1e9 + Num(s["nanosec"])
}

// B64Hex is base64 bytes in hex.
func B64Hex(v any) string {
	b, err := base64.StdEncoding.DecodeString(v.(string))
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// RefCall is a call as the test pairs the oracle's events: per service,
// the events of one (client_gid, sequence_number) until an event type
// comes again.
type RefCall struct {
	Service, GID string
	Seq          int64
	Recv         [4]int64 // receive time by event type, 0: none
	Stamp        [4]int64
	Req, Resp    map[string]any
}

func (c *RefCall) first() int64 {
	t := int64(0)
	for _, r := range c.Recv {
		if r != 0 && (t == 0 || r < t) {
			t = r
		}
	}
	return t
}

// Pairs pairs the oracle's service events into calls, in the order of
// their first event.
func Pairs(msgs []RawMsg) []*RefCall {
	var calls []*RefCall
	open := map[string]*RefCall{}
	for _, m := range msgs {
		if !strings.HasSuffix(m.Topic, eventSuffix) || m.Msg == nil {
			continue
		}
		svc := strings.TrimSuffix(m.Topic, eventSuffix)
		info := m.Msg["info"].(map[string]any)
		kind := Num(info["event_type"])
		gid := B64Hex(info["client_gid"])
		seq := Num(info["sequence_number"])
		key := fmt.Sprint(svc, gid, seq)
		c := open[key]
		if c == nil || c.Recv[kind] != 0 {
			c = &RefCall{Service: svc, GID: gid, Seq: seq}
			calls = append(calls, c)
			open[key] = c
		}
		c.Recv[kind], c.Stamp[kind] = m.T(), stamp(info["stamp"])
		if l := m.Msg["request"].([]any); len(l) == 1 {
			c.Req = l[0].(map[string]any)
		}
		if l := m.Msg["response"].([]any); len(l) == 1 {
			c.Resp = l[0].(map[string]any)
		}
	}
	slices.SortStableFunc(calls, func(a, b *RefCall) int { return int(min(max(a.first()-b.first(), -1), 1)) })
	return calls
}

// Latency is the request (sent, else received) to the response
// (received, else sent).
func Latency(c *RefCall) (int64, bool) {
	from, to := c.Stamp[0], c.Stamp[3]
	if c.Recv[0] == 0 {
		from = c.Stamp[1]
	}
	if c.Recv[3] == 0 {
		to = c.Stamp[2]
	}
	if c.Recv[0] == 0 && c.Recv[1] == 0 || c.Recv[2] == 0 && c.Recv[3] == 0 {
		return 0, false
	}
	return to - from, true
}
