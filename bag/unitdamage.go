package bag

import (
	"fmt"
	"sort"
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
	if len(why) == 0 {
		return func(Loc) string { return "" }
	}
	return func(l Loc) string { return why[l.Block] }
}
