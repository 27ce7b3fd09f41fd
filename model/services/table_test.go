package services

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/model"

	"github.com/bagscope/bagscope/model/services/servicestest"
)

// TestCallsOfTheScenario: each call servicestest records, by what its
// events say of it: the sides that recorded it, whether its response is
// missing, its latency.
func TestCallsOfTheScenario(t *testing.T) {
	rep, err := Read(context.Background(), open(t, generated(t)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms := func(v float64) int64 { return int64(v * 1e6) }
	for _, tc := range []struct {
		name    string
		service string
		client  GID
		seq     int64
		nth     int // of the calls with this key
		sides   string
		status  string
		latency int64 // -1: none
	}{
		{"both sides answered", "/compute", servicestest.ClientA, 1, 0, "client+server", "answered", ms(4)},
		{"sent and received, no response", "/compute", servicestest.ClientA, 2, 0, "client+server", "no response", -1},
		{"server side only", "/compute", servicestest.ClientB, 1, 0, "server", "answered", ms(10)},
		{"response without request", "/compute", servicestest.ClientB, 2, 0, "client", "no request", -1},
		{"sequence number used again", "/compute", servicestest.ClientA, 1, 1, "client+server", "answered", ms(2)},
		{"server-only service answered", "/reset", servicestest.ClientB, 7, 0, "server", "answered", ms(20)},
		{"server-only service unanswered", "/reset", servicestest.ClientB, 8, 0, "server", "no response", -1},
		{"goal rejected", "/fibonacci/_action/send_goal", servicestest.ClientF, 2, 0, "client", "answered", ms(1)},
		{"result never came", "/fibonacci/_action/get_result", servicestest.ClientF, 3, 0, "client", "no response", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *Call
			n := 0
			for i := range rep.Calls {
				k := &rep.Calls[i]
				if rep.Services[k.Service].Name == tc.service && k.Client == GID(tc.client) && k.Seq == tc.seq {
					if n == tc.nth {
						c = k
						break
					}
					n++
				}
			}
			if c == nil {
				t.Fatalf("no call %d of %s %s #%d", tc.nth, tc.service, GID(tc.client), tc.seq)
			}
			if c.Sides() != tc.sides || c.Status() != tc.status {
				t.Errorf("sides %q status %q, want %q %q", c.Sides(), c.Status(), tc.sides, tc.status)
			}
			l, ok := c.Latency()
			if tc.latency < 0 && ok || tc.latency >= 0 && (!ok || l != tc.latency) {
				t.Errorf("latency %d %v, want %d", l, ok, tc.latency)
			}
		})
	}
	// The service's numbers: /compute has 5 calls, 1 missing its
	// response, 4 answered (the response without request among them).
	s := rep.Service("/compute")
	if s == nil || s.Calls != 5 || s.Answered != 4 || s.Missing != 1 || s.Client != 4 || s.Server != 4 {
		t.Errorf("/compute: %+v", s)
	}
}

// TestGoalsOfTheScenario: each goal's state, lifetime and counts.
func TestGoalsOfTheScenario(t *testing.T) {
	rep, err := Read(context.Background(), open(t, generated(t)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(v float64) int64 { return servicestest.Start + int64(v*1e6) }
	for _, tc := range []struct {
		id         UUID
		state      string
		start, end int64 // end 0: open
		feedback   int
		result     string
	}{
		{servicestest.G1, "succeeded", at(10000), at(10500), 3, `{"sequence": [0, 1, 1, 2, 3]}`},
		{servicestest.G2, "rejected", at(11000), at(11001), 0, ""},
		{servicestest.G3, "canceled", at(12000), at(12600), 2, `{"sequence": [0, 1]}`},
		{servicestest.G4, "open", at(13000), 0, 1, ""},
	} {
		t.Run(tc.state, func(t *testing.T) {
			var g *Goal
			for i := range rep.Goals {
				if rep.Goals[i].ID == tc.id {
					g = &rep.Goals[i]
				}
			}
			if g == nil {
				t.Fatalf("no goal %s", tc.id)
			}
			end, ok := g.End()
			if g.State() != tc.state || g.Start() != tc.start || end != tc.end || ok != (tc.end != 0) {
				t.Errorf("state %s %d..%d (%v), want %s %d..%d", g.State(), g.Start(), end, ok, tc.state, tc.start, tc.end)
			}
			if g.Feedback != tc.feedback || g.Result != tc.result {
				t.Errorf("feedback %d result %q, want %d %q", g.Feedback, g.Result, tc.feedback, tc.result)
			}
		})
	}
	if len(rep.Actions) != 1 || rep.Actions[0].Name != "/fibonacci" || rep.Actions[0].Goals != 4 || rep.Actions[0].Open != 1 {
		t.Errorf("actions: %+v", rep.Actions)
	}
}

// TestReadStopsWhenCancelled: a cancelled read returns what it read and
// the context's error.
func TestReadStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Read(ctx, open(t, generated(t)), Options{})
	if err != context.Canceled || rep == nil {
		t.Fatalf("got %v, %v", rep, err)
	}
}

// TestReadKeepsToItsBounds: beyond the calls and goals it keeps, Read
// still counts every call in its service's numbers, exactly (min and max
// latency too; the median of a sample, said so); too many waiting calls
// are closed rather than kept.
func TestReadKeepsToItsBounds(t *testing.T) {
	st := open(t, generated(t))
	whole, err := Read(context.Background(), st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func(c, g, p, l int) { callCap, goalCap, pendingCap, latencyCap = c, g, p, l }(callCap, goalCap, pendingCap, latencyCap)
	callCap, goalCap, latencyCap = 3, 2, 2
	rep, err := Read(context.Background(), st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, s := range rep.Services {
		w := whole.Services[i]
		total += w.Calls
		n, lo, _, hi, sampled := s.Latency()
		wn, wlo, _, whi, _ := w.Latency()
		if s.Calls != w.Calls || s.Answered != w.Answered || s.Missing != w.Missing || n != wn || lo != wlo || hi != whi {
			t.Errorf("%s bounded: %d/%d/%d calls, latency %d %d..%d; whole: %d/%d/%d, %d %d..%d", s.Name, s.Calls, s.Answered, s.Missing, n, lo, hi, w.Calls, w.Answered, w.Missing, wn, wlo, whi)
		}
		if sampled != (n > latencyCap) {
			t.Errorf("%s: %d latencies, sampled %v", s.Name, n, sampled)
		}
	}
	if len(rep.Calls) != 3 || rep.CallsLeftOut != total-3 {
		t.Errorf("%d calls kept, %d left out, of %d", len(rep.Calls), rep.CallsLeftOut, total)
	}
	if len(rep.Goals) != 2 || rep.GoalsLeftOut != len(whole.Goals)-2 || rep.Actions[0].Goals != len(whole.Goals) {
		t.Errorf("%d goals kept, %d left out, %d counted; whole %d", len(rep.Goals), rep.GoalsLeftOut, rep.Actions[0].Goals, len(whole.Goals))
	}
	pendingCap = 1
	rep, err = Read(context.Background(), st, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Flushes == 0 || rep.Events != whole.Events {
		t.Errorf("pending bound 1: %d flushes, %d events of %d", rep.Flushes, rep.Events, whole.Events)
	}
}

// TestReadDamaged: a recording cut short reads without a crash; what
// it reads is paired, and no call is counted twice.
func TestReadDamaged(t *testing.T) {
	path := generated(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Read(context.Background(), open(t, path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, frac := range []float64{0.12, 0.2, 0.26, 0.6} {
		cut := filepath.Join(t.TempDir(), "cut.mcap")
		if err := os.WriteFile(cut, data[:int(float64(len(data))*frac)], 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := model.OpenStorage(cut)
		if err != nil {
			continue // not even a recording: nothing to read
		}
		rep, rerr := Read(context.Background(), st, Options{})
		t.Logf("cut at %.0f%%: %v", frac*100, rerr)
		st.Close()
		if rep == nil {
			continue
		}
		t.Logf("  %d events, %d calls", rep.Events, len(rep.Calls))
		if rep.Events > whole.Events || len(rep.Calls) > len(whole.Calls) {
			t.Errorf("cut at %.0f%%: %d events, %d calls; whole %d, %d", frac*100, rep.Events, len(rep.Calls), whole.Events, len(whole.Calls))
		}
	}
}
