package db3

import (
	"fmt"
	"sort"
)

// survey walks the pages of a file before SQLite opens it (see pageMap) and
// returns an error naming the first damage it finds: a page that fails
// its structural checks, a page no structure explains, a tree that
// reaches a page twice or past the file. SQLite reads through much of
// such damage without a word (an overwritten cell is read as a row), so
// a file with any is read page by page instead, where every row of a
// damaged page is marked. A file merged with its WAL or journal is not
// surveyed: its own pages are not the database.
func (s *Store) survey(path string) error {
	if side, _ := sideFiles(path, s.hdr); side != "" || !s.hdr.magicOK {
		return nil
	}
	pm := newPageMap(s.r, s.size, s.hdr)
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
	sort.Slice(problems, func(i, j int) bool { return problems[i].off < problems[j].off })
	p := problems[0]
	more := ""
	if len(problems) > 1 {
		more = fmt.Sprintf(" (and %d more problems)", len(problems)-1)
	}
	return &FormatError{Offset: p.off, Page: p.page, Msg: fmt.Sprintf("%s%s: the pages show damage SQLite would read through", p.why, more), Err: ErrMalformed}
}

// SurveyedOnOpen reports that opening checked every page (see survey):
// bag.Survey runs no doctor (SQLite's integrity check) on the file.
func (s *Store) SurveyedOnOpen() bool { return s.sq == nil || s.sq.sidePath == "" }
