package cli

import (
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// copyJSON is the --json object of fix and convert: what was written
// where, what was kept per topic and what was lost.
type copyJSON struct {
	// Path is the input, Output the copy written.
	Path   string `json:"path"`
	Output string `json:"output"`
	// Format is the copy's format, Compression its chunks'.
	Format      string `json:"format"`
	Compression string `json:"compression"`
	// Scanned is why the input was read by scanning it ("" when its
	// index was used); Notes are what the scan noticed that is not damage.
	Scanned     string           `json:"scanned,omitempty"`
	Notes       []string         `json:"notes"`
	Messages    uint64           `json:"messages"`
	Connections int              `json:"connections"`
	Topics      []topicCountJSON `json:"topics"`
	Lost        lossJSON         `json:"lost"`
	// OK is true when the copy holds every message that was to be
	// copied; Verdict is "ok", "partial" (exit 3) or "failed" (nothing
	// written, exit 1 or 2).
	OK      bool   `json:"ok"`
	Verdict string `json:"verdict"`
	// Error is why nothing could be written.
	Error string `json:"error,omitempty"`
}

// copyReport is the --json object of a copy that was written, which ends
// with exit status code.
func copyReport(src bag.Storage, in, out string, rep *bag.RepairReport, code int) copyJSON {
	j := copyJSON{Path: in, Output: out, Format: outputFormat(src, out), Compression: rep.Compression, Notes: []string{},
		Messages: rep.Messages, Connections: len(src.Connections()), Topics: []topicCountJSON{},
		Lost: rangesLoss(src, rep.Lost, true).json(), OK: rep.Complete(), Verdict: "ok"}
	if scan := src.FileInfo().Scanned; scan != nil {
		if scan.Reason != nil {
			j.Scanned = scan.Reason.Error()
		}
		j.Notes = append(j.Notes, scan.Notes...)
	}
	for t, n := range rep.Kept {
		j.Topics = append(j.Topics, topicCountJSON{t, n})
	}
	sort.Slice(j.Topics, func(a, b int) bool { return j.Topics[a].Topic < j.Topics[b].Topic })
	switch code {
	case ExitOK:
	case ExitPartial:
		j.Verdict = "partial"
	default:
		j.Verdict = "failed"
	}
	return j
}

// copyFailure is the --json object of a copy that could not be written.
func copyFailure(in, out string, err error) copyJSON {
	return copyJSON{Path: in, Output: out, Notes: []string{}, Topics: []topicCountJSON{}, Lost: noLoss(),
		Verdict: "failed", Error: err.Error()}
}

// outputFormat names the format a copy of src at out is written in: the
// one out's name asks for, else src's own.
func outputFormat(src bag.Storage, out string) string {
	if f := bag.FormatFor(out); f != nil {
		return f.Name
	}
	return src.FileInfo().Format
}
