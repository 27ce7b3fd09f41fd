package records

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// TestSavableAttachment finds the attachment and the metadata record of
// the MCAP conformance files and checks that what "Save data…" would write
// is the attachment's data (bytes 1, 2, 3 in the conformance file) and the
// metadata record's map.
func TestSavableAttachment(t *testing.T) {
	for _, tc := range []struct {
		file, kind, name string
		want             []byte
	}{
		{"OneAttachment/OneAttachment-ax-pad-st-sum.mcap", "attachment", "myFile", []byte{1, 2, 3}},
		{"OneMetadata/OneMetadata-mdx-pad-st-sum.mcap", "metadata", "myMetadata.yaml", nil},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			p := "../../../shared/bags/foxglove__mcap/tests/conformance/data/" + tc.file
			if _, err := os.Stat(p); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal(err)
				}
				t.Skip(err)
			}
			s, err := model.OpenStorage(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			l := bag.Underlying(s).(bag.RecordLister)
			var rec *bag.Record
			l.Records(context.Background(), 0, func(r *bag.Record) bool {
				if r.Kind == tc.kind {
					rec = r
					return false
				}
				return true
			})
			if rec == nil {
				t.Fatalf("no %s record", tc.kind)
			}
			start, end, name, ok := savable(rec)
			if !ok || name != tc.name {
				t.Fatalf("savable = %d, %d, %q, %v", start, end, name, ok)
			}
			got, err := l.ReadRange(rec.Offset+start, int(end-start))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil && !bytes.Equal(got, tc.want) {
				t.Errorf("payload % x, want % x", got, tc.want)
			}
			if tc.kind == "metadata" {
				y, err := metadataYAML(got)
				if err != nil || string(y) != "\"foo\": \"bar\"\n" {
					t.Errorf("metadata as YAML: %q, %v", y, err)
				}
			}
			if len(got) == 0 {
				t.Error("empty payload")
			}
		})
	}
	if _, _, _, ok := savable(&bag.Record{Kind: "message", Fields: []bag.RecordField{{Name: "data"}}}); ok {
		t.Error("a message record offers to be saved")
	}
}
