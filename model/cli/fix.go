package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
)

// Exit statuses of fix, from the table every command shares.
const (
	fixComplete = ExitOK       // every message was kept
	fixNothing  = ExitProblems // nothing could be recovered, or an error
	fixPartial  = ExitPartial  // something was lost
)

func newFix(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "fix [flags] IN OUT",
		Short: "write a repaired, indexed copy of a recording with every message that can be read",
		Long: `fix writes a new, indexed recording of IN's format (or of OUT's, by its extension) with every
message that can be read, and reports what was kept and lost. IN is never written; OUT is not
overwritten without --force. --topics, --exclude and --range copy a part of IN (OUT then names
its format: .bag or .mcap). Exit 0 when nothing was lost, 3 when something was (said on stderr
with offsets), 1 when nothing could be recovered.`,
		Example: `  bagscope fix cut.bag repaired.bag
  bagscope fix crashed.mcap recovered.mcap --compression zstd
  bagscope fix cut.bag imu.bag --topics /imu --range 10:20 --json`,
		Args:              files("IN", "OUT"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	compression := c.Flags().String("compression", "", "compression of the copy's chunks: none, bz2 or lz4 (.bag); none, lz4 or zstd (.mcap); default: the input's")
	threshold := c.Flags().Int("chunk-threshold", 0, "uncompressed chunk size of the copy, in bytes (0: the format's default)")
	force := c.Flags().Bool("force", false, "overwrite OUT if it exists (never IN)")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: what was kept per topic, what was lost, and a verdict")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		in, out := args[0], args[1]
		if *threshold < 0 {
			return usagef("--chunk-threshold %d: want a size in bytes, or 0 for the format's default", *threshold)
		}
		if err := model.CheckRepairOutput(in, out, *force); err != nil {
			return usagef("%v", err)
		}
		b, err := e.openRecording(cmd, in)
		if err != nil {
			if *asJSON {
				writeJSON(e.stdout, copyFailure(in, out, openCause(err)))
			}
			return err
		}
		defer b.Close()
		f, err := sel.resolve(b)
		if err != nil {
			return err
		}
		o := copyOptions{in: in, out: out, compression: *compression, json: *asJSON, sel: sel}
		return status(runFix(bag.Select(b, f), o, *threshold, e.stdout, e.stderr))
	}
	return c
}

// copyOptions say what fix and convert copy where, and how they report.
type copyOptions struct {
	in, out, compression string
	json                 bool
	sel                  *selection
}

func runFix(b bag.Storage, o copyOptions, threshold int, stdout, stderr io.Writer) int {
	defer removeTempsOnSignal()()
	rep, err := model.WriteRepaired(b, o.out, o.compression, threshold)
	if err != nil {
		if o.json {
			writeJSON(stdout, copyFailure(o.in, o.out, err))
		}
		fail(stderr, o.in, err)
		return fixNothing
	}
	// What the source lost, with what the repair's read met: the same
	// report every command prints.
	l := rangesLoss(b, rep.Lost, true)
	l.d.NoteSuspects(rep.Suspect)
	code := fixComplete
	switch {
	case rep.Messages == 0 && !rep.Complete():
		code = fixNothing
	case !rep.Complete():
		code = fixPartial
	}
	if o.json {
		writeJSON(stdout, copyReport(b, o.in, o.out, rep, code))
	} else {
		printRepair(stdout, o.in, o.out, b, rep, l.d)
	}
	if o.sel != nil {
		o.sel.noteEmpty(stderr, o.in, rep.Messages)
	}
	if !rep.Complete() {
		// Loss is said on stderr too, as every command that reads says it.
		l.print(stderr, o.in)
	}
	return code
}

func printRepair(w io.Writer, in, out string, b bag.Storage, rep *bag.RepairReport, d *bag.Damage) {
	fmt.Fprintf(w, "read %s", in)
	scan := b.FileInfo().Scanned
	if scan != nil {
		fmt.Fprintf(w, " by scanning (%v)", scan.Reason)
	}
	fmt.Fprintf(w, "\nwrote %s: %d messages, %d connections, %s compression\n", out, rep.Messages, len(b.Connections()), rep.Compression)
	topics := make([]string, 0, len(rep.Kept))
	for t := range rep.Kept {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		fmt.Fprintf(w, "  kept %8d  %s\n", rep.Kept[t], t)
	}
	if scan != nil {
		for _, n := range scan.Notes {
			fmt.Fprintf(w, "scan: %s\n", n)
		}
	}
	if rep.Complete() {
		fmt.Fprintln(w, "nothing was lost")
		return
	}
	if h := human.DamageHeadline(d); h != "" {
		fmt.Fprintf(w, "lost: %s\n", h)
	}
	if rep.Suspect > 0 {
		fmt.Fprintf(w, "left out %s: read from damaged units, they cannot be trusted\n", human.Plural(rep.Suspect, "suspect message"))
	}
	for _, r := range d.Ranges {
		fmt.Fprintf(w, "lost %s\n", human.LostRange(r))
	}
}
