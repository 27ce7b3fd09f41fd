package records

import (
	"sort"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/link"
)

// SetLink connects the panel to the other views of its window: selecting a
// message record selects the message everywhere, selecting a chunk moves
// the time cursor, and the other views can show a message's record.
func (p *recordsPanel) SetLink(l link.Link) {
	p.link = l
	if p.d.Bag != nil {
		l.Actions().ShowMessageRecord = func(chunkPos int64, off uint32) {
			l.SelectTab("Records")
			p.showMessageRecord(chunkPos, off)
		}
		l.OnMessageShown(p.content, p.followMessage) // followed only while shown: playback moves it every frame
	}
}

// followMessage scrolls to the record of a message selected elsewhere (or
// shown at the current time), without telling the link again: its record
// when its chunk's records are listed, else its chunk among the file's
// records. A list not yet read stays unread.
func (p *recordsPanel) followMessage(m msgref.Ref) {
	if len(p.levels) == 0 || p.quiet {
		return
	}
	if _, ok := p.level().set.(*model.ChunkRecords); ok {
		p.showMessageRecord(m.ChunkPos, m.Offset)
		return
	}
	x, ok := p.levels[0].set.(*model.RecordIndex)
	if !ok {
		return
	}
	i := sort.Search(x.Len(), func(i int) bool { return x.Offset(i) >= m.ChunkPos })
	if i >= x.Len() || x.Offset(i) != m.ChunkPos || p.levels[0].sel == i {
		return
	}
	p.levels[0].sel = i
	p.quiet = true
	p.list.Select(i)
	p.list.ScrollTo(i)
	p.quiet = false
}

// linkRecord tells the link about a record the user selected: a message
// data record inside a chunk becomes the selected message; a chunk moves
// the time cursor to its start.
func (p *recordsPanel) linkRecord(rec *ros1.Record) {
	if p.link == nil || p.quiet {
		return
	}
	switch rec.Op {
	case ros1.OpMessageData:
		cr, ok := p.level().set.(*model.ChunkRecords)
		if !ok {
			return
		}
		md, err := ros1.ParseMessageData(*rec)
		if err != nil {
			return
		}
		p.link.SelectMessage(msgref.Ref{T: md.Time.Nanos(), Loc: msgref.Loc{
			ChunkPos: cr.Chunk.Offset, Offset: uint32(rec.Offset), Conn: md.Conn}})
	case ros1.OpChunk:
		for _, blk := range p.d.Storage.Blocks() {
			if blk.Offset == rec.Offset {
				p.link.SelectChunkStart(blk.Offset, blk.Start.Nanos())
				return
			}
		}
	}
}

// showMessageRecord opens the chunk at chunkPos and selects the record at
// off in its data. Before the record index is built it starts building it
// and shows the record when it is done.
func (p *recordsPanel) showMessageRecord(chunkPos int64, off uint32) {
	p.pendingMsg = &msgref.Loc{ChunkPos: chunkPos, Offset: off}
	if len(p.levels) == 0 {
		p.ensureIndex()
		return
	}
	p.applyPendingMessage()
}

// applyPendingMessage shows the record asked for by showMessageRecord, if
// any.
func (p *recordsPanel) applyPendingMessage() {
	if p.pendingMsg == nil && len(p.levels) == 1 && p.levels[0].sel < 0 && p.link != nil {
		// The list was just read: show where the selected message is.
		if m, ok := p.link.Message(); ok {
			p.followMessage(m)
		}
		return
	}
	if p.pendingMsg == nil || len(p.levels) == 0 {
		return
	}
	loc := *p.pendingMsg
	p.pendingMsg = nil
	selectInner := func() {
		cr, ok := p.level().set.(*model.ChunkRecords)
		if !ok {
			return
		}
		i := sort.Search(cr.Len(), func(i int) bool {
			rec, _ := cr.Record(i)
			return rec.Offset >= int64(loc.Offset)
		})
		if i < cr.Len() && p.level().sel != i {
			// The message is selected already (and the time may be
			// past it): selecting its record must not move the time.
			p.level().sel = i
			p.quiet = true
			p.showLevel()
			p.quiet = false
		}
	}
	if cr, ok := p.level().set.(*model.ChunkRecords); ok && cr.Chunk.Offset == loc.ChunkPos {
		selectInner()
		return
	}
	x, ok := p.levels[0].set.(*model.RecordIndex)
	if !ok {
		return
	}
	i := sort.Search(x.Len(), func(i int) bool { return x.Offset(i) >= loc.ChunkPos })
	if i >= x.Len() || x.Offset(i) != loc.ChunkPos {
		return
	}
	p.levels = p.levels[:1]
	p.levels[0].sel = i
	// Selecting the chunk on the way must not move the cursor off the
	// message.
	p.quiet = true
	p.showLevel()
	p.quiet = false
	p.openChunkThen(selectInner)
}
