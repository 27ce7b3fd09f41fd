package query

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
)

// WriteHitsCSV writes hits as CSV (RFC 4180): the columns topic,
// log_time (seconds since the epoch, nine decimals), log_time_ns,
// seconds (from start), publish_time_ns, then one column per value name,
// in the order the names first appear (a hit without a value has an
// empty cell). Numbers are written exactly, strings as they are.
func WriteHitsCSV(w io.Writer, hits []Hit, start bag.Time) error {
	var names []string
	seen := map[string]bool{}
	for _, h := range hits {
		for _, v := range h.Values {
			if !seen[v.Name] {
				seen[v.Name] = true
				names = append(names, v.Name)
			}
		}
	}
	hw, err := NewHitsCSV(w, names, start)
	if err != nil {
		return err
	}
	for i := range hits {
		if err := hw.Write(&hits[i]); err != nil {
			return err
		}
	}
	return hw.Flush()
}

// HitsCSV writes hits one at a time as WriteHitsCSV does, with the value
// columns named beforehand (Result.Names, for hits too many to hold).
type HitsCSV struct {
	cw    *csv.Writer
	col   map[string]int
	row   []string
	start bag.Time
}

// NewHitsCSV writes the header of a table of hits with a column per name
// and returns the writer of its rows.
func NewHitsCSV(w io.Writer, names []string, start bag.Time) (*HitsCSV, error) {
	hw := &HitsCSV{cw: csv.NewWriter(w), col: make(map[string]int, len(names)), start: start}
	for i, n := range names {
		hw.col[n] = i
	}
	header := append([]string{"topic", "log_time", "log_time_ns", "seconds", "publish_time_ns"}, names...)
	hw.row = make([]string, len(header))
	return hw, hw.cw.Write(header)
}

// Write writes one hit's row; a value whose name has no column is left
// out.
func (hw *HitsCSV) Write(h *Hit) error {
	row := hw.row
	row[0] = h.Topic
	row[1] = h.Time.String()
	row[2] = strconv.FormatInt(h.Time.Nanos(), 10)
	row[3] = fmt.Sprintf("%.9f", float64(h.Time.Nanos()-hw.start.Nanos())/1e9)
	row[4] = strconv.FormatInt(h.Publish.Nanos(), 10)
	for i := 5; i < len(row); i++ {
		row[i] = ""
	}
	for _, v := range h.Values {
		if i, ok := hw.col[v.Name]; ok {
			row[5+i] = ValueCell(v)
		}
	}
	return hw.cw.Write(row)
}

// Flush writes what is buffered and returns the first error met.
func (hw *HitsCSV) Flush() error {
	hw.cw.Flush()
	return hw.cw.Error()
}

// ValueCell writes a value for a CSV cell: numbers exactly, a time as
// seconds with nine decimals, a string as it is.
func ValueCell(v expr.Value) string {
	if v.Kind == expr.String {
		return v.Str
	}
	return v.String()
}
