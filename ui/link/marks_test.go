package link

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestFindingMarks: an error finding inside a lost range that may have
// held messages marks its chunk as damaged; one no loss explains is a
// note, as every command counts it; warnings and findings about the whole
// recording mark nothing.
func TestFindingMarks(t *testing.T) {
	lost := &bag.Damage{Ranges: []bag.LostRange{
		{Part: 0, ByteRange: bag.ByteRange{Start: 100, End: 200, Messages: bag.AtLeast(1)}},
		{Part: 1, ByteRange: bag.ByteRange{Start: 100, End: 200, Messages: bag.Exactly(3)}},
		{Part: 0, ByteRange: bag.ByteRange{Start: 500, End: 600, Messages: bag.Exactly(0)}},
	}}
	cases := []struct {
		name string
		f    bag.Finding
		want []Mark
	}{
		{"in a loss", bag.Finding{Severity: bag.Error, Offset: 150, Record: "chunk", Message: "a"}, []Mark{{Kind: Damage, Offset: 150, Text: "a"}}},
		{"at a loss's start", bag.Finding{Severity: bag.Error, Offset: 100, Record: "chunk", Message: "a"}, []Mark{{Kind: Damage, Offset: 100, Text: "a"}}},
		{"in a note", bag.Finding{Severity: bag.Error, Offset: 550, Record: "index", Message: "b"}, []Mark{{Kind: Note, Offset: 550, Text: "b"}}},
		{"no loss holds it", bag.Finding{Severity: bag.Error, Offset: 300, Record: "index", Message: "c"}, []Mark{{Kind: Note, Offset: 300, Text: "c"}}},
		{"in another file's loss", bag.Finding{Severity: bag.Error, File: "b.db3", Part: 1, Offset: 150, Message: "d"}, []Mark{{Kind: Damage, Offset: bag.JoinPart(1, 150), Text: "d"}}},
		{"the other file, no loss", bag.Finding{Severity: bag.Error, File: "b.db3", Part: 1, Offset: 550, Message: "e"}, []Mark{{Kind: Note, Offset: bag.JoinPart(1, 550), Text: "e"}}},
		{"a warning", bag.Finding{Severity: bag.Warning, Offset: 150, Message: "f"}, nil},
		{"the whole recording", bag.Finding{Severity: bag.Error, Message: "g"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := FindingMarks([]bag.Finding{tc.f}, lost)
			if len(got) != len(tc.want) {
				t.Fatalf("%+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("%+v, want %+v", got[i], tc.want[i])
				}
			}
		})
	}
	if got := FindingMarks([]bag.Finding{{Severity: bag.Error, Offset: 150, Message: "a"}}, nil); len(got) != 1 || got[0].Kind != Note {
		t.Errorf("without a damage report: %+v", got)
	}
	marks := LossMarks(lost)
	if len(marks) != 2 || marks[0].Offset != 100 || marks[1].Offset != bag.JoinPart(1, 100) || marks[0].Kind != Damage {
		t.Errorf("LossMarks: %+v", marks)
	}
}
