package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

const testdata = "../../testdata"

// missing skips (fails in CI) when a reference tool is not installed.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: the reference tools are required in CI (make deps installs them)", msg)
	}
	t.Skipf("skipping: %s; run `make deps`. CI never skips this.", msg)
}

// jsonLines parses JSON lines with exact numbers.
func jsonLines(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	return oracletest.MustJSONLines(t, "JSON lines", out)
}

// result is what DuckDB returned for one statement.
type result struct {
	cols [][2]string
	rows []map[string]any
}

// duckdb runs SQL statements in DuckDB (testdata/oracle/duckdb_query.mjs),
// in one process, and returns each one's column types and rows.
func duckdb(t *testing.T, sql ...string) []result {
	t.Helper()
	oracletest.Require(t, "@duckdb/node-api")
	cmd := oracletest.Command("duckdb_query.mjs", sql...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("duckdb %s: %v\n%s", sql, err, errb.String())
	}
	var res []result
	for _, l := range jsonLines(t, out.Bytes()) {
		if cols, ok := l["columns"].([]any); ok && len(l) == 1 {
			var r result
			for _, c := range cols {
				p := c.([]any)
				r.cols = append(r.cols, [2]string{p[0].(string), p[1].(string)})
			}
			res = append(res, r)
			continue
		}
		res[len(res)-1].rows = append(res[len(res)-1].rows, l)
	}
	if len(res) != len(sql) {
		t.Fatalf("duckdb: %d results for %d statements", len(res), len(sql))
	}
	return res
}

// reference decodes every message of file with the reference reader
// (genpy for a ROS 1 bag, @mcap/core + @foxglove/rosmsg2-serialization for
// MCAP), by topic, in log time order.
func reference(t *testing.T, file string) map[string][]map[string]any {
	t.Helper()
	var cmd *exec.Cmd
	if strings.HasSuffix(file, ".bag") {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			missing(t, "/usr/bin/python3 with python3-rosbag is not installed")
		}
		cmd = exec.Command("/usr/bin/python3", testdata+"/genpy_dump.py", file)
	} else {
		oracletest.Require(t, "@mcap/core", "@foxglove/rosmsg2-serialization")
		cmd = oracletest.Command("mcap_cat.mjs", file)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, errb.String())
	}
	msgs := map[string][]map[string]any{}
	for _, l := range jsonLines(t, out.Bytes()) {
		topic := l["topic"].(string)
		msgs[topic] = append(msgs[topic], l)
	}
	return msgs
}

// flatten writes a reference message as the table's columns: nested
// objects joined with '.', arrays kept (their object elements flattened).
func flatten(prefix string, v any, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok {
		out[prefix] = flatValue(v)
		return
	}
	for k, x := range m {
		name := k
		if prefix != "" {
			name = prefix + "." + k
		}
		flatten(name, x, out)
	}
}

func flatValue(v any) any {
	l, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(l))
	for i, e := range l {
		if m, ok := e.(map[string]any); ok {
			f := map[string]any{}
			flatten("", m, f)
			out[i] = f
		} else {
			out[i] = e
		}
	}
	return out
}

// same compares a value DuckDB read with the reference's.
func same(got, want any) bool {
	switch w := want.(type) {
	case json.Number:
		switch g := got.(type) {
		case string: // an exact integer
			return g == w.String()
		case json.Number:
			gf, _ := g.Float64()
			wf, _ := w.Float64()
			return gf == wf
		}
	case string:
		if g, ok := got.(map[string]any); ok { // a BLOB against base64
			return g["base64"] == w
		}
		return got == w
	case bool:
		return got == w
	case []any:
		g, ok := got.([]any)
		if !ok {
			// An empty uint8[] reads as base64 "".
			return false
		}
		if len(g) != len(w) {
			return false
		}
		for i := range w {
			if !same(g[i], w[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		if _, ok := w["secs"]; ok && len(w) == 2 {
			return sameTime(g["secs"], g["nsecs"], w["secs"], w["nsecs"])
		}
		for k := range w {
			if !same(g[k], w[k]) {
				return false
			}
		}
		return true
	}
	return false
}

// sameTime compares a ROS 1 time or duration as stored (secs, nsecs) with
// genpy's, which folds nsecs into [0, 1e9): by their total nanoseconds.
func sameTime(secs, nsecs, wsecs, wnsecs any) bool {
	n := func(v any) (int64, bool) {
		switch x := v.(type) {
		case json.Number:
			i, err := x.Int64()
			return i, err == nil
		case string:
			i, err := strconv.ParseInt(x, 10, 64)
			return i, err == nil
		}
		return 0, false
	}
	a, ok1 := n(secs)
	b, ok2 := n(nsecs)
	c, ok3 := n(wsecs)
	d, ok4 := n(wnsecs)
	return ok1 && ok2 && ok3 && ok4 && a*1e9+b == c*1e9+d
}
