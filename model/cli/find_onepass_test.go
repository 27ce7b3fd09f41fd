package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/model"
)

// TestFindInOnePassSaysTheSame: find searches in the doctor's pass where it
// can (one read of the file). On intact and damaged copies of a recording,
// its hits, its loss report and its exit status must be those of a search
// that reads the messages and runs the doctor after (as find did before).
func TestFindInOnePassSaysTheSame(t *testing.T) {
	dir := t.TempDir()
	src, err := model.OpenStorage("../../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, err = mcap.Write(&buf, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 4096})
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	intact := buf.Bytes()
	w, err := bag.OpenFile(writeTemp(t, dir, "probe.mcap", intact))
	if err != nil {
		t.Fatal(err)
	}
	blocks := w.Blocks()
	w.Close()
	if len(blocks) < 3 {
		t.Fatalf("%d chunks: too few", len(blocks))
	}
	damage := map[string]func(d []byte) []byte{
		"intact": func(d []byte) []byte { return d },
		// Inside a chunk: the read meets it.
		"chunk": func(d []byte) []byte {
			b := blocks[1]
			for i := b.Offset + b.Len*9/10; i < b.Offset+b.Len*9/10+64; i++ {
				d[i] = 0xff
			}
			return d
		},
		// A message index entry that points mid-record: only the doctor
		// sees it.
		"message index": func(d []byte) []byte {
			d[blocks[0].Offset+blocks[0].Len+1+8+2+4+8]++
			return d
		},
		// The end cut off: opening scans the file.
		"cut": func(d []byte) []byte { return d[:len(d)-50] },
	}
	for name, apply := range damage {
		path := writeTemp(t, dir, strings.ReplaceAll(name, " ", "_")+".mcap", apply(bytes.Clone(intact)))
		for _, c := range []struct {
			expr string
			f    bag.MessageFilter
		}{
			{"@t >= 0", bag.MessageFilter{}},
			{"@t >= 0", bag.MessageFilter{Start: blocks[1].Start, End: blocks[2].End}},
		} {
			t.Run(name, func(t *testing.T) {
				say := func(onePass bool, spill int) (string, string, int) {
					b, err := model.OpenStorage(path)
					if err != nil {
						t.Fatal(err)
					}
					defer b.Close()
					var out, errb bytes.Buffer
					code := 0
					if err := runFind(b, path, c.expr, c.f, "text", 0, spill, onePass, &out, &errb); err != nil {
						var st exitStatus
						if !errors.As(err, &st) {
							t.Fatal(err)
						}
						code = int(st)
					}
					return out.String(), errb.String(), code
				}
				out, errs, code := say(true, findSpill)
				wantOut, wantErrs, wantCode := say(false, findSpill)
				// Hits too many to hold are printed from a time-ordered
				// read after the pass: the same.
				if out, errs, code := say(true, 1); out != wantOut || errs != wantErrs || code != wantCode {
					t.Errorf("spilled: exit %d, stderr:\n%s\nhits:\n%s\nwant exit %d:\n%s\nhits:\n%s", code, errs, head(out), wantCode, wantErrs, head(wantOut))
				}
				if out != wantOut {
					t.Errorf("hits differ from a read and a doctor after it:\n%s\nwant\n%s", head(out), head(wantOut))
				}
				if errs != wantErrs || code != wantCode {
					t.Errorf("exit %d, stderr:\n%s\nwant exit %d:\n%s", code, errs, wantCode, wantErrs)
				}
				if out == "" {
					t.Error("no hits")
				}
				if (name == "chunk") != (code == ExitProblems) {
					t.Errorf("exit %d:\n%s", code, errs)
				}
				// Only the intact file is searched in the doctor's pass:
				// the doctor finds the others damaged.
				b, err := model.OpenStorage(path)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				rep, err := b.Check(bag.WithQuickCheck(context.Background()), nil)
				if err != nil {
					t.Fatal(err)
				}
				if errs := rep.Errors(); (name == "intact") != (errs == 0) {
					t.Errorf("the doctor finds %d errors", errs)
				}
			})
		}
	}
}

func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// head is the first lines of s.
func head(s string) string {
	lines := strings.SplitN(s, "\n", 11)
	return strings.Join(lines[:min(len(lines), 10)], "\n")
}

// TestFindSpilledSaysTheSame: a search that finds more hits than find
// holds (query.Options.Spill) prints them from a second, time-ordered read
// as they come. In every output form, what it prints must be what find
// prints holding them all and sorting them; with --max-hits, the first of
// those.
func TestFindSpilledSaysTheSame(t *testing.T) {
	for _, c := range []struct{ file, expr string }{
		{testdata + "/robot.bag", "@t >= 0"},
		{testdata + "/robot.bag", `/rosout.level >= WARN && msg ~ "slip|lost"`},
		{testdata + "/ros2-mixed.mcap", "@t >= 0"},
		{testdata + "/ros2-mixed.mcap", "/odom.twist.twist.linear.x > 0.509"},
		{testdata + "/tf.bag", `any(transforms[*].transform.translation.x > 0.5)`},
		{testdata + "/tf.bag", `count(transforms[*].transform.translation.x > -1e9) > 1`},
	} {
		for _, mode := range []string{"text", "json", "csv"} {
			t.Run(filepath.Base(c.file)+" "+mode+" "+c.expr, func(t *testing.T) {
				say := func(limit, spill int) (string, string, int) {
					b, err := model.OpenStorage(c.file)
					if err != nil {
						t.Fatal(err)
					}
					defer b.Close()
					var out, errb bytes.Buffer
					code := 0
					if err := runFind(b, c.file, c.expr, bag.MessageFilter{}, mode, limit, spill, true, &out, &errb); err != nil {
						var st exitStatus
						if !errors.As(err, &st) {
							t.Fatal(err)
						}
						code = int(st)
					}
					return out.String(), errb.String(), code
				}
				wantOut, wantErrs, wantCode := say(0, 0)
				hits := strings.Count(wantOut, "\n")
				if mode == "csv" {
					hits--
				}
				if hits < 3 {
					t.Fatalf("%d hits: too few to spill", hits)
				}
				out, errs, code := say(0, 2)
				if out != wantOut || errs != wantErrs || code != wantCode {
					t.Errorf("spilled: exit %d, stderr:\n%s\nout:\n%s\nwant exit %d:\n%s\nout:\n%s", code, errs, head(out), wantCode, wantErrs, head(wantOut))
				}
				if mode != "text" {
					return
				}
				// The first 2 hits of the time order, the rest counted.
				out, errs, _ = say(2, 2)
				lines := strings.SplitAfter(wantOut, "\n")
				if want := lines[0] + lines[1]; out != want {
					t.Errorf("--max-hits 2, spilled:\n%s\nwant\n%s", out, want)
				}
				if want := fmt.Sprintf("%d more hits not printed", hits-2); !strings.Contains(errs, want) {
					t.Errorf("--max-hits 2, spilled: stderr does not say %q:\n%s", want, errs)
				}
			})
		}
	}
}
