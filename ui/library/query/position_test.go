package query

import (
	"os/exec"
	"strings"
	"testing"
)

// TestErrorAt: the position DuckDB's message points at, found in the
// query, for errors on the first and a later line, and on a long line
// DuckDB cuts around the position; the messages are DuckDB's own.
func TestErrorAt(t *testing.T) {
	bin := sqlHelper.Build(t)
	long := "SELECT " + strings.Repeat("1 + ", 60) + "nope FROM range(3)"
	tests := []struct {
		q        string
		row, col int // where the wrong word starts
	}{
		{"SELECT 1 FRM x", 0, 13},
		{"SELECT nope FROM range(3)", 0, 7},
		{"SELECT i\nFROM range(3) t(i)\nWHERE j > 1", 2, 6},
		{long, 0, strings.Index(long, "nope")},
	}
	for _, tc := range tests {
		out, _ := exec.Command(bin, "--", tc.q).CombinedOutput()
		msg := strings.TrimPrefix(strings.TrimSpace(string(out)), "bagscope: sql: ")
		row, col, ok := errorAt(tc.q, msg)
		if !ok || row != tc.row || col != tc.col {
			t.Errorf("%q: at %d:%d (%v), want %d:%d; DuckDB said\n%s", tc.q, row, col, ok, tc.row, tc.col, msg)
		}
	}
}
