package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

// recordJSON is one line of `records --json`.
type recordJSON struct {
	Offset    int64          `json:"offset"`
	Op        string         `json:"op"`
	HeaderLen uint32         `json:"header_len"`
	DataLen   uint32         `json:"data_len"`
	Fields    map[string]any `json:"fields"`
}

func newRecords(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "records [flags] FILE",
		Short: "list every top-level record in byte order with its header fields",
		Long: `records lists every top-level record of a file in byte order: its offset, op, header and data
lengths and its header fields decoded by type (ROS 1), or each field with its value and byte range
(MCAP, .db3). A damaged range is listed as a damaged record (exit 1).`,
		Example: `  bagscope records x.bag
  bagscope records x.mcap --json | head`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	asJSON := c.Flags().Bool("json", false, "print one JSON object per record")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		return status(runRecords(args[0], *asJSON, e.openOptions(), e.stdout, e.stderr))
	}
	return c
}

func runRecords(path string, asJSON bool, o bag.OpenOptions, stdout, stderr io.Writer) int {
	if !isROS1(path) {
		return listRecords(path, asJSON, o, stdout, stderr)
	}
	b, err := ros1.OpenRaw(path)
	if err != nil {
		return failOpen(stderr, path, err)
	}
	defer b.Close()
	enc := json.NewEncoder(stdout)
	w := b.Walk()
	if !asJSON {
		fmt.Fprintf(stdout, "%12s  %-12s %10s %10s  %s\n", "OFFSET", "OP", "HEADER", "DATA", "FIELDS")
	}
	for w.Next() {
		rec := w.Record()
		if asJSON {
			fields := map[string]any{}
			for _, f := range rec.Header {
				fields[f.Name] = fieldJSON(f)
			}
			if err := enc.Encode(recordJSON{rec.Offset, rec.Op.Name(), rec.HeaderLen, rec.DataLen, fields}); err != nil {
				return 1
			}
			continue
		}
		parts := make([]string, 0, len(rec.Header))
		for _, f := range rec.Header {
			if f.Name == "op" {
				continue
			}
			parts = append(parts, f.Name+"="+fieldText(f))
		}
		fmt.Fprintf(stdout, "%12d  %-12s %10d %10d  %s\n", rec.Offset, rec.Op.Name(), rec.HeaderLen, rec.DataLen, strings.Join(parts, " "))
	}
	if err := w.Err(); err != nil {
		return fail(stderr, path, err)
	}
	return 0
}

// fieldJSON converts a header field to a JSON value: numbers, {"secs",
// "nsecs"} for times, the op name for op, strings, and hex for opaque bytes.
func fieldJSON(f ros1.Field) any {
	switch v := f.Decoded().(type) {
	case ros1.Op:
		return v.Name()
	case ros1.Time:
		return toTimeJSON(v)
	case []byte:
		return hex.EncodeToString(v)
	default:
		return v
	}
}

// fieldText formats a header field for the text listing.
func fieldText(f ros1.Field) string {
	switch v := f.Decoded().(type) {
	case ros1.Time:
		return v.String()
	case []byte:
		return "0x" + hex.EncodeToString(v)
	case string:
		return fmt.Sprintf("%q", v)
	default:
		return fmt.Sprint(v)
	}
}

// isROS1 reports whether the file at path starts as a ROS 1 bag does: those
// are listed from their own record headers, even when too damaged to open.
func isROS1(path string) bool {
	f, err := bag.FSFor(path).Open(path)
	if err != nil {
		// The ROS 1 path reports a local file's error; the seam a URL's
		// (a folder URL is not a file).
		return !bag.IsURL(path)
	}
	defer f.Close()
	head := make([]byte, len(ros1.Magic))
	n, _ := f.ReadAt(head, 0)
	return string(head[:n]) == ros1.Magic
}

// genericRecordJSON is one line of `records --json` for formats other than
// ROS 1: each field with its value and byte range.
type genericRecordJSON struct {
	Offset  int64             `json:"offset"`
	Length  int64             `json:"length"`
	Op      string            `json:"op"`
	Damaged bool              `json:"damaged,omitempty"`
	Error   string            `json:"error,omitempty"`
	Fields  []recordFieldJSON `json:"fields"`
}

type recordFieldJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
}

// listRecords lists the records of a file of any format that can list them
// (bag.RecordLister), in byte order.
func listRecords(path string, asJSON bool, o bag.OpenOptions, stdout, stderr io.Writer) int {
	s, err := bag.OpenFileWith(path, o)
	if err != nil {
		return failOpen(stderr, path, err)
	}
	defer s.Close()
	rl, ok := bag.Underlying(s).(bag.RecordLister)
	if !ok {
		return fail(stderr, path, fmt.Errorf("bagscope cannot list the records of %s files", s.FileInfo().Format))
	}
	enc := json.NewEncoder(stdout)
	if !asJSON {
		fmt.Fprintf(stdout, "%12s  %-18s %10s  %s\n", "OFFSET", "RECORD", "LENGTH", "FIELDS")
	}
	damaged := 0
	err = rl.Records(context.Background(), 0, func(r *bag.Record) bool {
		if r.Damaged {
			damaged++
		}
		if asJSON {
			out := genericRecordJSON{Offset: r.Offset, Length: r.Len, Op: strings.ReplaceAll(r.Kind, " ", "_"), Damaged: r.Damaged, Fields: []recordFieldJSON{}}
			if r.Err != nil {
				out.Error = r.Err.Error()
			}
			for _, f := range r.Fields {
				out.Fields = append(out.Fields, recordFieldJSON{f.Name, f.Value, f.Start, f.End})
			}
			return enc.Encode(out) == nil
		}
		parts := make([]string, 0, len(r.Fields))
		for _, f := range r.Fields {
			parts = append(parts, f.Name+"="+oneLine(f.Value, 120))
		}
		if r.Err != nil {
			parts = append(parts, "error: "+r.Err.Error())
		}
		fmt.Fprintf(stdout, "%12d  %-18s %10d  %s\n", r.Offset, r.Kind, r.Len, strings.Join(parts, " "))
		return true
	})
	if err != nil {
		return fail(stderr, path, err)
	}
	if damaged > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %d damaged byte ranges (listed as damaged records)\n", path, damaged)
		return 1
	}
	return 0
}

// oneLine shows v on one line: control characters escaped, and cut to at
// most max runes with an ellipsis (records --json has the whole value).
func oneLine(v string, max int) string {
	if strings.ContainsFunc(v, unicode.IsControl) {
		v = strings.Trim(strconv.Quote(v), `"`)
	}
	if r := []rune(v); len(r) > max {
		v = string(r[:max-1]) + "…"
	}
	return v
}
