package plot

import (
	"bufio"
	"errors"
	"io"
	"math"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"
)

// CSVOptions say how WriteCSV writes times.
type CSVOptions struct {
	// Origin is subtracted from times on a relative time column.
	Origin int64
	// Absolute writes seconds since the epoch instead of seconds from
	// Origin. Both are exact to the nanosecond.
	Absolute bool
	// TimeHeader names the time column; default "time" (absolute) or
	// "time_s" (relative).
	TimeHeader string
	// Stamps adds, after the time column, each row's absolute time twice:
	// as integer nanoseconds since the epoch ("time_ns") and in ISO 8601,
	// UTC, to the nanosecond ("time_utc", 2023-11-14T22:13:20.123456789Z),
	// so that a spreadsheet or pandas can join the rows with other data.
	Stamps bool
}

// CSV headers of the Stamps columns.
const (
	CSVNanosHeader = "time_ns"
	CSVUTCHeader   = "time_utc"
)

// WriteCSV writes the points of series inside window w as CSV: a header
// row, then one row per distinct time (ascending), one time column and one
// column per series, empty where a series has no sample at that time.
// Series are merged on exact times; a series with several samples at one
// time gets as many rows. Values are written in the shortest form that reads
// back exactly (float32 values widened, so "0.1f" prints as
// 0.10000000149011612); NaN and infinities as NaN, +Inf and -Inf.
func WriteCSV(out io.Writer, series []Series, w Window, opt CSVOptions) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	names := make([]string, len(series))
	for k, s := range series {
		names[k] = s.Name
	}
	bw.Write(csvHeader(names, opt))

	// Compact times are decoded for the export (8 bytes a point, freed
	// after it).
	plain := make([]Series, len(series))
	for k, s := range series {
		plain[k] = s.Plain()
	}
	series = plain
	origin := opt.Origin
	if opt.Absolute {
		origin = 0
	}
	// Rows are formatted in blocks, a round of one block per core at a
	// time, and written in order: memory stays bounded by the round.
	pos := make([]int, len(series))
	end := make([]int, len(series))
	for k, s := range series {
		pos[k], end[k] = s.Span(w)
	}
	workers := runtime.GOMAXPROCS(0)
	blocks := make([]csvBlock, workers)
	for {
		n := 0
		for ; n < workers; n++ {
			if !blocks[n].take(series, pos, end) {
				break
			}
		}
		if n == 0 {
			break
		}
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { blocks[i].format(series, origin, opt.Stamps) })
		}
		wg.Wait()
		for i := range n {
			if _, err := bw.Write(blocks[i].out); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// csvHeader is the header row of columns names.
func csvHeader(names []string, opt CSVOptions) []byte {
	head := opt.TimeHeader
	if head == "" {
		head = "time_s"
		if opt.Absolute {
			head = "time"
		}
	}
	line := appendCSVField(nil, head)
	if opt.Stamps {
		line = append(line, ","+CSVNanosHeader+","+CSVUTCHeader...)
	}
	for _, name := range names {
		line = append(line, ',')
		line = appendCSVField(line, name)
	}
	return append(line, '\n')
}

// CSVStream writes the same CSV as WriteCSV from points handed to it one
// at a time in ascending time (a read in time order), keeping only the
// values of the latest time: its memory does not grow with the points.
type CSVStream struct {
	bw      *bufio.Writer
	origin  int64
	stamps  bool
	t       int64
	pending [][]float64 // each series' values at t
	line    []byte
}

// NewCSVStream writes the header row of the columns names to out and
// returns the stream of their points.
func NewCSVStream(out io.Writer, names []string, opt CSVOptions) *CSVStream {
	c := &CSVStream{bw: bufio.NewWriterSize(out, 64<<10), origin: opt.Origin, stamps: opt.Stamps,
		pending: make([][]float64, len(names))}
	if opt.Absolute {
		c.origin = 0
	}
	c.bw.Write(csvHeader(names, opt))
	return c
}

// Add adds the value v of column k at time t, which is not before the
// times added so far (ErrCSVOrder if it is).
func (c *CSVStream) Add(k int, t int64, v float64) error {
	if t != c.t {
		if t < c.t && c.any() {
			return ErrCSVOrder
		}
		c.flush()
		c.t = t
	}
	c.pending[k] = append(c.pending[k], v)
	return nil
}

// ErrCSVOrder says a CSVStream was handed a time before one it wrote.
var ErrCSVOrder = errors.New("internal error: CSV points out of time order")

func (c *CSVStream) any() bool {
	for _, p := range c.pending {
		if len(p) > 0 {
			return true
		}
	}
	return false
}

// flush writes the rows of time c.t: as many as the series with the most
// values then has, as WriteCSV does.
func (c *CSVStream) flush() {
	rows := 0
	for _, p := range c.pending {
		rows = max(rows, len(p))
	}
	for r := range rows {
		out := appendNanos(c.line[:0], c.t-c.origin)
		if c.stamps {
			out = append(out, ',')
			out = strconv.AppendInt(out, c.t, 10)
			out = append(out, ',')
			out = time.Unix(0, c.t).UTC().AppendFormat(out, isoNanos)
		}
		for _, p := range c.pending {
			out = append(out, ',')
			if r < len(p) {
				out = appendValue(out, p[r])
			}
		}
		out = append(out, '\n')
		c.bw.Write(out)
		c.line = out
	}
	for k := range c.pending {
		c.pending[k] = c.pending[k][:0]
	}
}

// Close writes the last rows and flushes; it returns the first write
// error.
func (c *CSVStream) Close() error {
	c.flush()
	return c.bw.Flush()
}

// csvBlockRows bounds the samples of one series in one block.
var csvBlockRows = 16 << 10

// csvBlock is a run of CSV rows: the samples lo[k]:hi[k] of each series,
// all at times before those of the next block, and their formatted text.
type csvBlock struct {
	lo, hi []int
	out    []byte
}

// take sets the block to the next rows after pos (advancing pos), ending
// before the first time at which some series would exceed csvBlockRows
// samples; it reports false when no rows are left.
func (b *csvBlock) take(series []Series, pos, end []int) bool {
	first, split, any := int64(math.MaxInt64), int64(math.MaxInt64), false
	for k, s := range series {
		if pos[k] == end[k] {
			continue
		}
		any = true
		first = min(first, s.T[pos[k]])
		if i := pos[k] + csvBlockRows; i < end[k] {
			split = min(split, s.T[i])
		}
	}
	if !any {
		return false
	}
	if split <= first {
		// More than a block of samples share the first time: take them all.
		split = first + 1
	}
	b.lo = append(b.lo[:0], pos...)
	b.hi = b.hi[:0]
	for k, s := range series {
		t := s.T[pos[k]:end[k]]
		pos[k] += sort.Search(len(t), func(i int) bool { return t[i] >= split })
		b.hi = append(b.hi, pos[k])
	}
	return true
}

// format writes the block's rows: one per distinct time (a series with
// several samples at one time gets as many rows), with times relative to
// origin, then (with stamps) the absolute time in nanoseconds and in
// ISO 8601.
func (b *csvBlock) format(series []Series, origin int64, stamps bool) {
	out := b.out[:0]
	pos := b.lo
	for {
		// The next time is the smallest head among the series.
		t, any := int64(math.MaxInt64), false
		for k, s := range series {
			if pos[k] < b.hi[k] && s.T[pos[k]] <= t {
				t, any = s.T[pos[k]], true
			}
		}
		if !any {
			break
		}
		out = appendNanos(out, t-origin)
		if stamps {
			out = append(out, ',')
			out = strconv.AppendInt(out, t, 10)
			out = append(out, ',')
			out = time.Unix(0, t).UTC().AppendFormat(out, isoNanos)
		}
		for k, s := range series {
			out = append(out, ',')
			if pos[k] < b.hi[k] && s.T[pos[k]] == t {
				out = appendValue(out, s.V[pos[k]])
				pos[k]++
			}
		}
		out = append(out, '\n')
	}
	b.out = out
}

// isoNanos is ISO 8601 in UTC with nine decimals.
const isoNanos = "2006-01-02T15:04:05.000000000Z"

// appendNanos appends ns as seconds with nine decimals, exactly.
func appendNanos(b []byte, ns int64) []byte {
	if ns < 0 {
		b = append(b, '-')
		if ns == math.MinInt64 {
			return append(b, "9223372036.854775808"...)
		}
		ns = -ns
	}
	b = strconv.AppendInt(b, ns/1e9, 10)
	// The nine decimals, two digits at a time from the right.
	frac := uint32(ns % 1e9)
	var d [10]byte
	d[0] = '.'
	for i := 8; i > 0; i -= 2 {
		q := frac % 100
		frac /= 100
		d[i], d[i+1] = digits2[2*q], digits2[2*q+1]
	}
	d[1] = byte('0' + frac)
	return append(b, d[:]...)
}

// digits2 is the decimal digits of 0 to 99, two each.
const digits2 = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendValue appends v in the shortest form that parses back to v.
func appendValue(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendCSVField appends s quoted when it needs to be (RFC 4180).
func appendCSVField(b []byte, s string) []byte {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
			need = true
			break
		}
	}
	if !need {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
