package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
)

// loss is what a command could not read of a recording: the recording's
// one damage report (bag.Damage: what opening found and what the read
// met, each lost range with its file, offsets, unit and messages). Every
// command prints it the same way on stderr and in --json, so loss is
// never silent and never said two ways.
type loss struct {
	d *bag.Damage
	// Undecoded counts messages read but not decoded (cat).
	Undecoded int
}

// fileLoss is what opening the recording found lost.
func fileLoss(s bag.Storage) *loss { return &loss{d: bag.DamageOf(s)} }

// readLoss is what the recording lost, with what a read through it met
// (the messages it gave and the suspect ones, by connection, whole when it read
// every one to the end: bag.ReadDamage, as the window says it) and what
// the doctor finds. A command asks its recording to vouch for its reads
// (bag.VouchReads, at opening) so that the doctor does not read again what
// the read saw whole and sound.
func readLoss(s bag.Storage, it bag.MessageIter, t bag.Tally, whole bool) *loss {
	l := &loss{d: bag.ReadDamage(s, bag.IterSkipped(it), t, whole)}
	bag.AddDoctorFindings(context.Background(), s, l.d)
	return l
}

// oneReadPass says that the commands ask their recordings to vouch for
// their reads (bag.VouchReads), so that the doctor after a read does not
// read again what the read saw whole and sound; tests turn it off to
// compare with the doctor reading everything itself.
var oneReadPass = true

// vouchReads asks b to vouch for the reads through it, for the doctor
// after them (readLoss, rangesLoss): call it before the first read.
func vouchReads(b bag.Storage) {
	if oneReadPass {
		bag.VouchReads(b)
	}
}

// iterSuspects is the suspect messages an iterator gave, when it counts
// them (a read of part of a recording that does not count them itself).
func iterSuspects(it bag.MessageIter) uint64 {
	if s, ok := it.(interface{ Suspects() uint64 }); ok {
		return s.Suspects()
	}
	return 0
}

// rangesLoss is what the recording lost, with the ranges a read skipped
// (and, checked, what the doctor finds).
func rangesLoss(s bag.Storage, skipped []bag.ByteRange, checked bool) *loss {
	l := &loss{d: bag.DamageRead(s, skipped)}
	if checked {
		bag.AddDoctorFindings(context.Background(), s, l.d)
	}
	return l
}

// any reports whether anything was lost.
func (l *loss) any() bool { return l.d.Lost() || l.Undecoded > 0 }

// maxTopicLosses is how many topics' losses the loss's line by topic
// names; the rest are counted.
const maxTopicLosses = 8

// maxLossLines is how many lost ranges a command prints; the rest are
// counted.
const maxLossLines = 20

// print says what was lost on w (stderr): a line with the totals (and what
// the recording claims beside what was read), then one line per range
// with its file, offset, unit, messages and why. Every line names an
// offset.
func (l *loss) print(w io.Writer, path string) {
	d := l.d
	if !d.Lost() {
		return
	}
	first := int64(0)
	if len(d.Ranges) > 0 {
		first = d.Ranges[0].Start
	}
	line := fmt.Sprintf("bagscope: %s: offset %d: %s", path, first, human.DamageHeadline(d))
	var notes []string
	if len(d.Ranges) > 1 {
		notes = append(notes, fmt.Sprintf("%d lost ranges", len(d.Ranges)))
	}
	if c := human.ClaimNote(d); c != "" {
		notes = append(notes, c)
	}
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	fmt.Fprintln(w, line)
	if t := human.TopicLosses(d, maxTopicLosses); t != "" {
		fmt.Fprintf(w, "bagscope: %s: offset %d: by topic, %s\n", path, first, t)
	}
	many := d.Files > 1
	for i, r := range d.Ranges {
		if i == maxLossLines {
			fmt.Fprintf(w, "bagscope: %s: offset %d: ... and %d more lost ranges\n", path, r.Start, len(d.Ranges)-i)
			break
		}
		file := ""
		if many && r.Unit != bag.UnitFile {
			file = filepath.Base(r.File) + ": "
		}
		fmt.Fprintf(w, "bagscope: %s: %soffset %d: %s\n", path, file, r.Start, human.LostRange(r))
	}
}

// lossJSON is a loss in a command's --json output: "messages" when the
// count is exact, else "messages_min" and "messages_max" (null when
// nothing bounds it), with "messages_about" where the loss is estimated;
// the bytes gone; the ranges, each with its file, byte range, unit and
// messages; what was read and what the recording claims.
type lossJSON struct {
	countJSON
	Bytes   int64      `json:"bytes"`
	Read    uint64     `json:"read"`
	Claimed *claimJSON `json:"claimed,omitempty"`
	Suspect uint64     `json:"suspect"`
	// Ranges are the ranges that may have held messages; Notes those that
	// provably held none (an index, a free page, a header rebuilt from
	// the pages): they are damage, not loss.
	Ranges []rangeLossJSON `json:"ranges"`
	Notes  []rangeLossJSON `json:"notes"`
	// Topics are the topics that lost messages, where the recording
	// claims a count per topic (bag.Damage.ByTopic), most lost first.
	Topics []topicLossJSON `json:"topics,omitempty"`
}

// topicLossJSON is one topic's loss: its count's fields, what the
// recording claims of it (and where) and what was read.
type topicLossJSON struct {
	Topic string `json:"topic"`
	countJSON
	Claimed uint64 `json:"claimed"`
	By      string `json:"by"`
	Read    uint64 `json:"read"`
	Suspect uint64 `json:"suspect"`
}

// MarshalJSON writes the topic's loss with its count's fields.
func (t topicLossJSON) MarshalJSON() ([]byte, error) {
	type plain topicLossJSON
	return mergeJSON(plain(t), t.countJSON)
}

// UnmarshalJSON reads a topic's loss back (tests).
func (t *topicLossJSON) UnmarshalJSON(b []byte) error {
	type plain topicLossJSON
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = topicLossJSON(p)
	return unmarshalCount(b, &t.countJSON)
}

type claimJSON struct {
	Messages uint64 `json:"messages"`
	By       string `json:"by"`
}

type rangeLossJSON struct {
	File string `json:"file"`
	From int64  `json:"from"`
	To   int64  `json:"to"`
	Unit string `json:"unit"`
	countJSON
	Topics    []string `json:"topics"`
	Recovered uint64   `json:"recovered"`
	// Readable counts the range's bytes, from its start, the recovered
	// messages were read from; Unreadable those in the file that yielded
	// nothing (from From+Readable on).
	Readable   int64  `json:"readable"`
	Unreadable int64  `json:"unreadable"`
	Why        string `json:"why"`
}

// countJSON is a bag.Count as JSON fields (see lossJSON).
type countJSON struct{ c bag.Count }

// MarshalJSON is never called for the embedded value; the fields are
// written by the containing types' MarshalJSON.
func (c countJSON) fields() map[string]any {
	if c.c.Exact() {
		return map[string]any{"messages": c.c.Min}
	}
	var hi any
	if c.c.Bounded {
		hi = c.c.Max
	}
	m := map[string]any{"messages_min": c.c.Min, "messages_max": hi}
	if c.c.About > 0 {
		// An estimate where nothing bounds the loss (messages_min
		// stays the true floor).
		m["messages_about"] = c.c.About
	}
	return m
}

// MarshalJSON writes the loss with its count's fields.
func (l lossJSON) MarshalJSON() ([]byte, error) {
	type plain lossJSON
	return mergeJSON(plain(l), l.countJSON)
}

// MarshalJSON writes the range with its count's fields.
func (r rangeLossJSON) MarshalJSON() ([]byte, error) {
	type plain rangeLossJSON
	return mergeJSON(plain(r), r.countJSON)
}

// UnmarshalJSON reads a loss back (tests).
func (l *lossJSON) UnmarshalJSON(b []byte) error {
	type plain lossJSON
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*l = lossJSON(p)
	return unmarshalCount(b, &l.countJSON)
}

// UnmarshalJSON reads a range back (tests).
func (r *rangeLossJSON) UnmarshalJSON(b []byte) error {
	type plain rangeLossJSON
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = rangeLossJSON(p)
	return unmarshalCount(b, &r.countJSON)
}

func unmarshalCount(b []byte, c *countJSON) error {
	var f struct {
		Messages *uint64 `json:"messages"`
		Min      *uint64 `json:"messages_min"`
		Max      *uint64 `json:"messages_max"`
		About    uint64  `json:"messages_about"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	switch {
	case f.Messages != nil:
		c.c = bag.Exactly(*f.Messages)
	case f.Max != nil:
		c.c = bag.Between(*f.Min, *f.Max)
	case f.Min != nil:
		c.c = bag.Estimated(*f.Min, f.About)
	}
	return nil
}

// mergeJSON writes v's fields and a count's as one object.
func mergeJSON(v any, c countJSON) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range c.fields() {
		raw, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		m[k] = raw
	}
	return json.Marshal(m)
}

// Messages returns the count (tests).
func (c countJSON) Messages() bag.Count { return c.c }

// json returns the loss for a --json output.
func (l *loss) json() lossJSON {
	d := l.d
	out := lossJSON{countJSON: countJSON{d.Messages}, Bytes: d.Bytes, Read: d.Read, Suspect: d.Suspect, Ranges: []rangeLossJSON{}, Notes: []rangeLossJSON{}}
	if d.Claim != nil {
		out.Claimed = &claimJSON{d.Claim.Messages, d.Claim.By}
	}
	for _, t := range d.ByTopic {
		out.Topics = append(out.Topics, topicLossJSON{Topic: t.Topic, countJSON: countJSON{t.Lost}, Claimed: t.Claimed, By: t.By, Read: t.Read, Suspect: t.Suspect})
	}
	for _, r := range d.Ranges {
		topics := r.Topics
		if topics == nil {
			topics = []string{}
		}
		rj := rangeLossJSON{File: r.File, From: r.Start, To: r.End, Unit: string(r.Unit),
			countJSON: countJSON{r.Messages}, Topics: topics, Recovered: r.Recovered,
			Readable: min(max(r.Readable, 0), r.End-r.Start), Unreadable: r.Unreadable(), Why: r.Why}
		if r.Messages.None() {
			out.Notes = append(out.Notes, rj)
		} else {
			out.Ranges = append(out.Ranges, rj)
		}
	}
	return out
}

// noLoss is the loss of a recording that could not be read at all (for a
// --json output that must still say "lost").
func noLoss() lossJSON {
	return (&loss{d: &bag.Damage{Messages: bag.Exactly(0)}}).json()
}
