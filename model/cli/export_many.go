//go:build !bagscope_front || bagscope_tables

package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/catalog"
)

// exportManyJSON is export's --json object over many recordings: each
// recording's object (its tables, losses and verdict) in path order.
type exportManyJSON struct {
	Output string `json:"output"`
	Shard  string `json:"shard"`
	// Listed is how many recordings the inputs hold, Mine those of this
	// shard (each in Recordings).
	Listed     int               `json:"listed"`
	Mine       int               `json:"in_shard"`
	Recordings []exportNamedJSON `json:"recordings"`
	OK         bool              `json:"ok"`
	Verdict    string            `json:"verdict"`
}

// exportNamedJSON is one recording's export object with its partition name.
type exportNamedJSON struct {
	Recording string `json:"recording"`
	exportJSON
}

// exportInputs runs export over its inputs. One input that is one
// recording, without --shard, is exported as always (many is false);
// otherwise the inputs are listed as catalog lists them, this shard's
// recordings (catalog's hash of the path) each written to its partition
// recording=NAME, NAME its path below its input.
func exportInputs(e *env, cmd *cobra.Command, sel *selection, inputs []string, dir string, req exportRequest, asJSON bool, shard string, sharded bool) (many bool, err error) {
	i, n, err := parseShard(shard)
	if err != nil {
		return true, err
	}
	found, lerr := catalog.Find(context.Background(), inputs)
	// A remote rosbag2 folder is listed as its prefix, with its "/".
	if !sharded && len(inputs) == 1 && (lerr != nil || len(found) == 1 && strings.TrimSuffix(found[0].Path, "/") == strings.TrimSuffix(inputs[0], "/")) {
		return false, nil
	}
	if lerr != nil {
		return true, status(fail(e.stderr, strings.Join(inputs, " "), lerr))
	}
	if !req.hive {
		return true, usagef("export of %d recordings (or a shard): give --hive, so that each recording has its partition OUTDIR/topic=T/recording=NAME", len(found))
	}
	if req.recording != "" {
		return true, usagef("--recording names one recording: with many, each is named by its path below its input")
	}
	out := exportManyJSON{Output: dir, Shard: shard, Listed: len(found), Recordings: []exportNamedJSON{}}
	code := ExitOK
	unselected, firstUnselected := 0, ""
	for _, f := range found {
		if catalog.ShardOf(f.Path, n) != i {
			continue
		}
		out.Mine++
		r := req
		r.recording = f.Name
		j, c := exportFound(e, cmd, sel, f.Path, dir, r, asJSON)
		if c == ExitUsage && j.Verdict == "" {
			return true, usagef("%s", j.Error)
		}
		if j.Verdict == verdictNoneSelected {
			unselected++
			if firstUnselected == "" {
				firstUnselected = j.Error
			}
			c = ExitOK
		}
		out.Recordings = append(out.Recordings, exportNamedJSON{f.Name, j})
		code = max(code, min(c, ExitProblems))
	}
	if unselected > 0 && unselected == out.Mine {
		// A topic or range no recording has is a mistake, not a fleet's
		// recordings that lack a topic.
		return true, usagef("the selection matches none of the %d recordings: %s", out.Mine, firstUnselected)
	}
	if asJSON {
		out.OK, out.Verdict = code == ExitOK, "ok"
		if code != ExitOK {
			out.Verdict = "problems"
		}
		writeJSON(e.stdout, out)
	} else {
		fmt.Fprintf(e.stderr, "bagscope: exported %d recordings of %d found (shard %s) to %s\n", out.Mine, out.Listed, shard, dir)
	}
	return true, status(code)
}

// verdictNoneSelected is the verdict of a recording of many that has none
// of the topics (or not the range) asked for: nothing is written of it,
// and it costs no exit status unless no recording has them.
const verdictNoneSelected = "none selected"

// exportFound exports one recording of many: a recording that cannot be
// opened is said on stderr and in its object, and costs exit 1.
func exportFound(e *env, cmd *cobra.Command, sel *selection, path, dir string, req exportRequest, asJSON bool) (exportJSON, int) {
	failed := func(err error) (exportJSON, int) {
		return exportJSON{Path: path, Output: dir, Format: req.format, Tables: []exportTableJSON{}, Skipped: []exportSkipJSON{},
			Lost: noLoss(), Verdict: "failed", Error: err.Error()}, ExitProblems
	}
	b, err := e.openRecording(cmd, path)
	if err != nil {
		return failed(err)
	}
	defer b.Close()
	f, err := sel.resolve(b)
	var ue *usageError
	if errors.As(err, &ue) {
		// Not every recording of a fleet has the topics asked for.
		fmt.Fprintf(e.stderr, "bagscope: %s: not exported: %v\n", bag.Shown(path), err)
		j, _ := failed(err)
		j.Verdict, j.OK = verdictNoneSelected, true
		return j, ExitOK
	}
	if err != nil {
		fail(e.stderr, path, err)
		return failed(err)
	}
	req.filter = f
	j, code, err := exportOne(b, path, dir, req, !asJSON, e.stdout, e.stderr)
	if err != nil {
		return exportJSON{Error: err.Error()}, ExitUsage
	}
	return j, code
}
