package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// TestFindInOnePassSaysTheSameROS1 is TestFindInOnePassSaysTheSame for ROS
// 1 bags, whose doctor hands the messages on too (bag.DoctorVisits): on
// intact and damaged copies, find's hits, loss report and exit status in
// the doctor's pass must be those of a read and a doctor after it, and the
// intact copies must be searched in the doctor's pass.
func TestFindInOnePassSaysTheSameROS1(t *testing.T) {
	dir := t.TempDir()
	for _, fixture := range []string{"none-multichunk.bag", "lz4-multichunk.bag", "robot.bag"} {
		intact, err := os.ReadFile(filepath.Join("../../testdata", fixture))
		if err != nil {
			t.Fatal(err)
		}
		w, err := bag.OpenFile(writeTemp(t, dir, "probe-"+fixture, intact))
		if err != nil {
			t.Fatal(err)
		}
		blocks := w.Blocks()
		w.Close()
		if len(blocks) < 2 {
			t.Fatalf("%s: %d chunks: too few", fixture, len(blocks))
		}
		damage := map[string]func(d []byte) []byte{
			"intact": func(d []byte) []byte { return d },
			// Inside a chunk's records.
			"chunk": func(d []byte) []byte {
				b := blocks[1]
				for i := b.Offset + b.Len/2; i < b.Offset+b.Len/2+64; i++ {
					d[i] = 0xff
				}
				return d
			},
			// The index after the chunks cut off: opening scans the file.
			"cut": func(d []byte) []byte { return d[:blocks[len(blocks)-1].Offset+blocks[len(blocks)-1].Len] },
		}
		for name, apply := range damage {
			path := writeTemp(t, dir, name+"-"+fixture, apply(bytes.Clone(intact)))
			// --json reads each hit's message again at its place: the
			// places the doctor's pass gives must be the read's.
			for _, c := range []struct{ expr, mode string }{{"@t >= 0", "text"}, {"@t >= 0 && @t < 10", "json"}} {
				expr := c.expr
				t.Run(fixture+"/"+name+"/"+c.mode+"/"+expr, func(t *testing.T) {
					say := func(onePass bool) (string, string, int) {
						b, err := model.OpenStorage(path)
						if err != nil {
							t.Fatal(err)
						}
						defer b.Close()
						var out, errb bytes.Buffer
						code := 0
						if err := runFind(b, path, expr, bag.MessageFilter{}, c.mode, 0, findSpill, onePass, &out, &errb); err != nil {
							var st exitStatus
							if !errors.As(err, &st) {
								t.Fatal(err)
							}
							code = int(st)
						}
						return out.String(), errb.String(), code
					}
					out, errs, code := say(true)
					wantOut, wantErrs, wantCode := say(false)
					if out != wantOut {
						t.Errorf("hits differ from a read and a doctor after it:\n%s\nwant\n%s", head(out), head(wantOut))
					}
					if errs != wantErrs || code != wantCode {
						t.Errorf("exit %d, stderr:\n%s\nwant exit %d:\n%s", code, errs, wantCode, wantErrs)
					}
					if name == "intact" && (out == "" || strings.Count(out, "\n") < 2) {
						t.Error("too few hits")
					}
					// The intact copy is searched in the doctor's pass:
					// it hands on every message it counts.
					b, err := model.OpenStorage(path)
					if err != nil {
						t.Fatal(err)
					}
					defer b.Close()
					var n atomic.Int64
					ctx := bag.WithMessageVisitor(bag.WithQuickCheck(context.Background()), func(*bag.Message) { n.Add(1) })
					if !bag.DoctorVisits(b) {
						t.Fatal("the ROS 1 doctor does not hand messages on")
					}
					rep, err := b.Check(ctx, nil)
					if err != nil {
						t.Fatal(err)
					}
					if name == "intact" && (!rep.Visited || rep.Errors() != 0 || uint64(n.Load()) != rep.Messages) {
						t.Errorf("intact: visited %v, %d of %d messages handed on, %d errors", rep.Visited, n.Load(), rep.Messages, rep.Errors())
					}
				})
			}
		}
	}
}
