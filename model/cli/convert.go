package cli

import (
	"fmt"
	"io"

	"github.com/bagscope/bagscope/model"
)

func runConvert(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("convert", "IN OUT", stderr)
	compression := fs.String("compression", "", "compression of OUT's chunks: none, lz4 or zstd (.mcap), none, bz2 or lz4 (.bag); default: the format's")
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
	src, err := model.OpenStorage(in)
	if err != nil {
		return fail(stderr, in, err)
	}
	defer src.Close()
	defer removeTempsOnSignal()()
	rep, err := model.WriteConverted(src, out, *compression)
	if err != nil {
		return fail(stderr, in, err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d messages, %d connections, %s compression\n", out, rep.Messages, len(src.Connections()), rep.Compression)
	for _, r := range rep.Lost {
		fmt.Fprintf(stderr, "bagscope: %s: not converted: %s\n", in, r)
	}
	if !rep.Complete() {
		return 1
	}
	return 0
}
