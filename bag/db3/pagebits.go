package db3

import "sync/atomic"

// pageBits is a set of page numbers, safe for concurrent use. A store
// keeps the pages that passed their checks (pageProblem) in one, so that a
// read and the survey running beside it (see healIter) check each page
// once between them: a page's verdict depends only on its bytes and the
// key range its parent gives it, which the read's descent and the
// survey's walk work out alike.
type pageBits []atomic.Uint64

func newPageBits(pages uint32) pageBits { return make(pageBits, pages/64+1) }

// has reports whether page n is in the set (never, for a nil set).
func (b pageBits) has(n uint32) bool {
	if int(n/64) >= len(b) {
		return false
	}
	return b[n/64].Load()&(1<<(n%64)) != 0
}

// add puts page n in the set (a nil set stays empty).
func (b pageBits) add(n uint32) {
	if int(n/64) < len(b) {
		b[n/64].Or(1 << (n % 64))
	}
}

// passedPages returns the store's set of pages that passed their checks.
func (s *Store) passedPages() pageBits {
	s.passedOnce.Do(func() {
		if s.hdr != nil && s.hdr.pageSize > 0 {
			s.passed = newPageBits(uint32(min((s.size+int64(s.hdr.pageSize)-1)/int64(s.hdr.pageSize), 1<<32-1)))
		}
	})
	return s.passed
}
