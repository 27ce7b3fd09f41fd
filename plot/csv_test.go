package plot

import (
	"bytes"
	"math"
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
		})
	}
}
