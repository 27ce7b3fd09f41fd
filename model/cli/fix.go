package cli

import (
	"fmt"
	"io"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// Exit statuses of fix.
const (
	fixComplete = 0 // every message was kept
	fixNothing  = 1 // nothing could be recovered, or an error
	fixPartial  = 3 // something was lost
)

func runFix(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("fix", "IN OUT", stderr)
	compression := fs.String("compression", "", "compression of the copy: none, bz2 or lz4 (default: the input's)")
	threshold := fs.Int("chunk-threshold", 0, "uncompressed chunk size of the copy, in bytes (0: the format's default)")
	force := fs.Bool("force", false, "overwrite OUT if it exists (never IN)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	in, out := fs.Arg(0), fs.Arg(1)
	if err := model.CheckRepairOutput(in, out, *force); err != nil {
		fmt.Fprintf(stderr, "bagscope: %v\n", err)
		return 2
	}
	b, err := model.OpenStorage(in)
	if err != nil {
		fail(stderr, in, err)
		return fixNothing
	}
	defer b.Close()
	defer removeTempsOnSignal()()
	rep, err := model.WriteRepaired(b, out, *compression, *threshold)
	if err != nil {
		fail(stderr, in, err)
		return fixNothing
	}
	printRepair(stdout, in, out, b, rep)
	if !rep.Complete() {
		// Loss is said on stderr too, as every command that reads says it.
		l := &loss{Ranges: rep.Lost, Messages: rep.LostMessages}
		l.print(stderr, in)
	}
	switch {
	case rep.Messages == 0 && !rep.Complete():
		return fixNothing
	case !rep.Complete():
		return fixPartial
	}
	return fixComplete
}

func printRepair(w io.Writer, in, out string, b bag.Storage, rep *bag.RepairReport) {
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
	if rep.LostMessages > 0 {
		fmt.Fprintf(w, "lost %d indexed messages in unreadable chunks\n", rep.LostMessages)
	}
	for _, r := range rep.Lost {
		fmt.Fprintf(w, "lost %s\n", r)
	}
}
