// Package sqlhelper runs bagscope-sql, the binary that links DuckDB, for
// the programs that must not link it: the headless front (`bagscope sql`)
// and the window (its library's query box). Both find the helper the same
// way (Find) and run the same queries; the window reads its rows in a
// typed form (the helper's --rows), keeps the first few and counts the
// rest, and cancels by killing the helper.
package sqlhelper

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Name is the helper's file name.
const Name = "bagscope-sql"

// Find returns the path of bagscope-sql: the one $BAGSCOPE_SQL names,
// beside this executable (as make build leaves it), or in
// ../libexec/bagscope (as make install puts it). The error says how to
// get it.
func Find() (string, error) {
	if p := os.Getenv("BAGSCOPE_SQL"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$BAGSCOPE_SQL: %w", err)
		}
		return p, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(self); err == nil {
		self = p
	}
	dir := filepath.Dir(self)
	tried := []string{filepath.Join(dir, Name), filepath.Join(dir, "..", "libexec", "bagscope", Name)}
	for _, p := range tried {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("not found at %s or %s (run `make build`, or go build -o %s ./model/cli/bagscope-sql)", tried[0], tried[1], Name)
}

// Request is one query.
type Request struct {
	// Query is the SQL.
	Query string
	// Catalog is the catalogue folder whose tables are recordings and
	// topics ("" for none).
	Catalog string
	// AllowRemoteScan lets messages() read a remote recording without an
	// index whole.
	AllowRemoteScan bool
	// Limit is how many rows Run keeps (the rest are counted); 0 keeps
	// them all.
	Limit int
	// Started, when set, hears the helper's process id once it runs.
	Started func(pid int)
}

func (r Request) args(format string) []string {
	argv := []string{format}
	if r.Catalog != "" {
		argv = append(argv, "--catalog", r.Catalog)
	}
	if r.AllowRemoteScan {
		argv = append(argv, "--allow-remote-scan")
	}
	return append(argv, "--", r.Query)
}

// Cell is one value of a result.
type Cell struct {
	// Text is the value as bagscope sql --csv prints it: strings as they
	// are, numbers as JSON writes them, lists and structs as JSON.
	Text string
	// Null is SQL's NULL.
	Null bool
}

// Result is what a query returned.
type Result struct {
	// Columns and Types (DuckDB's type names) of the result.
	Columns, Types []string
	// Rows are the first Limit rows.
	Rows [][]Cell
	// Total counts every row.
	Total int
	// Lost says what the recordings read for messages() lost (the rows
	// are those that could be read).
	Lost []string
	// Took is how long the helper ran.
	Took time.Duration
}

// Numeric reports whether column i holds numbers.
func (r *Result) Numeric(i int) bool {
	if i < 0 || i >= len(r.Types) {
		return false
	}
	t := r.Types[i]
	switch t {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "REAL":
		return true
	}
	return strings.HasPrefix(t, "DECIMAL")
}

// Column returns the index of the column named name (-1: none).
func (r *Result) Column(name string) int {
	for i, c := range r.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Less orders cells of column col: by value for numbers, by text
// otherwise; NULL after every value.
func (r *Result) Less(col int, a, b Cell) bool {
	if a.Null || b.Null {
		return !a.Null && b.Null
	}
	if r.Numeric(col) {
		x, errx := strconv.ParseFloat(a.Text, 64)
		y, erry := strconv.ParseFloat(b.Text, 64)
		if errx == nil && erry == nil && x != y {
			return x < y
		}
	}
	return a.Text < b.Text
}

// QueryError is the helper's refusal of a query: DuckDB's message (with
// its LINE and caret under the position, when DuckDB gives one), or a
// messages() call naming what it could not read.
type QueryError struct{ Message string }

func (e *QueryError) Error() string { return e.Message }

// Run runs req in the helper at bin and reads its result; progress, when
// set, hears the rows read so far. Cancelling ctx kills the helper (and
// Run returns ctx's error once it has exited). The helper's temporary
// files (messages() exports) go to a folder of Run's, removed after it
// exits, also when it was killed.
func Run(ctx context.Context, bin string, req Request, progress func(rows int)) (*Result, error) {
	res := &Result{}
	took, err := run(ctx, bin, req.args("--rows"), req.Started, func(out io.Reader) error {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		first := true
		for sc.Scan() {
			line := sc.Bytes()
			if first {
				first = false
				var head struct{ Columns, Types []string }
				if err := json.Unmarshal(line, &head); err != nil {
					return fmt.Errorf("%s printed %.80q, not its columns: %w", Name, line, err)
				}
				res.Columns, res.Types = head.Columns, head.Types
				continue
			}
			res.Total++
			if req.Limit <= 0 || len(res.Rows) < req.Limit {
				row, err := cells(line)
				if err != nil {
					return err
				}
				res.Rows = append(res.Rows, row)
			}
			if progress != nil {
				progress(res.Total)
			}
		}
		if errors.Is(sc.Err(), bufio.ErrTooLong) {
			return fmt.Errorf("a row of the result is over 64 MiB as JSON: select fewer columns")
		}
		return sc.Err()
	})
	res.Took = took
	var lost *lostError
	switch {
	case errors.As(err, &lost):
		res.Lost = lost.lines
	case err != nil:
		return nil, err
	}
	return res, nil
}

// ExportCSV runs req in the helper at bin and writes every row of its
// result to w as `bagscope sql --csv` does (a header line, NULL as NULL).
func ExportCSV(ctx context.Context, bin string, req Request, w io.Writer) (lost []string, err error) {
	_, err = run(ctx, bin, req.args("--csv"), req.Started, func(out io.Reader) error {
		_, err := io.Copy(w, out)
		return err
	})
	var le *lostError
	if errors.As(err, &le) {
		return le.lines, nil
	}
	return nil, err
}

// lostError is the helper's exit 1: the result is there, and part of a
// recording could not be read.
type lostError struct{ lines []string }

func (e *lostError) Error() string { return strings.Join(e.lines, "; ") }

// run starts the helper with argv, hands its stdout to read, and says how
// its run ended. Its stdout is a pipe, so that a killed helper leaves
// nothing reading on: Wait returns once it has exited.
func run(ctx context.Context, bin string, argv []string, started func(int), read func(io.Reader) error) (time.Duration, error) {
	tmp, err := os.MkdirTemp("", "bagscope-query-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, bin, argv...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var stderr limited
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("starting %s: %w", bin, err)
	}
	if started != nil {
		started(cmd.Process.Pid)
	}
	rerr := read(out)
	if rerr != nil {
		cmd.Process.Kill()
	}
	io.Copy(io.Discard, out)
	werr := cmd.Wait()
	took := time.Since(start)
	if ctx.Err() != nil {
		return took, ctx.Err()
	}
	if rerr != nil {
		return took, rerr
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		msg := strings.TrimSpace(stderr.String())
		switch ee.ExitCode() {
		case 1:
			var lines []string
			for _, l := range strings.Split(msg, "\n") {
				if l = strings.TrimPrefix(l, "bagscope: "); l != "" {
					lines = append(lines, l)
				}
			}
			return took, &lostError{lines}
		case 2:
			return took, &QueryError{strings.TrimPrefix(msg, "bagscope: sql: ")}
		}
		if msg == "" {
			msg = werr.Error()
		}
		return took, fmt.Errorf("%s: %s", Name, msg)
	}
	return took, werr
}

// cells decodes one row (a JSON array).
func cells(line []byte) ([]Cell, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		return nil, fmt.Errorf("%s printed a row that is no JSON array: %w", Name, err)
	}
	row := make([]Cell, len(raw))
	for i, r := range raw {
		r = bytes.TrimSpace(r)
		switch {
		case string(r) == "null":
			row[i] = Cell{Text: "NULL", Null: true}
		case len(r) > 0 && r[0] == '"':
			var s string
			if err := json.Unmarshal(r, &s); err != nil {
				return nil, err
			}
			row[i] = Cell{Text: s}
		default:
			row[i] = Cell{Text: string(r)}
		}
	}
	return row, nil
}

// limited keeps the first 64 KiB written to it (the helper's stderr).
type limited struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *limited) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := 64<<10 - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (l *limited) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Quote is s as an SQL string literal.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
