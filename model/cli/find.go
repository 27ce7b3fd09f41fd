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
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/query"
)

func newFind(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "find [flags] FILE EXPR",
		Short: "print the messages an expression holds for, with the values it read",
		Long: `find evaluates EXPR on every message of the topics it can read and prints each message it holds
for: topic, receive time (and seconds from the start) and the values of the fields EXPR names, in
receive-time order. With --json, one object per line in cat --json's form ({"topic", "time", "type",
"msg"}) with "values" added: the fields EXPR named and what they held. With --csv, a table of the
hits: topic, times, then a column per value.

EXPR names fields as the Plots view does, with selectors ([N], [*], [A:B], [KEY], [FIELD=VALUE]),
compares them (== != < <= > >=), joins conditions (&& || !), computes (+ - * / %, abs, len, norm,
min, max, sum, mean), matches strings (contains, startswith, endswith, ~ "regex") and walks arrays
(any, all, count over [*]). A path may start with its topic; an expression names at most one. An
identifier that is not a field is a constant of the definition (level >= WARN). Time terms: @log,
@publish (@send), @stamp (header.stamp), @t (seconds from the start), @clock (sim time of /clock),
@topic, @type. A message that lacks a field (a key it does not hold) does not match.

Without a topic in EXPR, every selected topic whose type has the fields is searched; the others are
listed on stderr. A mistake in EXPR is a usage error that shows where it is and suggests fields.`,
		Example: `  bagscope find x.bag '/imu.linear_acceleration.z > 12'
  bagscope find x.bag 'level >= ERROR && name ~ "camera"' --topics /rosout
  bagscope find x.bag 'any(transforms[*].child_frame_id == "arm" && transforms[*].transform.translation.z < 0)'
  bagscope find x.mcap '/battery.percentage < 20 && @t > 60' --json | jq .values`,
		Args:              files("FILE", "EXPR"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	asJSON := c.Flags().Bool("json", false, `print one object per hit: cat --json's {"topic","time","type","msg"} with "values"`)
	asCSV := c.Flags().Bool("csv", false, "print the hits as CSV: topic, times, a column per value")
	limit := c.Flags().Int("max-hits", query.DefaultMaxHits, "keep at most `N` hits (the rest are counted)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if *asJSON && *asCSV {
			return usagef("give --json or --csv, not both")
		}
		b, err := e.openRecording(cmd, args[0])
		if err != nil {
			return err
		}
		defer b.Close()
		f, err := sel.resolve(b)
		if err != nil {
			return err
		}
		mode := "text"
		switch {
		case *asJSON:
			mode = "json"
		case *asCSV:
			mode = "csv"
		}
		return runFind(b, args[0], args[1], f, mode, *limit, findSpill, true, e.stdout, e.stderr)
	}
	return c
}

// exprUsage turns an expression mistake into a usage error that shows
// where it is: the message, the expression and a caret.
func exprUsage(src string, err error) error {
	var xe *expr.Error
	if errors.As(err, &xe) {
		msg := xe.Describe(src)
		var ce *query.CompileError
		if errors.As(err, &ce) && len(ce.Unread) > 1 {
			msg = err.Error() + "\n" + msg
		} else if errors.As(err, &ce) && len(ce.Unread) == 1 {
			msg = ce.Unread[0].Topic + " (" + ce.Unread[0].Type + "): " + msg
		}
		return usagef("%s", msg)
	}
	return usagef("%v", err)
}

// findSpill is how many bytes of hits find holds to sort them (some
// hundred thousand hits of a value or two: query.Options.Spill); a search
// that finds more prints them from a second, time-ordered read, so that
// find's memory is bounded whatever the recording (issue 29).
const findSpill = 8 << 20

// runFind runs find. onePass lets the search be the doctor's pass where it
// can be (query.Options.Doctor): the file is read once; else (tests) the
// doctor runs after the read, and both say the same. spill is
// query.Options.Spill.
func runFind(b bag.Storage, path, src string, f bag.MessageFilter, mode string, limit, spill int, onePass bool, stdout, stderr io.Writer) error {
	pl := newProgress(stderr, "finding")
	res, err := query.Find(context.Background(), b, src, f, query.Options{MaxHits: limit, Progress: pl.update, Doctor: onePass, Spill: spill})
	pl.end()
	if err != nil {
		if res == nil {
			var xe *expr.Error
			if errors.As(err, &xe) || strings.Contains(err.Error(), "leave out") || strings.Contains(err.Error(), "no topic to search") {
				return exprUsage(src, err)
			}
			var ce *query.CompileError
			if errors.As(err, &ce) {
				return usagef("%v", err)
			}
		}
		return status(fail(stderr, path, err))
	}
	w := bufio.NewWriterSize(stdout, 256<<10)
	start, _ := model.TimeRange(b)
	switch {
	case res.Spilled:
		err = writeOrderedHits(w, b, f, res, mode, limit, start)
	case mode == "json":
		err = writeHitsJSON(w, b, res.Hits)
	case mode == "csv":
		err = query.WriteHitsCSV(w, res.Hits, start)
	default:
		var buf []byte
		for i := range res.Hits {
			buf = appendHitText(buf[:0], &res.Hits[i], start)
			w.Write(buf)
		}
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return status(fail(stderr, path, err))
	}
	// What was searched, and what was not, goes to stderr.
	c := res.Compiled
	fmt.Fprintf(stderr, "bagscope: %s: %d hits in %d messages of %s\n", path, res.Found, res.Messages, strings.Join(c.Topics, ", "))
	printUnread(stderr, path, "not searched", c.Unread)
	if res.Dropped > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %d more hits not printed: narrow the expression or the range, or raise --max-hits\n", path, res.Dropped)
	}
	code := ExitOK
	if res.Failed > 0 {
		first := res.First[0]
		fmt.Fprintf(stderr, "bagscope: %s: %s: %d messages could not be evaluated (the first on %s at %s: %v)\n",
			path, bag.Where(b, first.Loc), res.Failed, first.Topic, first.Time, first.Err)
		code = ExitProblems
	}
	l := rangesLoss(b, res.Skipped, res.Report == nil)
	if res.Report != nil {
		bag.AddDoctorReport(context.Background(), b, l.d, res.Report)
	}
	l.print(stderr, path)
	if l.any() {
		code = ExitProblems
	}
	return status(code)
}

// appendHitText appends a hit as find prints it: topic, time (and seconds
// from start), then each value as name=value. It does not allocate (find
// may print millions).
func appendHitText(b []byte, h *query.Hit, start bag.Time) []byte {
	b = append(b, h.Topic...)
	b = append(b, "  "...)
	b = appendTime(b, h.Time)
	b = append(b, " (+"...)
	b = appendSeconds(b, h.Time.Nanos()-start.Nanos())
	b = append(b, ')')
	for _, v := range h.Values {
		b = append(b, "  "...)
		b = append(b, v.Name...)
		b = append(b, '=')
		b = v.AppendText(b)
	}
	return append(b, '\n')
}

// errEnough stops a time-ordered read of hits at the limit.
var errEnough = errors.New("enough hits")

// writeOrderedHits writes the hits of a search that found too many to
// hold (query.Result.Spilled) as they come from a time-ordered read, the
// first limit of them; the rest are counted in res.Dropped.
func writeOrderedHits(w *bufio.Writer, b bag.Storage, f bag.MessageFilter, res *query.Result, mode string, limit int, start bag.Time) error {
	if limit <= 0 {
		limit = query.DefaultMaxHits
	}
	ctx := context.Background()
	var clock *query.ClockIndex
	var cache rosmsg.Cache
	if res.Compiled.ReadsClock() {
		var err error
		if clock, err = query.ReadClock(ctx, b, &cache); err != nil && !errors.Is(err, query.ErrNoClock) {
			return err
		}
	}
	var hw *query.HitsCSV
	if mode == "csv" {
		var err error
		if hw, err = query.NewHitsCSV(w, res.Names, start); err != nil {
			return err
		}
	}
	var n int64
	var buf []byte
	err := res.Compiled.OrderedHits(ctx, b, f, clock, func(h *query.Hit, m *bag.Message) error {
		if n == int64(limit) {
			return errEnough
		}
		n++
		switch mode {
		case "json":
			buf = appendHitJSON(buf[:0], &cache, h, m)
			_, err := w.Write(buf)
			return err
		case "csv":
			return hw.Write(h)
		}
		buf = appendHitText(buf[:0], h, start)
		_, err := w.Write(buf)
		return err
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if hw != nil {
		if ferr := hw.Flush(); err == nil {
			err = ferr
		}
	}
	res.Dropped = max(res.Found-n, 0)
	return err
}

// writeHitsJSON writes each hit as cat --json writes its message, with
// "values" (and "publish_time" where the format stores one). The hits'
// messages are read again in one pass over their connections and time
// span, in the same order.
func writeHitsJSON(w *bufio.Writer, b bag.Storage, hits []query.Hit) error {
	if len(hits) == 0 {
		return nil
	}
	at := make(map[bag.Loc]int, len(hits))
	var conns []uint32
	seen := map[uint32]bool{}
	for i, h := range hits {
		at[h.Loc] = i
		if !seen[h.Conn] {
			seen[h.Conn] = true
			conns = append(conns, h.Conn)
		}
	}
	var cache rosmsg.Cache
	var buf []byte
	it := b.Messages(bag.MessageFilter{Conns: conns, Start: hits[0].Time, End: hits[len(hits)-1].Time})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		i, ok := at[m.Loc]
		if !ok || hits[i].Conn != m.Conn.ID {
			continue
		}
		buf = appendHitJSON(buf[:0], &cache, &hits[i], m)
		w.Write(buf)
	}
	return it.Err()
}

// appendHitJSON appends hit h, found in message m, as find --json writes
// it: cat --json's object with "values".
func appendHitJSON(buf []byte, cache *rosmsg.Cache, h *query.Hit, m *bag.Message) []byte {
	c := m.Conn
	buf = append(buf, `{"topic": `...)
	buf = appendJSONString(buf, h.Topic)
	buf = fmt.Appendf(buf, `, "time": {"secs": %d, "nsecs": %d, "ns": %d}, "type": `, h.Time.Sec, h.Time.NSec, h.Time.Nanos())
	buf = appendJSONString(buf, c.Type)
	if h.Publish != h.Time {
		buf = fmt.Appendf(buf, `, "publish_time": {"secs": %d, "nsecs": %d, "ns": %d}`, h.Publish.Sec, h.Publish.NSec, h.Publish.Nanos())
	}
	buf = append(buf, `, "values": {`...)
	for i, v := range h.Values {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendJSONString(buf, v.Name)
		buf = append(buf, ": "...)
		buf = v.AppendJSON(buf)
	}
	buf = append(buf, '}')
	if plan, err := model.PlanFor(cache, c); err == nil {
		if node, err := plan.Decode(m.Data); node != nil && (err == nil || errors.Is(err, rosmsg.ErrTrailingBytes)) {
			buf = append(buf, `, "msg": `...)
			buf = rosmsg.AppendJSON(buf, node)
		}
	}
	buf = append(buf, "}\n"...)
	return buf
}

// printUnread says which topics an expression could not read: those whose
// types lack its fields on one line, the others (no definition) one each.
func printUnread(stderr io.Writer, path, what string, unread []query.Unread) {
	var lacking []string
	for _, u := range unread {
		var xe *expr.Error
		if errors.As(u.Err, &xe) {
			lacking = append(lacking, u.Topic)
			continue
		}
		fmt.Fprintf(stderr, "bagscope: %s: %s: %s (%s): %v\n", path, what, u.Topic, u.Type, u.Err)
	}
	if len(lacking) > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %s, their types lack what the expression reads: %s\n", path, what, listTopics(lacking))
	}
}
