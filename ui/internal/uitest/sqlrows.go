package uitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
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

// SQLHelper is bagscope-sql (cgo: DuckDB) built once for a package's
// tests, as make build builds it: each build links DuckDB anew. The
// package's TestMain calls Remove.
type SQLHelper struct {
	once     sync.Once
	dir, bin string
	err      error
}

// Build builds bagscope-sql the first time it is called and points
// $BAGSCOPE_SQL at it, as the window finds it so, and returns its path.
// Without a C compiler t skips, unless CI is set (oracletest.SkipOrFail).
func (h *SQLHelper) Build(t testing.TB) string {
	t.Helper()
	h.once.Do(func() {
		if h.dir, h.err = os.MkdirTemp("", "bagscope-sql-test-"); h.err != nil {
			return
		}
		h.bin = filepath.Join(h.dir, sqlhelper.Name)
		src := filepath.Join(Root(t), "model", "cli", "bagscope-sql")
		if out, err := exec.Command("go", "build", "-o", h.bin, src).CombinedOutput(); err != nil {
			h.err = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if h.err != nil {
		oracletest.SkipOrFail(t, "building bagscope-sql (cgo): "+h.err.Error())
	}
	t.Setenv("BAGSCOPE_SQL", h.bin)
	return h.bin
}

// Remove removes what Build built.
func (h *SQLHelper) Remove() {
	if h.dir != "" {
		os.RemoveAll(h.dir)
	}
}
