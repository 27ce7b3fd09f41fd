package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/stats"
)

// serviceInfoJSON is what `info --json` says of a service whose events
// the recording holds (model/services): its calls paired by client_gid
// and sequence_number, those answered and those missing their response,
// the calls each side recorded, and the latency from request to response
// in seconds (null without a call with both).
type serviceInfoJSON struct {
	Service     string   `json:"service"`
	Topic       string   `json:"topic"`
	Type        string   `json:"type"`
	Events      int      `json:"events"`
	Calls       int      `json:"calls"`
	Answered    int      `json:"answered"`
	Missing     int      `json:"missing"`
	ClientCalls int      `json:"client_calls"`
	ServerCalls int      `json:"server_calls"`
	LatencyMin  *float64 `json:"latency_min"`
	LatencyMed  *float64 `json:"latency_median"`
	LatencyMax  *float64 `json:"latency_max"`
	// LatencySampled says the median is that of a uniform sample of the
	// latencies (a service with very many calls).
	LatencySampled bool `json:"latency_sampled,omitempty"`
}

// actionInfoJSON is what `info --json` says of an action: its goals, the
// open ones (no end recorded) and the goals by state ("succeeded",
// "canceled", "aborted", "rejected", "open", ...).
type actionInfoJSON struct {
	Action string         `json:"action"`
	Goals  int            `json:"goals"`
	Open   int            `json:"open"`
	States map[string]int `json:"states"`
}

// readServices reads the recording's service events and action topics,
// or returns nil when it has none (or is remote, where reading them would
// fetch them, unless the user allowed a scan).
func readServices(b bag.Storage, path string, o bag.OpenOptions, stderr io.Writer) (*services.Report, error) {
	if len(services.Connections(b)) == 0 || bag.IsURL(path) && !o.AllowRemoteScan {
		return nil, nil
	}
	pl := newProgress(stderr, "reading service events")
	defer pl.end()
	return services.Read(context.Background(), b, services.Options{Progress: pl.update})
}

func servicesJSON(r *services.Report) ([]serviceInfoJSON, []actionInfoJSON) {
	if r == nil {
		return nil, nil
	}
	svcs := []serviceInfoJSON{}
	for _, s := range r.Services {
		j := serviceInfoJSON{Service: s.Name, Topic: s.Topic, Type: s.Type, Events: s.Events, Calls: s.Calls, Answered: s.Answered,
			Missing: s.Missing, ClientCalls: s.Client, ServerCalls: s.Server}
		if n, lo, med, hi, sampled := s.Latency(); n > 0 {
			j.LatencyMin, j.LatencyMed, j.LatencyMax, j.LatencySampled = secondsPtr(lo), secondsPtr(med), secondsPtr(hi), sampled
		}
		svcs = append(svcs, j)
	}
	var acts []actionInfoJSON
	for _, a := range r.Actions {
		acts = append(acts, actionInfoJSON{Action: a.Name, Goals: a.Goals, Open: a.Open, States: a.States})
	}
	return svcs, acts
}

// serviceLine is a service in a line of `info`: "/add_two_ints: 6 calls,
// 6 answered, 0 missing, latency 0.25 ms .. 0.31 ms (median 0.27 ms)".
func serviceLine(s *services.Service) string {
	if s.Calls == 0 {
		return s.Name + ": no event recorded"
	}
	line := fmt.Sprintf("%s: %s, %d answered, %d missing", s.Name, statsPlural(s.Calls, "call"), s.Answered, s.Missing)
	if n, lo, med, hi, sampled := s.Latency(); n > 0 {
		m := "median"
		if sampled {
			m = "sampled median"
		}
		line += fmt.Sprintf(", latency %s .. %s (%s %s)", stats.Interval(lo), stats.Interval(hi), m, stats.Interval(med))
	}
	return line
}

// actionLine is an action in a line of `info`: "/fibonacci: 4 goals (1
// canceled, 1 open, ...)".
func actionLine(a *services.Action) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(a.States)) {
		parts = append(parts, fmt.Sprintf("%d %s", a.States[k], k))
	}
	return fmt.Sprintf("%s: %s (%s)", a.Name, statsPlural(a.Goals, "goal"), strings.Join(parts, ", "))
}
