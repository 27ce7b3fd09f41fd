package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Enums are the integer constants of the message types of one definition,
// by type name, to name a field's value beside it: a Log's level 50 is
// "50 (FATAL)", a DiagnosticStatus level 0 "0 (OK)".
type Enums map[string][]rosmsg.Constant

// EnumsOf collects the integer constants of plan's type and of every type
// it holds.
func EnumsOf(plan *rosmsg.Plan) Enums {
	e := Enums{}
	if plan != nil {
		e.add(plan.Root)
	}
	return e
}

func (e Enums) add(p *rosmsg.MsgPlan) {
	if p == nil {
		return
	}
	if _, seen := e[p.Type]; seen {
		return
	}
	var ints []rosmsg.Constant
	for _, c := range p.Constants {
		if intWidth(c.Type) > 0 {
			ints = append(ints, c)
		}
	}
	e[p.Type] = ints
	for i := range p.Fields {
		e.add(p.Fields[i].Msg)
	}
}

// intWidth is the width in bytes of an integer type (byte and char are
// one), or 0 for any other type.
func intWidth(typ string) int {
	switch typ {
	case "int8", "uint8", "byte", "char", "octet":
		return 1
	case "int16", "uint16":
		return 2
	case "int32", "uint32":
		return 4
	case "int64", "uint64":
		return 8
	}
	return 0
}

// Names returns the constants of holder's message type whose value is the
// integer value of its field (n, or an element n of the array field):
// constants of the field's width, those named after the field when some
// are (NavSatStatus's STATUS_FIX for status), and never those named after
// another field of holder. None when the type defines no such constant or
// n is not an integer.
func (e Enums) Names(holder *rosmsg.Node, field string, n *rosmsg.Node) []string {
	if holder == nil {
		return nil
	}
	consts := e[holder.Type]
	if len(consts) == 0 || n == nil || (n.Array && n.Index < 0) {
		return nil
	}
	var others []string
	for _, c := range holder.Children {
		if c.Name != field && c.Name != "" {
			others = append(others, strings.ToUpper(c.Name)+"_")
		}
	}
	typ := strings.TrimSuffix(n.Type, "[]")
	if i := strings.IndexByte(typ, '['); i >= 0 {
		typ = typ[:i]
	}
	w := intWidth(typ)
	if w == 0 {
		return nil
	}
	v, ok := n.Float64()
	if !ok {
		return nil
	}
	var names, prefixed []string
	prefix := strings.ToUpper(field) + "_"
	for _, c := range consts {
		if intWidth(c.Type) != w {
			continue
		}
		cv, err := strconv.ParseFloat(strings.TrimSpace(c.Value), 64)
		if err != nil || cv != v {
			continue
		}
		if slices.ContainsFunc(others, func(o string) bool { return strings.HasPrefix(c.Name, o) && !strings.HasPrefix(c.Name, prefix) }) {
			continue // another field's constant
		}
		names = append(names, c.Name)
		if strings.HasPrefix(c.Name, prefix) {
			prefixed = append(prefixed, c.Name)
		}
	}
	if len(prefixed) > 0 {
		return prefixed
	}
	return names
}

// EnumText is value with the constants that name it: "50 (FATAL)", or
// "0 (ARROW | ADD)" when several do; value alone when none does.
func EnumText(value string, names []string) string {
	if len(names) == 0 {
		return value
	}
	return value + " (" + strings.Join(names, " | ") + ")"
}

// SetEnums makes ValueText name values by the constants of e.
func (t *FieldTree) SetEnums(e Enums) { t.enums = e }

// Enums are the constants SetEnums gave, or nil.
func (t *FieldTree) Enums() Enums { return t.enums }

// EnumNames are the constants naming the value of the field or element
// id, as Enums.Names finds them.
func (t *FieldTree) EnumNames(id string) []string {
	n := t.Node(id)
	if n == nil || len(t.enums) == 0 || id == "" {
		return nil
	}
	parentID, _ := ParentID(id)
	p := t.Node(parentID)
	if p == nil {
		return nil
	}
	field := n.Name
	if p.Array && !n.Array && n.Index >= 0 && n.Name == "" {
		// An element: the field is the array, its holder the message
		// above it.
		field = p.Name
		holderID, _ := ParentID(parentID)
		if p = t.Node(holderID); p == nil {
			return nil
		}
	}
	return t.enums.Names(p, field, n)
}

// Enums returns the integer constants of m's definition, to name values
// (none when it does not compile). They are collected once per
// definition.
func (r *MessageReader) Enums(m *Message) Enums {
	plan, err := planFor(r.Cache, m.Conn)
	if err != nil || plan == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.enums[plan]; ok {
		return e
	}
	if r.enums == nil {
		r.enums = map[*rosmsg.Plan]Enums{}
	}
	e := EnumsOf(plan)
	r.enums[plan] = e
	return e
}
