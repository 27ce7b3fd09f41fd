package link

import (
	"cmp"
	"slices"

	"github.com/bagscope/bagscope/model"
)

// Recording is one of the recordings a window shows (File › Add
// Recording…): its path, its name, the prefix of its topics ("" for the
// first, "B:" for the next, …) and the nanoseconds added to its times to
// place it on the first's (A-time = its time + Offset).
type Recording struct {
	Path, Name string
	Prefix     string
	Offset     int64
}

// Recordings lists the recordings of a window showing d, the first being
// the one the others align to; one for a window of one recording.
func Recordings(d *model.Document) []Recording {
	if d == nil {
		return nil
	}
	if len(d.Members) == 0 {
		return []Recording{{Path: d.Path, Name: d.Name}}
	}
	out := make([]Recording, len(d.Members))
	for i, m := range d.Members {
		out[i] = Recording{Path: m.Doc.Path, Name: m.Doc.Name, Prefix: m.Prefix, Offset: m.Offset}
	}
	return out
}

// RecordingOf returns the recording a topic of the window belongs to (by
// its prefix) and the topic's own name in it.
func RecordingOf(d *model.Document, topic string) (Recording, string) {
	rs := Recordings(d)
	best, own := -1, topic
	for i, r := range rs {
		if r.Prefix != "" && len(topic) > len(r.Prefix) && topic[:len(r.Prefix)] == r.Prefix && (best < 0 || len(r.Prefix) > len(rs[best].Prefix)) {
			best, own = i, topic[len(r.Prefix):]
		}
	}
	if best < 0 {
		if len(rs) == 0 {
			return Recording{}, topic
		}
		return rs[0], topic
	}
	return rs[best], own
}

// SortTopics sorts topics of a window showing d as its views list them:
// the first recording's, then the next one's (B:…), each by name, as the
// Topics tab sorts by name and the timeline's lanes are grouped. A name
// alone would put A's "rosout" after B's "B:/x".
func SortTopics(d *model.Document, topics []string) {
	rs := Recordings(d)
	member := make(map[string]int, len(topics))
	for _, t := range topics {
		r, _ := RecordingOf(d, t)
		member[t] = slices.IndexFunc(rs, func(x Recording) bool { return x.Prefix == r.Prefix })
	}
	slices.SortStableFunc(topics, func(a, b string) int {
		if c := cmp.Compare(member[a], member[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
}
