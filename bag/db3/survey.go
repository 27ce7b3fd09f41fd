package db3

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/bagscope/bagscope/bag"
)

// SQLite reads through much damage without a word (an overwritten cell is
// read as a row), so the pages of a file read through SQLite are checked
// by survey, which walks every page. Opening a file does not run it: a
// folder's file whose counts come from metadata.yaml opens from its
// index and metadata alone, so opening costs what is asked, not the
// file's size. The survey runs, once, when the file is read whole anyway
// or damage is suspected:
//
//   - on open, when the rows were counted (a file without metadata.yaml
//     counts, and so reads, every row), or when treesSound finds an
//     interior page of the messages table wrong;
//   - on the first step of a read of every message, and on Check;
//   - when a read of part of the file (a topic, a time range, one
//     message) meets a page that fails its checks: the fast read checks
//     each page it reads (see fastIter), ReadMessage the pages on the
//     way to its row.
//
// A survey that finds damage hands the store over to a rescue of the
// file from its pages (rescueFor), as Open reads a file SQLite refuses;
// a read under way goes on from the rescued rows after the last message
// it gave (healIter).

// survey walks the pages of a file (see pageMap) and returns an error
// naming the first damage it finds: a page that fails its structural
// checks, a page no structure explains, a tree that reaches a page twice
// or past the file. A file merged with its WAL or journal is not
// surveyed: its own pages are not the database. Its memory does not grow
// with the file: it keeps a byte per page.
func (s *Store) survey(path string) error {
	if side, _ := sideFiles(path, s.hdr); side != "" || !s.hdr.magicOK {
		return nil
	}
	pm := newPageMap(s.r, s.size, s.hdr)
	pm.checkOnly = true
	if pm.p.pageSize == s.hdr.pageSize && pm.p.usable == s.hdr.pageSize-s.hdr.reserved {
		pm.passed = s.passedPages()
	}
	pm.build(nil)
	var problems []damage
	problems = append(problems, pm.damaged...)
	for n, why := range pm.unsound {
		problems = append(problems, damage{page: n, off: pm.p.offset(n), why: why})
	}
	for i, pi := range pm.pages {
		if pi.kind == kindUnknown {
			n := uint32(i + 1)
			problems = append(problems, damage{page: n, off: pm.p.offset(n), why: fmt.Sprintf("page %d is neither a b-tree page nor reached from one", n)})
		}
	}
	if len(problems) == 0 {
		return nil
	}
	// By offset, then page and why: the first is named, and the unsound
	// pages come from a map.
	slices.SortFunc(problems, func(a, b damage) int {
		return cmp.Or(cmp.Compare(a.off, b.off), cmp.Compare(a.page, b.page), cmp.Compare(a.why, b.why))
	})
	p := problems[0]
	more := ""
	if len(problems) > 1 {
		more = fmt.Sprintf(" (and %d more problems)", len(problems)-1)
	}
	return &FormatError{Offset: p.off, Page: p.page, Msg: fmt.Sprintf("%s%s: the pages show damage SQLite would read through", p.why, more), Err: ErrMalformed}
}

// surveyed runs the survey of a store read through SQLite, once, and
// returns the rescue that replaces the store when it finds damage (nil
// when it finds none, or the store is not read through SQLite).
func (s *Store) surveyed() *Store {
	if s.sq == nil || s.sq.sidePath != "" {
		return nil
	}
	s.surveyOnce.Do(func() {
		if bad := s.survey(s.path); bad != nil {
			s.swapTo(bad)
		}
		s.surveyDone.Store(true)
	})
	return s.swap.Load()
}

// swapTo hands the store over to a rescue of its file from its pages, for
// reason, once; reads from then on go to the rescue.
func (s *Store) swapTo(reason error) {
	s.swapOnce.Do(func() {
		r := &Store{r: s.r, size: s.size, path: s.path, hdr: s.hdr, byID: map[uint32]*bag.Connection{}, compression: s.compression}
		r.warnings = append(r.warnings, s.sq.warnings...)
		if s.sq.sidePath != "" {
			r.warnings = append(r.warnings, fmt.Errorf("the rows of the %s beside the file are not rescued: only the file's own pages are read", s.sq.sideKind))
		}
		if r.loadRescue(reason) == nil {
			s.swap.Store(r)
		}
	})
}

// SurveyedOnOpen reports that the file's pages are checked as they are
// read (see survey.go: a read of every message surveys them all first),
// or that the file was read from its pages: bag.Survey and the commands
// then run no doctor (SQLite's integrity check, a read of the whole file)
// on it. A file merged with its WAL or journal is not surveyed: the
// doctor runs.
func (s *Store) SurveyedOnOpen() bool { return s.sq == nil || s.sq.sidePath == "" }
