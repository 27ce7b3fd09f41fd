package bag

import (
	"fmt"
	"maps"
	"sort"
	"sync"
)

// DamagedUnits returns a function that says why the chunk a message was
// read from (its Loc) shows damage, or "" when none is known: a block the
// recording marks damaged (Block.Damaged: a chunk cut by the end of the
// file, one the scan could not read whole) or one a lost range of d lies
// in (d nil: what opening found, DamageOf). A message from such a chunk
// may be whole (read up to the damage, its record complete) and not
// suspect (Message.Suspect), but it is never shown as good: the window
// marks it. A block standing for a whole file (a .db3 of a folder) is no
// unit of its messages: a .db3's damaged pages mark their rows suspect.
func DamagedUnits(s Storage, d *Damage) func(Loc) string {
	why := damagedUnits(s, d)
	if len(why) == 0 {
		return func(Loc) string { return "" }
	}
	return func(l Loc) string { return why[l.Block] }
}

// damagedUnits is DamagedUnits as a map from a block's offset to why.
func damagedUnits(s Storage, d *Damage) map[int64]string {
	if d == nil {
		d = DamageOf(s)
	}
	why := map[int64]string{}
	var blocks []*Block
	for _, b := range s.Blocks() {
		if b.WholeFile {
			continue
		}
		blocks = append(blocks, b)
		if b.Damaged {
			w := "it is damaged"
			if b.Err != nil {
				w = b.Err.Error()
			}
			why[b.Offset] = fmt.Sprintf("the chunk at %d: %s", b.Offset-int64(b.File)<<PartShift, w)
		}
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].Offset < blocks[j].Offset })
	for _, r := range d.Losses() {
		if r.Part < 0 || r.Unit == UnitFile {
			continue
		}
		at := JoinPart(r.Part, r.Start)
		i := sort.Search(len(blocks), func(i int) bool { return blocks[i].Offset > at }) - 1
		if i < 0 {
			continue
		}
		b := blocks[i]
		if at >= b.Offset+max(b.Len, 1) || why[b.Offset] != "" {
			continue
		}
		why[b.Offset] = fmt.Sprintf("the chunk at %d lost bytes %d..%d: %s", b.Offset-int64(r.Part)<<PartShift, r.Start, r.End, r.Why)
	}
	return why
}

// Distrust is the one route from what a reader of a recording knows of its
// damage to the mark of each message it shows: the Message view, the
// plots and the timeline of a window all ask it, so a chunk that a later
// read finds damaged marks its messages everywhere at once. It starts
// from what opening found (DamagedUnits of DamageOf) and learns what each
// read of the messages skipped (Learn). It is safe for concurrent use.
type Distrust struct {
	s Storage

	mu      sync.Mutex
	why     map[int64]string // DamagedUnits, by block offset; nil until first asked
	skipped []ByteRange      // what reads skipped, as DamageRead takes it
}

// NewDistrust returns s's Distrust, knowing what opening found; it reads
// nothing until first asked.
func NewDistrust(s Storage) *Distrust { return &Distrust{s: s} }

// units returns the marks known, making them on first use. d.mu is held.
func (d *Distrust) units() map[int64]string {
	if d.why == nil {
		d.why = damagedUnits(d.s, nil)
	}
	return d.why
}

// Unit says why the unit a message was read from (its Loc) shows damage,
// or "" when none is known.
func (d *Distrust) Unit(l Loc) string {
	if d == nil {
		return ""
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.units()[l.Block]
}

// Why says why m is not to be trusted: its own mark (Message.Suspect),
// else the damage its unit shows; "" when it is not known to be damaged.
func (d *Distrust) Why(m *Message) string {
	if m.Suspect != "" {
		return m.Suspect
	}
	return d.Unit(m.Loc)
}

// Learn adds the byte ranges a read of s's messages skipped (an iterator's
// Skipped, stats.ReadLoss.Skipped): the units they lie in are damaged
// (DamagedUnits of DamageRead, as the loss every command gives says). It
// reports whether a unit not known before is now marked.
func (d *Distrust) Learn(skipped []ByteRange) bool {
	if d == nil || len(skipped) == 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	known := d.units()
	d.skipped = MergeRanges(d.skipped, skipped)
	found := damagedUnits(d.s, DamageRead(d.s, d.skipped))
	grew := false
	for at := range found {
		if _, ok := known[at]; !ok {
			grew = true
		}
	}
	if !grew {
		return false
	}
	merged := maps.Clone(known)
	for at, w := range found {
		if _, ok := merged[at]; !ok {
			merged[at] = w
		}
	}
	d.why = merged
	return true
}
