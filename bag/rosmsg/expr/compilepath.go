package expr

import (
	"errors"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// bareTopic drops a leading slash, so "rosout" and "/rosout" compare equal.
func bareTopic(s string) string { return strings.TrimPrefix(s, "/") }

// splitTopic splits a topic path into the topic of topics it starts with
// (the longest) and its field path.
func splitTopic(s string, topics []string) (topic, field string, ok bool) {
	bs := bareTopic(s)
	best := -1
	for _, t := range topics {
		bt := bareTopic(t)
		if len(bs) > len(bt)+1 && strings.HasPrefix(bs, bt) && bs[len(bt)] == '.' && len(bt) > best {
			topic, field, best = t, bs[len(bt)+1:], len(bt)
		}
	}
	return topic, field, best >= 0
}

// Topic returns the topic the expression's paths name ("/imu" of
// "/imu.linear_acceleration.x > 3"), "" when none does. Every path that
// starts with '/' must name one of topics, and all the same one: an
// expression reads one message at a time.
func (e *Expr) Topic(topics []string) (string, error) {
	var topic string
	var first *ast
	var err *Error
	e.root.visit(func(a *ast) {
		if err != nil || a.kind != aPath || !strings.HasPrefix(a.text, "/") {
			return
		}
		t, _, ok := splitTopic(a.text, topics)
		if !ok {
			err = errAt(a.pos, a.end-a.pos, "%s names no topic of the recording followed by a field", a.text)
			name := a.text
			if i := strings.IndexByte(name, '.'); i > 0 {
				name = name[:i]
			}
			err.Suggest = rosmsg.SuggestPaths(name, topics)
			if len(err.Suggest) == 0 {
				err.Msg += " (the topics are " + strings.Join(topics, ", ") + ")"
			}
			return
		}
		switch {
		case first == nil:
			topic, first = t, a
		case t != topic:
			err = errAt(a.pos, a.end-a.pos, "%s names topic %s, but %s names %s: an expression reads one message at a time, of one topic", a.text, t, first.text, topic)
		}
	})
	if err != nil {
		return "", err
	}
	return topic, nil
}

// Uses reports whether the expression reads a time term ("@clock";
// aliases count as their term).
func (e *Expr) Uses(term string) bool {
	found := false
	e.root.visit(func(a *ast) {
		if a.kind == aPath && timeTerms[a.text] == term {
			found = true
		}
	})
	return found
}

func (a *ast) visit(fn func(*ast)) {
	fn(a)
	for _, x := range a.args {
		x.visit(fn)
	}
}

// path compiles a field path, a topic path, an @term or a constant.
func (c *compiler) path(a *ast) (cnode, *Error) {
	text := a.text
	pos := a.pos
	if strings.HasPrefix(text, "@") {
		return c.timeTerm(a)
	}
	if strings.HasPrefix(text, "/") {
		bt := bareTopic(c.topic)
		bs := bareTopic(text)
		if c.topic == "" || !strings.HasPrefix(bs, bt+".") {
			return cnode{}, errAt(a.pos, a.end-a.pos, "%s is not a field of topic %s", text, c.topic)
		}
		cut := len(text) - len(bs) + len(bt) + 1
		text, pos = text[cut:], pos+cut
	}
	w, err := c.resolve(text, pos, a.end)
	if err != nil {
		if !strings.ContainsAny(text, ".[") {
			if k, ok := c.constant(text); ok {
				return k, nil
			}
		}
		return cnode{}, err
	}
	return c.term(text, w, a)
}

// term wraps a resolved walk as a node of the type its leaf reads.
func (c *compiler) term(name string, w *walk, a *ast) (cnode, *Error) {
	id := c.termID(name, w)
	n := &termNode{id: id, w: w, fast: c.fastPath(w)}
	c.noteUses(w, a)
	switch w.leaf.kind {
	case lString:
		return cnode{n: n, t: tyStr, w: w}, nil
	case lMsg:
		return cnode{n: n, t: tyMsg, w: w}, nil
	case lArray:
		return cnode{n: n, t: tyArray, w: w}, nil
	case lScalar:
		if w.leaf.vk == rosmsg.KindBool && w.leaf.part == 0 {
			return cnode{n: n, t: tyBool, w: w}, nil
		}
	}
	return cnode{n: n, t: tyNum, w: w}, nil
}

// fastPath returns 1 + the index in the program's fast set of the
// rosmsg.Path that reads a walk from the message's start through fields
// and indices to a number or bool (fixed fields skipped by offset, the
// rest by their lengths only), or 0 for any other walk.
func (c *compiler) fastPath(w *walk) int {
	if w.leaf.kind != lScalar || w.leaf.part != 0 || !scalarKind(w.leaf.vk) {
		return 0
	}
	text, ok := plainPath(w)
	if !ok {
		return 0
	}
	return c.fastID(text, w.leaf.vk)
}

// plainPath writes a walk from the message's start through fields and
// indices as a rosmsg path; ok is false for any other walk. The path is
// compiled strict (rosmsg.CompileStrictPath): the walk reads an array
// only when all of it is in the data, where a plain rosmsg.Path needs the
// elements up to the index only, so a cut message would read differently.
// Only arrays whose elements the walk steps over by a stride are indexed
// (Cursor.Stride): elsewhere the walk counts its steps against MaxSteps.
func plainPath(w *walk) (string, bool) {
	if w.base >= 0 || w.keyed {
		return "", false
	}
	var b strings.Builder
	for i, st := range w.steps {
		switch st.kind {
		case sField:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.m.Fields[st.k].Name)
		case sIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(st.idx))
			b.WriteByte(']')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// scalarKind reports whether k is a number or bool read whole by
// scalarVal.
func scalarKind(k rosmsg.Kind) bool {
	switch k {
	case rosmsg.KindBool, rosmsg.KindInt8, rosmsg.KindUint8, rosmsg.KindInt16, rosmsg.KindUint16,
		rosmsg.KindInt32, rosmsg.KindUint32, rosmsg.KindInt64, rosmsg.KindUint64, rosmsg.KindFloat32, rosmsg.KindFloat64:
		return true
	}
	return false
}

// noteUses records the vars a walk reads from, in the current scope.
func (c *compiler) noteUses(w *walk, a *ast) {
	for v := w.base; v >= 0; v = c.prog.vars[v].parent {
		c.uses[v] = append(c.uses[v], use{scope: c.cur, pos: a.pos, end: a.end})
		c.nuses++
	}
}

// termID returns the id of the term named name, adding it.
func (c *compiler) termID(name string, w *walk) int {
	if id, ok := c.prog.termIDs[name]; ok {
		return id
	}
	id := len(c.prog.terms)
	t := termInfo{name: name}
	if w != nil {
		for v := w.base; v >= 0; v = c.prog.vars[v].parent {
			t.chain = append([]int{v}, t.chain...)
		}
		// Where each var's selector sits in the name, to write it
		// concretely.
		for _, v := range t.chain {
			vt := c.prog.vars[v].text
			b := strings.LastIndexByte(vt, '[')
			t.brackets = append(t.brackets, [2]int{b, len(vt)})
		}
	}
	c.prog.terms = append(c.prog.terms, t)
	c.prog.termIDs[name] = id
	return id
}

func (c *compiler) timeTerm(a *ast) (cnode, *Error) {
	name, ok := timeTerms[a.text]
	if !ok {
		e := errAt(a.pos, a.end-a.pos, "unknown time term %s: the terms are @log, @publish (@send), @stamp, @t, @clock, @topic and @type", a.text)
		names := make([]string, 0, len(timeTerms))
		for k := range timeTerms {
			names = append(names, k)
		}
		e.Suggest = rosmsg.SuggestPaths(a.text, names)
		return cnode{}, e
	}
	if name == "@stamp" {
		for _, p := range []string{"header.stamp", "stamp"} {
			if w, err := c.resolve(p, a.pos, a.end); err == nil && (w.leaf.kind == lTimeMsg || w.leaf.kind == lScalar && w.leaf.vk == rosmsg.KindTime && w.leaf.part == 0) {
				id := c.termID("@stamp", w)
				return cnode{n: &termNode{id: id, w: w}, t: tyNum}, nil
			}
		}
		return cnode{}, errAt(a.pos, a.end-a.pos, "@stamp: %s has no header.stamp", c.plan.Type)
	}
	t := tyNum
	if name == "@topic" || name == "@type" {
		t = tyStr
	}
	return cnode{n: &timeNode{id: c.termID(name, nil), what: name}, t: t}, nil
}

// resolve compiles field path text, found at [pos, end) of the source, to
// a walk; it registers the vars its [*] and ranges open.
func (c *compiler) resolve(text string, pos, end int) (*walk, *Error) {
	segs, perr := rosmsg.ParsePath(text)
	if perr != nil {
		var re *rosmsg.Error
		msg := perr.Error()
		if errors.As(perr, &re) {
			msg = re.Msg
		}
		return nil, errAt(pos, end-pos, "bad field path %s: %s", text, msg)
	}
	w := &walk{base: -1}
	cur := c.plan.Root
	var levels []*rosmsg.MsgPlan
	var entered []bool // the level was entered through an array element
	inElem := false
	segErr := func(sg rosmsg.PathSegment, format string, args ...any) *Error {
		return errAt(pos+sg.Offset, sg.End-sg.Offset, format, args...)
	}
	for i, sg := range segs {
		k := findField(cur, sg.Name)
		if k < 0 {
			e := errAt(pos+sg.Offset, len(sg.Name), "%s has no field %s", cur.Type, sg.Name)
			e.Suggest = rosmsg.SuggestPaths(text, c.candidates())
			if len(e.Suggest) == 0 {
				e.Suggest = fieldNames(cur)
			}
			return nil, e
		}
		f := &cur.Fields[k]
		w.steps = append(w.steps, step{kind: sField, m: cur, k: k})
		level := len(levels)
		levels = append(levels, cur)
		entered = append(entered, inElem)
		inElem = false
		last := i == len(segs)-1
		switch {
		case sg.Bracketed && !f.Array:
			return nil, errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, "%s is not an array", sg.Name)
		case sg.Bracketed:
			inElem = true
			switch sg.Kind {
			case rosmsg.SelectIndex:
				if f.Len >= 0 && sg.Index >= f.Len {
					return nil, errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, "index %d is beyond %s (%s)", sg.Index, sg.Name, f.Type)
				}
				if f.Bound > 0 && sg.Index >= f.Bound {
					return nil, errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, "index %d is beyond %s (%s)", sg.Index, sg.Name, f.Type)
				}
				w.steps = append(w.steps, step{kind: sIndex, f: f, idx: sg.Index})
			case rosmsg.SelectAll, rosmsg.SelectRange:
				v, err := c.varFor(text[:sg.End], w, f, sg, pos)
				if err != nil {
					return nil, err
				}
				w = &walk{base: v.id}
				levels, entered = nil, nil
			case rosmsg.SelectKey, rosmsg.SelectMatch:
				st, err := c.keyStep(f, sg, levels, entered, level, pos)
				if err != nil {
					return nil, err
				}
				w.steps = append(w.steps, st)
				w.keyed = w.keyed || st.kind == sKey
			}
		case f.Array:
			if !last {
				return nil, segErr(sg, "%s is an array: give an index (%s[0]), every element (%s[*]) or a key", sg.Name, sg.Name, sg.Name)
			}
			w.leaf = leaf{kind: lArray, field: f, msg: f.Msg}
			return w, nil
		}
		if f.Kind == rosmsg.KindMessage {
			if last {
				if rosmsg.IsTimeMsg(f.Msg) {
					w.leaf = leaf{kind: lTimeMsg, field: f, msg: f.Msg}
				} else {
					w.leaf = leaf{kind: lMsg, field: f, msg: f.Msg}
				}
				return w, nil
			}
			cur = f.Msg
			continue
		}
		rest := segs[i+1:]
		switch {
		case last && (f.Kind == rosmsg.KindString || f.Kind == rosmsg.KindWString):
			w.leaf = leaf{kind: lString, field: f, vk: f.Kind}
		case last:
			w.leaf = leaf{kind: lScalar, field: f, vk: f.Kind}
		case len(rest) == 1 && !rest[0].Bracketed && (f.Kind == rosmsg.KindTime || f.Kind == rosmsg.KindDuration):
			part := map[string]uint8{"secs": 1, "sec": 1, "nsecs": 2, "nanosec": 2}[rest[0].Name]
			if part == 0 {
				return nil, segErr(rest[0], "a %s has secs and nsecs, not %s", f.Kind, rest[0].Name)
			}
			w.leaf = leaf{kind: lScalar, field: f, vk: f.Kind, part: part}
		default:
			return nil, segErr(rest[0], "%s is a %s, not a message", sg.Name, f.Kind)
		}
		return w, nil
	}
	return nil, errAt(pos, end-pos, "bad field path %s", text)
}

func findField(m *rosmsg.MsgPlan, name string) int {
	for j := range m.Fields {
		if m.Fields[j].Name == name {
			return j
		}
	}
	return -1
}

func fieldNames(m *rosmsg.MsgPlan) []string {
	var out []string
	for i := range m.Fields {
		if i == 6 {
			break
		}
		out = append(out, m.Fields[i].Name)
	}
	return out
}

// varFor returns the var of the array that path text (ending with its
// selector) walks, opening it.
func (c *compiler) varFor(text string, w *walk, f *rosmsg.FieldPlan, sg rosmsg.PathSegment, pos int) (*varDef, *Error) {
	if v, ok := c.vars[text]; ok {
		return v, nil
	}
	if len(c.vars) >= maxVars {
		return nil, errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, "more than %d [*] and ranges in one expression", maxVars)
	}
	depth := 1
	if w.base >= 0 {
		depth = c.prog.vars[w.base].depth + 1
	}
	if depth > maxChain {
		return nil, errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, "more than %d [*] and ranges in one path", maxChain)
	}
	v := &varDef{id: len(c.prog.vars), text: text, parent: w.base, steps: w, f: f, lo: sg.Lo, hi: sg.Hi, depth: depth}
	if sg.Kind == rosmsg.SelectAll {
		v.lo, v.hi = 0, -1
	}
	c.vars[text] = v
	c.prog.vars = append(c.prog.vars, v)
	return v, nil
}

// keyStep compiles [KEY] and [FIELD=VALUE] on array f, found at level of
// the walk (levels are the messages the walk went through since its base;
// entered says which it entered through an array element).
func (c *compiler) keyStep(f *rosmsg.FieldPlan, sg rosmsg.PathSegment, levels []*rosmsg.MsgPlan, entered []bool, level, pos int) (step, *Error) {
	bra := func(format string, args ...any) *Error {
		return errAt(pos+sg.BracketOffset, sg.End-sg.BracketOffset, format, args...)
	}
	explicit := ""
	if sg.Kind == rosmsg.SelectMatch && f.Kind != rosmsg.KindMessage {
		explicit = sg.Field // [NAMES=KEY] on an array of numbers
	}
	if sg.Kind == rosmsg.SelectKey || explicit != "" {
		for l := level; l >= 0; l-- {
			k, err := rosmsg.KeyArray(levels[l], f, explicit)
			if err != nil {
				var re *rosmsg.Error
				if errors.As(err, &re) {
					return step{}, bra("%s: %s", sg.Name, re.Msg)
				}
				return step{}, bra("%s: %v", sg.Name, err)
			}
			if k >= 0 {
				return step{kind: sKey, f: f, key: sg.Key, keyLevel: l, keyMsg: levels[l], keyField: k}, nil
			}
			if entered[l] {
				break // the search stays inside the element
			}
		}
		if explicit != "" {
			return step{}, bra("no string array %s keys %s", explicit, sg.Name)
		}
		if f.Kind != rosmsg.KindMessage {
			return step{}, bra("%s has no key array (a string array name, names or *_names beside it) for [%s]", sg.Name, sg.Key)
		}
		k := rosmsg.ElementKey(f.Msg)
		if k < 0 {
			return step{}, bra("%s has no key array and its elements no child_frame_id or name field for [%s]", sg.Name, sg.Key)
		}
		mw := &walk{base: -1, steps: []step{{kind: sField, m: f.Msg, k: k}}, leaf: leaf{kind: lString, field: &f.Msg.Fields[k], vk: rosmsg.KindString}}
		return step{kind: sMatch, f: f, match: mw, matchStr: true, key: sg.Key}, nil
	}
	// [FIELD=VALUE] on an array of messages.
	sub := &compiler{src: c.src, plan: &rosmsg.Plan{Type: f.Msg.Type, Root: f.Msg}, prog: &Program{termIDs: map[string]int{}},
		vars: map[string]*varDef{}, uses: map[int][]use{}, aggs: map[int]*aggNode{}, cur: -1}
	mw, err := sub.resolve(sg.Field, pos+sg.BracketOffset+1, pos+sg.BracketOffset+1+len(sg.Field))
	if err != nil {
		return step{}, err
	}
	if len(sub.prog.vars) > 0 {
		return step{}, bra("the field compared in [%s=%s] takes indices only", sg.Field, sg.Key)
	}
	st := step{kind: sMatch, f: f, match: mw, key: sg.Key}
	switch mw.leaf.kind {
	case lString:
		st.matchStr = true
	case lScalar, lTimeMsg:
		switch {
		case mw.leaf.vk == rosmsg.KindBool && (sg.Key == "true" || sg.Key == "false"):
			if sg.Key == "true" {
				st.matchNum = 1
			}
		default:
			v, err := strconv.ParseFloat(sg.Key, 64)
			if err != nil {
				return step{}, bra("%s is a number: %q is not one", sg.Field, sg.Key)
			}
			st.matchNum = v
		}
	default:
		return step{}, bra("%s is not a string or a number to compare", sg.Field)
	}
	return st, nil
}

// candidates lists the field paths of the plan, for suggestions.
func (c *compiler) candidates() []string {
	if c.paths == nil {
		c.paths = listPaths(c.plan.Root)
	}
	return c.paths
}

// listPaths lists every field path of m (arrays with [*]), 10 levels
// deep, at most 10000.
func listPaths(m *rosmsg.MsgPlan) []string {
	out := []string{}
	var list func(m *rosmsg.MsgPlan, prefix string, depth int)
	list = func(m *rosmsg.MsgPlan, prefix string, depth int) {
		if depth > 10 {
			return
		}
		for i := range m.Fields {
			if len(out) >= 10000 {
				return
			}
			f := &m.Fields[i]
			name := prefix + f.Name
			if f.Array {
				out = append(out, name)
				name += "[*]"
			}
			if f.Kind == rosmsg.KindMessage && !rosmsg.IsTimeMsg(f.Msg) {
				list(f.Msg, name+".", depth+1)
				continue
			}
			out = append(out, name)
		}
	}
	list(m, "", 0)
	return out
}
