package export

import (
	"fmt"
	"slices"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/parquet-go/parquet-go"
)

// Names of the columns every table starts with.
const (
	ColLogTime     = "log_time"     // the log (receive) time
	ColPublishTime = "publish_time" // MCAP's publish time, rosbag2's send time; the log time where the format stores none
	ColHeaderStamp = "header_stamp" // header.stamp, for types with a header
	ColClockTime   = "clock_time"   // the sim time of /clock at the message (Options.Clock)
)

// Limits of a table's schema.
const (
	maxDepth   = 16    // nested messages followed
	maxColumns = 20000 // leaf columns of one table
	// maxExpand is the longest fixed array a CSV spreads over columns of
	// its own; longer ones, and variable arrays, are one JSON cell.
	maxExpand = 64
)

type colKind uint8

const (
	kScalar colKind = iota // a number or bool
	kString                // string, wstring
	kBytes                 // uint8[] and char[]: binary in Parquet, base64 in CSV
	kMsg                   // a message, flattened into its fields
	kTime                  // a ROS 1 time or duration: secs and nsecs, flattened
	kList                  // an array: a Parquet LIST of elem
	kSpread                // CSV: a short fixed array, one column per element
	kJSON                  // CSV: an array as one JSON cell
)

// col is a field of a message definition laid out as columns.
type col struct {
	name     string
	kind     colKind
	vk       rosmsg.Kind // kScalar: the kind read
	leaf     int         // the first leaf column
	leaves   []int       // every leaf column under it (for an empty list's nulls)
	children []*col      // kMsg, kTime: the fields
	elem     *col        // kList: one element
	depth    int         // kList: the repeated levels above its elements, itself included
	n        int         // kSpread: elements
	field    *rosmsg.FieldPlan
}

// layout is a message definition laid out as a table's columns.
type layout struct {
	plan   *rosmsg.Plan
	csv    bool
	top    []*col // the fields of the top-level message
	names  []string
	nleaf  int
	stamp  bool // the type has header.stamp (ColHeaderStamp is a column)
	clock  bool // ColClockTime is a column (nullable: no /clock yet)
	nfixed int  // columns before the message's: times
}

// newLayout lays out plan's fields: for Parquet, arrays as LISTs; for
// CSV, short fixed arrays spread over columns and other arrays as JSON.
func newLayout(plan *rosmsg.Plan, csv, clock bool) (*layout, error) {
	l := &layout{plan: plan, csv: csv, clock: clock}
	l.stamp = hasStamp(plan)
	l.names = []string{ColLogTime, ColPublishTime}
	if l.stamp {
		l.names = append(l.names, ColHeaderStamp)
	}
	if l.clock {
		l.names = append(l.names, ColClockTime)
	}
	l.nfixed = len(l.names)
	l.nleaf = l.nfixed
	top, err := l.fields(plan.Root, "", 0, 0)
	if err != nil {
		return nil, err
	}
	l.top = top
	for _, c := range top {
		l.names = append(l.names, c.namesUnder()...)
	}
	// A field that takes a fixed column's name keeps its own; the fixed
	// column gets a leading underscore.
	for i := 0; i < l.nfixed; i++ {
		for slices.Contains(l.names[l.nfixed:], l.names[i]) {
			l.names[i] = "_" + l.names[i]
		}
	}
	return l, nil
}

func hasStamp(plan *rosmsg.Plan) bool {
	for i := range plan.Root.Fields {
		f := &plan.Root.Fields[i]
		if f.Name != "header" || f.Array || f.Msg == nil {
			continue
		}
		for j := range f.Msg.Fields {
			s := &f.Msg.Fields[j]
			if s.Name == "stamp" && !s.Array && (s.Kind == rosmsg.KindTime || rosmsg.IsTimeMsg(s.Msg)) {
				return true
			}
		}
	}
	return false
}

// fields lays out the fields of m; prefix is the flattened name so far,
// lists the repeated levels above.
func (l *layout) fields(m *rosmsg.MsgPlan, prefix string, depth, lists int) ([]*col, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s nests messages more than %d deep", l.plan.Type, maxDepth)
	}
	out := make([]*col, len(m.Fields))
	for i := range m.Fields {
		c, err := l.field(&m.Fields[i], prefix+m.Fields[i].Name, depth, lists)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// field lays out one field.
func (l *layout) field(f *rosmsg.FieldPlan, name string, depth, lists int) (*col, error) {
	c := &col{name: name, field: f, leaf: l.nleaf}
	if f.Array {
		switch {
		case f.IsBytes():
			c.kind = kBytes
			l.leafCol(c)
		case l.csv && f.Len > 0 && f.Len <= maxExpand && f.Kind != rosmsg.KindMessage && f.Kind != rosmsg.KindTime && f.Kind != rosmsg.KindDuration:
			c.kind, c.n, c.vk = kSpread, f.Len, f.Kind
			for i := 0; i < f.Len; i++ {
				l.leafCol(c)
			}
		case l.csv:
			c.kind = kJSON
			l.leafCol(c)
		default:
			c.kind, c.depth = kList, lists+1
			e, err := l.elem(f, "", depth, lists+1)
			if err != nil {
				return nil, err
			}
			c.elem = e
			c.leaves = e.allLeaves()
		}
		return c, l.check()
	}
	e, err := l.elem(f, name, depth, lists)
	if err != nil {
		return nil, err
	}
	return e, l.check()
}

func (l *layout) check() error {
	if l.nleaf > maxColumns {
		return fmt.Errorf("%s has more than %d columns", l.plan.Type, maxColumns)
	}
	return nil
}

// leafCol adds one leaf column to c.
func (l *layout) leafCol(c *col) {
	c.leaves = append(c.leaves, l.nleaf)
	l.nleaf++
}

// elem lays out one value of field f (not the array): a scalar, a string,
// a time, or a message's fields. Its leaves are not added to names.
func (l *layout) elem(f *rosmsg.FieldPlan, name string, depth, lists int) (*col, error) {
	c := &col{name: name, field: f, leaf: l.nleaf, vk: f.Kind}
	join := func(s string) string {
		if name == "" {
			return s
		}
		return name + "." + s
	}
	switch f.Kind {
	case rosmsg.KindMessage:
		c.kind = kMsg
		for i := range f.Msg.Fields {
			sub, err := l.field(&f.Msg.Fields[i], join(f.Msg.Fields[i].Name), depth+1, lists)
			if err != nil {
				return nil, err
			}
			c.children = append(c.children, sub)
		}
	case rosmsg.KindTime, rosmsg.KindDuration:
		c.kind = kTime
		part := rosmsg.KindUint32
		if f.Kind == rosmsg.KindDuration {
			part = rosmsg.KindInt32
		}
		for _, n := range []string{"secs", "nsecs"} {
			sub := &col{name: join(n), kind: kScalar, vk: part, leaf: l.nleaf}
			sub.leaves = []int{l.nleaf}
			l.nleaf++
			c.children = append(c.children, sub)
		}
	case rosmsg.KindString, rosmsg.KindWString:
		c.kind = kString
		c.leaves = []int{l.nleaf}
		l.nleaf++
	default:
		c.kind = kScalar
		c.leaves = []int{l.nleaf}
		l.nleaf++
	}
	if c.kind == kMsg || c.kind == kTime {
		c.leaves = c.allLeaves()
	}
	return c, nil
}

// allLeaves lists the leaf columns under c.
func (c *col) allLeaves() []int {
	switch c.kind {
	case kMsg, kTime:
		var out []int
		for _, s := range c.children {
			out = append(out, s.allLeaves()...)
		}
		return out
	case kList:
		return c.elem.allLeaves()
	}
	return c.leaves
}

// namesUnder lists the column names of c (a field outside any list):
// a message's fields flattened, a spread array's elements.
func (c *col) namesUnder() []string {
	switch c.kind {
	case kMsg, kTime:
		var out []string
		for _, s := range c.children {
			out = append(out, s.namesUnder()...)
		}
		return out
	case kSpread:
		out := make([]string, c.n)
		for i := range out {
			out[i] = fmt.Sprintf("%s[%d]", c.name, i)
		}
		return out
	}
	return []string{c.name}
}

// parquetSchema is the table's Parquet schema: the time columns, then the
// fields flattened in definition order, arrays as LISTs.
func (l *layout) parquetSchema() *parquet.Schema {
	g := orderedGroup{Group: parquet.Group{}}
	add := func(name string, n parquet.Node) {
		g.Group[name] = n
		g.order = append(g.order, name)
	}
	for i := 0; i < l.nfixed; i++ {
		// Not "adjusted to UTC": DuckDB reads those as TIMESTAMPTZ, in
		// microseconds. The times are UTC nanoseconds all the same.
		n := parquet.TimestampAdjusted(parquet.Nanosecond, false)
		if l.clock && i == l.nfixed-1 {
			n = parquet.Optional(n)
		}
		add(l.names[i], n)
	}
	for _, c := range l.top {
		c.addFlat(add)
	}
	return parquet.NewSchema(l.plan.Type, g)
}

// addFlat adds the columns of c to a group, messages flattened.
func (c *col) addFlat(add func(string, parquet.Node)) {
	switch c.kind {
	case kMsg, kTime:
		for _, s := range c.children {
			s.addFlat(add)
		}
	default:
		add(c.name, c.node())
	}
}

// node is c's Parquet node: a leaf, a LIST, or (an element message) a
// group of its flattened fields.
func (c *col) node() parquet.Node {
	switch c.kind {
	case kString:
		return parquet.String()
	case kBytes:
		return parquet.Leaf(parquet.ByteArrayType)
	case kList:
		return parquet.List(c.elem.node())
	case kMsg, kTime:
		g := orderedGroup{Group: parquet.Group{}}
		c.addFlat(func(name string, n parquet.Node) {
			g.Group[name] = n
			g.order = append(g.order, name)
		})
		return g
	}
	return scalarNode(c.vk)
}

func scalarNode(k rosmsg.Kind) parquet.Node {
	switch k {
	case rosmsg.KindBool:
		return parquet.Leaf(parquet.BooleanType)
	case rosmsg.KindInt8:
		return parquet.Int(8)
	case rosmsg.KindInt16:
		return parquet.Int(16)
	case rosmsg.KindInt32:
		return parquet.Int(32)
	case rosmsg.KindInt64:
		return parquet.Int(64)
	case rosmsg.KindUint8:
		return parquet.Uint(8)
	case rosmsg.KindUint16:
		return parquet.Uint(16)
	case rosmsg.KindUint32:
		return parquet.Uint(32)
	case rosmsg.KindUint64:
		return parquet.Uint(64)
	case rosmsg.KindFloat32:
		return parquet.Leaf(parquet.FloatType)
	}
	return parquet.Leaf(parquet.DoubleType)
}

// orderedGroup is a Parquet group whose fields keep the order they were
// added in (parquet.Group sorts them by name): a table's columns follow
// the message definition.
type orderedGroup struct {
	parquet.Group
	order []string
}

// Fields returns the fields in the order they were added.
func (g orderedGroup) Fields() []parquet.Field {
	fields := g.Group.Fields()
	rank := make(map[string]int, len(g.order))
	for i, n := range g.order {
		rank[n] = i
	}
	out := slices.Clone(fields)
	slices.SortStableFunc(out, func(a, b parquet.Field) int { return rank[a.Name()] - rank[b.Name()] })
	return out
}
