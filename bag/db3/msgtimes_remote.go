package db3

import (
	"context"
	"encoding/binary"

	"github.com/bagscope/bagscope/bag"
)

// A remote file's message times (issue 25). The walk of fastTimes reads
// the messages table's pages one by one, depth first, through read-ahead
// windows: over a network those windows fetch every page between two
// leaves as well (the overflow pages of large rows, the timestamp index's
// pages), and each interior page is a round trip of its own. remoteTimes
// walks the tree a level at a time instead: each level's pages, in key
// order, are fetched together (bag.PrefetchHeldApart: a few multi-range
// requests per batch, the next batch in flight while one is read), and
// only the table's own pages are fetched. The timestamp index would give
// the times without the leaves, but not the topics, which the message
// index needs; each leaf is read whole, as a row's topic and timestamp
// lie in its cell, all over the page.

// tableRef is a page of the messages table and the row ids its parent
// says it may hold.
type tableRef struct {
	n    uint32
	keys keyRange
}

// batchBytes is how many bytes of pages remoteTimes fetches together: two
// batches (the one read and the next, in flight) stay well within a
// remote file's prefetch budget.
const batchBytes = 4 << 20

// remoteTimes is fastTimes for a remote file (see above): the same rows
// in the same order, the same checks, the same hand-over to SQL.
func (s *Store) remoteTimes(ctx context.Context, fp *fastPlan, emit func(topic, ts, id int64) bool) error {
	p := *fp.p
	p.ra = nil // the prefetched pages are read one by one
	check := s.surveyPending()
	var ro rowOrder
	level := []tableRef{{n: fp.table}}
	for depth := 1; len(level) > 0; depth++ {
		if depth > 40 {
			return unexpected("table deeper than 40 pages")
		}
		var next []tableRef
		leaves, interiors := 0, 0
		stopped := false
		err := s.eachPage(ctx, &p, level, func(r tableRef, pg []byte) error {
			hoff := headerOffset(r.n)
			h, ok := parseBtreeHeader(pg, hoff, p.usable)
			if !ok || (h.typ != pageTableLeaf && h.typ != pageTableInterior) {
				return unexpected("table page %d is not a table b-tree page", r.n)
			}
			if hoff+h.size+2*h.cells > len(pg) {
				return unexpected("table page %d cut", r.n)
			}
			if check {
				if why := p.pageProblem(pg, r.n, hoff, h, r.keys); why != "" {
					return pageDamage(why)
				}
			}
			if h.typ == pageTableLeaf {
				// A b-tree's leaves all lie at one depth: the rows come
				// in row id order only if no interior page shares it.
				if leaves++; interiors > 0 {
					return unexpected("table leaf page %d beside interior pages", r.n)
				}
				stop, err := ro.leaf(ctx, &p, pg, hoff, h, emit)
				if stop && err == nil {
					stopped = true
					return errStop
				}
				return err
			}
			if interiors++; leaves > 0 {
				return unexpected("table interior page %d beside leaf pages", r.n)
			}
			var prev int64
			hasPrev := false
			for j := 0; j < h.cells; j++ {
				c, err := p.parseCell(pg, pageTableInterior, int(binary.BigEndian.Uint16(pg[hoff+h.size+2*j:])))
				if err != nil {
					return unexpected("table interior cell: %v", err)
				}
				if c.Child == 0 {
					return unexpected("table interior page without a child")
				}
				next = append(next, tableRef{n: c.Child, keys: r.keys.child(prev, hasPrev, c.RowID)})
				prev, hasPrev = c.RowID, true
			}
			if h.rightChild == 0 {
				return unexpected("table interior page without a child")
			}
			keys := r.keys
			if hasPrev {
				keys = keyRange{lo: prev, hasLo: true, hi: r.keys.hi, hasHi: r.keys.hasHi}
			}
			next = append(next, tableRef{n: h.rightChild, keys: keys})
			return nil
		})
		if stopped {
			return nil
		}
		if err != nil || leaves > 0 {
			return err
		}
		level = next
	}
	return nil
}

// errStop ends eachPage when its function asks to stop.
var errStop = unexpected("stop")

// eachPage reads the pages refs in turn and hands each to fn, fetching
// them batchBytes at a time ahead of the reads, the next batch while fn
// reads one. It stops at fn's first error, and with ctx's.
func (s *Store) eachPage(ctx context.Context, p *pager, refs []tableRef, fn func(tableRef, []byte) error) error {
	per := max(batchBytes/p.pageSize, 1)
	fetch := func(batch []tableRef) (release func()) {
		offs, lens := make([]int64, len(batch)), make([]int64, len(batch))
		for i, r := range batch {
			offs[i], lens[i] = p.offset(max(r.n, 1)), int64(p.pageSize)
		}
		// Only the table's pages: the single pages of the timestamp
		// index between them cost more than a multi-range part.
		return bag.PrefetchHeldApart(p.r, offs, lens, 0)
	}
	type fetched struct{ release func() }
	var ahead chan fetched
	start := func(from int) {
		if from >= len(refs) {
			ahead = nil
			return
		}
		batch := refs[from:min(from+per, len(refs))]
		ch := make(chan fetched, 1)
		go func() { ch <- fetched{fetch(batch)} }()
		ahead = ch
	}
	start(0)
	defer func() {
		if ahead != nil {
			(<-ahead).release()
		}
	}()
	var buf []byte
	for from := 0; from < len(refs); from += per {
		cur := <-ahead
		ahead = nil
		start(from + per)
		err := func() error {
			defer cur.release()
			for _, r := range refs[from:min(from+per, len(refs))] {
				if err := ctx.Err(); err != nil {
					return err
				}
				pg, err := p.page(r.n, buf)
				if err != nil {
					return unexpected("table page %d: %v", r.n, err)
				}
				buf = pg
				if err := fn(r, pg); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}
