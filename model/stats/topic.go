// Package stats computes and describes the timing statistics of topics
// (rate as `rosbag info --freq` gives it, intervals, jitter, gaps) from their
// receive times, and counts the bytes of every connection's messages.
package stats

import (
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/model/msgref"
)

// GapFactor: an interval longer than GapFactor times a topic's median
// interval is a gap.
const GapFactor = 3

// MaxGaps is how many gaps a topic's statistics keep (GapCount counts them
// all), so that a pathological topic costs no more than this.
const MaxGaps = 10000

// Topic holds the timing statistics of one topic's (or one
// connection's) messages, from the receive times of the message index (so
// from the index records alone, no message is decompressed). An interval
// is the time between two consecutive messages.
type Topic struct {
	Messages int
	// First and Last are the first and last receive times, nanoseconds
	// since the epoch: the active span (see Span).
	First, Last int64
	// Rate is the frequency `rosbag info --freq` shows: 1 / the median of
	// the intervals, with the reference's own arithmetic (each time as
	// float seconds, secs + nsecs/1e9, intervals their differences, the
	// median of an even count the mean of the two middle ones). HasRate
	// is false, as the reference shows no rate, with fewer than 2
	// messages or a median interval of 0.
	Rate    float64
	HasRate bool
	// MinInterval, MedianInterval and MaxInterval are exact, in
	// nanoseconds (the median of an even count is the mean of the two
	// middle intervals, rounded down); 0 with fewer than 2 messages.
	MinInterval, MedianInterval, MaxInterval int64
	// Jitter is the population standard deviation of the intervals, in
	// nanoseconds: sqrt(mean((interval - mean interval)²)).
	Jitter float64
	// Gaps are the intervals longer than GapFactor × MedianInterval, in
	// time order (none when the median is 0); at most MaxGaps are kept,
	// GapCount counts every one.
	Gaps     []Gap
	GapCount int
}

// Gap is an interval with no message: Start is the time of the message
// before it, End of the one after it (nanoseconds since the epoch).
type Gap struct{ Start, End int64 }

// Span is the active span, first to last message, in nanoseconds.
func (s *Topic) Span() int64 { return s.Last - s.First }

// Set holds the statistics of every topic and connection of a
// message index.
type Set struct {
	Topics map[string]*Topic
	// Conns holds each connection's statistics; a topic with one
	// connection shares its topic's.
	Conns map[uint32]*Topic
}

// Topic returns a topic's statistics, or nil.
func (s *Set) Topic(name string) *Topic {
	if s == nil {
		return nil
	}
	return s.Topics[name]
}

// Conn returns a connection's statistics, or nil.
func (s *Set) Conn(id uint32) *Topic {
	if s == nil {
		return nil
	}
	return s.Conns[id]
}

// OfTimes computes the statistics of receive times in nanoseconds,
// sorted ascending.
func OfTimes(times []int64) *Topic {
	refs := func(yield func(int, msgref.Ref) bool) {
		for i, t := range times {
			if !yield(i, msgref.Ref{T: t}) {
				return
			}
		}
	}
	return NewComputer().Of(refs, false, 0)
}

// A Computer computes statistics topic after topic, reusing the histogram
// of its radix selection and the buffers of a topic's intervals.
type Computer struct {
	counts []int
	// keys holds a topic's interval keys, when it has at most
	// maxBuffered intervals; work is kth's copy of them, which it
	// narrows in place to the keys that share the digits chosen so far.
	keys, work []uint64
	// times holds a topic's times when it has at most maxBuffered+1.
	times []int64
}

// maxBuffered is the most intervals a Computer copies out of the message
// index (24 bytes each, in times, keys and work) to compute a topic's
// figures from slices rather than by a pass over the compact index per
// figure and radix digit: 512K intervals, 12 MB while a topic is computed
// (a 1M-message recording's busiest topic, 400 Hz for 1000 s, fits).
var maxBuffered = 1 << 19

const radixBits = 16

// NewComputer returns a Computer with its histogram.
func NewComputer() *Computer { return &Computer{counts: make([]int, 1<<radixBits)} }

// rosSec is a time as the reference's to_sec makes it: float(secs) +
// float(nsecs) / 1e9.
func rosSec(ns int64) float64 {
	s, n := ns/1e9, ns%1e9
	if n < 0 {
		s, n = s-1, n+1e9
	}
	return float64(s) + float64(n)/1e9
}

// Of computes the statistics of refs (sorted by time), of connection
// conn only when byConn.
func (sc *Computer) Of(refs iter.Seq2[int, msgref.Ref], byConn bool, conn uint32) *Topic {
	// One pass over the index: the count, the first and last times, and
	// the times themselves while there are at most maxBuffered+1 of them
	// (then every later pass reads the slice, not the compact index).
	s := &Topic{}
	first := true
	times, over := sc.times[:0], false
	for _, r := range refs {
		if byConn && r.Conn != conn {
			continue
		}
		if first {
			s.First, first = r.T, false
		}
		s.Last = r.T
		s.Messages++
		if !over {
			if len(times) <= maxBuffered {
				times = append(times, r.T)
			} else {
				over, times = true, times[:0]
			}
		}
	}
	sc.times = times[:0]
	// each calls f on every consecutive pair's times.
	each := func(f func(prev, cur int64)) {
		for i := 1; i < len(times); i++ {
			f(times[i-1], times[i])
		}
	}
	if over {
		each = func(f func(prev, cur int64)) {
			first := true
			var prev int64
			for _, r := range refs {
				if byConn && r.Conn != conn {
					continue
				}
				if !first {
					f(prev, r.T)
				}
				prev, first = r.T, false
			}
		}
	}
	n := s.Messages - 1 // intervals
	if n < 1 {
		return s
	}
	// One pass: min, max, and the jitter by Welford's running variance.
	var mean, m2 float64
	k := 0
	s.MinInterval = math.MaxInt64
	each(func(prev, cur int64) {
		d := cur - prev
		s.MinInterval = min(s.MinInterval, d)
		s.MaxInterval = max(s.MaxInterval, d)
		k++
		delta := float64(d) - mean
		mean += delta / float64(k)
		m2 += delta * (float64(d) - mean)
	})
	s.Jitter = math.Sqrt(m2 / float64(n))

	// The exact median in nanoseconds (intervals are never negative: the
	// times are sorted).
	nsKeys := sc.buffered(n, func(f func(uint64)) { each(func(prev, cur int64) { f(uint64(cur - prev)) }) })
	lo, hi := sc.median(n, nsKeys)
	s.MedianInterval = int64(lo/2 + hi/2 + (lo%2+hi%2)/2)

	// The reference's median: over float seconds, whose bit patterns sort
	// as the (non-negative) values do.
	secKeys := sc.buffered(n, func(f func(uint64)) {
		each(func(prev, cur int64) { f(math.Float64bits(rosSec(cur) - rosSec(prev))) })
	})
	flo, fhi := sc.median(n, secKeys)
	med := math.Float64frombits(flo)
	if n%2 == 0 {
		med = (math.Float64frombits(flo) + math.Float64frombits(fhi)) / 2
	}
	if med > 0 {
		s.Rate, s.HasRate = 1.0/med, true
	}

	if s.MedianInterval > 0 {
		limit := GapFactor * s.MedianInterval
		each(func(prev, cur int64) {
			if cur-prev > limit {
				s.GapCount++
				if len(s.Gaps) < MaxGaps {
					s.Gaps = append(s.Gaps, Gap{prev, cur})
				}
			}
		})
	}
	return s
}

// keySource yields n keys: by a pass over the message index (slice nil),
// or from a slice.
type keySource struct {
	each  func(func(uint64))
	slice []uint64
}

// buffered copies the n keys each yields into the Computer's buffer when
// there are at most maxBuffered of them.
func (sc *Computer) buffered(n int, each func(func(uint64))) keySource {
	if n > maxBuffered {
		return keySource{each: each}
	}
	sc.keys = sc.keys[:0]
	each(func(v uint64) { sc.keys = append(sc.keys, v) })
	return keySource{each: each, slice: sc.keys}
}

// forEach calls f on every key.
func (ks keySource) forEach(f func(uint64)) {
	if ks.slice == nil {
		ks.each(f)
		return
	}
	for _, v := range ks.slice {
		f(v)
	}
}

// median returns the two middle values of the n keys each yields (the
// same one twice when n is odd).
func (sc *Computer) median(n int, keys keySource) (lo, hi uint64) {
	if n%2 == 1 {
		v := sc.kth(n/2, keys)
		return v, v
	}
	lo = sc.kth(n/2-1, keys)
	// The next value: lo again if it repeats past rank n/2-1, else the
	// smallest value above it.
	atMost, next := 0, uint64(math.MaxUint64)
	keys.forEach(func(v uint64) {
		if v <= lo {
			atMost++
		} else if v < next {
			next = v
		}
	})
	if atMost > n/2 {
		return lo, lo
	}
	return lo, next
}

// sortBelow is how few keys kth sorts rather than selects by digits.
const sortBelow = 4096

// kth returns the k-th smallest (from 0) of the keys each yields, by a
// most-significant-digit radix selection: one pass per 16-bit digit,
// counting only the keys that share the digits chosen so far. Keys in a
// slice are copied, and the copy narrowed after each digit to the keys
// that share it.
func (sc *Computer) kth(k int, keys keySource) uint64 {
	var prefix, mask uint64
	counts := sc.counts
	work := append(sc.work[:0], keys.slice...)
	for shift := 64 - radixBits; shift >= 0; shift -= radixBits {
		if keys.slice != nil && len(work) <= sortBelow {
			// Few keys left: sorting them costs less than a
			// histogram's clearing and scan.
			slices.Sort(work)
			v := work[k]
			sc.work = work[:0]
			return v
		}
		clear(counts)
		if keys.slice == nil {
			keys.each(func(v uint64) {
				if v&mask == prefix {
					counts[(v>>shift)&(1<<radixBits-1)]++
				}
			})
		} else {
			for _, v := range work {
				counts[(v>>shift)&(1<<radixBits-1)]++
			}
		}
		d := 0
		for ; d < len(counts)-1 && k >= counts[d]; d++ {
			k -= counts[d]
		}
		prefix |= uint64(d) << shift
		mask |= (1<<radixBits - 1) << shift
		if keys.slice != nil {
			kept := work[:0]
			for _, v := range work {
				if v&mask == prefix {
					kept = append(kept, v)
				}
			}
			work = kept
		}
	}
	sc.work = work[:0]
	return prefix
}

// RosbagFrequency formats a rate as `rosbag info --freq` prints it
// ("50.0 Hz", "1.2 kHz").
func RosbagFrequency(hz float64) string {
	for _, suffix := range []string{"Hz", "kHz", "MHz", "GHz", "THz", "PHz", "EHz", "ZHz", "YHz"} {
		if hz < 1000 {
			return fmt.Sprintf("%.1f %s", hz, suffix)
		}
		hz /= 1000
	}
	return "-"
}

// RateText is a rate for the topics table's Frequency (Hz) column: as
// rosbag rounds it (one decimal) from 1 Hz up, three significant digits
// below; "—" without a rate (fewer than 2 messages, or all at one time).
func (s *Topic) RateText() string {
	switch {
	case s == nil:
		return "…"
	case !s.HasRate:
		return "—"
	case s.Rate >= 1:
		return fmt.Sprintf("%.1f", s.Rate)
	default:
		return fmt.Sprintf("%.3g", s.Rate)
	}
}

// Interval formats an interval in nanoseconds with a unit that suits it.
func Interval(ns int64) string {
	d := float64(ns)
	switch {
	case ns == 0:
		return "0 s"
	case ns < 1e3:
		return fmt.Sprintf("%d ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.3g µs", d/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.3g ms", d/1e6)
	default:
		return fmt.Sprintf("%.3f s", d/1e9)
	}
}

// Detail describes the statistics in one line: the rate, the intervals,
// the jitter, the gaps and the active span.
func (s *Topic) Detail() string {
	if s == nil {
		return "computing the interval statistics…"
	}
	if s.Messages < 2 {
		if s.Messages == 1 {
			return "1 message: no interval, no rate"
		}
		return "no messages"
	}
	var b strings.Builder
	if s.HasRate {
		fmt.Fprintf(&b, "%s (rosbag: 1 / median interval)", RosbagFrequency(s.Rate))
	} else {
		b.WriteString("no rate (median interval 0)")
	}
	fmt.Fprintf(&b, " · interval min %s, median %s, max %s · jitter (std dev) %s · ",
		Interval(s.MinInterval), Interval(s.MedianInterval), Interval(s.MaxInterval), Interval(int64(math.Round(s.Jitter))))
	switch s.GapCount {
	case 0:
		fmt.Fprintf(&b, "no gap > %d× median", GapFactor)
	case 1:
		fmt.Fprintf(&b, "1 gap > %d× median (%s)", GapFactor, Interval(s.Gaps[0].End-s.Gaps[0].Start))
	default:
		longest := int64(0)
		for _, g := range s.Gaps {
			longest = max(longest, g.End-g.Start)
		}
		fmt.Fprintf(&b, "%d gaps > %d× median (longest %s)", s.GapCount, GapFactor, Interval(longest))
	}
	fmt.Fprintf(&b, " · active %s", Interval(s.Span()))
	return b.String()
}
