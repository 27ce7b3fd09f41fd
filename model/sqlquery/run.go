// Package sqlquery runs SQL over recordings in embedded DuckDB: the
// catalogue's tables (recordings, topics; see model/catalog) and each
// recording's messages through messages('PATH', 'TOPIC'), the decoded,
// flattened rows of one topic with their time columns.
//
// messages() shares `bagscope export`'s flattening by being it: each call
// exports its topic (model/export, streamed with bounded memory) to
// Parquet once, and the query reads that Parquet with DuckDB's own reader,
// in parallel and typed as export writes it (int64 stays BIGINT, arrays
// are LISTs). The call's arguments are string literals.
//
// This package links DuckDB (cgo, ~70 MB): only the bagscope-sql binary
// imports it, which the headless front executes for `bagscope sql`, so
// the front's start-up and `info` do not carry it.
package sqlquery

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the database/sql driver "duckdb"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/model/export"
)

// Output formats.
const (
	Table = "table"
	JSON  = "json"
	CSV   = "csv"
	// Rows is for programs (the window's query box): a first line
	// {"columns": [...], "types": [...]} with DuckDB's type names, then
	// each row as a JSON array of values as JSON gives them.
	Rows = "rows"
)

// Options say how Run runs a query.
type Options struct {
	// Catalog is a catalogue's folder: its tables are the views
	// recordings and topics. "" for none.
	Catalog string
	// Format is Table, JSON (one object per row) or CSV.
	Format string
	// Open are the options recordings are opened with.
	Open bag.OpenOptions
}

// QueryError is an error of the query itself (DuckDB's), not of a
// recording.
type QueryError struct{ Err error }

func (e *QueryError) Error() string { return e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

// LostError says what the recordings read for messages() lost; the
// results were printed.
type LostError struct{ Lost []string }

func (e *LostError) Error() string { return strings.Join(e.Lost, "; ") }

// Run runs query and prints its result to w.
func Run(ctx context.Context, query string, o Options, w io.Writer) error {
	calls, err := FindCalls(query)
	if err != nil {
		return &QueryError{err}
	}
	tmp, err := os.MkdirTemp("", "bagscope-sql-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	type key struct{ path, topic string }
	tables := map[key][]string{}
	var lost []string
	for i, c := range calls {
		k := key{c.Path, c.Topic}
		if _, ok := tables[k]; ok {
			continue
		}
		paths, l, err := exportTopic(ctx, c.Path, c.Topic, filepath.Join(tmp, fmt.Sprint(i)), o.Open)
		if err != nil {
			return err
		}
		lost = append(lost, l...)
		tables[k] = paths
	}
	query = Rewrite(query, calls, func(c Call) string {
		var qs []string
		for _, p := range tables[key{c.Path, c.Topic}] {
			qs = append(qs, Quote(p))
		}
		return "read_parquet([" + strings.Join(qs, ", ") + "], union_by_name = true)"
	})

	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if o.Catalog != "" {
		for _, table := range []string{catalog.RecordingsTable, catalog.TopicsTable} {
			files, err := catalog.Files(o.Catalog, table)
			if err != nil || len(files) == 0 {
				return fmt.Errorf("%s: no catalogue here (no %s table; bagscope catalog -o %s writes one)", o.Catalog, table, o.Catalog)
			}
			glob := filepath.Join(o.Catalog, table, "*", table+".parquet")
			if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet(%s, hive_partitioning = true)", table, Quote(glob))); err != nil {
				return err
			}
		}
	}
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return &QueryError{err}
	}
	defer rows.Close()
	if err := print(rows, o.Format, w); err != nil {
		return err
	}
	if len(lost) > 0 {
		return &LostError{lost}
	}
	return nil
}

// exportTopic writes topic's messages of the recording at path as
// Parquet under dir (a table per type) and returns the tables' files and
// what could not be read.
func exportTopic(ctx context.Context, path, topic, dir string, o bag.OpenOptions) ([]string, []string, error) {
	o.Context = ctx
	s, err := model.OpenStorageWith(path, o)
	if err != nil {
		return nil, nil, fmt.Errorf("messages(%s, %s): %w", Quote(path), Quote(topic), err)
	}
	defer s.Close()
	found := false
	var topics []string
	for _, c := range s.Connections() {
		found = found || c.Topic == topic
		topics = append(topics, c.Topic)
	}
	if !found {
		slices.Sort(topics)
		return nil, nil, &QueryError{fmt.Errorf("messages(%s, %s): the recording has no topic %s (it has %s)", Quote(path), Quote(topic), topic, strings.Join(slices.Compact(topics), ", "))}
	}
	rep, err := export.Export(ctx, s, dir, export.Options{Format: export.Parquet, Filter: bag.MessageFilter{Topics: []string{topic}}})
	if err != nil {
		return nil, nil, fmt.Errorf("messages(%s, %s): %w", Quote(path), Quote(topic), err)
	}
	var files []string
	for _, t := range rep.Tables {
		files = append(files, t.Path)
	}
	for _, sk := range rep.Skipped {
		return nil, nil, fmt.Errorf("messages(%s, %s): %s: %v", Quote(path), Quote(topic), sk.Type, sk.Err)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("messages(%s, %s): no table written", Quote(path), Quote(topic))
	}
	var lost []string
	if rep.LostMessages > 0 || len(rep.Lost) > 0 {
		lost = append(lost, fmt.Sprintf("%s: %d messages of %s could not be read (bagscope check says where)", bag.Shown(path), rep.LostMessages, topic))
	}
	return files, lost, nil
}

// print writes the rows as a table, JSON lines or CSV.
func print(rows *sql.Rows, format string, w io.Writer) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var tw *tabwriter.Writer
	var cw *csv.Writer
	enc := json.NewEncoder(w)
	switch format {
	case JSON:
	case Rows:
		cts, err := rows.ColumnTypes()
		if err != nil {
			return err
		}
		types := make([]string, len(cts))
		for i, ct := range cts {
			types[i] = ct.DatabaseTypeName()
		}
		if err := enc.Encode(map[string][]string{"columns": cols, "types": types}); err != nil {
			return err
		}
	case CSV:
		cw = csv.NewWriter(w)
		cw.Write(cols)
	case Table, "":
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(cols, "\t"))
	default:
		return fmt.Errorf("output format %q: give table, json or csv", format)
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		n++
		switch {
		case cw != nil:
			rec := make([]string, len(vals))
			for i, v := range vals {
				rec[i] = text(v)
			}
			cw.Write(rec)
		case tw != nil:
			cells := make([]string, len(vals))
			for i, v := range vals {
				cells[i] = strings.ReplaceAll(text(v), "\t", " ")
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		case format == Rows:
			row := make([]any, len(vals))
			for i, v := range vals {
				row[i] = jsonValue(v)
			}
			if err := enc.Encode(row); err != nil {
				return err
			}
		default:
			obj := make(map[string]any, len(cols))
			for i, c := range cols {
				obj[c] = jsonValue(vals[i])
			}
			if err := enc.Encode(ordered{cols, obj}); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return &QueryError{err}
	}
	if cw != nil {
		cw.Flush()
		return cw.Error()
	}
	if tw != nil {
		fmt.Fprintf(tw, "(%d rows)\n", n)
		return tw.Flush()
	}
	return nil
}

// ordered is a row as a JSON object with its keys in column order.
type ordered struct {
	keys []string
	m    map[string]any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(o.m[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// jsonValue makes a DuckDB value JSON-ready: times as RFC 3339 with
// nanoseconds, big integers as numbers, blobs as base64 (encoding/json's
// []byte), non-finite floats as strings.
func jsonValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case float64:
		if x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308 {
			return fmt.Sprint(x)
		}
	case float32:
		return jsonValue(float64(x))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case *big.Int:
		return json.Number(x.String())
	case fmt.Stringer:
		return x.String()
	}
	return v
}

// text is a value as a table or CSV cell shows it.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		return fmt.Sprintf("%x", x)
	case string:
		return x
	}
	b, err := json.Marshal(jsonValue(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// IsQueryError reports whether err is the query's own.
func IsQueryError(err error) bool {
	var qe *QueryError
	return errors.As(err, &qe)
}
