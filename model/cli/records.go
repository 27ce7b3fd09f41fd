package cli

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strings"

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

func runRecords(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("records", "FILE", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per record")
	path, code, ok := oneFile(fs, args)
	if !ok {
		return code
	}
	b, err := ros1.OpenRaw(path)
	if err != nil {
		return fail(stderr, path, err)
	}
	defer b.Close()
	enc := json.NewEncoder(stdout)
	w := b.Walk()
	if !*asJSON {
		fmt.Fprintf(stdout, "%12s  %-12s %10s %10s  %s\n", "OFFSET", "OP", "HEADER", "DATA", "FIELDS")
	}
	for w.Next() {
		rec := w.Record()
		if *asJSON {
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
