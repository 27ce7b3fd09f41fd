package link

import "github.com/bagscope/bagscope/bag"

// MarkKind is what a mark points out.
type MarkKind int

const (
	// Damage is damaged data: the timeline draws the chunk holding it as
	// damaged.
	Damage MarkKind = iota
)

// A Mark is a place in the recording that a view points out on the
// timeline. A new kind of mark (a search hit, a diagnostics level) adds a
// MarkKind, and the fields it needs, here, and its drawing in the
// timeline; the view that makes it needs only AddMarks.
type Mark struct {
	Kind MarkKind
	// Offset is the file offset marked.
	Offset int64
	// Text says what is there.
	Text string
}

// FindingMarks are the marks of a check's findings: a Damage mark for
// each error that has a place in a file.
func FindingMarks(fs []bag.Finding) []Mark {
	var marks []Mark
	for _, f := range fs {
		switch {
		case f.Severity != bag.Error:
		case f.File != "":
			// In its own file's chunks.
			marks = append(marks, Mark{Kind: Damage, Offset: bag.JoinPart(f.Part, f.Offset), Text: f.Message})
		case f.Offset == 0 && f.Record == "":
			// About the whole recording (a file missing): no chunk holds it.
		default:
			marks = append(marks, Mark{Kind: Damage, Offset: f.Offset, Text: f.Message})
		}
	}
	return marks
}
