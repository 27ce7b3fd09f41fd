package rosmsg

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Separator is the line that precedes each dependency in a full message
// definition (80 '=' characters).
var Separator = strings.Repeat("=", 80)

// HeaderType is the type a bare "Header" field refers to.
const HeaderType = "std_msgs/Header"

// Definition is a parsed message_definition: the top type and every type
// declared after it.
type Definition struct {
	Type  string           // top-level type, e.g. "sensor_msgs/Imu"
	Specs map[string]*Spec // every declared type by full name, including Type
	Order []string         // declared types in text order, Type first
}

// Spec is one message type: its constants and fields as genmsg reads them.
type Spec struct {
	Type      string // full name, e.g. "geometry_msgs/Vector3"
	Package   string // package part of Type, "" if Type has none
	Text      string // the section's source text
	Constants []Constant
	Fields    []Field
}

// Constant is a constant declaration. Value is the source text of the value
// (genmsg's val_text): for strings everything after '=' stripped of
// surrounding white space, for numbers the text with its comment removed.
type Constant struct {
	Type  string
	Name  string
	Value string
}

// Field is a field declaration after type resolution.
type Field struct {
	Name     string
	Type     string // resolved type as genmsg stores it: "float64[9]", "geometry_msgs/Point[]", "std_msgs/Header"
	BaseType string // Type without the array suffix
	Array    bool
	Len      int // fixed array length; -1 for a variable array; 0 when not an array

	// ROS 2 only.
	Bound    int    // most elements of a bounded sequence T[<=N] (Len is then -1), else 0
	StrBound int    // N of string<=N or wstring<=N, else 0
	Default  string // default value as written ("5", "\"a # b\"", "[1, 2]"), "" if none
}

// Builtin types (genmsg BUILTIN_TYPES), including the deprecated byte and char.
var builtinTypes = map[string]bool{
	"bool": true, "int8": true, "uint8": true, "int16": true, "uint16": true,
	"int32": true, "uint32": true, "int64": true, "uint64": true,
	"float32": true, "float64": true, "string": true, "char": true, "byte": true,
	"time": true, "duration": true,
}

// IsBuiltin reports whether t (without array suffix) is a ROS builtin type.
func IsBuiltin(t string) bool { return builtinTypes[t] }

// maxFixedLen bounds the length of a fixed array declared in a definition.
const maxFixedLen = 1 << 30

// ParseDefinition parses a connection's full message definition for type typ,
// following genpy.dynamic.generate_dynamic: "roslib/Header" is read as
// "std_msgs/Header", the text is split at "\n" + 80 '=' + "\n", and each
// dependency section starts with a line "MSG: pkg/Type". A later section for
// the same type replaces an earlier one.
func ParseDefinition(typ, text string) (*Definition, error) {
	text = strings.ReplaceAll(text, "roslib/Header", HeaderType)
	sections := strings.Split(text, "\n"+Separator+"\n")
	d := &Definition{Type: typ, Specs: make(map[string]*Spec)}
	add := func(s *Spec) {
		if _, ok := d.Specs[s.Type]; !ok {
			d.Order = append(d.Order, s.Type)
		}
		d.Specs[s.Type] = s
	}
	top, err := ParseSpec(typ, sections[0])
	if err != nil {
		return nil, err
	}
	add(top)
	for _, sec := range sections[1:] {
		// A dependency with empty text may end the definition without a newline.
		line, body, _ := strings.Cut(sec, "\n")
		if !strings.HasPrefix(line, "MSG: ") {
			return nil, defError(typ, "", ErrSyntax, fmt.Sprintf("dependency section does not start with \"MSG: \": %q", line))
		}
		depType := pyStrip(line[len("MSG: "):])
		s, err := ParseSpec(depType, body)
		if err != nil {
			return nil, err
		}
		add(s)
	}
	return d, nil
}

// packageOf returns the package part of a type name (genmsg package_resource_name).
func packageOf(t string) string {
	if i := strings.IndexByte(t, '/'); i >= 0 {
		return t[:i]
	}
	return ""
}

// ParseSpec parses the text of one message type (one section of a full
// definition), as genmsg.msg_loader.load_msg_from_string does.
func ParseSpec(typ, text string) (*Spec, error) {
	s := &Spec{Type: typ, Package: packageOf(typ), Text: text}
	seen := make(map[string]bool)
	for i, orig := range strings.Split(text, "\n") {
		clean := stripComment(orig)
		if clean == "" {
			continue
		}
		fail := func(format string, args ...any) error {
			return defError(typ, "", ErrSyntax, fmt.Sprintf("line %d: ", i+1)+fmt.Sprintf(format, args...))
		}
		if strings.Contains(clean, "=") {
			c, err := parseConstant(orig, clean)
			if err != nil {
				return nil, fail("%v", err)
			}
			s.Constants = append(s.Constants, c)
			continue
		}
		f, err := parseField(clean, s.Package)
		if err != nil {
			return nil, fail("%v", err)
		}
		if seen[f.Name] {
			return nil, fail("duplicate field name %q", f.Name)
		}
		seen[f.Name] = true
		s.Fields = append(s.Fields, f)
	}
	return s, nil
}

func stripComment(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return pyStrip(line)
}

// splitSpaces splits on ' ' only, strips each part and drops empty parts,
// like genmsg's [s for s in [x.strip() for x in line.split(" ")] if s].
func splitSpaces(line string) []string {
	var out []string
	for _, p := range strings.Split(line, " ") {
		if p = pyStrip(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseConstant(orig, clean string) (Constant, error) {
	parts := splitSpaces(clean)
	typ := parts[0]
	if !builtinTypes[typ] || typ == "time" || typ == "duration" {
		return Constant{}, fmt.Errorf("%q is not a legal constant type", typ)
	}
	var name, val string
	if typ == "string" {
		// Everything right of '=' is the value; no comments.
		eq := strings.IndexByte(orig, '=')
		sp := strings.IndexByte(orig, ' ')
		if sp < 0 || sp+1 > eq {
			return Constant{}, fmt.Errorf("invalid constant declaration %q", orig)
		}
		name, val = orig[sp+1:eq], orig[eq+1:]
	} else {
		kv := strings.Split(strings.Join(parts[1:], " "), "=")
		if len(kv) != 2 {
			return Constant{}, fmt.Errorf("invalid constant declaration %q", orig)
		}
		name, val = kv[0], kv[1]
	}
	name = pyStrip(name)
	val = pyStrip(val)
	if err := checkConstantValue(typ, val); err != nil {
		return Constant{}, err
	}
	return Constant{Type: typ, Name: name, Value: val}, nil
}

// checkConstantValue validates a constant value as genmsg convert_constant_value
// does. Boolean values are accepted as written.
func checkConstantValue(typ, val string) error {
	switch typ {
	case "float32", "float64":
		if _, err := strconv.ParseFloat(strings.ReplaceAll(val, "_", ""), 64); err != nil {
			return fmt.Errorf("invalid constant value %q for %s", val, typ)
		}
	case "string", "bool":
	default:
		bits := map[string]uint{"int8": 8, "uint8": 8, "byte": 8, "char": 8, "int16": 16, "uint16": 16,
			"int32": 32, "uint32": 32, "int64": 64, "uint64": 64}[typ]
		v, ok := new(big.Int).SetString(strings.ReplaceAll(val, "_", ""), 10)
		if !ok {
			return fmt.Errorf("invalid constant value %q for %s", val, typ)
		}
		lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bits)
		if typ[0] == 'u' || typ == "char" {
			hi.Sub(hi, big.NewInt(1))
		} else {
			hi.Rsh(hi, 1)
			lo.Neg(hi)
			hi.Sub(hi, big.NewInt(1))
		}
		if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
			return fmt.Errorf("cannot coerce [%s] to %s (out of bounds)", val, typ)
		}
	}
	return nil
}

func parseField(clean, pkg string) (Field, error) {
	parts := splitSpaces(clean)
	if len(parts) != 2 {
		return Field{}, fmt.Errorf("invalid declaration %q", clean)
	}
	typ, name := parts[0], parts[1]
	if !isLegalBaseName(name) {
		return Field{}, fmt.Errorf("%q is not a legal message field name", name)
	}
	base, suffix, _ := strings.Cut(typ, "[")
	if !isLegalResourceName(base) {
		return Field{}, fmt.Errorf("%q is not a legal message field type", typ)
	}
	f := Field{Name: name, BaseType: base}
	if strings.Contains(typ, "[") {
		suffix = "[" + suffix
		if strings.Count(suffix, "[") > 1 {
			return Field{}, fmt.Errorf("only 1-dimensional arrays are supported: %q", typ)
		}
		if !strings.HasSuffix(suffix, "]") {
			return Field{}, fmt.Errorf("%q is not a legal message field type", typ)
		}
		f.Array, f.Len = true, -1
		if digits := suffix[1 : len(suffix)-1]; digits != "" {
			for _, c := range digits {
				if c < '0' || c > '9' {
					return Field{}, fmt.Errorf("invalid array dimension %q", typ)
				}
			}
			n, err := strconv.Atoi(digits)
			if err != nil || n > maxFixedLen {
				return Field{}, fmt.Errorf("array dimension too large %q", typ)
			}
			f.Len = n
		}
	}
	// Resolve the type in the package context (genmsg _load_field_line).
	switch {
	case typ == "Header": // "Header[]" is not special-cased by genmsg

		base = HeaderType
	case pkg != "" && !strings.Contains(base, "/") && !builtinTypes[base]:
		base = pkg + "/" + base
	}
	f.BaseType = base
	f.Type = base + typ[len(strings.SplitN(typ, "[", 2)[0]):]
	return f, nil
}

// isLegalBaseName matches genmsg's ^[A-Za-z][\w_]*$.
func isLegalBaseName(s string) bool {
	for i, c := range s {
		if i == 0 {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
			continue
		}
		if !(c == '_' || unicode.IsLetter(c) || unicode.IsDigit(c)) {
			return false
		}
	}
	return s != ""
}

// isLegalResourceName matches genmsg's ^[A-Za-z][\w_\/]*$ without "//".
func isLegalResourceName(s string) bool {
	if strings.Contains(s, "//") {
		return false
	}
	return isLegalBaseName(strings.ReplaceAll(s, "/", "_"))
}

// pyStrip removes leading and trailing white space as Python's str.strip()
// does, which also counts the separators U+001C..U+001F as white space.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}
