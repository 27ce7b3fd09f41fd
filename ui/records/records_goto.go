package records

import (
	"sort"

	"github.com/bagscope/bagscope/model"
)

// ShowOffset selects, in the file's record list, the record that holds
// file offset off, and scrolls the hex view to it. Before the record index
// is built it starts building it and selects the record when it is done.
func (p *recordsPanel) ShowOffset(off int64) {
	p.pending = off
	p.hasPending = true
	if len(p.levels) == 0 {
		p.ensureIndex()
		return
	}
	p.applyPending()
}

// ensureIndex starts building the record index unless it is built or
// being built.
func (p *recordsPanel) ensureIndex() {
	if p.d.Bag == nil {
		return // not a ROS 1 bag: no records to list yet
	}
	if len(p.levels) == 0 && !p.indexing() {
		p.startIndex()
	}
}

// applyPending selects the record asked for by ShowOffset, if any.
func (p *recordsPanel) applyPending() {
	if !p.hasPending || len(p.levels) == 0 {
		return
	}
	p.hasPending = false
	x, ok := p.levels[0].set.(*model.RecordIndex)
	if !ok || x.Len() == 0 {
		return
	}
	p.levels = p.levels[:1]
	// The last record starting at or before off.
	i := sort.Search(x.Len(), func(i int) bool { return x.Offset(i) > p.pending }) - 1
	if i < 0 {
		i = 0
	}
	p.levels[0].sel = i
	p.showLevel()
	p.hex.ScrollToOffset(p.pending)
}

// indexing reports whether the record index is being built.
func (p *recordsPanel) indexing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cancel != nil
}
