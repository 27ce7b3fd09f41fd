package plot

import (
	"bufio"
	"io"
	"math"
	"strconv"
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
}

// WriteCSV writes the points of series inside window w as CSV: a header
// row, then one row per distinct time (ascending), one time column and one
// column per series, empty where a series has no sample at that time.
// Series are merged on exact times; a series with several samples at one
// time gets as many rows. Values are written in the shortest form that reads
// back exactly (float32 values widened, so "0.1f" prints as
// 0.10000000149011612); NaN and infinities as NaN, +Inf and -Inf.
func WriteCSV(out io.Writer, series []Series, w Window, opt CSVOptions) error {
	bw := bufio.NewWriterSize(out, 64<<10)
	head := opt.TimeHeader
	if head == "" {
		head = "time_s"
		if opt.Absolute {
			head = "time"
		}
	}
	line := appendCSVField(nil, head)
	for _, s := range series {
		line = append(line, ',')
		line = appendCSVField(line, s.Name)
	}
	line = append(line, '\n')
	bw.Write(line)

	pos := make([]int, len(series))
	end := make([]int, len(series))
	for k, s := range series {
		pos[k], end[k] = s.Span(w)
	}
	for {
		// The next time is the smallest head among the series.
		t, any := int64(math.MaxInt64), false
		for k, s := range series {
			if pos[k] < end[k] && s.T[pos[k]] <= t {
				t, any = s.T[pos[k]], true
			}
		}
		if !any {
			break
		}
		line = line[:0]
		if opt.Absolute {
			line = appendNanos(line, t)
		} else {
			line = appendNanos(line, t-opt.Origin)
		}
		for k, s := range series {
			line = append(line, ',')
			if pos[k] < end[k] && s.T[pos[k]] == t {
				line = appendValue(line, s.V[pos[k]])
				pos[k]++
			}
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

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
	frac := ns % 1e9
	b = append(b, '.')
	var tmp [10]byte
	s := strconv.AppendInt(tmp[:0], frac+1e9, 10) // "1" followed by 9 digits
	return append(b, s[1:]...)
}

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
