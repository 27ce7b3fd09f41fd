package bag

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Damage is the seam's one report of what a recording lost, in the same
// terms for every format: the byte ranges that could not be read, each in
// its file with the unit that was lost and the messages it held, counted
// exactly where the recording lets them be counted and bounded by its
// evidence (index records, chunk indexes, statistics, metadata.yaml, the
// surviving b-tree pages) otherwise. Every command and the window read it
// through DamageOf, Survey or DamageAfter, so they all say the same thing.

// Unit names what a lost range was in its format.
type Unit string

// The units of loss.
const (
	UnitRecord Unit = "record" // a record of the file (ROS 1, MCAP)
	UnitChunk  Unit = "chunk"  // a chunk of records (ROS 1, MCAP)
	UnitPage   Unit = "page"   // a database page (.db3)
	UnitRow    Unit = "row"    // a database row (.db3)
	UnitFile   Unit = "file"   // a whole file of a recording of several
)

// Count is a number of messages: exact (Min == Max), between Min and Max,
// or at least Min when nothing in the recording bounds it (Bounded false).
// The zero Count is "at least 0": nothing is known.
//
// About, when not 0, is an estimate where nothing bounds the count but
// what was read lets it be guessed (a .db3 cut short with no count of its
// own: its missing pages at the rate of the pages read). It lies in [Min,
// Max]; Min stays the true floor, and Exact counts have none.
type Count struct {
	Min, Max uint64
	// Bounded is set when Max is known.
	Bounded bool
	// About is an estimate of the count (0 when there is none).
	About uint64
}

// Exactly returns the Count of exactly n.
func Exactly(n uint64) Count { return Count{Min: n, Max: n, Bounded: true} }

// AtLeast returns the Count of n or more, with no upper bound.
func AtLeast(n uint64) Count { return Count{Min: n} }

// Between returns the Count of lo to hi (hi below lo is taken as lo).
func Between(lo, hi uint64) Count { return Count{Min: lo, Max: max(lo, hi), Bounded: true} }

// Estimated returns the Count of at least n, about about (no estimate
// when about is not above n).
func Estimated(n, about uint64) Count {
	c := AtLeast(n)
	if about > n {
		c.About = about
	}
	return c
}

// guess is the count's best single figure: its estimate, or the middle
// of its bounds, or its floor.
func (c Count) guess() uint64 {
	switch {
	case c.About > 0:
		return c.About
	case c.Bounded:
		return c.Min + (c.Max-c.Min)/2
	}
	return c.Min
}

// fitAbout keeps the estimate inside [Min, Max], dropping it where the
// count is exact or the estimate says no more than the floor.
func (c Count) fitAbout() Count {
	if c.About == 0 {
		return c
	}
	if c.Bounded {
		c.About = min(c.About, c.Max)
	}
	if c.Exact() || c.About <= c.Min {
		c.About = 0
	}
	return c
}

// Exact reports whether the count is known exactly.
func (c Count) Exact() bool { return c.Bounded && c.Min == c.Max }

// None reports whether the count is known to be 0.
func (c Count) None() bool { return c.Bounded && c.Max == 0 }

// Plus adds two counts.
func (c Count) Plus(o Count) Count {
	out := Count{Min: c.Min + o.Min, Max: c.Max + o.Max, Bounded: c.Bounded && o.Bounded}
	if c.About > 0 || o.About > 0 {
		out.About = c.guess() + o.guess()
	}
	return out.fitAbout()
}

// Within narrows c to what also lies in [lo, hi] (hi ignored when
// unbounded is set). Evidence that contradicts c (no overlap) leaves c as
// it is.
func (c Count) Within(lo, hi uint64, unbounded bool) Count {
	out := c
	out.Min = max(c.Min, lo)
	switch {
	case unbounded:
	case !c.Bounded:
		out.Max, out.Bounded = hi, true
	default:
		out.Max = min(c.Max, hi)
	}
	if out.Bounded && out.Max < out.Min {
		return c
	}
	return out.fitAbout()
}

// String says the count as "12", "12 to 40", "about 2349 (at least
// 12)" or "at least 12".
func (c Count) String() string {
	switch {
	case c.Exact():
		return fmt.Sprint(c.Min)
	case c.Bounded:
		return fmt.Sprintf("%d to %d", c.Min, c.Max)
	case c.About > 0:
		return fmt.Sprintf("about %d (at least %d)", c.About, c.Min)
	}
	return fmt.Sprintf("at least %d", c.Min)
}

func satSub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// LostRange is one lost range of a recording: a ByteRange (with its unit,
// messages and topics) in one of the recording's files.
type LostRange struct {
	// File is the file as the user knows it; Part its index among the
	// recording's files (0 for a recording of one file, -1 for a file that
	// is missing). Offsets are the file's own.
	File string
	Part int
	ByteRange
	// Past counts the range's bytes that lie past the end of its file: a
	// cut file's, whose structure says they were there.
	Past int64
}

// Unreadable returns the bytes of the range that are in its file but
// yielded nothing.
func (r LostRange) Unreadable() int64 { return r.Gone() - r.Past }

// Gone returns the bytes of the range that are lost: all of it but what
// messages were recovered from (0 for a range that only names a place,
// or a missing file of unknown size).
func (r LostRange) Gone() int64 { return max(r.End-r.Start-max(r.Readable, 0), 0) }

// Claim is what a recording says it holds, beside what could be read.
type Claim struct {
	// Messages is the recording's own count of its messages.
	Messages uint64
	// By names where it says so: "metadata.yaml", "the statistics
	// record", "the index", "the metadata table".
	By string
	// Topics holds its count per topic, when it gives one.
	Topics map[string]uint64
}

// Count returns what c claims of topic, if it says (c may be nil).
func (c *Claim) Count(topic string) (uint64, bool) {
	if c == nil {
		return 0, false
	}
	n, ok := c.Topics[topic]
	return n, ok
}

// Damage is what a recording (or a selection of it) lost.
type Damage struct {
	// Ranges are the lost ranges, by file and offset.
	Ranges []LostRange
	// Messages is the messages lost in all: the ranges' counts added up
	// and narrowed by what the recording claims.
	Messages Count
	// Bytes adds up the ranges' bytes.
	Bytes int64
	// Read counts the messages that were found (by the index, a scan, or
	// a read of every message when the report comes from one).
	Read uint64
	// Claim is what the recording says it holds, when it says (nil
	// otherwise); it may be more than Read.
	Claim *Claim
	// Suspect counts the messages read from damaged units (known so
	// far); each carries its reason (Message.Suspect).
	Suspect uint64
	// Unverified lists the byte ranges no checksum covers: they were
	// read, but damage in them could go unseen.
	Unverified []LostRange
	// ByTopic says, after a read of every message (ReadDamage), which
	// topics lost messages and how many, where the recording claims a
	// count per topic (TopicLoss), most lost first; nil where it claims
	// none.
	ByTopic []TopicLoss
	// Files counts the recording's files, MissingFiles those it names
	// but lacks.
	Files, MissingFiles int
	// readUnsure is set when Read is what an index or summary counts and
	// a read met damage that opening did not see: fewer may have been
	// found, so a claim bounds the loss from below only.
	readUnsure bool
}

// Lost reports whether anything recorded was lost: a message, a range
// whose messages are not known to be none, or a suspect message (read
// from a damaged unit, it may not be the message recorded). A range that
// provably lost no message (an index a killed recorder never wrote, a
// free page, a damaged index page) is a note.
func (d *Damage) Lost() bool {
	if d == nil {
		return false
	}
	if d.Messages.Min > 0 || d.MissingFiles > 0 || d.Suspect > 0 {
		return true
	}
	for _, r := range d.Ranges {
		if !r.Messages.None() {
			return true
		}
	}
	return false
}

// Notes returns the ranges that provably lost no message: damage to an
// index or summary, free pages, a header rebuilt from the pages.
func (d *Damage) Notes() []LostRange {
	var out []LostRange
	for _, r := range d.Ranges {
		if r.Messages.None() {
			out = append(out, r)
		}
	}
	return out
}

// Losses returns the ranges that may have held messages.
func (d *Damage) Losses() []LostRange {
	var out []LostRange
	for _, r := range d.Ranges {
		if !r.Messages.None() {
			out = append(out, r)
		}
	}
	return out
}

// NoteSuspects records that n of the messages read were suspect, when
// that is more than d knew: each may not be the message recorded, so the
// loss may be that many messages more.
func (d *Damage) NoteSuspects(n uint64) {
	if d == nil || n <= d.Suspect {
		return
	}
	d.Messages.Max += n - d.Suspect
	d.Suspect = n
}

// SetRead makes Read the messages a read of every message gave (n, the
// suspect ones among them) where it was what an index or summary counts,
// so that every command and the window give the figure read; the loss is
// narrowed by what the recording claims beside it. A read of part of the
// recording (a topic, a time range, a limit) does not call it.
func (d *Damage) SetRead(n uint64) {
	if d == nil {
		return
	}
	d.Read = n
	d.readUnsure = false
	c := d.Claim
	if c == nil || c.Messages < n {
		return
	}
	lo := c.Messages - n
	d.Messages = d.Messages.Within(lo, lo+d.Suspect, false)
	capRanges(d.Ranges, d.Messages.Max)
}

// capRanges narrows each range's count to what the loss of all of them
// (at most hi) leaves it beside what the others lost at least: no range
// of a file that claims 1,240 messages says it lost 2,559.
func capRanges(rs []LostRange, hi uint64) {
	var sumMin uint64
	for _, r := range rs {
		sumMin += r.Messages.Min
	}
	for i, r := range rs {
		rs[i].Messages = r.Messages.Within(0, satSub(hi, sumMin-r.Messages.Min), false)
	}
}

// Topics returns the topics the lost ranges name, sorted.
func (d *Damage) Topics() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range d.Ranges {
		for _, t := range r.Topics {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Unverifier is a Storage that can say which of its bytes no checksum
// covers: an MCAP chunk with CRC 0 and no compression, a ROS 1 chunk
// without compression, every page of a SQLite file.
type Unverifier interface {
	// Unverified lists those byte ranges, each with why.
	Unverified() []ByteRange
}

// unverifiedOf returns what s says no checksum covers.
func unverifiedOf(s Storage) []ByteRange {
	for x := s; x != nil; {
		if u, ok := x.(Unverifier); ok {
			return u.Unverified()
		}
		w, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = w.Unwrap()
	}
	return nil
}

// DamageReporter is a Storage that reports its own damage. Formats that
// do not implement it are reported from FileInfo().Scanned.
type DamageReporter interface {
	// Damage reports what is known to be lost from the opening of the
	// file (scans, indexes, summaries); reads of its messages may find
	// more (see DamageAfter).
	Damage() *Damage
}

// DamageOf reports what s is known to have lost from its opening, without
// reading its messages.
func DamageOf(s Storage) *Damage {
	for x := s; x != nil; {
		if r, ok := x.(DamageReporter); ok {
			return r.Damage()
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	return FileDamage(s, nil)
}

// FileDamage builds the report of a recording of one file from what its
// opening found (FileInfo().Scanned) and the ranges a read of its messages
// skipped (read, which may repeat the scan's), narrowed by the file's claim
// (FileInfo().Claim).
func FileDamage(s Storage, read []ByteRange) *Damage {
	fi := s.FileInfo()
	d := &Damage{Files: 1, Claim: fi.Claim}
	var ranges []ByteRange
	var floor uint64
	if sc := fi.Scanned; sc != nil {
		ranges = append(ranges, sc.Skipped...)
		d.Suspect = sc.Suspect
		floor = sc.LostMessages
	}
	for _, r := range read {
		if lostRange(r) && !r.Messages.None() && overlapping(ranges, r) < 0 {
			d.readUnsure = true
		}
	}
	ranges = MergeRanges(ranges, read)
	if sum, _ := s.Summary(); sum != nil {
		d.Read = sum.Messages
	}
	for _, r := range ranges {
		d.Ranges = append(d.Ranges, LostRange{File: fi.Path, ByteRange: r, Past: past(r, fi.Size)})
	}
	if !countsUnknown(ranges) {
		floor = 0 // the ranges count for themselves
	}
	for _, r := range unverifiedOf(s) {
		d.Unverified = append(d.Unverified, LostRange{File: fi.Path, ByteRange: r})
	}
	d.settle(nil, floor, fi.Path)
	return d
}

// past returns the bytes of r past the end of a file of size bytes (not
// counting those messages were read from).
func past(r ByteRange, size int64) int64 {
	p := r.End - max(r.Start, size)
	gone := max(r.End-r.Start-max(r.Readable, 0), 0)
	return min(max(p, 0), gone)
}

// countsUnknown reports whether no range says its messages.
func countsUnknown(rs []ByteRange) bool {
	for _, r := range rs {
		if r.Messages != (Count{}) {
			return false
		}
	}
	return true
}

// lostRange reports whether a skipped range stands for lost content:
// padding between records holds nothing.
func lostRange(r ByteRange) bool { return !strings.HasPrefix(r.Why, "padding") }

// settle sorts the ranges and adds up their bytes, and sets Messages:
// total when given, else the ranges' counts added up; at least floor (a
// count of the whole loss from a format that does not count per range);
// narrowed by the claim, which also narrows each range. Messages the
// claim counts that no range explains get a range of their own, in file.
func (d *Damage) settle(total *Count, floor uint64, file string) {
	kept := d.Ranges[:0]
	for _, r := range d.Ranges {
		if lostRange(r.ByteRange) {
			kept = append(kept, r)
		}
	}
	d.Ranges = kept
	// What the recording claims and was not found is lost; messages found
	// that are suspect may be garbage the claim does not count.
	c := d.Claim
	claimed := c != nil && c.Messages >= d.Read
	var lo, hi uint64
	if claimed {
		lo = c.Messages - d.Read
		hi = lo + d.Suspect
		if len(d.Ranges) == 0 && lo > 0 {
			r := LostRange{File: file, ByteRange: ByteRange{
				Messages: Between(lo, hi),
				Why:      fmt.Sprintf("%s counts %d messages, %d were found: where the others were is not known", c.By, c.Messages, d.Read),
			}}
			d.Ranges = append(d.Ranges, r)
			if total != nil {
				t := total.Plus(r.Messages)
				total = &t
			}
		}
	}
	sortLost(d.Ranges)
	d.Bytes = 0
	sum := Exactly(0)
	for _, r := range d.Ranges {
		d.Bytes += r.Gone()
		sum = sum.Plus(r.Messages)
	}
	if total != nil {
		sum = *total
	} else {
		// A suspect message may not be the one recorded: the message
		// recorded there may be lost too.
		sum = sum.Plus(Between(0, d.Suspect))
	}
	sum = sum.Within(floor, 0, true)
	switch {
	case claimed && d.readUnsure:
		sum = sum.Within(lo, 0, true)
	case claimed:
		narrowRanges(d.Ranges, lo, hi)
		sum = sum.Within(lo, hi, false)
	}
	d.Messages = sum
}

// sortLost orders lost ranges by file, then offset.
func sortLost(rs []LostRange) {
	sort.SliceStable(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Part != b.Part {
			return a.Part < b.Part
		}
		return a.Start < b.Start
	})
}

// narrowRanges narrows the ranges' counts, given that together they hold
// lo to hi messages: each holds at least lo less what the others can
// hold, and at most hi less what they must.
func narrowRanges(rs []LostRange, lo, hi uint64) {
	var sumMin, sumMax uint64
	open := 0
	for _, r := range rs {
		sumMin += r.Messages.Min
		if r.Messages.Bounded {
			sumMax += r.Messages.Max
		} else {
			open++
		}
	}
	for i, r := range rs {
		othersMin := sumMin - r.Messages.Min
		rlo := uint64(0)
		if open == 0 || open == 1 && !r.Messages.Bounded {
			othersMax := sumMax
			if r.Messages.Bounded {
				othersMax -= r.Messages.Max
			}
			rlo = satSub(lo, othersMax)
		}
		rs[i].Messages = r.Messages.Within(rlo, satSub(hi, othersMin), false)
	}
}

// MergeRanges adds the ranges of b to a, a range of b that overlaps one
// of a replacing it with what both say (the narrower count, the larger
// number of messages recovered, b's reason).
func MergeRanges(a, b []ByteRange) []ByteRange {
	out := append([]ByteRange(nil), a...)
	for _, r := range b {
		i := overlapping(out, r)
		if i < 0 {
			out = append(out, r)
			continue
		}
		o := out[i]
		m := r
		m.Start, m.End = min(o.Start, r.Start), max(o.End, r.End)
		if r.Start == r.End && o.Start != o.End {
			m.Start, m.End = o.Start, o.End
		}
		m.Messages = o.Messages.Within(r.Messages.Min, r.Messages.Max, !r.Messages.Bounded)
		if m.Messages.About == 0 && r.Messages.About > 0 {
			m.Messages.About = r.Messages.About
			m.Messages = m.Messages.fitAbout()
		}
		m.Recovered = max(o.Recovered, r.Recovered)
		m.Readable = max(o.Readable, r.Readable)
		if m.Unit == "" {
			m.Unit = o.Unit
		}
		if len(m.Topics) == 0 {
			m.Topics = o.Topics
		}
		if m.First.IsZero() {
			m.First, m.Last = o.First, o.Last
		}
		out[i] = m
	}
	return out
}

// overlapping returns the index of the range of rs that r overlaps (or
// equals, for empty ranges), or -1.
func overlapping(rs []ByteRange, r ByteRange) int {
	// The range that starts where r does first: a cut page's range
	// overlaps the range of the pages cut off after it, and must not take
	// it in when both are reported again.
	for i, o := range rs {
		if o.Start == r.Start {
			return i
		}
	}
	for i, o := range rs {
		if o.Start < r.End && r.Start < o.End {
			return i
		}
	}
	return -1
}

// DamageAfter reports what s lost, with what the read it yielded (every
// message, or those of a filter) found: its skipped ranges, as the
// iterator reports them. it may be nil.
func DamageAfter(s Storage, it MessageIter) *Damage {
	if m := AsMulti(s); m != nil {
		return m.damage(iterLost(it))
	}
	var read []ByteRange
	if it != nil {
		if sk, ok := it.(interface{ Skipped() []ByteRange }); ok {
			read = sk.Skipped()
		}
	}
	if r, ok := underlyingReporter(s); ok && len(read) == 0 {
		return r.Damage()
	}
	d := FileDamage(s, read)
	if it != nil {
		d.NoteSuspects(suspectsOf(it))
	}
	return d
}

// ReadDamage is the one report of what s lost after a read of its
// messages, that every command and the window give: what opening found,
// with the ranges the read skipped (as its iterator's Skipped lists them,
// see DamageRead), the suspect messages it gave (each may not be the one
// recorded, NoteSuspects) and, when it read every message to the end
// (whole), the messages it read (SetRead) and, where the recording claims
// a count per topic and t counts by connection, which topics lost how
// many (ByTopic). Survey, verify, cat and the window's banner all make it
// here, so they say the same loss.
func ReadDamage(s Storage, skipped []ByteRange, t Tally, whole bool) *Damage {
	d := DamageRead(s, skipped)
	d.NoteSuspects(t.Suspects)
	if whole {
		d.SetRead(t.Read)
		d.ByTopic = topicLosses(s, d, t)
	}
	return d
}

// IterSkipped returns the ranges an iterator skipped so far, when it says.
func IterSkipped(it MessageIter) []ByteRange {
	if sk, ok := it.(interface{ Skipped() []ByteRange }); ok {
		return sk.Skipped()
	}
	return nil
}

// DamageRead is DamageAfter given the ranges a read skipped, as an
// iterator's Skipped lists them. In a recording of several files each
// range goes to the file it names (ByteRange.InFile); one that names none
// is taken for the first file's.
func DamageRead(s Storage, read []ByteRange) *Damage {
	if m := AsMulti(s); m != nil {
		if len(m.names) == 0 {
			return m.damage(nil)
		}
		var lr []LostRange
		for _, r := range read {
			p := max(slices.Index(m.names, r.InFile), 0)
			if r.InFile != "" {
				r.Why = strings.TrimPrefix(r.Why, m.base(p)+": ")
			}
			lr = append(lr, LostRange{File: m.names[p], Part: p, ByteRange: r})
		}
		return m.damage(lr)
	}
	return FileDamage(s, read)
}

func underlyingReporter(s Storage) (DamageReporter, bool) {
	for x := s; x != nil; {
		if r, ok := x.(DamageReporter); ok {
			return r, true
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	return nil, false
}

// iterLost returns the lost ranges an iterator over a recording of
// several files met, by file.
func iterLost(it MessageIter) []LostRange {
	if it == nil {
		return nil
	}
	if l, ok := it.(interface{ LostRanges() []LostRange }); ok {
		return l.LostRanges()
	}
	return nil
}

// suspectsOf returns the suspect messages an iterator gave, when it
// counts them.
func suspectsOf(it MessageIter) uint64 {
	if s, ok := it.(interface{ Suspects() uint64 }); ok {
		return s.Suspects()
	}
	return 0
}
