package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeDuckDBQueries runs the README's export into a lake and its
// DuckDB queries over that lake in DuckDB itself (@duckdb/node-api through
// testdata/oracle/duckdb_query.mjs), and compares what the export prints
// and every query's rows with the README's text (a "# a | b" line after
// each query). The README example test cannot run them: the lake does not
// exist until the export writes it, and duckdb is not a bagscope command.
func TestReadmeDuckDBQueries(t *testing.T) {
	requireNodeOracles(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	lake := filepath.Join(t.TempDir(), "lake") + "/"

	// The export, with its output.
	const exportCmd = "$ bagscope export "
	at := strings.Index(text, exportCmd)
	if at < 0 {
		t.Fatal("the README has no export example")
	}
	lines := strings.Split(text[at:], "\n")
	args := shellWords(strings.TrimPrefix(lines[0], "$ bagscope "))
	for k, a := range args {
		switch {
		case a == "lake/":
			args[k] = lake
		case strings.HasPrefix(a, "testdata/"):
			args[k] = filepath.Join("../..", a)
		}
	}
	var want []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, "$ ") || strings.HasPrefix(l, "```") {
			break
		}
		want = append(want, l)
	}
	out, stderr, code := run(args...)
	if code != 0 {
		t.Fatalf("%q: exit %d: %s", args, code, stderr)
	}
	got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(out, lake, "lake/"), "\n"), "\n")
	if !matchLines(got, want) {
		t.Errorf("the README's export prints:\n%s\nthe README says:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The queries: `duckdb -c "SQL"` (over lines), then "# row".
	queries := 0
	for _, block := range strings.Split(text, "```sh\n")[1:] {
		block = block[:strings.Index(block, "```")]
		for len(block) > 0 {
			i := strings.Index(block, `duckdb -c "`)
			if i < 0 {
				break
			}
			rest := block[i+len(`duckdb -c "`):]
			end := closingQuote(rest)
			if end < 0 {
				t.Fatalf("unterminated query in %q", rest)
			}
			sql := strings.ReplaceAll(rest[:end], `\"`, `"`)
			rest = rest[end+1:]
			var rows []string
			for _, l := range strings.Split(rest, "\n")[1:] {
				r, ok := strings.CutPrefix(l, "# ")
				if !ok {
					break
				}
				rows = append(rows, r)
			}
			block = rest
			if !strings.Contains(sql, "lake/") {
				continue // a query over another folder
			}
			queries++
			res, stderr, code, err := nodeOracle("duckdb_query.mjs", strings.ReplaceAll(sql, "lake/", lake))
			if err != nil || code != 0 {
				t.Fatalf("DuckDB: %v %d %s\n%s", err, code, stderr, sql)
			}
			gotRows := duckRows(t, res)
			if strings.Join(gotRows, "\n") != strings.Join(rows, "\n") {
				t.Errorf("DuckDB gives:\n%s\nthe README says:\n%s\nfor %s", strings.Join(gotRows, "\n"), strings.Join(rows, "\n"), sql)
			}
		}
	}
	if queries < 2 {
		t.Errorf("only %d README DuckDB queries over the lake", queries)
	}
}

// closingQuote is the index of the first '"' in s not escaped by '\'.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// duckRows formats duckdb_query.mjs's rows as the duckdb shell's list mode
// does ("a | b"), in column order.
func duckRows(t *testing.T, out string) []string {
	t.Helper()
	var rows []string
	var cols []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		if strings.HasPrefix(line, `{"columns"`) {
			var c struct{ Columns [][2]string }
			if err := d.Decode(&c); err != nil {
				t.Fatal(err)
			}
			cols = cols[:0]
			for _, x := range c.Columns {
				cols = append(cols, x[0])
			}
			continue
		}
		var m map[string]any
		if err := d.Decode(&m); err != nil {
			t.Fatal(err)
		}
		var vals []string
		for _, c := range cols {
			vals = append(vals, fmt.Sprint(m[c]))
		}
		rows = append(rows, strings.Join(vals, " | "))
	}
	return rows
}
