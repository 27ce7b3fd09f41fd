package oracletest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestJSONLines parses lines as encoding/json does, numbers kept exact
// (an int64 beyond a float64's integers), blank lines passed over, and
// names the line that is not an object.
func TestJSONLines(t *testing.T) {
	for _, tc := range []struct {
		in      string
		n       int
		wantErr string
	}{
		{"{\"t\":9007199254740993}\n\n{\"a\":[1,2.5]}\n", 2, ""},
		{"{\"a\":1}\n[1]\n", 1, "line 2 is not a JSON object"},
		{"{\"a\":1}\n{\"b\":\n", 1, "line 2 is not a JSON object"},
		{"", 0, ""},
	} {
		got, err := JSONLines([]byte(tc.in))
		if len(got) != tc.n || (err == nil) != (tc.wantErr == "") || err != nil && !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%q: %d lines, %v; want %d, %q", tc.in, len(got), err, tc.n, tc.wantErr)
		}
		if tc.n > 0 && tc.wantErr == "" {
			if n, ok := got[0]["t"].(json.Number); ok && n.String() != "9007199254740993" {
				t.Errorf("%q: t is %s, not exact", tc.in, n)
			}
		}
	}
}
