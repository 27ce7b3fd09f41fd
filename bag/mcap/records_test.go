package mcap

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// conformance is a conformance test's .json: the records it expects.
type conformance struct {
	Records []struct {
		Type   string
		Fields [][2]json.RawMessage
	}
}

// jsonValue renders a conformance field value the way normValue renders ours.
func jsonValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var arr []string
	if json.Unmarshal(raw, &arr) == nil {
		return strings.Join(arr, ",")
	}
	var m map[string]string
	if json.Unmarshal(raw, &m) == nil {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+m[k])
		}
		return strings.Join(parts, ", ")
	}
	return string(raw)
}

// normValue turns our field value into the conformance form.
func normValue(name, v string) string {
	if u, err := strconv.Unquote(v); err == nil {
		return u
	}
	if i := strings.Index(v, " ("); i > 0 {
		v = v[:i]
	}
	if f := strings.Fields(v); len(f) >= 2 && f[1] == "bytes" {
		if len(f) == 2 {
			return ""
		}
		b, _ := hex.DecodeString(f[2])
		parts := make([]string, len(b))
		for i, c := range b {
			parts[i] = strconv.Itoa(int(c))
		}
		return strings.Join(parts, ",")
	}
	return v
}

var typeNames = map[string]string{"Header": "header", "Footer": "footer", "Schema": "schema", "Channel": "channel", "Message": "message",
	"Chunk": "chunk", "MessageIndex": "message index", "ChunkIndex": "chunk index", "Attachment": "attachment",
	"AttachmentIndex": "attachment index", "Statistics": "statistics", "Metadata": "metadata", "MetadataIndex": "metadata index",
	"SummaryOffset": "summary offset", "DataEnd": "data end"}

func TestConformanceRecords(t *testing.T) {
	for _, p := range sharedMCAPs(t) {
		js := strings.TrimSuffix(p, ".mcap") + ".json"
		raw, err := os.ReadFile(js)
		if err != nil {
			continue
		}
		t.Run(filepath.Base(p), func(t *testing.T) {
			var want conformance
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			r := openBytes(t, readFile(t, p))
			// Our records in byte order, chunks expanded, as the
			// conformance files list them (no magic, chunks or
			// message indexes).
			var got []*bag.Record
			err := r.Records(context.Background(), 0, func(rec *bag.Record) bool {
				if rec.Damaged {
					t.Errorf("damaged record at %d: %v", rec.Offset, rec.Err)
				}
				checkFieldRanges(t, rec)
				switch rec.Kind {
				case "magic", "message index":
				case "chunk":
					inner, _, err := r.BlockRecords(rec.Offset)
					if err != nil {
						t.Errorf("chunk at %d: %v", rec.Offset, err)
					}
					got = append(got, inner...)
				default:
					got = append(got, rec)
				}
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want.Records) {
				t.Fatalf("%d records, conformance lists %d", len(got), len(want.Records))
			}
			for i, w := range want.Records {
				g := got[i]
				if typeNames[w.Type] != g.Kind {
					t.Fatalf("record %d is a %s, want %s", i, g.Kind, w.Type)
				}
				for _, f := range w.Fields {
					var name string
					json.Unmarshal(f[0], &name)
					var gv *bag.RecordField
					for k := range g.Fields {
						if g.Fields[k].Name == name {
							gv = &g.Fields[k]
						}
					}
					if gv == nil {
						t.Errorf("record %d (%s) has no field %s", i, w.Type, name)
						continue
					}
					if got, want := normValue(name, gv.Value), jsonValue(f[1]); got != want {
						t.Errorf("record %d (%s) field %s = %q, want %q", i, w.Type, name, got, want)
					}
				}
			}
		})
	}
}

// checkFieldRanges checks that fields are in byte order inside the record.
func checkFieldRanges(t *testing.T, rec *bag.Record) {
	t.Helper()
	var last int64
	for _, f := range rec.Fields {
		if f.Start < last || f.End < f.Start || f.End > rec.Len {
			t.Errorf("record at %d (%s): field %s at %d..%d (record is %d bytes, previous field ends at %d)", rec.Offset, rec.Kind, f.Name, f.Start, f.End, rec.Len, last)
		}
		last = f.End
	}
}

var _ = fmt.Sprint
