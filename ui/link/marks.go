package link

import "github.com/bagscope/bagscope/bag"

// MarkKind is what a mark points out.
type MarkKind int

const (
	// Damage is damaged data: the timeline draws the chunk holding it as
	// damaged.
	Damage MarkKind = iota
	// Note is damage that provably lost no message (an index, a
	// summary: bag.Damage.Notes): the timeline draws the chunk holding it
	// in the note colour, not as damaged.
	Note
	// Suspect is a message read from a damaged unit: the timeline draws
	// its tick on its topic's lane in the loss's colour (Topic and T).
	Suspect
	// Hit is a message an expression holds for (the Find bar): a tick on
	// its topic's lane (Topic and T), in the hits' colour.
	Hit
	// Event is a foxglove_msgs/Event (foxglove.Event) message: a marker
	// on its topic's lane from T to End, labelled Text.
	Event
	// Bookmark is the user's bookmark at T (Text its name and note): a
	// flag over the chunk lane and a line down every lane.
	Bookmark
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
	// Topic and T place a Suspect, Hit or Event mark: its topic and
	// receive time (nanoseconds); a Bookmark's T is its time, and an
	// Event's T..End its span.
	Topic  string
	T, End int64
}

// SuspectMarks are the Suspect marks of the suspect messages' times, by
// topic (stats.ReadLoss.SuspectAt).
func SuspectMarks(at map[string][]int64) []Mark {
	var marks []Mark
	for topic, ts := range at {
		for _, t := range ts {
			marks = append(marks, Mark{Kind: Suspect, Topic: topic, T: t})
		}
	}
	return marks
}

// FindingMarks are the marks of a check's findings: a mark for each error
// that has a place in a file, Damage where lost (which may be nil) says a
// lost range of the recording holds it, else Note: an error no loss
// explains is damage that lost no message, as every command counts it
// (bag.AddDoctorFindings).
func FindingMarks(fs []bag.Finding, lost *bag.Damage) []Mark {
	var marks []Mark
	add := func(part int, own, off int64, text string) {
		kind := Note
		if lostAt(lost, part, own) {
			kind = Damage
		}
		marks = append(marks, Mark{Kind: kind, Offset: off, Text: text})
	}
	for _, f := range fs {
		switch {
		case f.Severity != bag.Error:
		case f.File != "":
			// In its own file's chunks.
			add(f.Part, f.Offset, bag.JoinPart(f.Part, f.Offset), f.Message)
		case f.Offset == 0 && f.Record == "":
			// About the whole recording (a file missing): no chunk holds it.
		default:
			add(0, f.Offset, f.Offset, f.Message)
		}
	}
	return marks
}

// LossMarks are Damage marks for the lost ranges of d that may have held
// messages, each at its start in its own file's chunks.
func LossMarks(d *bag.Damage) []Mark {
	var marks []Mark
	if d == nil {
		return nil
	}
	for _, r := range d.Losses() {
		if r.Part < 0 || r.Unit == bag.UnitFile {
			continue // no chunk holds a missing file: the timeline names its gap (model.MissingSpan)
		}
		marks = append(marks, Mark{Kind: Damage, Offset: bag.JoinPart(r.Part, r.Start), Text: r.Why})
	}
	return marks
}

// lostAt reports whether a range of d that may have held messages holds
// offset off of part.
func lostAt(d *bag.Damage, part int, off int64) bool {
	if d == nil {
		return false
	}
	for _, r := range d.Losses() {
		if r.Part == part && off >= r.Start && (off < r.End || off == r.Start) {
			return true
		}
	}
	return false
}
