package uitest

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/bagscope/bagscope/model/sqlhelper"
)

// SQLRows runs `bagscope sql --json [--catalog catalog] -- q` with the
// helper bin (bagscope-sql, as the command runs it) and returns its
// columns and rows as the query box's table cells: strings as they are,
// NULL, other values as compact JSON.
func SQLRows(t testing.TB, bin, catalog, q string) (cols []string, rows [][]sqlhelper.Cell) {
	t.Helper()
	args := []string{"--json"}
	if catalog != "" {
		args = append(args, "--catalog", catalog)
	}
	out, err := exec.Command(bin, append(args, "--", q)...).Output()
	if err != nil {
		t.Fatalf("bagscope sql --json %q: %v", q, err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.Token() // {
		var names []string
		var row []sqlhelper.Cell
		for dec.More() {
			k, _ := dec.Token()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			names = append(names, k.(string))
			var s string
			switch {
			case string(raw) == "null":
				row = append(row, sqlhelper.Cell{Text: "NULL", Null: true})
			case json.Unmarshal(raw, &s) == nil:
				row = append(row, sqlhelper.Cell{Text: s})
			default:
				var b bytes.Buffer
				json.Compact(&b, raw)
				row = append(row, sqlhelper.Cell{Text: b.String()})
			}
		}
		cols = names
		rows = append(rows, row)
	}
	return cols, rows
}
