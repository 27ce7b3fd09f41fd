package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
)

// infoGapLines is how many gaps `info --freq` lists per topic (--json
// lists them all, up to model.MaxGaps).
const infoGapLines = 5

// topicStatsJSON is what `info --json` adds to each topic: its timing
// statistics from the message index (see model.TopicStats). Times are
// {"secs","nsecs"}, intervals in seconds; frequency and the intervals
// are null with fewer than 2 messages (frequency too when the median
// interval is 0), as `rosbag info --freq` shows no rate then.
type topicStatsJSON struct {
	// Frequency is the rate `rosbag info --freq` computes: 1 / the median
	// interval, in its float-seconds arithmetic.
	Frequency      *float64 `json:"frequency"`
	IntervalMin    *float64 `json:"interval_min"`
	IntervalMedian *float64 `json:"interval_median"`
	IntervalMax    *float64 `json:"interval_max"`
	// Jitter is the population standard deviation of the intervals.
	Jitter *float64 `json:"jitter"`
	// Gaps are the intervals longer than 3× the median.
	GapCount int       `json:"gap_count"`
	Gaps     []gapJSON `json:"gaps"`
	// ActiveStart..ActiveEnd is the first to the last message.
	ActiveStart *timeJSON `json:"active_start"`
	ActiveEnd   *timeJSON `json:"active_end"`
	ActiveSpan  float64   `json:"active_span"`
}

type gapJSON struct {
	Start    timeJSON `json:"start"`
	End      timeJSON `json:"end"`
	Duration float64  `json:"duration"`
}

// computeStats reads the message index (index records only: no message
// is decompressed) and computes every topic's statistics.
func computeStats(b bag.Storage) (*stats.Set, error) {
	x, err := model.BuildMessageIndex(context.Background(), b, nil)
	if err != nil {
		return nil, err
	}
	return model.ComputeStats(context.Background(), x)
}

func secondsPtr(ns int64) *float64 {
	f := float64(ns) / 1e9
	return &f
}

// statsJSON is one topic's statistics for `info --json`.
func statsJSON(st *stats.Topic) topicStatsJSON {
	out := topicStatsJSON{Gaps: []gapJSON{}}
	if st == nil || st.Messages == 0 {
		return out
	}
	first, last := toTimeJSON(bag.TimeFromNanos(st.First)), toTimeJSON(bag.TimeFromNanos(st.Last))
	out.ActiveStart, out.ActiveEnd, out.ActiveSpan = &first, &last, float64(st.Span())/1e9
	if st.HasRate {
		r := st.Rate
		out.Frequency = &r
	}
	if st.Messages >= 2 {
		j := st.Jitter / 1e9
		out.IntervalMin, out.IntervalMedian, out.IntervalMax, out.Jitter = secondsPtr(st.MinInterval), secondsPtr(st.MedianInterval), secondsPtr(st.MaxInterval), &j
	}
	out.GapCount = st.GapCount
	for _, g := range st.Gaps {
		out.Gaps = append(out.Gaps, gapJSON{toTimeJSON(bag.TimeFromNanos(g.Start)), toTimeJSON(bag.TimeFromNanos(g.End)), float64(g.End-g.Start) / 1e9})
	}
	return out
}

// rateColumn returns each topic's " @ 50.0 Hz" as `rosbag info --freq`
// prints it after the message count (blanks of the same width without a
// rate), or nil without statistics.
func rateColumn(s *bag.Summary, set *stats.Set) map[string]string {
	if set == nil {
		return nil
	}
	width := 0
	for _, t := range s.Topics {
		if st := set.Topic(t.Topic); st != nil && st.HasRate {
			width = max(width, len(stats.RosbagFrequency(st.Rate)))
		}
	}
	out := map[string]string{}
	for _, t := range s.Topics {
		if st := set.Topic(t.Topic); st != nil && st.HasRate {
			out[t.Topic] = fmt.Sprintf(" @ %*s", width, stats.RosbagFrequency(st.Rate))
		} else {
			out[t.Topic] = fmt.Sprintf("   %*s", width, "")
		}
	}
	return out
}

// printStats prints, under the topics, each topic's intervals, jitter,
// active span and gaps (the first few, times from the bag's start).
func printStats(w io.Writer, s *bag.Summary, set *stats.Set) {
	tw := 0
	for _, t := range s.Topics {
		tw = max(tw, len(t.Topic))
	}
	start := s.Start.Nanos()
	rel := func(ns int64) string { return fmt.Sprintf("+%.3fs", float64(ns-start)/1e9) }
	for i, t := range s.Topics {
		label := "intervals:"
		if i > 0 {
			label = ""
		}
		st := set.Topic(t.Topic)
		if st == nil || st.Messages < 2 {
			n := 0
			if st != nil {
				n = st.Messages
			}
			fmt.Fprintf(w, "%-13s %-*s %s\n", label, tw, t.Topic, statsPlural(n, "message")+": no interval")
			continue
		}
		fmt.Fprintf(w, "%-13s %-*s min %s, median %s, max %s, jitter %s, active %s .. %s (%s), %s\n", label, tw, t.Topic,
			stats.Interval(st.MinInterval), stats.Interval(st.MedianInterval), stats.Interval(st.MaxInterval),
			stats.Interval(int64(st.Jitter+0.5)), rel(st.First), rel(st.Last), stats.Interval(st.Span()),
			statsPlural(st.GapCount, fmt.Sprintf("gap > %d× median", stats.GapFactor)))
	}
	first := true
	for _, t := range s.Topics {
		st := set.Topic(t.Topic)
		if st == nil {
			continue
		}
		for k, g := range st.Gaps {
			if k == infoGapLines {
				fmt.Fprintf(w, "%-13s %-*s ... %d more\n", "", tw, t.Topic, st.GapCount-infoGapLines)
				break
			}
			label := ""
			if first {
				label, first = "gaps:", false
			}
			fmt.Fprintf(w, "%-13s %-*s %s .. %s (%s)\n", label, tw, t.Topic, rel(g.Start), rel(g.End), stats.Interval(g.End-g.Start))
		}
	}
}

// statsPlural is "1 gap", "2 gaps": n and the noun, its first word pluralized.
func statsPlural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	for i := range len(noun) {
		if noun[i] == ' ' {
			return fmt.Sprintf("%d %ss%s", n, noun[:i], noun[i:])
		}
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
