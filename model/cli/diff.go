package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/diff"
	"github.com/bagscope/bagscope/model/series"
)

// diffJSON is the `diff --json` object.
type diffJSON struct {
	A, B string `json:"-"`
	// Paths are A's and B's.
	Paths [2]string `json:"paths"`
	// By is "bytes" or "values"; Tolerance applies to floats by value.
	By        string          `json:"by"`
	Tolerance float64         `json:"tolerance"`
	Equal     bool            `json:"equal"`
	Messages  [2]uint64       `json:"messages"`
	Topics    []topicDiffJSON `json:"topics"`
	// Lost is what could not be read of each.
	Lost [2]lossJSON `json:"lost"`
	// Error is why the two could not be compared at all.
	Error string `json:"error,omitempty"`
}

type topicDiffJSON struct {
	Topic string `json:"topic"`
	Equal bool   `json:"equal"`
	// OnlyIn is "A" or "B" for a topic of one recording only.
	OnlyIn            string          `json:"only_in,omitempty"`
	TypesDiffer       bool            `json:"types_differ"`
	DefinitionsDiffer bool            `json:"definitions_differ"`
	Sides             [2]sideDiffJSON `json:"sides"`
	Changed           uint64          `json:"changed"`
	Dropped           uint64          `json:"dropped"`
	Added             uint64          `json:"added"`
	First             *diffMsgJSON    `json:"first_difference,omitempty"`
	Last              *diffMsgJSON    `json:"last_difference,omitempty"`
	// Undecodable says why the topic was compared by bytes although
	// --values asked for values.
	Undecodable string `json:"undecodable,omitempty"`
}

type sideDiffJSON struct {
	Present  bool      `json:"present"`
	Types    []string  `json:"types"`
	Messages uint64    `json:"messages"`
	First    *timeJSON `json:"first,omitempty"`
	Last     *timeJSON `json:"last,omitempty"`
	// Rate is the mean rate in Hz; Span the seconds from first to last.
	Rate float64 `json:"rate"`
	Span float64 `json:"span"`
}

type diffMsgJSON struct {
	Kind string   `json:"kind"`
	Time timeJSON `json:"time"`
	// Index is the message's position on its topic in A and B (from 0;
	// -1 where it has none), Where its place in the file.
	Index [2]int64  `json:"index"`
	Where [2]string `json:"where"`
	Size  [2]int    `json:"size"`
	// Field is the first differing field (by value); Byte the first
	// differing byte (by bytes; -1 when one payload is the other's prefix).
	Field string `json:"field,omitempty"`
	Byte  *int   `json:"byte,omitempty"`
	// Values are the two values of Field (or why a payload was undecodable).
	Values *[2]string `json:"values,omitempty"`
}

func newDiff(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "diff [flags] A B",
		Short: "compare two recordings topic by topic: counts, rates, spans, types, and each message",
		Long: `diff compares two recordings of any formats. Per topic it prints the message counts, rates and time
spans of both, and matches the messages by receive time: a message of A with no message of B at its
time is dropped, one of B with none of A added, and two at one time with other payloads changed. It
names the first and last differing message of each topic, where each is in its file, and the first
differing byte, or with --values the first differing field: --values decodes the messages and
compares their values, floats within --tolerance, so a recording and a copy re-encoded differently
are equal. Topics in only one recording, and types or definitions that differ, are listed.
Exit 0 when the two are equal in the sense asked, 1 when they differ or a part could not be read
(said on stderr, and in --json as "lost").`,
		Example: `  bagscope diff x.bag x.mcap
  bagscope diff today.mcap yesterday.mcap --topics '/imu*' --values --tolerance 1e-6
  bagscope diff a.bag b.bag --json`,
		Args:              files("A", "B"),
		ValidArgsFunction: completeFiles,
	}
	f := c.Flags()
	topics := f.StringSlice("topics", nil, "only the topics `T` of either recording (repeatable and comma-separated; * and ? are wildcards that also match /)")
	exclude := f.StringSlice("exclude", nil, "leave out the topics `T` (the forms of --topics)")
	values := f.Bool("values", false, "compare decoded values, not payload bytes")
	tol := f.Float64("tolerance", 1e-9, "with --values, how far two floats may be apart, relative above 1: |a-b| <= `TOL`*max(1,|a|,|b|)")
	asJSON := f.Bool("json", false, "print one JSON object")
	c.RegisterFlagCompletionFunc("topics", completeTopics)
	c.RegisterFlagCompletionFunc("exclude", completeTopics)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if *tol < 0 {
			return usagef("--tolerance %g: give 0 or more", *tol)
		}
		var st [2]bag.Storage
		for i, p := range args {
			s, err := e.openRecording(cmd, p)
			if err != nil {
				if *asJSON {
					writeJSON(e.stdout, diffJSON{Paths: [2]string{bag.Shown(args[0]), bag.Shown(args[1])}, Topics: []topicDiffJSON{}, Lost: [2]lossJSON{noLoss(), noLoss()}, Error: openCause(err).Error()})
				}
				if i == 1 {
					st[0].Close()
				}
				return err
			}
			st[i] = s
			defer s.Close()
		}
		chosen, err := diffTopics(st, *topics, *exclude)
		if err != nil {
			return err
		}
		o := diff.Options{Topics: chosen, Values: *values, Tolerance: *tol}
		return status(runDiff(args, st, o, *asJSON, e.stdout, e.stderr))
	}
	return c
}

// diffTopics resolves --topics and --exclude over the topics of both
// recordings (nil: every topic).
func diffTopics(st [2]bag.Storage, topics, exclude []string) ([]string, error) {
	if len(topics) == 0 && len(exclude) == 0 {
		return nil, nil
	}
	all := slices.Concat(series.Topics(st[0]), series.Topics(st[1]))
	slices.Sort(all)
	all = slices.Compact(all)
	chosen := all
	if len(topics) > 0 {
		chosen = nil
		for _, pat := range topics {
			m, err := matchTopics(pat, all)
			if err != nil {
				return nil, err
			}
			chosen = append(chosen, m...)
		}
		slices.Sort(chosen)
		chosen = slices.Compact(chosen)
	}
	drop := map[string]bool{}
	for _, pat := range exclude {
		m, err := matchTopics(pat, all)
		if err != nil {
			return nil, err
		}
		for _, t := range m {
			drop[t] = true
		}
	}
	chosen = slices.DeleteFunc(slices.Clone(chosen), func(t string) bool { return drop[t] })
	if len(chosen) == 0 {
		return nil, usagef("the selection leaves no topic")
	}
	return chosen, nil
}

func runDiff(paths []string, st [2]bag.Storage, o diff.Options, asJSON bool, stdout, stderr io.Writer) int {
	pl := newProgress(stderr, "comparing")
	o.Progress = pl.update
	res, err := diff.Compare(context.Background(), st[0], st[1], o)
	pl.end()
	if err != nil {
		if asJSON {
			writeJSON(stdout, diffJSON{Paths: [2]string{bag.Shown(paths[0]), bag.Shown(paths[1])}, Topics: []topicDiffJSON{}, Lost: [2]lossJSON{noLoss(), noLoss()}, Error: err.Error()})
		}
		return fail(stderr, paths[0]+" vs "+paths[1], err)
	}
	var lost [2]*loss
	for i := range st {
		if it := res.Its[i]; it != nil {
			lost[i] = readLoss(st[i], it, bag.Tally{Read: res.Messages[i], Suspects: res.Suspects[i]}, len(o.Topics) == 0)
		} else {
			lost[i] = &loss{d: &bag.Damage{Messages: bag.Exactly(0)}}
		}
	}
	if asJSON {
		if writeJSON(stdout, diffObject(paths, res, o, lost)) != nil {
			return ExitProblems
		}
	} else {
		printDiff(stdout, paths, st, res, o)
	}
	for i := range st {
		lost[i].print(stderr, paths[i])
	}
	if !res.Equal() || lost[0].any() || lost[1].any() {
		return ExitProblems
	}
	return ExitOK
}

func diffObject(paths []string, res *diff.Result, o diff.Options, lost [2]*loss) diffJSON {
	out := diffJSON{Paths: [2]string{bag.Shown(paths[0]), bag.Shown(paths[1])}, By: "bytes", Tolerance: o.Tolerance,
		Equal: res.Equal(), Messages: res.Messages, Topics: []topicDiffJSON{}, Lost: [2]lossJSON{lost[0].json(), lost[1].json()}}
	if o.Values {
		out.By = "values"
	}
	for _, t := range res.Topics {
		tj := topicDiffJSON{Topic: t.Name, Equal: t.Equal(), TypesDiffer: t.TypesDiffer(), DefinitionsDiffer: t.DefinitionsDiffer(),
			Changed: t.Changed, Dropped: t.Dropped, Added: t.Added, First: diffMsg(t.First), Last: diffMsg(t.Last), Undecodable: t.Undecodable}
		if i := t.OnlyIn(); i >= 0 {
			tj.OnlyIn = "AB"[i : i+1]
		}
		for i, s := range t.Side {
			sj := sideDiffJSON{Present: s.Present, Types: s.Types, Messages: s.Messages, Rate: s.Rate(), Span: s.Span()}
			if sj.Types == nil {
				sj.Types = []string{}
			}
			if s.Messages > 0 {
				f, l := toTimeJSON(s.First), toTimeJSON(s.Last)
				sj.First, sj.Last = &f, &l
			}
			tj.Sides[i] = sj
		}
		out.Topics = append(out.Topics, tj)
	}
	return out
}

func diffMsg(d *diff.Difference) *diffMsgJSON {
	if d == nil {
		return nil
	}
	out := &diffMsgJSON{Kind: string(d.Kind), Time: toTimeJSON(d.Time), Index: d.Index, Where: d.Where, Size: d.Size, Field: d.Field}
	if d.Kind == diff.Changed {
		if d.Field == "" && d.A == "" && d.B == "" {
			at := d.At
			out.Byte = &at
		} else {
			out.Values = &[2]string{d.A, d.B}
		}
	}
	return out
}

// printDiff prints the comparison as a table of topics, then each
// difference.
func printDiff(w io.Writer, paths []string, st [2]bag.Storage, res *diff.Result, o diff.Options) {
	var start bag.Time
	for i, s := range st {
		sum, _ := s.Summary()
		desc := ""
		if sum != nil {
			desc = fmt.Sprintf(" (%s, %d messages, %.3f s)", sum.Format, sum.Messages, sum.End.Sub(sum.Start))
			if i == 0 {
				start = sum.Start
			}
		}
		fmt.Fprintf(w, "%s: %s%s\n", "AB"[i:i+1], paths[i], desc)
	}
	if o.Values {
		fmt.Fprintf(w, "compared by decoded value (floats within %g)\n", o.Tolerance)
	} else {
		fmt.Fprintln(w, "compared by payload bytes")
	}
	tw := len("topic")
	for _, t := range res.Topics {
		tw = max(tw, len(t.Name))
	}
	fmt.Fprintf(w, "%-*s %10s %10s %9s %9s %9s %9s  %s\n", tw, "topic", "msgs A", "msgs B", "Hz A", "Hz B", "span A", "span B", "differences")
	for _, t := range res.Topics {
		a, b := &t.Side[0], &t.Side[1]
		fmt.Fprintf(w, "%-*s %10s %10s %9s %9s %9s %9s  %s\n", tw, t.Name,
			count(a), count(b), num(a, a.Rate()), num(b, b.Rate()), num(a, a.Span()), num(b, b.Span()), t.Summary())
	}
	for _, t := range res.Topics {
		if t.TypesDiffer() {
			fmt.Fprintf(w, "%s: types differ: A %s, B %s\n", t.Name, strings.Join(t.Side[0].Types, " "), strings.Join(t.Side[1].Types, " "))
		}
		if t.DefinitionsDiffer() {
			fmt.Fprintf(w, "%s: definitions of %s differ\n", t.Name, strings.Join(t.Side[0].Types, " "))
		}
		if t.Undecodable != "" {
			fmt.Fprintf(w, "%s: compared by bytes: %s\n", t.Name, t.Undecodable)
		}
		if t.First != nil {
			fmt.Fprintf(w, "%s: first: %s\n", t.Name, t.First.Describe(start))
			if t.Last != t.First {
				fmt.Fprintf(w, "%s: last:  %s\n", t.Name, t.Last.Describe(start))
			}
		}
	}
	if res.Equal() {
		fmt.Fprintln(w, "equal")
	} else {
		fmt.Fprintf(w, "differ: %d of %d topics\n", len(res.Differing()), len(res.Topics))
	}
}

func count(s *diff.Side) string {
	if !s.Present {
		return "-"
	}
	return fmt.Sprint(s.Messages)
}

func num(s *diff.Side, v float64) string {
	if !s.Present {
		return "-"
	}
	return fmt.Sprintf("%.3f", v)
}
