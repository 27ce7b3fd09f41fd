package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The one style of every command's --json: one object on one line; byte
// offsets and counts as integers; times as timeJSON ({"secs", "nsecs",
// "ns"}); durations as seconds in JSON numbers; a value that is not a
// finite number as the strings "NaN", "Infinity" and "-Infinity" (as cat
// prints message fields); "ok" (and where a command has more outcomes,
// "verdict") says how it went, "lost" what could not be read (lossJSON),
// and "error" why the command could not do its work at all.

// writeJSON prints v as one JSON object on its line.
func writeJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// jsonFloat is a float64 in --json: a number in the shortest form that
// reads back exactly, or one of the strings "NaN", "Infinity" and
// "-Infinity".
type jsonFloat float64

// MarshalJSON writes f as a number or, when not finite, as a string.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return []byte(`"NaN"`), nil
	case math.IsInf(v, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Infinity"`), nil
	}
	return strconv.AppendFloat(nil, v, 'g', -1, 64), nil
}

// UnmarshalJSON reads a number or one of the strings MarshalJSON writes.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !math.IsNaN(v) && !math.IsInf(v, 0) {
			return fmt.Errorf("%s is not a number", b)
		}
		*f = jsonFloat(v)
		return nil
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*f = jsonFloat(v)
	return err
}

// topicCountJSON is a topic and how many of its messages a command wrote
// or read.
type topicCountJSON struct {
	Topic    string `json:"topic"`
	Messages uint64 `json:"messages"`
}
