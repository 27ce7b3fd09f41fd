package rosmsg

import (
	"fmt"
	"strconv"
	"strings"
)

// IDL primitive types and the ROS 2 .msg types they stand for. "long
// double" is refused: its CDR size is not portable.
var idlPrimitives = map[string]string{
	"boolean": "bool", "octet": "byte", "char": "char", "wchar": "wchar",
	"int8": "int8", "uint8": "uint8", "int16": "int16", "uint16": "uint16",
	"int32": "int32", "uint32": "uint32", "int64": "int64", "uint64": "uint64",
	"short": "int16", "unsigned short": "uint16", "long": "int32", "unsigned long": "uint32",
	"long long": "int64", "unsigned long long": "uint64", "float": "float32", "double": "float64",
	"string": "string", "wstring": "wstring",
}

// ParseIDL parses an OMG IDL schema as rosidl generates it (schema encoding
// "ros2idl"): sections separated by a line of '=' and "IDL: pkg/msg/Type",
// each holding "module pkg { module msg { struct Type { ... }; }; };".
// Supported: modules, structs, typedefs, constants (in "module X_Constants",
// attached to struct X), enums (decoded as uint32), sequence<T> and
// sequence<T, N>, arrays "T name[N]", string<N> and wstring<N>, every IDL
// primitive but long double. Annotations are skipped (the value of
// @default(value=...) is kept as the field's Default), and so are
// preprocessor lines and comments. Struct names "pkg::msg::Type" become
// "pkg/msg/Type".
func ParseIDL(typ, text string) (*Definition, error) {
	typ = NormalizeROS2Type(typ)
	var body strings.Builder
	for _, sec := range splitROS2Sections(text) {
		for _, line := range strings.Split(sec, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "IDL:") {
				line = "" // keep line numbers
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	toks, err := lexIDL(body.String())
	if err != nil {
		return nil, defError(typ, "", ErrSyntax, err.Error())
	}
	p := &idlParser{toks: toks, structs: make(map[string]*idlStruct), typedefs: make(map[string]idlType),
		enums: make(map[string]bool), consts: make(map[string][]Constant)}
	if err := p.definitions(false); err != nil {
		return nil, defError(typ, "", ErrSyntax, err.Error())
	}
	return p.definition(typ)
}

type idlTok struct {
	kind byte // 'i' identifier, 'n' number, 's' string or char literal, 'p' punctuation, 0 end
	text string
	line int
}

func lexIDL(s string) ([]idlTok, error) {
	var toks []idlTok
	line := 1
	atLineStart := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line++
			atLineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#' && atLineStart: // preprocessor line
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			line += strings.Count(s[i:i+2+end], "\n")
			i += end + 4
			continue
		}
		atLineStart = false
		start := i
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			for i < len(s) && (s[i] == '_' || isAlnum(s[i])) {
				i++
			}
			if (s[start:i] == "L" || s[start:i] == "u8") && i < len(s) && (s[i] == '"' || s[i] == '\'') {
				continue // wide literal prefix: lexed with the literal next round
			}
			toks = append(toks, idlTok{'i', s[start:i], line})
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			for i < len(s) && (isAlnum(s[i]) || s[i] == '.' ||
				(s[i] == '+' || s[i] == '-') && (s[i-1] == 'e' || s[i-1] == 'E') && !strings.HasPrefix(s[start:], "0x")) {
				i++
			}
			toks = append(toks, idlTok{'n', s[start:i], line})
		case c == '"' || c == '\'':
			i++
			for i < len(s) && s[i] != c {
				if s[i] == '\\' {
					i++
				}
				if i < len(s) && s[i] == '\n' {
					return nil, fmt.Errorf("line %d: unterminated literal", line)
				}
				i++
			}
			if i >= len(s) {
				return nil, fmt.Errorf("line %d: unterminated literal", line)
			}
			i++
			toks = append(toks, idlTok{'s', s[start:i], line})
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			i += 2
			toks = append(toks, idlTok{'p', "::", line})
		default:
			i++
			toks = append(toks, idlTok{'p', s[start:i], line})
		}
	}
	return append(toks, idlTok{0, "", line}), nil
}

// idlType is a type expression as written, before resolution.
type idlType struct {
	name     string   // primitive (IDL spelling) or scoped name as written
	scope    []string // scope the name was written in
	seq      bool     // sequence<...>
	bound    int      // sequence bound, 0 if none
	strBound int      // string<N>
	dims     []int    // array dimensions of a typedef
	elem     *idlType // element type of a sequence
}

type idlMember struct {
	typ  idlType
	name string
	dims []int
	def  string
	line int
}

type idlStruct struct {
	name    string // scoped, "pkg::msg::Type"
	members []idlMember
}

type idlParser struct {
	toks     []idlTok
	pos      int
	scope    []string
	structs  map[string]*idlStruct
	order    []string
	typedefs map[string]idlType
	enums    map[string]bool
	consts   map[string][]Constant // by scoped module name "pkg::msg::Type_Constants"
	depth    int
}

func (p *idlParser) peek() idlTok { return p.toks[p.pos] }

func (p *idlParser) next() idlTok {
	t := p.toks[p.pos]
	if t.kind != 0 {
		p.pos++
	}
	return t
}

func (p *idlParser) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", p.peek().line, fmt.Sprintf(format, args...))
}

func (p *idlParser) expect(text string) error {
	if t := p.peek(); t.text != text || t.kind == 's' {
		return p.errorf("expected %q, found %q", text, t.text)
	}
	p.pos++
	return nil
}

func (p *idlParser) ident() (string, error) {
	t := p.peek()
	if t.kind != 'i' {
		return "", p.errorf("expected a name, found %q", t.text)
	}
	p.pos++
	return t.text, nil
}

func (p *idlParser) scoped(name string) string {
	return strings.Join(append(append([]string(nil), p.scope...), name), "::")
}

// definitions parses definitions up to the end of the text, or up to the '}'
// closing a module when inModule.
func (p *idlParser) definitions(inModule bool) error {
	for {
		t := p.peek()
		switch {
		case t.kind == 0:
			if inModule {
				return p.errorf("module not closed")
			}
			return nil
		case t.kind == 'p' && t.text == "}" && inModule:
			return nil
		case t.kind == 'p' && t.text == ";":
			p.pos++
			continue
		case t.kind == 'p' && t.text == "@":
			if _, err := p.annotation(); err != nil {
				return err
			}
			continue
		case t.kind != 'i':
			return p.errorf("unexpected %q", t.text)
		}
		var err error
		switch t.text {
		case "module":
			err = p.module()
		case "struct":
			err = p.structDef()
		case "typedef":
			err = p.typedef()
		case "const":
			err = p.constDef()
		case "enum":
			err = p.enumDef()
		default:
			return p.errorf("unsupported definition %q", t.text)
		}
		if err != nil {
			return err
		}
	}
}

// annotation skips "@name", "@a::name" or "@name(...)" and returns, for
// @default(value=X), the text of X.
func (p *idlParser) annotation() (string, error) {
	p.pos++ // '@'
	name, err := p.ident()
	if err != nil {
		return "", err
	}
	for p.peek().text == "::" {
		p.pos++
		if name, err = p.ident(); err != nil {
			return "", err
		}
	}
	if p.peek().text != "(" {
		return "", nil
	}
	p.pos++
	var parts []string
	for depth := 1; ; {
		t := p.next()
		switch {
		case t.kind == 0:
			return "", p.errorf("annotation @%s not closed", name)
		case t.kind == 'p' && t.text == "(":
			depth++
		case t.kind == 'p' && t.text == ")":
			depth--
		}
		if depth == 0 {
			break
		}
		parts = append(parts, t.text)
	}
	if name != "default" {
		return "", nil
	}
	if len(parts) >= 2 && parts[0] == "value" && parts[1] == "=" {
		parts = parts[2:]
	}
	return strings.Join(parts, ""), nil
}

func (p *idlParser) module() error {
	p.pos++
	name, err := p.ident()
	if err != nil {
		return err
	}
	if p.depth++; p.depth > 64 {
		return p.errorf("modules nested too deep")
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	p.scope = append(p.scope, name)
	if err := p.definitions(true); err != nil {
		return err
	}
	p.scope = p.scope[:len(p.scope)-1]
	p.depth--
	return p.expect("}")
}

func (p *idlParser) structDef() error {
	p.pos++
	name, err := p.ident()
	if err != nil {
		return err
	}
	if p.peek().text == ";" { // forward declaration
		return nil
	}
	if p.peek().text == ":" {
		return p.errorf("struct inheritance is not supported")
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	s := &idlStruct{name: p.scoped(name)}
	for p.peek().text != "}" || p.peek().kind != 'p' {
		def := ""
		for p.peek().text == "@" && p.peek().kind == 'p' {
			d, err := p.annotation()
			if err != nil {
				return err
			}
			if d != "" {
				def = d
			}
		}
		if p.peek().text == "}" {
			break
		}
		line := p.peek().line
		typ, err := p.typeSpec()
		if err != nil {
			return err
		}
		for {
			mname, err := p.ident()
			if err != nil {
				return err
			}
			dims, err := p.dims()
			if err != nil {
				return err
			}
			s.members = append(s.members, idlMember{typ: typ, name: mname, dims: dims, def: def, line: line})
			if p.peek().text != "," {
				break
			}
			p.pos++
		}
		if err := p.expect(";"); err != nil {
			return err
		}
	}
	p.pos++ // '}'
	if _, ok := p.structs[s.name]; !ok {
		p.order = append(p.order, s.name)
	}
	p.structs[s.name] = s
	return p.expect(";")
}

func (p *idlParser) dims() ([]int, error) {
	var dims []int
	for p.peek().text == "[" && p.peek().kind == 'p' {
		p.pos++
		n, err := p.number()
		if err != nil {
			return nil, err
		}
		if n > maxFixedLen {
			return nil, p.errorf("array size %d too large", n)
		}
		dims = append(dims, n)
		if err := p.expect("]"); err != nil {
			return nil, err
		}
	}
	return dims, nil
}

func (p *idlParser) number() (int, error) {
	t := p.peek()
	if t.kind != 'n' {
		return 0, p.errorf("expected a number, found %q", t.text)
	}
	n, err := strconv.ParseInt(t.text, 0, 64)
	if err != nil || n < 0 || n > maxFixedLen {
		return 0, p.errorf("bad size %q", t.text)
	}
	p.pos++
	return int(n), nil
}

// typeSpec parses a type: a primitive, string<N>, sequence<T[, N]> or a
// scoped name.
func (p *idlParser) typeSpec() (idlType, error) {
	t := p.peek()
	if t.text == "::" {
		p.pos++
		t = p.peek()
	}
	if t.kind != 'i' {
		return idlType{}, p.errorf("expected a type, found %q", t.text)
	}
	p.pos++
	switch t.text {
	case "sequence":
		if err := p.expect("<"); err != nil {
			return idlType{}, err
		}
		elem, err := p.typeSpec()
		if err != nil {
			return idlType{}, err
		}
		ty := idlType{name: "sequence", seq: true, elem: &elem, scope: p.scope}
		if p.peek().text == "," {
			p.pos++
			if ty.bound, err = p.number(); err != nil {
				return idlType{}, err
			}
			if ty.bound == 0 {
				return idlType{}, p.errorf("sequence bound 0")
			}
		}
		return ty, p.expect(">")
	case "string", "wstring":
		ty := idlType{name: t.text}
		if p.peek().text == "<" {
			p.pos++
			var err error
			if ty.strBound, err = p.number(); err != nil {
				return idlType{}, err
			}
			if err := p.expect(">"); err != nil {
				return idlType{}, err
			}
		}
		return ty, nil
	case "unsigned":
		n, err := p.ident()
		if err != nil {
			return idlType{}, err
		}
		name := "unsigned " + n
		if n == "long" && p.peek().text == "long" {
			p.pos++
			name += " long"
		}
		if _, ok := idlPrimitives[name]; !ok {
			return idlType{}, p.errorf("unknown type %q", name)
		}
		return idlType{name: name}, nil
	case "long":
		switch p.peek().text {
		case "long":
			p.pos++
			return idlType{name: "long long"}, nil
		case "double":
			return idlType{}, p.errorf("long double is not supported")
		}
		return idlType{name: "long"}, nil
	}
	if _, ok := idlPrimitives[t.text]; ok {
		return idlType{name: t.text}, nil
	}
	name := t.text
	for p.peek().text == "::" {
		p.pos++
		n, err := p.ident()
		if err != nil {
			return idlType{}, err
		}
		name += "::" + n
	}
	return idlType{name: name, scope: append([]string(nil), p.scope...)}, nil
}

func (p *idlParser) typedef() error {
	p.pos++
	typ, err := p.typeSpec()
	if err != nil {
		return err
	}
	name, err := p.ident()
	if err != nil {
		return err
	}
	if typ.dims, err = p.dims(); err != nil {
		return err
	}
	p.typedefs[p.scoped(name)] = typ
	return p.expect(";")
}

func (p *idlParser) constDef() error {
	p.pos++
	typ, err := p.typeSpec()
	if err != nil {
		return err
	}
	name, err := p.ident()
	if err != nil {
		return err
	}
	if err := p.expect("="); err != nil {
		return err
	}
	var parts []string
	for p.peek().text != ";" || p.peek().kind != 'p' {
		t := p.next()
		if t.kind == 0 {
			return p.errorf("constant %s not ended", name)
		}
		parts = append(parts, t.text)
	}
	p.pos++
	val := strings.Join(parts, "")
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		if u, err := strconv.Unquote(val); err == nil {
			val = u
		} else {
			val = unquoteROS2(val[1 : len(val)-1])
		}
	}
	tname := typ.name
	if m, ok := idlPrimitives[typ.name]; ok {
		tname = m
	}
	if tname == "bool" {
		val = strings.ToLower(val)
	}
	mod := strings.Join(p.scope, "::")
	p.consts[mod] = append(p.consts[mod], Constant{Type: tname, Name: name, Value: val})
	return nil
}

func (p *idlParser) enumDef() error {
	p.pos++
	name, err := p.ident()
	if err != nil {
		return err
	}
	if err := p.expect("{"); err != nil {
		return err
	}
	for {
		for p.peek().text == "@" && p.peek().kind == 'p' {
			if _, err := p.annotation(); err != nil {
				return err
			}
		}
		if _, err := p.ident(); err != nil {
			return err
		}
		if p.peek().text != "," {
			break
		}
		p.pos++
	}
	if err := p.expect("}"); err != nil {
		return err
	}
	p.enums[p.scoped(name)] = true
	return p.expect(";")
}

// lookup resolves a scoped name written in scope: the innermost enclosing
// scope that declares it wins. It returns the full name and what it names:
// 's' struct, 't' typedef, 'e' enum, or 0.
func (p *idlParser) lookup(name string, scope []string) (string, byte) {
	for i := len(scope); i >= 0; i-- {
		full := name
		if i > 0 {
			full = strings.Join(scope[:i], "::") + "::" + name
		}
		if _, ok := p.structs[full]; ok {
			return full, 's'
		}
		if _, ok := p.typedefs[full]; ok {
			return full, 't'
		}
		if p.enums[full] {
			return full, 'e'
		}
	}
	return name, 0
}

// field resolves a member into a Field: element type, array dimension or
// sequence bound, string bound.
func (p *idlParser) field(m idlMember) (Field, error) {
	f := Field{Name: m.name, Default: m.def}
	ty := m.typ
	dims := m.dims
	for range 32 { // follow typedefs
		if ty.seq || idlPrimitives[ty.name] != "" {
			break
		}
		full, what := p.lookup(ty.name, ty.scope)
		if what != 't' {
			break
		}
		td := p.typedefs[full]
		if len(td.dims) > 0 {
			if len(dims) > 0 {
				return f, fmt.Errorf("line %d: %s: multi-dimensional arrays are not supported", m.line, m.name)
			}
			dims = td.dims
			td.dims = nil
		}
		ty = td
	}
	if len(dims) > 1 {
		return f, fmt.Errorf("line %d: %s: multi-dimensional arrays are not supported", m.line, m.name)
	}
	if ty.seq {
		if len(dims) > 0 {
			return f, fmt.Errorf("line %d: %s: arrays of sequences are not supported", m.line, m.name)
		}
		f.Array, f.Len, f.Bound = true, -1, ty.bound
		ty = *ty.elem
		for range 32 {
			full, what := p.lookup(ty.name, ty.scope)
			if what != 't' || ty.seq || idlPrimitives[ty.name] != "" {
				break
			}
			ty = p.typedefs[full]
			if len(ty.dims) > 0 {
				return f, fmt.Errorf("line %d: %s: sequences of arrays are not supported", m.line, m.name)
			}
		}
		if ty.seq {
			return f, fmt.Errorf("line %d: %s: sequences of sequences are not supported", m.line, m.name)
		}
	} else if len(dims) == 1 {
		f.Array, f.Len = true, dims[0]
	}
	f.StrBound = ty.strBound
	if prim, ok := idlPrimitives[ty.name]; ok {
		f.BaseType = prim
	} else {
		full, what := p.lookup(ty.name, ty.scope)
		switch what {
		case 's':
			f.BaseType = NormalizeROS2Type(full)
		case 'e':
			f.BaseType = "uint32"
		default:
			return f, fmt.Errorf("line %d: %s: unknown type %q", m.line, m.name, ty.name)
		}
	}
	f.Type = f.BaseType
	if f.StrBound > 0 {
		f.Type += "<=" + strconv.Itoa(f.StrBound)
	}
	switch {
	case f.Array && f.Len >= 0:
		f.Type += "[" + strconv.Itoa(f.Len) + "]"
	case f.Array && f.Bound > 0:
		f.Type += "[<=" + strconv.Itoa(f.Bound) + "]"
	case f.Array:
		f.Type += "[]"
	}
	return f, nil
}

// definition converts the parsed structs into a Definition rooted at typ.
func (p *idlParser) definition(typ string) (*Definition, error) {
	d := &Definition{Type: typ, Specs: make(map[string]*Spec)}
	for _, name := range p.order {
		s := p.structs[name]
		t := NormalizeROS2Type(name)
		spec := &Spec{Type: t, Package: packageOf(t), Constants: p.consts[name+"_Constants"]}
		seen := make(map[string]bool)
		for _, m := range s.members {
			f, err := p.field(m)
			if err != nil {
				return nil, defError(typ, "", ErrSyntax, err.Error())
			}
			if seen[f.Name] {
				return nil, defError(typ, "", ErrSyntax, fmt.Sprintf("%s: duplicate member %q", t, f.Name))
			}
			seen[f.Name] = true
			spec.Fields = append(spec.Fields, f)
		}
		if t == typ {
			d.Order = append([]string{t}, d.Order...)
		} else {
			d.Order = append(d.Order, t)
		}
		d.Specs[t] = spec
	}
	if _, ok := d.Specs[typ]; !ok {
		return nil, defError(typ, "", ErrUnknownType, typ+" is not in the IDL")
	}
	resolveROS2(d)
	return d, nil
}
