package plot

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestWriteCSV(t *testing.T) {
	a := Series{Name: "/a.x", T: []int64{t0 + 1e9, t0 + 2e9, t0 + 2e9, t0 + 4e9}, V: []float64{1.5, math.NaN(), 3, float64(float32(0.1))}}
	b := Series{Name: `/b."q",y`, T: []int64{t0, t0 + 2e9, t0 + 3_000_000_001}, V: []float64{-7, math.Inf(1), 1e-300}}
	tests := []struct {
		name   string
		series []Series
		w      Window
		opt    CSVOptions
		want   string
	}{
		{
			name:   "merge on exact times, relative",
			series: []Series{a, b},
			w:      Window{t0, t0 + 10e9},
			opt:    CSVOptions{Origin: t0},
			want: "time_s,/a.x,\"/b.\"\"q\"\",y\"\n" +
				"0.000000000,,-7\n" +
				"1.000000000,1.5,\n" +
				"2.000000000,NaN,+Inf\n" +
				"2.000000000,3,\n" +
				"3.000000001,,1e-300\n" +
				"4.000000000,0.10000000149011612,\n",
		},
		{
			name:   "visible window only, absolute",
			series: []Series{a, b},
			w:      Window{t0 + 2e9, t0 + 3e9},
			opt:    CSVOptions{Absolute: true},
			want: "time,/a.x,\"/b.\"\"q\"\",y\"\n" +
				"1700000002.000000000,NaN,+Inf\n" +
				"1700000002.000000000,3,\n",
		},
		{
			name:   "negative relative times",
			series: []Series{{Name: "s", T: []int64{t0 - 1}, V: []float64{-0.5}}},
			w:      Window{0, t0},
			opt:    CSVOptions{Origin: t0},
			want:   "time_s,s\n-0.000000001,-0.5\n",
		},
		{
			name: "no series", w: Window{0, 1}, want: "time_s\n",
		},
		{
			name:   "absolute stamps beside relative time",
			series: []Series{a, b},
			w:      Window{t0, t0 + 3_000_000_001},
			opt:    CSVOptions{Origin: t0, Stamps: true},
			want: "time_s,time_ns,time_utc,/a.x,\"/b.\"\"q\"\",y\"\n" +
				"0.000000000,1700000000000000000,2023-11-14T22:13:20.000000000Z,,-7\n" +
				"1.000000000,1700000001000000000,2023-11-14T22:13:21.000000000Z,1.5,\n" +
				"2.000000000,1700000002000000000,2023-11-14T22:13:22.000000000Z,NaN,+Inf\n" +
				"2.000000000,1700000002000000000,2023-11-14T22:13:22.000000000Z,3,\n" +
				"3.000000001,1700000003000000001,2023-11-14T22:13:23.000000001Z,,1e-300\n",
		},
		{
			name:   "stamps before 1970",
			series: []Series{{Name: "s", T: []int64{-1_500_000_000}, V: []float64{2}}},
			w:      Window{-2e9, 0},
			opt:    CSVOptions{Stamps: true},
			want:   "time_s,time_ns,time_utc,s\n-1.500000000,-1500000000,1969-12-31T23:59:58.500000000Z,2\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteCSV(&buf, tc.series, tc.w, tc.opt); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			// The stream writes the same, handed the window's points
			// in time order, as a read in time order hands them.
			buf.Reset()
			if got := streamCSV(t, &buf, tc.series, tc.w, tc.opt); got != tc.want {
				t.Errorf("stream: got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// streamCSV writes series inside w through a CSVStream, their points
// merged in time order (each series' own in its order).
func streamCSV(t *testing.T, buf *bytes.Buffer, series []Series, w Window, opt CSVOptions) string {
	t.Helper()
	names := make([]string, len(series))
	pos := make([]int, len(series))
	end := make([]int, len(series))
	for k, s := range series {
		names[k] = s.Name
		pos[k], end[k] = s.Span(w)
	}
	c := NewCSVStream(buf, names, opt)
	for {
		k := -1
		for i, s := range series {
			if pos[i] < end[i] && (k < 0 || s.T[pos[i]] < series[k].T[pos[k]]) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		if err := c.Add(k, series[k].T[pos[k]], series[k].V[pos[k]]); err != nil {
			t.Fatal(err)
		}
		pos[k]++
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestWriteCSVBlocks checks that cutting the rows into blocks (formatted on
// several cores) writes what one block does: series of different rates,
// shared times, and runs of equal times longer than a block.
func TestWriteCSVBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var series []Series
	for k, n := range []int{500, 37, 1200, 0} {
		s := Series{Name: fmt.Sprint("s", k)}
		tm := t0
		for range n {
			if rng.IntN(4) > 0 { // else a repeated time
				tm += int64(rng.IntN(3)) * 1e6
			}
			s.T = append(s.T, tm)
			s.V = append(s.V, rng.NormFloat64())
		}
		series = append(series, s)
	}
	// A run of 40 samples at one time.
	run := Series{Name: "run"}
	for i := range 40 {
		run.T = append(run.T, t0+5e6)
		run.V = append(run.V, float64(i))
	}
	series = append(series, run)
	w := Window{t0 + 1e6, t0 + 900e6}

	write := func(rows int) string {
		defer func(old int) { csvBlockRows = old }(csvBlockRows)
		csvBlockRows = rows
		var buf bytes.Buffer
		if err := WriteCSV(&buf, series, w, CSVOptions{Origin: t0}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	want := write(1 << 30)
	if n := strings.Count(want, "\n"); n < 1000 {
		t.Fatalf("only %d rows; the test needs many", n)
	}
	for _, rows := range []int{1, 2, 3, 7, 16, 64, 1000} {
		if got := write(rows); got != want {
			t.Errorf("blocks of %d rows: output differs from one block", rows)
		}
	}
	var buf bytes.Buffer
	if got := streamCSV(t, &buf, series, w, CSVOptions{Origin: t0}); got != want {
		t.Errorf("the stream's output differs from WriteCSV's")
	}
	// A time before one written is refused, not written out of order.
	c := NewCSVStream(&buf, []string{"a"}, CSVOptions{})
	if c.Add(0, 5, 1) != nil || c.Add(0, 4, 1) != ErrCSVOrder {
		t.Errorf("a time going back was taken")
	}
}

func TestAppendNanos(t *testing.T) {
	for _, ns := range []int64{0, 1, 9, 10, 99, 100, 123456789, 999999999, 1e9, 1e9 + 1, 1700000000_000000042, -1, -1e9 - 5, math.MaxInt64, math.MinInt64} {
		want := fmt.Sprintf("%d.%09d", ns/1e9, abs64(ns%1e9))
		if ns < 0 && ns > -1e9 {
			want = "-" + want
		}
		if ns == math.MinInt64 {
			want = "-9223372036.854775808"
		}
		if got := string(appendNanos(nil, ns)); got != want {
			t.Errorf("appendNanos(%d) = %q, want %q", ns, got, want)
		}
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
