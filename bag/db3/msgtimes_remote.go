package db3

import (
	"context"
	"encoding/binary"
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
// index needs. A leaf is read in parts where they are worth it: its
// header, cell pointers and each cell's first bytes (msgtimes_partial.go).

// tableRef is a page of the messages table and the row ids its parent
// says it may hold.
type tableRef struct {
	n    uint32
	keys keyRange
}

// batchBytes is how many bytes of pages remoteTimes fetches together:
// the pages' bytes are copied out of the prefetched ones as soon as they
// arrive, so the batches in flight stay well within a remote file's
// prefetch budget.
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
// them a batch at a time ahead of the reads (fetchPages: whole, or a
// leaf's parts the walk reads), aheadBatches batches in flight while fn
// reads one. A large level's first batch is a sample of smallLevel pages
// read in parts where they are worth it; the batches after it start when
// it is read, as it says (then each as the last one read says). It stops
// at fn's first error, and with ctx's.
func (s *Store) eachPage(ctx context.Context, p *pager, refs []tableRef, fn func(tableRef, []byte) error) error {
	per := max(batchBytes/p.pageSize, 1)
	type batch struct {
		refs []tableRef
		ch   chan []pageRead
		st   *batchStats
	}
	var last batchStats // a small level is read whole
	sampling := len(refs) >= smallLevel
	if sampling {
		last = batchStats{leaves: 1, partial: 1, maxCells: 64}
	}
	var ahead []batch
	next := 0
	start := func(n int) {
		if next >= len(refs) {
			return
		}
		b := batch{refs: refs[next:min(next+n, len(refs))], ch: make(chan []pageRead, 1), st: new(batchStats)}
		next += len(b.refs)
		partial, est := last.partialFirst(), max(last.maxCells+8, 16)
		go func() {
			reads, st := s.fetchPages(ctx, p, b.refs, partial, est)
			*b.st = st
			b.ch <- reads
		}()
		ahead = append(ahead, b)
	}
	defer func() {
		for _, b := range ahead {
			<-b.ch
		}
	}()
	if sampling {
		start(smallLevel)
	} else {
		for range aheadBatches {
			start(per)
		}
	}
	var buf []byte
	for len(ahead) > 0 {
		cur := ahead[0]
		reads := <-cur.ch
		ahead = ahead[1:]
		if cur.st.leaves > 0 {
			last = *cur.st
		}
		for len(ahead) < aheadBatches && next < len(refs) {
			start(per)
		}
		for k, r := range cur.refs {
			if err := ctx.Err(); err != nil {
				return err
			}
			pg := reads[k].pg
			if reads[k].err {
				var err error
				if pg, err = p.page(r.n, buf); err != nil {
					return unexpected("table page %d: %v", r.n, err)
				}
				buf = pg
			}
			if err := fn(r, pg); err != nil {
				return err
			}
		}
	}
	return nil
}

// aheadBatches is how many batches eachPage keeps in flight: a batch
// read in parts takes a few round trips, in requests of its own.
const aheadBatches = 3
