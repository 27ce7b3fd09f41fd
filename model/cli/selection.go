package cli

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// selection is what a command that reads messages reads: --topics,
// --exclude and --range (and the older --topic, --start and --end, kept
// hidden for scripts).
type selection struct {
	topics, exclude []string
	rng             string
	start, end      string
}

// addSelection adds the selection flags to c.
func addSelection(c *cobra.Command) *selection {
	s := addRange(c)
	f := c.Flags()
	f.StringSliceVar(&s.topics, "topics", nil, "only the topics `T` (repeatable and comma-separated; * and ? are wildcards that also match /)")
	f.StringSliceVar(&s.exclude, "exclude", nil, "leave out the topics `T` (the forms of --topics)")
	f.SetNormalizeFunc(func(_ *pflag.FlagSet, name string) pflag.NormalizedName {
		if name == "topic" {
			name = "topics"
		}
		return pflag.NormalizedName(name)
	})
	c.RegisterFlagCompletionFunc("topics", completeTopics)
	c.RegisterFlagCompletionFunc("exclude", completeTopics)
	return s
}

// addRange adds --range (and the older --start and --end) alone, for a
// command whose arguments name the topics it reads (plot).
func addRange(c *cobra.Command) *selection {
	s := &selection{}
	f := c.Flags()
	f.StringVar(&s.rng, "range", "", "only messages received in `START:END`: seconds from the recording's start (5:12, 5:, :12), seconds since the epoch after @ (@1700000000.5:@1700000010), or RFC 3339 times (2023-11-14T22:13:20Z:2023-11-14T22:13:23Z)")
	f.StringVar(&s.start, "start", "", "first receive time: seconds since the epoch, or +SECONDS from the start (older form of --range)")
	f.StringVar(&s.end, "end", "", "last receive time, inclusive (older form of --range)")
	f.MarkHidden("start")
	f.MarkHidden("end")
	return s
}

// active reports whether anything narrows the selection.
func (s *selection) active() bool {
	return len(s.topics) > 0 || len(s.exclude) > 0 || s.rng != "" || s.start != "" || s.end != ""
}

// describe says what was selected, as the flags were given.
func (s *selection) describe() string {
	var parts []string
	if len(s.topics) > 0 {
		parts = append(parts, "--topics "+strings.Join(s.topics, ","))
	}
	if len(s.exclude) > 0 {
		parts = append(parts, "--exclude "+strings.Join(s.exclude, ","))
	}
	for _, p := range [][2]string{{"range", s.rng}, {"start", s.start}, {"end", s.end}} {
		if p[1] != "" {
			parts = append(parts, "--"+p[0]+" "+p[1])
		}
	}
	return strings.Join(parts, " ")
}

// resolve turns the selection into a filter on b. A topic that names
// nothing, a selection that leaves no topic, and a range outside the
// recording are usage errors saying what the recording has.
func (s *selection) resolve(b bag.Storage) (bag.MessageFilter, error) {
	var f bag.MessageFilter
	topics := series.Topics(b)
	chosen := topics
	if len(s.topics) > 0 {
		chosen = nil
		seen := map[string]bool{}
		for _, pat := range s.topics {
			m, err := matchTopics(pat, topics)
			if err != nil {
				return f, err
			}
			for _, t := range m {
				if !seen[t] {
					seen[t] = true
					chosen = append(chosen, t)
				}
			}
		}
	}
	if len(s.exclude) > 0 {
		drop := map[string]bool{}
		for _, pat := range s.exclude {
			m, err := matchTopics(pat, topics)
			if err != nil {
				return f, err
			}
			for _, t := range m {
				drop[t] = true
			}
		}
		var kept []string
		for _, t := range chosen {
			if !drop[t] {
				kept = append(kept, t)
			}
		}
		if len(kept) == 0 {
			return f, usagef("the selection (%s) leaves no topic", s.describe())
		}
		chosen = kept
	}
	if len(s.topics) > 0 || len(s.exclude) > 0 {
		f.Topics = chosen
	}
	start, end := model.TimeRange(b)
	var err error
	switch {
	case s.rng != "" && (s.start != "" || s.end != ""):
		return f, usagef("give --range or --start/--end, not both")
	case s.rng != "":
		f.Start, f.End, err = parseRange(s.rng, start)
	default:
		if f.Start, err = parseTimeArg(s.start, start); err == nil {
			f.End, err = parseTimeArg(s.end, start)
		}
	}
	if err != nil {
		return f, usagef("%v", err)
	}
	if err := checkRange(f.Start, f.End, start, end); err != nil {
		return f, err
	}
	return f, nil
}

// noteEmpty says on stderr that nothing was read because of the
// selection, when n is 0 and the selection narrowed what is read.
func (s *selection) noteEmpty(stderr io.Writer, path string, n uint64) {
	if n == 0 && s.active() {
		fmt.Fprintf(stderr, "bagscope: %s: no message in the selection (%s)\n", path, s.describe())
	}
}

// wildcards are the characters that make a --topics value a pattern.
const wildcards = "*?["

// matchTopics returns the topics pat names: itself, or those the pattern
// matches. Naming none is a usage error that suggests the nearest topics
// and lists them all.
func matchTopics(pat string, topics []string) ([]string, error) {
	if !strings.ContainsAny(pat, wildcards) {
		for _, t := range topics {
			if t == pat {
				return []string{t}, nil
			}
		}
		hint := ""
		cands := closest(pat, topics, max(2, len(pat)/4))
		for _, t := range topics {
			if t == "/"+pat || strings.TrimSuffix(t, "/") == strings.TrimSuffix(pat, "/") {
				cands = append([]string{t}, cands...)
			}
		}
		if len(cands) > 0 {
			hint = " (did you mean " + strings.Join(dedupe(cands), ", ") + "?)"
		}
		return nil, usagef("no topic %s%s; the recording's topics: %s", pat, hint, listTopics(topics))
	}
	re, err := globRE(pat)
	if err != nil {
		return nil, usagef("--topics %q: %v", pat, err)
	}
	var out []string
	for _, t := range topics {
		if re.MatchString(t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, usagef("no topic matches %s; the recording's topics: %s", pat, listTopics(topics))
	}
	return out, nil
}

// globRE compiles a topic pattern: * any characters (/ included), ? one,
// [...] a class.
func globRE(pat string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(pat[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			cls := pat[i+1 : i+j]
			if strings.HasPrefix(cls, "!") {
				cls = "^" + cls[1:]
			}
			b.WriteString("[" + cls + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// listTopics lists topics for an error message: the first 30, then how
// many more.
func listTopics(topics []string) string {
	if len(topics) == 0 {
		return "none"
	}
	if len(topics) > 30 {
		return strings.Join(topics[:30], ", ") + fmt.Sprintf(" and %d more", len(topics)-30)
	}
	return strings.Join(topics, ", ")
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// parseRange reads START:END: each side empty (no bound), seconds from the
// recording's start ("5", "5.25", "+5"), seconds since the epoch after @
// ("@1700000000.5"), or an RFC 3339 time. The colon that splits them is
// the one that leaves two sides that read (RFC 3339 times hold colons).
func parseRange(s string, origin bag.Time) (lo, hi bag.Time, err error) {
	if !strings.Contains(s, ":") {
		return lo, hi, fmt.Errorf("--range %q: want START:END (5:12, 5:, :12, @1700000000.5:@1700000010, or RFC 3339 times)", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] != ':' {
			continue
		}
		l, errL := parseBound(s[:i], origin)
		h, errH := parseBound(s[i+1:], origin)
		if errL == nil && errH == nil {
			return l, h, nil
		}
	}
	return lo, hi, fmt.Errorf("--range %q: each side is seconds from the start (5.5), seconds since the epoch after @ (@1700000000.5) or an RFC 3339 time (2023-11-14T22:13:20Z)", s)
}

// parseBound reads one side of --range; "" is the zero time (no bound).
func parseBound(s string, origin bag.Time) (bag.Time, error) {
	switch {
	case s == "":
		return bag.Time{}, nil
	case s[0] == '@':
		return parseTimeArg(s[1:], origin)
	case s[0] == '+' || s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, "-T:"):
		return parseTimeArg("+"+strings.TrimPrefix(s, "+"), origin)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return bag.Time{}, err
	}
	if t.Unix() < 0 || t.Unix() > 1<<32-1 {
		return bag.Time{}, fmt.Errorf("%s is outside the times a recording holds", s)
	}
	return bag.TimeFromNanos(t.UnixNano()), nil
}

// checkRange refuses a reversed range, a start outside the recording's
// start..end and an end before its start, saying the recording's span. An
// end past the recording's end reads to its end.
func checkRange(lo, hi, start, end bag.Time) error {
	if lo.IsZero() && hi.IsZero() {
		return nil
	}
	span := func() string {
		if start.IsZero() && end.IsZero() {
			return "the recording has no messages"
		}
		return fmt.Sprintf("the recording spans 0:%s (@%s:@%s, %s to %s)", secondsText(end.Nanos()-start.Nanos()), start, end,
			start.Std().Format(time.RFC3339Nano), end.Std().Format(time.RFC3339Nano))
	}
	rel := func(t bag.Time) string {
		return fmt.Sprintf("%s (%ss from the start)", t, secondsText(t.Nanos()-start.Nanos()))
	}
	switch {
	case !lo.IsZero() && !hi.IsZero() && hi.Before(lo):
		return usagef("the range ends (%s) before it starts (%s)", rel(hi), rel(lo))
	case !lo.IsZero() && (lo.Before(start) || end.Before(lo)):
		return usagef("the range starts at %s, outside the recording: %s", rel(lo), span())
	case !hi.IsZero() && hi.Before(start):
		return usagef("the range ends at %s, outside the recording: %s", rel(hi), span())
	}
	return nil
}

// secondsText is ns nanoseconds as seconds, exact and without trailing
// zeros: "9.98", "-5", "0.000000001".
func secondsText(ns int64) string {
	return string(appendSeconds(nil, ns))
}

// appendSeconds appends secondsText(ns) to b, without allocating (find
// writes it for every hit).
func appendSeconds(b []byte, ns int64) []byte {
	u := uint64(ns)
	if ns < 0 {
		b = append(b, '-')
		u = -u
	}
	b = strconv.AppendUint(b, u/1e9, 10)
	frac := u % 1e9
	if frac == 0 {
		return b
	}
	b = append(b, '.')
	b = appendNine(b, frac)
	for b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

// appendNine appends n (below 1e9) as nine digits, zero-padded.
func appendNine(b []byte, n uint64) []byte {
	var d [9]byte
	for i := 8; i >= 0; i-- {
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, d[:]...)
}

// appendTime appends t as bag.Time.String writes it (sec.nnnnnnnnn).
func appendTime(b []byte, t bag.Time) []byte {
	b = strconv.AppendUint(b, uint64(t.Sec), 10)
	b = append(b, '.')
	return appendNine(b, uint64(t.NSec))
}
