package ui

import (
	"bytes"
	"io"
	"testing"
)

// TestFindFlag opens a recording with --find: the Find bar shows with the
// expression in its entry, and its hits are `bagscope find --csv`'s.
func TestFindFlag(t *testing.T) {
	const path, expr = "../testdata/robot.bag", "level >= ERROR"
	o, _, ok := parseArgs([]string{"--find", expr, path}, io.Discard)
	if !ok || o.find != expr {
		t.Fatalf("parseArgs: find %q, ok %v", o.find, ok)
	}
	c := newTestController(t)
	c.find = o.find
	k := openKeysWindow(t, c, path)
	defer k.w.Close()
	bar := k.v.views.find
	if !bar.Shown() || bar.Running() {
		t.Fatalf("the bar shows %v, running %v", bar.Shown(), bar.Running())
	}
	if got := bar.EntryText(); got != expr {
		t.Errorf("the entry holds %q, want %q", got, expr)
	}
	var got bytes.Buffer
	if err := bar.WriteCSV(&got); err != nil {
		t.Fatal(err)
	}
	if want := findCommand(t, "--csv", path, expr); got.String() != want || len(bar.Hits()) == 0 {
		t.Errorf("%d hits; the CSV differs from find --csv:\n%s\nwant:\n%s", len(bar.Hits()), got.String(), want)
	}
}
