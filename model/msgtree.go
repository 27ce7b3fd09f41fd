package model

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
)

// Array elements a FieldTree lists at first, and how many more each "more"
// row adds. Elements are listed up to the most shown, never all of a
// megabyte image.
const (
	FieldTreeFirst = 100
	FieldTreeMore  = 1000
	// fieldTreeAutoShow bounds how far At opens an array to reach an
	// element; past it At stops at the array.
	fieldTreeAutoShow = 1 << 16
)

// MoreID is the last part of the ID of an array's "more elements" row.
const MoreID = "+"

// FieldTree is a decoded message as a tree with string IDs, for a tree
// widget: the root's ID is "", a child's ID is its parent's, '/', and its
// position ("0/3" is the fourth element or field of the first field). Only
// the first elements of an array are listed (see ShowMore); compact array
// elements are built when asked for.
//
// With Grouped set, an array of numbers or bools lists its elements in
// groups, several to a row (GroupRow), unless SetPerElement asks for one
// row per element.
type FieldTree struct {
	root    *rosmsg.Node
	nodes   map[string]*rosmsg.Node
	shown   map[string]int
	perElem map[string]bool
	keys    map[string][]string // Keys, by array ID

	// Grouped lists the elements of arrays of numbers and bools several
	// to a row.
	Grouped bool
	// enums name integer values by their type's constants (SetEnums).
	enums Enums
}

// NewFieldTree returns the tree of a decoded message.
func NewFieldTree(root *rosmsg.Node) *FieldTree {
	return &FieldTree{root: root, nodes: map[string]*rosmsg.Node{"": root}, shown: map[string]int{}, perElem: map[string]bool{}}
}

// KeepView takes old's choices of how to list arrays (ShowMore,
// SetPerElement), for a message of the same type shown in its place.
func (t *FieldTree) KeepView(old *FieldTree) {
	for id, n := range old.shown {
		t.shown[id] = n
	}
	for id, on := range old.perElem {
		t.perElem[id] = on
	}
}

// Root returns the message node.
func (t *FieldTree) Root() *rosmsg.Node { return t.root }

// ChildID returns the ID of child k of parent.
func ChildID(parent string, k int) string {
	if parent == "" {
		return strconv.Itoa(k)
	}
	return parent + "/" + strconv.Itoa(k)
}

// ParentID returns the ID of id's parent, and id's last part.
func ParentID(id string) (parent, last string) {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[:i], id[i+1:]
	}
	return "", id
}

// Node returns the node of id, or nil for a "more" row or an unknown ID.
func (t *FieldTree) Node(id string) *rosmsg.Node {
	if n, ok := t.nodes[id]; ok {
		return n
	}
	parent, last := ParentID(id)
	p := t.Node(parent)
	k, err := strconv.Atoi(last)
	if p == nil || err != nil || k < 0 {
		return nil
	}
	var n *rosmsg.Node
	switch {
	case k < len(p.Children):
		n = &p.Children[k]
	case p.Array:
		if e, ok := p.Elem(k); ok {
			n = &e
		}
	}
	if n != nil {
		t.nodes[id] = n
	}
	return n
}

// IsBranch reports whether id has children.
func (t *FieldTree) IsBranch(id string) bool {
	if IsGroup(id) {
		return false
	}
	n := t.Node(id)
	if n == nil {
		return false
	}
	if n.Array {
		return n.Len() > 0
	}
	return n.Kind == rosmsg.KindMessage && len(n.Children) > 0
}

// Shown returns how many elements of array id are listed.
func (t *FieldTree) Shown(id string) int {
	n := t.Node(id)
	if n == nil || !n.Array {
		return 0
	}
	s, ok := t.shown[id]
	if !ok {
		s = FieldTreeFirst
	}
	return min(s, n.Len())
}

// Children returns the IDs of id's children: a message's fields, or an
// array's listed elements followed by a "more" row if some are not listed.
func (t *FieldTree) Children(id string) []string {
	n := t.Node(id)
	if n == nil {
		return nil
	}
	count := len(n.Children)
	if n.Array {
		count = t.Shown(id)
	}
	var ids []string
	if t.grouped(id, n) {
		g := GroupSize(n.Kind)
		ids = make([]string, (count+g-1)/g, (count+g-1)/g+1)
		for k := range ids {
			ids[k] = id + "/" + groupID + strconv.Itoa(k)
		}
	} else {
		ids = make([]string, count, count+1)
		for k := range ids {
			ids[k] = ChildID(id, k)
		}
	}
	if n.Array && count < n.Len() {
		ids = append(ids, id+"/"+MoreID) // the root is a message, never an array
	}
	return ids
}

// IsMore reports whether id is an array's "more elements" row.
func IsMore(id string) bool {
	_, last := ParentID(id)
	return last == MoreID
}

// MoreText says what a "more" row would show.
func (t *FieldTree) MoreText(id string) string {
	parent, _ := ParentID(id)
	n := t.Node(parent)
	if n == nil {
		return ""
	}
	left := n.Len() - t.Shown(parent)
	return fmt.Sprintf("… %s more: select to list %s more", human.Count(uint64(left)), human.Count(uint64(min(left, FieldTreeMore))))
}

// ShowMore lists more elements of the array whose "more" row is id.
func (t *FieldTree) ShowMore(id string) {
	parent, _ := ParentID(id)
	t.shown[parent] = t.Shown(parent) + FieldTreeMore
}

// At returns the ID of the deepest listed node whose bytes hold off (an
// offset into the message data), listing more of an array to reach an
// element when it is not too far in. It returns "" when no field holds
// off.
func (t *FieldTree) At(off int) string {
	id, n := "", t.root
	for {
		k := -1
		switch {
		case n.Array:
			k = t.elemAt(id, n, off)
		case n.Kind == rosmsg.KindMessage:
			k = childAt(n.Children, off)
		}
		if k < 0 {
			return id
		}
		if n.Array && t.grouped(id, n) {
			return id + "/" + groupID + strconv.Itoa(k/GroupSize(n.Kind))
		}
		id = ChildID(id, k)
		n = t.Node(id)
		if n == nil {
			parent, _ := ParentID(id)
			return parent
		}
	}
}

// childAt returns the child whose bytes hold off, or -1.
func childAt(cs []rosmsg.Node, off int) int {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].End > off })
	if i < len(cs) && cs[i].Start <= off {
		return i
	}
	return -1
}

// elemAt returns the element of array n (ID id) holding off, listing more
// elements to reach it, or -1.
func (t *FieldTree) elemAt(id string, n *rosmsg.Node, off int) int {
	if n.Len() == 0 {
		return -1
	}
	k := -1
	if len(n.Children) > 0 {
		k = childAt(n.Children, off)
	} else if s, e := n.ElemRange(0); off >= s && e > s {
		k = (off - s) / (e - s)
		if k >= n.Len() {
			k = -1
		}
	}
	if k < 0 {
		return -1
	}
	if k >= t.Shown(id) {
		if k >= fieldTreeAutoShow {
			return -1
		}
		t.shown[id] = (k/FieldTreeMore + 1) * FieldTreeMore
	}
	return k
}

// OpenFirst returns the branches to open so that a first look shows the
// message's fields without opening more than about rows rows: breadth
// first, skipping a branch whose children would not fit and arrays of
// numbers (their value line shows the first ones).
func (t *FieldTree) OpenFirst(rows int) []string {
	n := len(t.Children(""))
	var open []string
	queue := []string{""}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for _, c := range t.Children(id) {
			if !t.IsBranch(c) {
				continue
			}
			cn := t.Node(c)
			if cn.Array && len(cn.Children) == 0 && !(t.grouped(c, cn) && len(t.Children(c)) <= groupsOpened) && !(t.Grouped && t.Keys(c) != nil) {
				continue // numbers, unless few groups or named by keys
			}
			if t.Grouped && isKeyArray(cn) {
				continue // joint names: the keyed rows show them
			}
			k := len(t.Children(c))
			if n+k > rows {
				continue
			}
			n += k
			open = append(open, c)
			queue = append(queue, c)
		}
	}
	return open
}

// Path returns id's field path as plots and "bagscope plot" take it:
// "linear_acceleration.x", "transforms[0].transform.translation.x".
func (t *FieldTree) Path(id string) string {
	if id == "" {
		return ""
	}
	if _, lo, hi, ok := t.Group(id); ok {
		parent, _ := ParentID(id)
		return t.Path(parent) + "[" + strconv.Itoa(lo) + ":" + strconv.Itoa(hi) + "]"
	}
	parent, last := ParentID(id)
	p := t.Node(parent)
	n := t.Node(id)
	if p == nil || n == nil {
		return ""
	}
	pp := t.Path(parent)
	if p.Array {
		return pp + "[" + last + "]"
	}
	if pp == "" {
		return n.Name
	}
	return pp + "." + n.Name
}

// Plottable reports whether id is a single value a plot can show.
func (t *FieldTree) Plottable(id string) bool {
	n := t.Node(id)
	return n != nil && id != "" && !n.Array && n.Kind.Plottable()
}

// FieldName is a node's name in a tree: its field name, or "[i]" for an
// array element.
func FieldName(n *rosmsg.Node) string {
	if n.Index >= 0 && n.Name == "" {
		return "[" + strconv.Itoa(n.Index) + "]"
	}
	return n.Name
}

// groupID starts the last part of a group row's ID: "3/#2" is the third
// group of elements of field 3.
const groupID = "#"

// groupsOpened is how many group rows an array may have for OpenFirst to
// open it.
const groupsOpened = 4

// GroupSize is how many elements of kind k a group row shows.
func GroupSize(k rosmsg.Kind) int {
	switch k {
	case rosmsg.KindFloat32, rosmsg.KindFloat64:
		return 8
	case rosmsg.KindBool, rosmsg.KindInt8, rosmsg.KindUint8:
		return 16
	}
	return 10
}

// IsGroup reports whether id is a row of several array elements.
func IsGroup(id string) bool {
	_, last := ParentID(id)
	return strings.HasPrefix(last, groupID)
}

// Groupable reports whether an array node lists its elements in groups
// when the tree is Grouped: a non-empty array of numbers or bools.
func Groupable(n *rosmsg.Node) bool {
	if n == nil || !n.Array || len(n.Children) > 0 || n.Len() == 0 {
		return false
	}
	switch n.Kind {
	case rosmsg.KindTime, rosmsg.KindDuration, rosmsg.KindString, rosmsg.KindWString, rosmsg.KindMessage:
		return false
	}
	return true
}

// grouped reports whether array n (ID id) lists its elements in groups.
// An array whose elements have keys (joint names) lists them one per row
// with their keys, unless it is long.
func (t *FieldTree) grouped(id string, n *rosmsg.Node) bool {
	if !t.Grouped || !Groupable(n) {
		return false
	}
	if one, ok := t.perElem[id]; ok {
		return !one
	}
	return n.Len() > maxKeyedRows || t.Keys(id) == nil
}

// PerElement reports whether array id of numbers lists one element per
// row although the tree is Grouped.
func (t *FieldTree) PerElement(id string) bool {
	n := t.Node(id)
	return Groupable(n) && !t.grouped(id, n)
}

// SetPerElement lists the elements of array id one per row (on) or in
// groups (off).
func (t *FieldTree) SetPerElement(id string, on bool) { t.perElem[id] = on }

// Group returns the array a group row belongs to and the elements it
// shows, [lo, hi). ok is false when id is not a group row.
func (t *FieldTree) Group(id string) (arr *rosmsg.Node, lo, hi int, ok bool) {
	parent, last := ParentID(id)
	if !strings.HasPrefix(last, groupID) {
		return nil, 0, 0, false
	}
	k, err := strconv.Atoi(last[len(groupID):])
	arr = t.Node(parent)
	if err != nil || k < 0 || !Groupable(arr) {
		return nil, 0, 0, false
	}
	g := GroupSize(arr.Kind)
	lo, hi = k*g, min((k+1)*g, arr.Len())
	if lo >= hi {
		return nil, 0, 0, false
	}
	return arr, lo, hi, true
}

// GroupName is a group row's name: "[16..23]".
func (t *FieldTree) GroupName(id string) string {
	_, lo, hi, ok := t.Group(id)
	if !ok {
		return ""
	}
	return fmt.Sprintf("[%d..%d]", lo, hi-1)
}

// GroupValue is a group row's values, separated by commas.
func (t *FieldTree) GroupValue(id string) string {
	arr, lo, hi, ok := t.Group(id)
	if !ok {
		return ""
	}
	var b strings.Builder
	for i := lo; i < hi; i++ {
		if i > lo {
			b.WriteString(", ")
		}
		e, _ := arr.Elem(i)
		b.WriteString(echo.FieldValue(&e))
	}
	return b.String()
}

// Range returns the byte range of id's node or group row in the message
// data; ok is false for a "more" row or an unknown ID.
func (t *FieldTree) Range(id string) (start, end int, ok bool) {
	if arr, lo, hi, isGroup := t.Group(id); isGroup {
		s, _ := arr.ElemRange(lo)
		_, e := arr.ElemRange(hi - 1)
		return s, e, true
	}
	n := t.Node(id)
	if n == nil {
		return 0, 0, false
	}
	return n.Start, n.End, true
}

// CopyText is what copying id's value gives: a string's text as is, a
// time as secs.nsecs, a number as the tree shows it, a group row's values,
// and a message or an array in `rostopic echo` form.
func (t *FieldTree) CopyText(id string) string {
	if IsGroup(id) {
		return t.GroupValue(id)
	}
	n := t.Node(id)
	if n == nil {
		return ""
	}
	if id == "" {
		return echo.Message(n)
	}
	if n.Array || n.Kind == rosmsg.KindMessage {
		return echo.Field(n)
	}
	switch n.Kind {
	case rosmsg.KindString, rosmsg.KindWString:
		return n.Text()
	case rosmsg.KindTime:
		tm := n.Time()
		return fmt.Sprintf("%d.%09d", tm.Sec, tm.Nsec)
	case rosmsg.KindDuration:
		d := n.Duration()
		ns := int64(d.Sec)*1e9 + int64(d.Nsec)
		sign := ""
		if ns < 0 {
			sign, ns = "-", -ns
		}
		return fmt.Sprintf("%s%d.%09d", sign, ns/1e9, ns%1e9)
	}
	return echo.FieldValue(n)
}

// maxKeyedRows bounds the arrays whose elements are listed one per row
// with their keys although the tree is Grouped.
const maxKeyedRows = 64

// Keys returns the keys of array id's elements, as plot paths read them
// (rosmsg.CompileSelection): the nearest string array named "name",
// "names" or ending in "_names" with as many elements, in the message
// holding the array or in one above it (not leaving an array element);
// for an array of messages, each element's "child_frame_id" or "name".
// nil when the elements have no keys.
func (t *FieldTree) Keys(id string) []string {
	if k, ok := t.keys[id]; ok {
		return k
	}
	keys := t.findKeys(id)
	if t.keys == nil {
		t.keys = map[string][]string{}
	}
	t.keys[id] = keys
	return keys
}

func (t *FieldTree) findKeys(id string) []string {
	arr := t.Node(id)
	if arr == nil || !arr.Array || arr.Len() == 0 || id == "" {
		return nil
	}
	if arr.Kind == rosmsg.KindMessage {
		keys := make([]string, arr.Len())
		for i := range keys {
			e := &arr.Children[i]
			f := e.Field("child_frame_id")
			if f == nil || f.Array || f.Kind != rosmsg.KindString {
				f = e.Field("name")
			}
			if f == nil || f.Array || f.Kind != rosmsg.KindString {
				return nil
			}
			keys[i] = f.Text()
		}
		return keys
	}
	for msgID, _ := ParentID(id); ; msgID, _ = ParentID(msgID) {
		msg := t.Node(msgID)
		if msg == nil || msg.Array {
			return nil
		}
		if k := keyArray(msg, arr); k != nil {
			if k.Len() != arr.Len() {
				return nil
			}
			keys := make([]string, k.Len())
			for i := range keys {
				keys[i] = k.Children[i].Text()
			}
			return keys
		}
		if msgID == "" || msg.Index >= 0 {
			return nil // the top, or an array element: the search stops
		}
	}
}

// keyArray is msg's key array for its field (or descendant) arr: "name",
// else "names", else its one "*_names" string array; nil if none.
func keyArray(msg, arr *rosmsg.Node) *rosmsg.Node {
	var suffixed []*rosmsg.Node
	var names *rosmsg.Node
	for i := range msg.Children {
		c := &msg.Children[i]
		if c == arr || !c.Array || c.Kind != rosmsg.KindString {
			continue
		}
		switch {
		case c.Name == "name":
			return c
		case c.Name == "names":
			names = c
		case strings.HasSuffix(c.Name, "_names"):
			suffixed = append(suffixed, c)
		}
	}
	if names != nil {
		return names
	}
	if len(suffixed) == 1 {
		return suffixed[0]
	}
	return nil
}

// isKeyArray reports whether n is named as a key array is.
func isKeyArray(n *rosmsg.Node) bool {
	return n.Array && n.Kind == rosmsg.KindString && (n.Name == "name" || n.Name == "names" || strings.HasSuffix(n.Name, "_names"))
}

// RowName is id's name in a tree: FieldName, with the element's key after
// its index when its array's elements have keys ("[2] elbow").
func (t *FieldTree) RowName(id string) string {
	n := t.Node(id)
	if n == nil {
		return ""
	}
	name := FieldName(n)
	if n.Index >= 0 && n.Name == "" {
		parent, _ := ParentID(id)
		if keys := t.Keys(parent); n.Index < len(keys) {
			name += " " + keys[n.Index]
		}
	}
	return name
}

// KeyPath is id's path with each array element that has a unique key
// written by its key, as plots take it: "actual.positions[r_elbow_flex_joint]",
// "transforms[base_link].transform.translation.x". It is "" when no
// element on the path has a key.
func (t *FieldTree) KeyPath(id string) string {
	if id == "" || IsGroup(id) || IsMore(id) {
		return ""
	}
	var parts []string
	keyed := false
	for cur := id; cur != ""; {
		parent, last := ParentID(cur)
		p, n := t.Node(parent), t.Node(cur)
		if p == nil || n == nil {
			return ""
		}
		switch {
		case p.Array:
			sel := "[" + last + "]"
			if keys := t.Keys(parent); n.Index >= 0 && n.Index < len(keys) && uniqueKey(keys, n.Index) {
				sel = "[" + quoteKey(keys[n.Index]) + "]"
				keyed = true
			}
			parts = append(parts, sel)
		case parent == "":
			parts = append(parts, n.Name)
		default:
			parts = append(parts, "."+n.Name)
		}
		cur = parent
	}
	if !keyed {
		return ""
	}
	slices.Reverse(parts)
	return strings.Join(parts, "")
}

// uniqueKey reports whether keys[i] appears once in keys.
func uniqueKey(keys []string, i int) bool {
	for j, k := range keys {
		if j != i && k == keys[i] {
			return false
		}
	}
	return true
}

// quoteKey writes a key as a path selector takes it: as is, or as a Go
// quoted string when it holds brackets, quotes, '=', '\' or control
// characters, has outer spaces, is empty or '*', or reads as an index or a
// range (rosmsg's selector rules).
func quoteKey(k string) string {
	if k == "" || k == "*" || k[0] == ' ' || k[len(k)-1] == ' ' {
		return strconv.Quote(k)
	}
	rangeLike := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c < 0x20 || c == 0x7f || c == '[' || c == ']' || c == '"' || c == '=' || c == '\\':
			return strconv.Quote(k)
		case (c < '0' || c > '9') && c != ':':
			rangeLike = false
		}
	}
	if rangeLike {
		return strconv.Quote(k)
	}
	return k
}
