package model

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// Several recordings in one window (issue 27): the first as it is, each
// added one with its topics under a prefix ("B:/imu") and its times moved
// by an offset to the first, read as one Document so that every view
// shows them as it shows one recording.

// Member is one recording of a combined document: the document opened
// alone, its prefix ("" for the first, then "B:", "C:", …) and the
// nanoseconds added to its times (A-time = its time + Offset).
type Member struct {
	Doc    *Document
	Prefix string
	Offset int64
}

// Name is the member's recording as the user knows it: its prefix's
// letter and its file name ("B  run2.mcap").
func (m Member) Name() string {
	if m.Prefix == "" {
		return m.Doc.Name
	}
	return strings.TrimSuffix(m.Prefix, ":") + "  " + m.Doc.Name
}

// PrefixLetter returns the next free prefix for a recording added to
// members: "B:", "C:", …, "Z:", then "AA:", "AB:", ….
func PrefixLetter(members []Member) string {
	used := map[string]bool{}
	for _, m := range members {
		used[m.Prefix] = true
	}
	for i := 1; ; i++ {
		p := letters(i) + ":"
		if !used[p] {
			return p
		}
	}
}

// letters spells i as A, B, …, Z, AA, AB, … (0 is A).
func letters(i int) string {
	s := ""
	for {
		s = string(rune('A'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

// Combine reads members as one document. The members stay open and are
// closed by the combined document's Close; combining them again (a new
// offset) reads the same opened files. The first member is the one the
// others align to.
func Combine(members []Member) (*Document, error) {
	if len(members) == 0 {
		return nil, errors.New("no recording to combine")
	}
	var ms []bag.Member
	var size int64
	var names []string
	for i, m := range members {
		if i == 0 && (m.Prefix != "" || m.Offset != 0) {
			return nil, errors.New("the first recording keeps its topics' names and times")
		}
		if i > 0 && m.Prefix == "" {
			return nil, fmt.Errorf("%s: an added recording needs a prefix", m.Doc.Name)
		}
		ms = append(ms, bag.Member{Storage: m.Doc.Storage, Prefix: m.Prefix, Offset: m.Offset})
		size += m.Doc.Size
		names = append(names, m.Doc.Name)
	}
	st, err := bag.Combine(ms)
	if err != nil {
		return nil, err
	}
	s, err := st.Summary()
	if err != nil && s == nil {
		return nil, err
	}
	first := members[0].Doc
	s.Path = first.Path
	info := st.FileInfo()
	d := &Document{
		Path: first.Path, Name: strings.Join(names, " + "), Size: size,
		Storage: st, Info: info, Summary: s, Warnings: info.Warnings,
		Members:  append([]Member(nil), members...),
		distrust: bag.NewDistrust(st),
	}
	d.Topics = topicsOf(s)
	memberOf := map[string]int{}
	for i, m := range members {
		for _, t := range m.Doc.Topics {
			memberOf[m.Prefix+t.Topic] = i
		}
	}
	for i := range d.Topics {
		d.Topics[i].Member = memberOf[d.Topics[i].Topic]
	}
	slices.SortStableFunc(d.Topics, func(a, b Topic) int { return cmp.Compare(a.Member, b.Member) })
	return d, nil
}

// Offsets for aligning an added recording: start to start, or a chosen
// event in each (a message of a topic of each recording).

// StartOffset is the offset that places b's first message at a's.
func StartOffset(a, b *Document) int64 {
	return a.Summary.Start.Nanos() - b.Summary.Start.Nanos()
}

// FirstMessageTime returns the receive time of the first message of topic
// in d's recording (read alone, at its own times).
func FirstMessageTime(d *Document, topic string) (bag.Time, error) {
	it := d.Storage.Messages(bag.MessageFilter{Topics: []string{topic}})
	defer it.Close()
	if it.Next() {
		return it.Message().Time, nil
	}
	if err := it.Err(); err != nil {
		return bag.Time{}, fmt.Errorf("%s: %s: %w", d.Name, topic, err)
	}
	return bag.Time{}, fmt.Errorf("%s has no message on %s", d.Name, topic)
}

// EventOffset is the offset that places the first message of topicB in b
// at the first message of topicA in a.
func EventOffset(a *Document, topicA string, b *Document, topicB string) (int64, error) {
	ta, err := FirstMessageTime(a, topicA)
	if err != nil {
		return 0, err
	}
	tb, err := FirstMessageTime(b, topicB)
	if err != nil {
		return 0, err
	}
	return ta.Nanos() - tb.Nanos(), nil
}
