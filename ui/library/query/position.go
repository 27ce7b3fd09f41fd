package query

import (
	"strconv"
	"strings"
)

// errorAt finds where in q DuckDB's message msg points: its "LINE n: …"
// line shows the query's line n (cut to a window around the position,
// with "..." where cut) and the next line a caret under the position.
// It returns the 0-based row and column in q, or ok false.
func errorAt(q, msg string) (row, col int, ok bool) {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		rest, found := strings.CutPrefix(l, "LINE ")
		if !found || i+1 >= len(lines) {
			continue
		}
		num, snippet, found := strings.Cut(rest, ": ")
		n, err := strconv.Atoi(num)
		caret := strings.IndexByte(lines[i+1], '^')
		prefix := len(l) - len(snippet)
		if !found || err != nil || caret < prefix {
			continue
		}
		qlines := strings.Split(q, "\n")
		if n < 1 || n > len(qlines) {
			return 0, 0, false
		}
		at := caret - prefix // byte offset in the snippet
		snippet = strings.TrimSuffix(snippet, "...")
		if cut, found := strings.CutPrefix(snippet, "..."); found {
			snippet, at = cut, at-3
		}
		k := strings.Index(qlines[n-1], snippet)
		if k < 0 || at < 0 {
			return 0, 0, false
		}
		return n - 1, len([]rune(qlines[n-1][:min(k+at, len(qlines[n-1]))])), true
	}
	return 0, 0, false
}
