package oracletest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// JSONLines parses out, one JSON object a line as the oracles and
// `bagscope ... --json` print them, with exact numbers (json.Number:
// nanosecond times and 64-bit integers are beyond a float64's). Blank
// lines are passed over.
func JSONLines(out []byte) ([]map[string]any, error) {
	var lines []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<28)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			return lines, fmt.Errorf("line %d is not a JSON object: %v: %.200s", n, err, sc.Text())
		}
		lines = append(lines, m)
	}
	return lines, sc.Err()
}

// MustJSONLines is JSONLines, failing t (with what printed out) on a line
// that is not a JSON object.
func MustJSONLines(t testing.TB, what string, out []byte) []map[string]any {
	t.Helper()
	lines, err := JSONLines(out)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return lines
}
