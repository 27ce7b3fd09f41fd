package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// Exit statuses of check.
const (
	checkClean      = 0 // no errors (warnings and infos allowed)
	checkErrors     = 1 // at least one error
	checkUnreadable = 2 // not a bag, or not readable at all
)

type findingJSON struct {
	Severity string `json:"severity"`
	Offset   int64  `json:"offset"`
	Op       string `json:"op"`
	Message  string `json:"message"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "FILE", stderr)
	asJSON := fs.Bool("json", false, `print {"findings": [{"severity","offset","op","message"}, ...]}`)
	path, code, ok := oneFile(fs, args)
	if !ok {
		return code
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "bagscope: %v\n", err)
		return checkUnreadable
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		fmt.Fprintf(stderr, "bagscope: %v\n", err)
		return checkUnreadable
	}
	pl := newProgress(stderr, "checking")
	rep, err := bag.CheckReader(context.Background(), f, st.Size(), pl.update)
	pl.end()
	if err != nil {
		fail(stderr, path, err)
		return checkUnreadable
	}
	if *asJSON {
		out := struct {
			Findings []findingJSON `json:"findings"`
		}{Findings: []findingJSON{}}
		for _, f := range rep.Findings {
			op := strings.ReplaceAll(f.Record, " ", "_")
			out.Findings = append(out.Findings, findingJSON{f.Severity.String(), f.Offset, op, f.Message})
		}
		json.NewEncoder(stdout).Encode(out)
	} else {
		for _, f := range rep.Findings {
			op := ""
			if f.Record != "" {
				op = " (" + f.Record + ")"
			}
			fmt.Fprintf(stdout, "%-7s offset %d%s: %s\n", f.Severity, f.Offset, op, f.Message)
		}
		fmt.Fprintf(stdout, "%s: %d messages in chunks; %d errors, %d findings in all\n", path, rep.Messages, rep.Errors(), len(rep.Findings))
	}
	if rep.Errors() > 0 {
		return checkErrors
	}
	return checkClean
}
