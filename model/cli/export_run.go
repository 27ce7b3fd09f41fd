//go:build !bagscope_front || bagscope_tables

package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/export"
)

// exportJSON is export's --json object.
type exportJSON struct {
	// Path is the recording, Output the folder written.
	Path     string            `json:"path"`
	Output   string            `json:"output"`
	Format   string            `json:"format"`
	Messages int64             `json:"messages"`
	Tables   []exportTableJSON `json:"tables"`
	Skipped  []exportSkipJSON  `json:"skipped"`
	Lost     lossJSON          `json:"lost"`
	// OK is true when every selected message has its row; Verdict is
	// "ok", "problems" (exit 1) or "failed" (nothing written).
	OK      bool   `json:"ok"`
	Verdict string `json:"verdict"`
	// Error is why nothing could be written.
	Error string `json:"error,omitempty"`
}

// exportTableJSON is one table written.
type exportTableJSON struct {
	Path    string `json:"path"`
	Topic   string `json:"topic"`
	Type    string `json:"type"`
	Rows    int64  `json:"rows"`
	Columns int    `json:"columns"`
	// Failed counts the messages that do not decode: they have no row.
	Failed int64 `json:"failed"`
}

// exportSkipJSON is a topic not exported, and why.
type exportSkipJSON struct {
	Topic string `json:"topic"`
	Type  string `json:"type"`
	Why   string `json:"why"`
}

// runExport writes the tables (model/export, which links parquet-go); the
// front hands export to the full binary instead (tables_front.go).
func runExport(b bag.Storage, in, dir string, req exportRequest, asJSON bool, stdout, stderr io.Writer) error {
	j, code, err := exportOne(b, in, dir, req, !asJSON, stdout, stderr)
	if err != nil {
		return err
	}
	if asJSON {
		writeJSON(stdout, j)
	}
	return status(code)
}

// exportOne writes one recording's tables, lists them on stdout when list
// (else only in the object returned) and its losses on stderr, and
// returns its --json object and exit status. The error is a usage mistake
// (a table that exists).
func exportOne(b bag.Storage, in, dir string, req exportRequest, list bool, stdout, stderr io.Writer) (exportJSON, int, error) {
	opt := export.Options{Format: req.format, Filter: req.filter, Hive: req.hive, Recording: req.recording, Force: req.force, Clock: req.clock}
	pl := newProgress(stderr, "exporting")
	opt.Progress = pl.update
	rep, err := export.Export(context.Background(), b, dir, opt)
	pl.end()
	if err != nil {
		if rep == nil && strings.Contains(err.Error(), "exists") {
			return exportJSON{}, ExitUsage, usagef("%v", err)
		}
		j := exportJSON{Path: in, Output: dir, Format: opt.Format, Tables: []exportTableJSON{},
			Skipped: []exportSkipJSON{}, Lost: noLoss(), Verdict: "failed", Error: err.Error()}
		return j, fail(stderr, in, err), nil
	}
	j := exportJSON{Path: in, Output: dir, Format: opt.Format, Messages: rep.Messages, Tables: []exportTableJSON{}, Skipped: []exportSkipJSON{}}
	for _, t := range rep.Tables {
		if !list {
			j.Tables = append(j.Tables, exportTableJSON{t.Path, t.Topic, t.Type, t.Rows, t.Columns, t.Failed})
			continue
		}
		fmt.Fprintf(stdout, "%s  %d rows, %d columns  (%s, %s)\n", t.Path, t.Rows, t.Columns, t.Topic, t.Type)
	}
	code := ExitOK
	for _, s := range rep.Skipped {
		j.Skipped = append(j.Skipped, exportSkipJSON{s.Topic, s.Type, s.Err.Error()})
		fmt.Fprintf(stderr, "bagscope: %s: not exported: %s (%s): %v\n", in, s.Topic, s.Type, s.Err)
	}
	for _, t := range rep.Tables {
		if t.Failed > 0 {
			fmt.Fprintf(stderr, "bagscope: %s: %s: %d messages do not decode as %s: they have no row\n", in, t.Topic, t.Failed, t.Type)
			code = ExitProblems
		}
	}
	l := rangesLoss(b, rep.Lost, true)
	l.print(stderr, in)
	if l.any() {
		code = ExitProblems
	}
	j.Lost, j.OK, j.Verdict = l.json(), code == ExitOK, "ok"
	if code != ExitOK {
		j.Verdict = "problems"
	}
	return j, code, nil
}
