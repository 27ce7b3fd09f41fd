package plots

import (
	"context"
	"fmt"
	"image/color"
	"sort"

	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// plotSeries is one series of a plot panel: the path as the user gave it,
// the extracted columns once they are in, and how it is shown. It is one
// of four kinds:
//   - a field path (expr nil, xy false): ms holds its extracted columns;
//   - a derived series (expr set): its leaves' fields are extracted into
//     leaves and derived computes expr from them;
//   - an XY path (xy set): the leaves of xExpr and yExpr are extracted and
//     path pairs the two on the nearest time;
//   - a computed series (computed set): points another view computed
//     (View.AddComputed), in derived, named by path, never read again.
//
// Whenever the leaves are extracted again (another time base, a reload),
// compute derives the series or path from them anew.
type plotSeries struct {
	path   string
	ref    series.FieldRef
	ms     *series.Series // nil until extracted
	color  color.RGBA
	hidden bool
	// dec is the decimation buffer, reused between redraws.
	dec plot.Series
	// detail is, when ms is reduced, the points of the window in view.
	detail detailState

	// Derived series and XY paths.
	expr         *plot.Expr
	xExpr, yExpr *plot.Expr
	refs         []series.FieldRef // the leaves' fields, in expression order
	leaves       []*series.Series  // their columns, once extracted
	derived      *plot.Series      // computed from leaves, or given
	computed     bool
	xy           *plot.XY // computed from leaves
	decXY        plot.XY

	// Extraction: gen tells a finished job whether it is still wanted;
	// cancel is set while one runs.
	gen         int
	cancel      context.CancelFunc
	done, total int64
	err         error
}

// isXY reports whether s is an XY path.
func (s *plotSeries) isXY() bool { return s.xExpr != nil }

// isDerived reports whether s is computed from other fields, or given
// computed.
func (s *plotSeries) isDerived() bool { return s.expr != nil || s.computed }

// loading reports whether the series is being extracted.
func (s *plotSeries) loading() bool { return s.cancel != nil }

// ready reports whether the series has its points.
func (s *plotSeries) ready() bool {
	switch {
	case s.isXY():
		return s.xy != nil
	case s.isDerived():
		return s.derived != nil
	}
	return s.ms != nil
}

// points is the number of points drawn.
func (s *plotSeries) points() int {
	switch {
	case s.xy != nil:
		return len(s.xy.T)
	case s.derived != nil:
		return len(s.derived.T)
	case s.ms != nil && s.ms.Reduced():
		return s.ms.Points
	case s.ms != nil:
		return s.ms.Len()
	}
	return 0
}

// times returns the first and last point's time; ok is false without points.
func (s *plotSeries) times() (t0, t1 int64, ok bool) {
	var t []int64
	switch {
	case s.xy != nil:
		t = s.xy.T
	case s.derived != nil:
		t = s.derived.T
	case s.ms != nil:
		if n := s.ms.Len(); n > 0 {
			return s.ms.Time(0), s.ms.Time(n - 1), true
		}
	}
	if len(t) == 0 {
		return 0, 0, false
	}
	return t[0], t[len(t)-1], true
}

// name is the series' label.
func (s *plotSeries) name() string {
	switch {
	case s.isXY():
		return s.xExpr.String() + " vs " + s.yExpr.String()
	case s.computed:
		return s.path
	case s.isDerived():
		return s.expr.String()
	case s.ms != nil:
		return s.ms.Name
	}
	return s.ref.String()
}

// key tells series apart: the field, or the canonical expression.
func (s *plotSeries) key() string {
	if s.isXY() || s.isDerived() {
		return s.name()
	}
	return s.ref.String()
}

// data is the columns of a field path or a derived series as a plot series
// (shared, not copied).
func (s *plotSeries) data() plot.Series {
	switch {
	case s.derived != nil:
		d := *s.derived
		d.Color = s.color
		return d
	case s.ms != nil:
		m := s.shown()
		return plot.Series{Name: s.ms.Name, T: m.T, C: m.C, V: m.V, Color: s.color, SuspectT: m.SuspectT, SuspectV: m.SuspectV}
	}
	return plot.Series{Name: s.name(), Color: s.color}
}

// xyData is an XY path's points.
func (s *plotSeries) xyData() plot.XY {
	if s.xy == nil {
		return plot.XY{Name: s.name(), Color: s.color}
	}
	p := *s.xy
	p.Color = s.color
	return p
}

// stop cancels a running extraction and read of the window in view.
func (s *plotSeries) stop() {
	s.detail.stop()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.gen++
}

// fields is what an extraction of s reads.
func (s *plotSeries) fields() []series.FieldRef {
	if s.computed {
		return nil
	}
	if s.expr == nil && s.xExpr == nil {
		return []series.FieldRef{s.ref}
	}
	return s.refs
}

// setLeaves takes the extracted columns of s's leaves (one series per
// field, in the order of refs) and computes the derived series or path.
func (s *plotSeries) setLeaves(set []*series.Series) error {
	if len(set) != len(s.refs) {
		return fmt.Errorf("each path of %s must name one value, but one selects %d elements or none: give an index or a key", s.name(), len(set))
	}
	for i, ms := range set {
		if ms.Ref.Topic != s.refs[i].Topic {
			return fmt.Errorf("each path of %s must name one value: give an index or a key", s.name())
		}
	}
	s.leaves = set
	return s.compute()
}

// compute derives the series or path from the leaves' columns.
func (s *plotSeries) compute() error {
	byPath := map[string]plot.Series{}
	for i, ref := range s.refs {
		ms := s.leaves[i]
		byPath[ref.String()] = plot.Series{Name: ms.Name, T: ms.T, C: ms.C, V: ms.V}
	}
	leaf := func(p string) (plot.Series, bool) {
		r, ok := s.leafRef(p)
		if !ok {
			return plot.Series{}, false
		}
		v, ok := byPath[r.String()]
		return v, ok
	}
	if s.isXY() {
		x, err := s.xExpr.Eval(leaf)
		if err != nil {
			return err
		}
		y, err := s.yExpr.Eval(leaf)
		if err != nil {
			return err
		}
		p := plot.JoinXY(x, y)
		s.xy = &p
		return nil
	}
	d, err := s.expr.Eval(leaf)
	if err != nil {
		return err
	}
	s.derived = &d
	return nil
}

// leafPaths are the typed paths of s's leaves, in the order of refs.
func (s *plotSeries) leafPaths() []string {
	var out []string
	for _, e := range []*plot.Expr{s.expr, s.xExpr, s.yExpr} {
		if e == nil {
			continue
		}
		for _, p := range e.Paths() {
			if !containsStr(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// leafRef is the field a typed leaf path resolved to.
func (s *plotSeries) leafRef(path string) (series.FieldRef, bool) {
	for i, p := range s.leafPaths() {
		if p == path && i < len(s.refs) {
			return s.refs[i], true
		}
	}
	return series.FieldRef{}, false
}

// pointOf finds the extracted point behind the drawn point at time t: the
// series itself for a field path, else the first leaf with a point at
// exactly t (a derived point or an XY point shares its time with one).
func (s *plotSeries) pointOf(t int64) (*series.Series, int, bool) {
	cands := s.leaves
	if s.ms != nil {
		cands = []*series.Series{s.ms}
	}
	for _, ms := range cands {
		n := ms.Len()
		i := sort.Search(n, func(k int) bool { return ms.Time(k) >= t })
		if i < n && ms.Time(i) == t {
			return ms, i, true
		}
	}
	return nil, 0, false
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
