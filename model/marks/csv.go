package marks

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/bagscope/bagscope/bag"
)

// WriteBookmarksCSV writes bookmarks as CSV (RFC 4180): name, note, topic,
// log_time (seconds since the epoch, nine decimals), log_time_ns, seconds
// (from start), created (RFC 3339).
func WriteBookmarksCSV(w io.Writer, list []Bookmark, start bag.Time) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"name", "note", "topic", "log_time", "log_time_ns", "seconds", "created"})
	for _, b := range list {
		cw.Write([]string{b.Name, b.Note, b.Topic, b.Time.String(), strconv.FormatInt(b.Time.Nanos(), 10),
			secondsFrom(b.Time, start), b.Created.UTC().Format(time.RFC3339)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteEventsCSV writes events as CSV: topic, label, start and end
// (seconds since the epoch and nanoseconds), seconds (of the start, from
// the recording's start), log_time_ns, then the metadata as key=value
// pairs joined with "; ".
func WriteEventsCSV(w io.Writer, events []Event, start bag.Time) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"topic", "label", "start", "start_ns", "end", "end_ns", "seconds", "log_time_ns", "metadata"})
	for _, e := range events {
		md := ""
		for i, kv := range e.Metadata {
			if i > 0 {
				md += "; "
			}
			md += kv[0] + "=" + kv[1]
		}
		cw.Write([]string{e.Topic, e.Label, e.Start.String(), strconv.FormatInt(e.Start.Nanos(), 10), e.End.String(),
			strconv.FormatInt(e.End.Nanos(), 10), secondsFrom(e.Start, start), strconv.FormatInt(e.Time.Nanos(), 10), md})
	}
	cw.Flush()
	return cw.Error()
}

func secondsFrom(t, start bag.Time) string {
	return strconv.FormatFloat(float64(t.Nanos()-start.Nanos())/1e9, 'f', 9, 64)
}
