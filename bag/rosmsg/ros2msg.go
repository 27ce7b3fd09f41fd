package rosmsg

import (
	"fmt"
	"strconv"
	"strings"
)

// ros2Kinds are the primitive types of ROS 2 definitions. In ROS 2 "byte" is
// an opaque octet and "char" an unsigned 8-bit integer: both decode as uint8.
// "wchar" comes from IDL only.
var ros2Kinds = map[string]Kind{
	"bool": KindBool, "byte": KindUint8, "char": KindUint8, "int8": KindInt8, "uint8": KindUint8,
	"int16": KindInt16, "uint16": KindUint16, "int32": KindInt32, "uint32": KindUint32,
	"int64": KindInt64, "uint64": KindUint64, "float32": KindFloat32, "float64": KindFloat64,
	"string": KindString, "wstring": KindWString, "wchar": KindUint32,
}

// ros2Fallback holds the definitions supplied when a schema refers to them
// without including them.
var ros2Fallback = map[string]string{
	"builtin_interfaces/msg/Time":     "int32 sec\nuint32 nanosec\n",
	"builtin_interfaces/msg/Duration": "int32 sec\nuint32 nanosec\n",
	"service_msgs/msg/ServiceEventInfo": "uint8 REQUEST_SENT=0\nuint8 REQUEST_RECEIVED=1\nuint8 RESPONSE_SENT=2\n" +
		"uint8 RESPONSE_RECEIVED=3\nuint8 event_type\nbuiltin_interfaces/Time stamp\nchar[16] client_gid\nint64 sequence_number\n",
}

// splitROS2Sections splits a full definition at its separator lines (a line
// of '=' only; rosbag2 writes 80 of them).
func splitROS2Sections(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var secs []string
	var cur strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); len(t) >= 3 && strings.Trim(t, "=") == "" {
			secs = append(secs, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	return append(secs, cur.String())
}

// ParseROS2Definition parses a ROS 2 message definition as rosbag2 and MCAP
// store it (schema encoding "ros2msg"): the text of type typ, then each
// dependency after a line of '=' and "MSG: pkg/Type". Type names are
// normalised to "pkg/msg/Type" (see NormalizeROS2Type); a bare type name
// refers to the same package, a bare "Header" to std_msgs/msg/Header when
// the package has none. builtin_interfaces/msg/Time and Duration are supplied
// if the text refers to them without including them.
//
// For a service event type ("pkg/srv/X_Event"), whose schema is the .srv text
// (request, "---", response), the event message {service_msgs/ServiceEventInfo
// info, X_Request[<=1] request, X_Response[<=1] response} is built; so too
// for an action's service events ("pkg/action/X_SendGoal_Event") stored in
// that form.
func ParseROS2Definition(typ, text string) (*Definition, error) {
	typ = NormalizeROS2Type(typ)
	secs := splitROS2Sections(text)
	d := &Definition{Type: typ, Specs: make(map[string]*Spec)}
	add := func(s *Spec) {
		if _, ok := d.Specs[s.Type]; !ok {
			d.Order = append(d.Order, s.Type)
		}
		d.Specs[s.Type] = s
	}
	if before, after, ok := cutServiceText(secs[0]); ok && (strings.Contains(typ, "/srv/") || strings.Contains(typ, "/action/")) && strings.HasSuffix(typ, "_Event") {
		base := strings.TrimSuffix(typ, "_Event")
		ev := &Spec{Type: typ, Package: packageOf(typ), Text: secs[0], Fields: []Field{
			{Name: "info", Type: "service_msgs/msg/ServiceEventInfo", BaseType: "service_msgs/msg/ServiceEventInfo"},
			{Name: "request", Type: base + "_Request[<=1]", BaseType: base + "_Request", Array: true, Len: -1, Bound: 1},
			{Name: "response", Type: base + "_Response[<=1]", BaseType: base + "_Response", Array: true, Len: -1, Bound: 1},
		}}
		add(ev)
		for _, part := range []struct{ typ, text string }{{base + "_Request", before}, {base + "_Response", after}} {
			s, err := ParseROS2Spec(part.typ, part.text)
			if err != nil {
				return nil, err
			}
			add(s)
		}
	} else {
		top, err := ParseROS2Spec(typ, secs[0])
		if err != nil {
			return nil, err
		}
		add(top)
	}
	for _, sec := range secs[1:] {
		sec = strings.TrimLeft(sec, "\n")
		line, body, _ := strings.Cut(sec, "\n")
		line = strings.TrimSpace(line)
		if line == "" && strings.TrimSpace(body) == "" {
			continue // a separator at the very end
		}
		if !strings.HasPrefix(line, "MSG:") {
			return nil, defError(typ, "", ErrSyntax, fmt.Sprintf("dependency section does not start with \"MSG: \": %q", line))
		}
		s, err := ParseROS2Spec(NormalizeROS2Type(line[len("MSG:"):]), body)
		if err != nil {
			return nil, err
		}
		add(s)
	}
	resolveROS2(d)
	return d, nil
}

// cutServiceText splits a .srv text at its first "---" line.
func cutServiceText(text string) (before, after string, ok bool) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "---" {
			return strings.Join(lines[:i], "\n"), strings.Join(lines[i+1:], "\n"), true
		}
	}
	return "", "", false
}

// resolveROS2 adds the fallback definitions the specs refer to and points
// bare Header fields to std_msgs/msg/Header when their own package has none.
func resolveROS2(d *Definition) {
	for i := 0; i < len(d.Order); i++ { // d.Order grows as fallbacks are added
		s := d.Specs[d.Order[i]]
		for j := range s.Fields {
			f := &s.Fields[j]
			if _, ok := ros2Kinds[f.BaseType]; ok {
				continue
			}
			if _, ok := d.Specs[f.BaseType]; ok {
				continue
			}
			if strings.HasSuffix(f.BaseType, "/msg/Header") && f.BaseType != "std_msgs/msg/Header" {
				f.Type = "std_msgs/msg/Header" + f.Type[len(f.BaseType):]
				f.BaseType = "std_msgs/msg/Header"
				if _, ok := d.Specs[f.BaseType]; ok {
					continue
				}
			}
			if text, ok := ros2Fallback[f.BaseType]; ok {
				fb, err := ParseROS2Spec(f.BaseType, text)
				if err == nil {
					d.Specs[fb.Type] = fb
					d.Order = append(d.Order, fb.Type)
				}
			}
		}
	}
}

// ParseROS2Spec parses the text of one ROS 2 message type (one section of a
// full definition), as rosidl_adapter reads a .msg file: fields "type name",
// fields with a default value "type name value", constants "TYPE NAME=value"
// and comments from '#' outside quoted strings.
func ParseROS2Spec(typ, text string) (*Spec, error) {
	typ = NormalizeROS2Type(typ)
	s := &Spec{Type: typ, Package: packageOf(typ), Text: text}
	seen := make(map[string]bool)
	for i, orig := range strings.Split(text, "\n") {
		fail := func(format string, args ...any) error {
			return defError(typ, "", ErrSyntax, fmt.Sprintf("line %d: ", i+1)+fmt.Sprintf(format, args...))
		}
		line, err := stripROS2Comment(orig)
		if err != nil {
			return nil, fail("%v", err)
		}
		if line == "" {
			continue
		}
		typeTok, rest := cutSpace(line)
		if rest == "" {
			return nil, fail("invalid declaration %q", line)
		}
		n := 0
		for n < len(rest) && (rest[n] == '_' || isAlnum(rest[n])) {
			n++
		}
		name, after := rest[:n], strings.TrimSpace(rest[n:])
		if !isLegalBaseName(name) {
			return nil, fail("%q is not a legal field name", rest)
		}
		if seen[name] {
			return nil, fail("duplicate name %q", name)
		}
		seen[name] = true
		f, err := parseROS2Type(typeTok, s.Package)
		if err != nil {
			return nil, fail("%v", err)
		}
		f.Name = name
		if strings.HasPrefix(after, "=") {
			c, err := ros2Constant(f, strings.TrimSpace(after[1:]))
			if err != nil {
				return nil, fail("%v", err)
			}
			s.Constants = append(s.Constants, c)
			continue
		}
		if after != "" && (after[0] == '=' || !isValueStart(after[0])) {
			return nil, fail("invalid declaration %q", line)
		}
		f.Default = after
		s.Fields = append(s.Fields, f)
	}
	return s, nil
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isValueStart reports whether c may start a default value.
func isValueStart(c byte) bool {
	return isAlnum(c) || c == '"' || c == '\'' || c == '[' || c == '-' || c == '+' || c == '.'
}

// cutSpace splits s at its first run of white space.
func cutSpace(s string) (first, rest string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// stripROS2Comment removes a comment ('#' outside single or double quotes,
// where a backslash escapes the next character) and surrounding white space.
func stripROS2Comment(line string) (string, error) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '"' || c == '\'':
			quote = c
		case c == '#':
			return strings.TrimSpace(line[:i]), nil
		}
	}
	if quote != 0 {
		// An unquoted value such as "it's" before any comment: keep the line,
		// cutting at the first '#'.
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
	}
	return strings.TrimSpace(line), nil
}

// parseROS2Type parses a field type such as "int32", "string<=10",
// "geometry_msgs/Point[]", "float64[9]", "Foo[<=3]" in package pkg.
func parseROS2Type(tok, pkg string) (Field, error) {
	base, suffix := tok, ""
	if i := strings.IndexByte(tok, '['); i >= 0 {
		base, suffix = tok[:i], tok[i:]
	}
	var f Field
	if suffix != "" {
		if !strings.HasSuffix(suffix, "]") || strings.Count(suffix, "[") > 1 {
			return f, fmt.Errorf("%q is not a legal field type", tok)
		}
		inner := suffix[1 : len(suffix)-1]
		f.Array, f.Len = true, -1
		switch {
		case inner == "":
		case strings.HasPrefix(inner, "<="):
			n, err := parseBound(inner[2:])
			if err != nil {
				return f, fmt.Errorf("invalid sequence bound %q", tok)
			}
			f.Bound = n
		default:
			n, err := strconv.Atoi(inner)
			if err != nil || n < 0 || n > maxFixedLen || inner[0] == '+' {
				return f, fmt.Errorf("invalid array size %q", tok)
			}
			f.Len = n
		}
	}
	if b, bound, ok := strings.Cut(base, "<="); ok {
		if b != "string" && b != "wstring" {
			return f, fmt.Errorf("%q: only strings take a bound", tok)
		}
		n, err := parseBound(bound)
		if err != nil {
			return f, fmt.Errorf("invalid string bound %q", tok)
		}
		base, f.StrBound = b, n
	}
	switch {
	case base == "time":
		base = "builtin_interfaces/msg/Time"
	case base == "duration":
		base = "builtin_interfaces/msg/Duration"
	case ros2Kinds[base] != KindInvalid && base != "wchar":
	case !isLegalResourceName(base) || strings.Count(base, "/") > 2:
		return f, fmt.Errorf("%q is not a legal field type", tok)
	case !strings.Contains(base, "/"):
		base = pkg + "/msg/" + base
	default:
		base = NormalizeROS2Type(base)
	}
	f.BaseType = base
	f.Type = base
	if f.StrBound > 0 {
		f.Type += "<=" + strconv.Itoa(f.StrBound)
	}
	f.Type += suffix
	return f, nil
}

func parseBound(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > maxFixedLen || s[0] == '+' {
		return 0, fmt.Errorf("invalid bound %q", s)
	}
	return n, nil
}

// ros2Constant checks a constant declaration. A string constant's value is
// stored unquoted.
func ros2Constant(f Field, val string) (Constant, error) {
	k, ok := ros2Kinds[f.BaseType]
	if !ok || f.Array {
		return Constant{}, fmt.Errorf("%q is not a legal constant type", f.Type)
	}
	switch k {
	case KindString, KindWString:
		if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
			val = unquoteROS2(val[1 : len(val)-1])
		}
	case KindBool:
		switch strings.ToLower(val) {
		case "true", "false", "1", "0":
		default:
			return Constant{}, fmt.Errorf("invalid constant value %q for bool", val)
		}
	default:
		typ := k.String()
		if err := checkConstantValue(typ, val); err != nil {
			return Constant{}, err
		}
	}
	return Constant{Type: f.Type, Name: f.Name, Value: val}, nil
}

// unquoteROS2 removes backslash escapes from the inside of a quoted string.
func unquoteROS2(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
