package human

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// The words for a recording's damage (bag.Damage), the same in every
// command and in the window, so the words agree with the numbers: a count
// is exact only where the recording lets it be counted, bytes are said
// unreadable only when nothing was read from them.

// Messages says a count of messages: "1 message", "1,240 messages",
// "20 to 21 messages", "about 2,349 messages (at least 10)" (an estimate,
// see bag.Count), "at least 3 messages" (a true floor).
func Messages(c bag.Count) string {
	switch {
	case c.Exact():
		return Plural(c.Min, "message")
	case c.Bounded:
		return fmt.Sprintf("%s to %s messages", Count(c.Min), Count(c.Max))
	}
	if c.About > 0 {
		// An estimate, with the true floor beside it.
		return "about " + Plural(c.About, "message") + " (at least " + Count(c.Min) + ")"
	}
	if c.Min == 0 {
		return "an unknown number of messages"
	}
	return "at least " + Plural(c.Min, "message")
}

// DamageHeadline sums up what a recording lost in one line: "1 of 5 files
// missing: 1,240 messages lost", "41 to 42 messages lost, 8.0 KB
// unreadable; 1 suspect message". "" when nothing was lost.
func DamageHeadline(d *bag.Damage) string {
	if !d.Lost() && d.Suspect == 0 {
		return ""
	}
	var parts []string
	lost := Messages(d.Messages) + " lost"
	if d.Messages.None() {
		lost = "no message lost"
	}
	parts = append(parts, lost)
	var unreadable, past int64
	for _, r := range d.Ranges {
		unreadable += r.Unreadable()
		past += r.Past
	}
	parts[0] += bytesLost(unreadable, past)
	var recovered uint64
	for _, r := range d.Ranges {
		recovered += r.Recovered
	}
	if recovered > 0 {
		parts = append(parts, fmt.Sprintf("%s recovered from damaged units", Plural(recovered, "message")))
	}
	if d.Suspect > 0 {
		parts = append(parts, Plural(d.Suspect, "suspect message"))
	}
	s := strings.Join(parts, "; ")
	if d.MissingFiles > 0 {
		s = fmt.Sprintf("%d of %d files missing: %s", d.MissingFiles, d.Files, s)
	}
	return s
}

// ClaimNote says what the recording claims beside what was read, when it
// claims more: "metadata.yaml counts 6,074; 4,834 read". "" otherwise.
func ClaimNote(d *bag.Damage) string {
	if d == nil || d.Claim == nil || d.Claim.Messages <= d.Read {
		return ""
	}
	return fmt.Sprintf("%s counts %s; %s read", d.Claim.By, Count(d.Claim.Messages), Count(d.Read))
}

// TopicLosses says which topics lost how many messages, where the
// recording claims a count per topic (bag.Damage.ByTopic), most lost
// first, at most n of them: "as the index counts them: /imu: 33 lost,
// /tf: 2 to 4 lost, and 3 more topics". "" when it says nothing per topic.
func TopicLosses(d *bag.Damage, n int) string {
	if d == nil || len(d.ByTopic) == 0 {
		return ""
	}
	var parts []string
	for i, t := range d.ByTopic {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %s", Plural(uint64(len(d.ByTopic)-i), "more topic")))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %s lost", t.Topic, countWords(t.Lost)))
	}
	return fmt.Sprintf("as %s counts them: %s", d.ByTopic[0].By, strings.Join(parts, ", "))
}

// countWords says a count without its noun: "33", "2 to 4", "about 40 (at
// least 3)", "at least 3".
func countWords(c bag.Count) string {
	switch {
	case c.Exact():
		return Count(c.Min)
	case c.Bounded:
		return Count(c.Min) + " to " + Count(c.Max)
	case c.About > 0:
		return "about " + Count(c.About) + " (at least " + Count(c.Min) + ")"
	}
	return "at least " + Count(c.Min)
}

// LostUnit names a lost range's unit and place: "chunk at 42",
// "page 101 at 409600", "file wbag_2.db3".
func LostUnit(r bag.LostRange) string {
	switch r.Unit {
	case bag.UnitFile:
		return "file " + filepath.Base(r.File)
	case "":
		return fmt.Sprintf("bytes at %d", r.Start)
	}
	return fmt.Sprintf("%s at %d", r.Unit, r.Start)
}

// LostRange describes one lost range: its unit, what it lost and what was
// recovered from where, which bytes yielded nothing, and why: "chunk at
// 42: recovered 4,725 messages from its first 293 KiB, 1 message lost, 58
// B unreadable from offset 300,042 (topics /imu): the chunk is cut by the
// end of the file".
func LostRange(r bag.LostRange) string {
	var parts []string
	readable := max(r.Readable, 0)
	if r.Recovered > 0 {
		s := "recovered " + Plural(r.Recovered, "message")
		if readable > 0 && readable < r.End-r.Start {
			s += " from its first " + Size(readable)
		}
		parts = append(parts, s)
	}
	switch {
	case r.Messages.None():
		parts = append(parts, "no message lost")
	default:
		parts = append(parts, Messages(r.Messages)+" lost")
	}
	if u := r.Unreadable(); u > 0 && readable > 0 {
		// The bytes that yielded nothing start where the read stopped.
		parts[len(parts)-1] += ", " + Size(u) + " unreadable from offset " + Count(uint64(r.Start+readable))
		if r.Past > 0 {
			parts[len(parts)-1] += ", " + Size(r.Past) + " cut off"
		}
	} else if b := bytesLost(u, r.Past); b != "" {
		parts[len(parts)-1] += b
	} else if r.Unit == bag.UnitFile && r.End == 0 {
		parts = append(parts, "the file is missing")
	}
	s := LostUnit(r) + ": " + strings.Join(parts, ", ")
	if len(r.Topics) > 0 {
		s += " (" + strings.Join(r.Topics, ", ") + ")"
	}
	if r.Why != "" {
		s += ": " + r.Why
	}
	return s
}

// bytesLost says the bytes gone: ", 58 B unreadable, 512 KB cut off".
func bytesLost(unreadable, past int64) string {
	s := ""
	if unreadable > 0 {
		s += ", " + Size(unreadable) + " unreadable"
	}
	if past > 0 {
		s += ", " + Size(past) + " cut off"
	}
	return s
}
