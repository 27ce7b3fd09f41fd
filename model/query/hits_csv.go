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
	cw := csv.NewWriter(w)
	var names []string
	col := map[string]int{}
	for _, h := range hits {
		for _, v := range h.Values {
			if _, ok := col[v.Name]; !ok {
				col[v.Name] = len(names)
				names = append(names, v.Name)
			}
		}
	}
	header := append([]string{"topic", "log_time", "log_time_ns", "seconds", "publish_time_ns"}, names...)
	if err := cw.Write(header); err != nil {
		return err
	}
	row := make([]string, len(header))
	for _, h := range hits {
		row[0] = h.Topic
		row[1] = h.Time.String()
		row[2] = strconv.FormatInt(h.Time.Nanos(), 10)
		row[3] = fmt.Sprintf("%.9f", float64(h.Time.Nanos()-start.Nanos())/1e9)
		row[4] = strconv.FormatInt(h.Publish.Nanos(), 10)
		for i := 5; i < len(row); i++ {
			row[i] = ""
		}
		for _, v := range h.Values {
			row[5+col[v.Name]] = ValueCell(v)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ValueCell writes a value for a CSV cell: numbers exactly, a time as
// seconds with nine decimals, a string as it is.
func ValueCell(v expr.Value) string {
	if v.Kind == expr.String {
		return v.Str
	}
	return v.String()
}
