package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diag"
)

func newDiag(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "diag [flags] FILE",
		Short: "print the diagnostics statuses at a time: level, name, hardware id, message and key/values",
		Long: `diag reads the recording's diagnostic_msgs/DiagnosticArray topics (/diagnostics, /diagnostics_agg,
any topic of that type, ROS 1 and ROS 2) and prints each status's latest report at or before a time:
its level (OK, WARN, ERROR, STALE), name, hardware_id, message, how long before the time it was
received, and its key/values. A status is known by its topic and name. --at is seconds from the
recording's start (as in --range), @SECONDS since the epoch, or an RFC 3339 time (receive times);
without it, each status's latest report. --level and --name filter the statuses printed.`,
		Example: `  bagscope diag run.bag
  bagscope diag run.mcap --at 12.5
  bagscope diag run/ --at 12.5 --level warn,error --json
  bagscope diag run.bag --name motor`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	at := c.Flags().String("at", "", "the statuses at `T`: seconds from the start (12.5), @SECONDS since the epoch, or an RFC 3339 time (default: each status's latest)")
	levels := c.Flags().String("level", "", "print only statuses of these `LEVELS`, comma-separated: ok, warn, error, stale (or 0..3)")
	name := c.Flags().String("name", "", "print only statuses whose name holds `TEXT` (any case)")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: the time and the statuses")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		f := diag.Filter{Name: *name}
		if *levels != "" {
			f.Levels = map[diag.Level]bool{}
			for _, s := range strings.Split(*levels, ",") {
				lv, ok := diag.ParseLevel(strings.TrimSpace(s))
				if !ok {
					return usagef("--level %q: %q is not a level (ok, warn, error, stale, or 0..3)", *levels, s)
				}
				f.Levels[lv] = true
			}
		}
		b, err := e.openRecording(cmd, args[0])
		if err != nil {
			return err
		}
		defer b.Close()
		when, err := atFlag(b, *at)
		if err != nil {
			return err
		}
		return runDiag(b, args[0], when, f, *asJSON, e.stdout, e.stderr)
	}
	return c
}

func runDiag(b bag.Storage, path string, at bag.Time, f diag.Filter, asJSON bool, stdout, stderr io.Writer) error {
	pl := newProgress(stderr, "reading diagnostics")
	var lost *loss
	t, err := diag.TableAt(context.Background(), b, nil, at, diag.Options{Progress: pl.update, Done: func(it bag.MessageIter) {
		lost = readLoss(b, it, bag.Tally{Suspects: iterSuspects(it)}, at.IsZero())
	}})
	pl.end()
	if errors.Is(err, diag.ErrNoDiagnostics) {
		fmt.Fprintf(stderr, "bagscope: %s: %v\n", bag.Shown(path), err)
		// A damaged recording may have lost them: say what it lost.
		if l := fileLoss(b); l.any() {
			l.print(stderr, bag.Shown(path))
		}
		return status(ExitProblems)
	}
	if err != nil && t == nil {
		return status(fail(stderr, path, err))
	}
	code := ExitOK
	if err != nil {
		fail(stderr, path, err)
		code = ExitProblems
	}
	w := bufio.NewWriter(stdout)
	rows := t.Filtered(f)
	if asJSON {
		writeJSON(w, diagTableJSON(t, rows, b))
	} else {
		printDiag(w, t, rows, b)
	}
	if ferr := w.Flush(); ferr != nil {
		return status(fail(stderr, path, ferr))
	}
	return endOfRead(stderr, path, code, "diagnostics", uint64(t.Undecodable), t.First, lost)
}

// diagAt is the table's time as the commands say it, and its time in
// nanoseconds (the recording's end for each status's latest).
func diagAt(t *diag.Table, b bag.Storage) (string, int64) {
	start, end := model.TimeRange(b)
	if t.At.IsZero() {
		return "each status's latest report", end.Nanos()
	}
	return fmt.Sprintf("+%ss (%s)", secondsText(t.At.Nanos()-start.Nanos()), t.At), t.At.Nanos()
}

// printDiag prints the statuses as a table, each with its key/values
// indented below it.
func printDiag(w io.Writer, t *diag.Table, rows []diag.Status, b bag.Storage) {
	when, now := diagAt(t, b)
	counts := map[diag.Level]int{}
	for _, r := range rows {
		counts[r.Level]++
	}
	var parts []string
	for lv := diag.OK; lv <= diag.Stale; lv++ {
		if counts[lv] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[lv], lv))
		}
	}
	fmt.Fprintf(w, "Diagnostics at %s: %d %s", when, len(rows), plural(len(rows), "status", "statuses"))
	if len(parts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
	}
	if len(rows) < len(t.Rows) {
		fmt.Fprintf(w, ", %d of %d shown", len(rows), len(t.Rows))
	}
	fmt.Fprintln(w)
	if len(rows) == 0 {
		return
	}
	// A TOPIC column where statuses come from several topics.
	topicW := 0
	for _, r := range rows {
		if r.Topic != rows[0].Topic {
			topicW = len("TOPIC")
		}
	}
	nameW, hwW := len("NAME"), len("HARDWARE_ID")
	for _, r := range rows {
		nameW, hwW = max(nameW, len(r.Name)), max(hwW, len(r.HardwareID))
		if topicW > 0 {
			topicW = max(topicW, len(r.Topic))
		}
	}
	topic := func(s string) string {
		if topicW == 0 {
			return ""
		}
		return fmt.Sprintf("%-*s  ", topicW, s)
	}
	fmt.Fprintf(w, "%-5s  %s%-*s  %-*s  %8s  %s\n", "LEVEL", topic("TOPIC"), nameW, "NAME", hwW, "HARDWARE_ID", "AGE", "MESSAGE")
	for _, r := range rows {
		msg := strings.ReplaceAll(r.Message, "\n", " ")
		if r.Suspect != "" {
			msg += "  SUSPECT: from a damaged unit"
		}
		fmt.Fprintf(w, "%-5s  %s%-*s  %-*s  %7.3fs  %s\n", r.Level, topic(r.Topic), nameW, r.Name, hwW, r.HardwareID, float64(now-r.Received.Nanos())/1e9, msg)
		for _, kv := range r.Values {
			fmt.Fprintf(w, "       %s: %s\n", kv.Key, kv.Value)
		}
	}
}

type diagValueJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type diagStatusJSON struct {
	Topic      string          `json:"topic"`
	Name       string          `json:"name"`
	HardwareID string          `json:"hardware_id"`
	Level      uint8           `json:"level"`
	LevelName  string          `json:"level_name"`
	Message    string          `json:"message"`
	Values     []diagValueJSON `json:"values"`
	Received   timeJSON        `json:"received"`
	Stamp      *timeJSON       `json:"stamp,omitempty"`
	Age        jsonFloat       `json:"age"`
	Suspect    string          `json:"suspect,omitempty"`
}

type diagJSON struct {
	At        *timeJSON        `json:"at"`
	AtSeconds *jsonFloat       `json:"at_seconds"`
	Statuses  []diagStatusJSON `json:"statuses"`
	// Total is the statuses at the time, before --level and --name.
	Total    int    `json:"total"`
	Messages uint64 `json:"messages"`
	OK       bool   `json:"ok"`
}

func diagTableJSON(t *diag.Table, rows []diag.Status, b bag.Storage) diagJSON {
	_, now := diagAt(t, b)
	out := diagJSON{Statuses: []diagStatusJSON{}, Total: len(t.Rows), Messages: t.Messages, OK: t.Undecodable == 0}
	if !t.At.IsZero() {
		start, _ := model.TimeRange(b)
		at := toTimeJSON(t.At)
		s := jsonFloat(float64(t.At.Nanos()-start.Nanos()) / 1e9)
		out.At, out.AtSeconds = &at, &s
	}
	for _, r := range rows {
		j := diagStatusJSON{Topic: r.Topic, Name: r.Name, HardwareID: r.HardwareID, Level: uint8(r.Level), LevelName: r.Level.String(),
			Message: r.Message, Values: []diagValueJSON{}, Received: toTimeJSON(r.Received), Age: jsonFloat(float64(now-r.Received.Nanos()) / 1e9), Suspect: r.Suspect}
		if !r.Stamp.IsZero() {
			s := toTimeJSON(r.Stamp)
			j.Stamp = &s
		}
		for _, kv := range r.Values {
			j.Values = append(j.Values, diagValueJSON{kv.Key, kv.Value})
		}
		out.Statuses = append(out.Statuses, j)
	}
	return out
}
