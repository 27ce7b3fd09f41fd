package expr

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tNum
	tStr
	tPath // a field path, topic path, @term or identifier
	tOp   // an operator or punctuation
)

type token struct {
	kind tokKind
	text string // the token as written (a string's decoded value for tStr)
	pos  int    // byte offset
	end  int
}

// Limits of what Parse accepts.
const (
	// MaxLen is the longest expression, in bytes.
	MaxLen = 16 << 10
	// maxDepth bounds the nesting of the syntax tree (parentheses,
	// operators, calls), and so the recursion of parsing and evaluation.
	maxDepth = 256
	// maxNodes bounds the nodes of a syntax tree.
	maxNodes = 2048
	// MaxRegexp is the longest regular expression, in bytes.
	MaxRegexp = 4096
)

var ops = []string{"||", "&&", "==", "!=", "<=", ">=", "!~", "<", ">", "~", "!", "+", "-", "*", "/", "%", "(", ")", ","}

type lexer struct {
	s    string
	pos  int
	toks []token
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// lex splits s into tokens.
func lex(s string) ([]token, *Error) {
	l := &lexer{s: s}
	for {
		for l.pos < len(s) && (s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\n' || s[l.pos] == '\r') {
			l.pos++
		}
		if l.pos == len(s) {
			l.toks = append(l.toks, token{kind: tEOF, pos: l.pos, end: l.pos})
			return l.toks, nil
		}
		start := l.pos
		c := s[start]
		var err *Error
		switch {
		case c >= '0' && c <= '9' || c == '.' && start+1 < len(s) && s[start+1] >= '0' && s[start+1] <= '9':
			err = l.number()
		case c == '"' || c == '\'':
			err = l.str()
		case isIdentStart(c) || c == '@' || c == '/' && l.topicStart():
			err = l.path()
		default:
			op := ""
			for _, o := range ops {
				if strings.HasPrefix(s[start:], o) {
					op = o
					break
				}
			}
			if op == "" {
				if c == '=' {
					return nil, errAt(start, 1, "a single '=': compare with '=='")
				}
				if c == '&' || c == '|' {
					return nil, errAt(start, 1, "%q: write %q", string(c), string(c)+string(c))
				}
				return nil, errAt(start, 1, "unexpected %s", quoteChar(s[start:]))
			}
			l.pos += len(op)
			l.toks = append(l.toks, token{kind: tOp, text: op, pos: start, end: l.pos})
		}
		if err != nil {
			return nil, err
		}
	}
}

// topicStart reports whether the '/' at pos begins a topic path (it
// starts the expression or follows an operator or '('), not a division.
func (l *lexer) topicStart() bool {
	if l.pos+1 >= len(l.s) || !(isIdentStart(l.s[l.pos+1]) || l.s[l.pos+1] == '/') {
		return false
	}
	if len(l.toks) == 0 {
		return true
	}
	last := l.toks[len(l.toks)-1]
	return last.kind == tOp && last.text != ")"
}

func quoteChar(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return "end"
	}
	return strconv.QuoteRune(r[0])
}

func (l *lexer) number() *Error {
	s, start := l.s, l.pos
	i := start
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") {
		i += 2
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f' || s[i] >= 'A' && s[i] <= 'F' || s[i] == '_') {
			i++
		}
	} else {
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '_') {
			i++
		}
		if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
			i++
			if i < len(s) && (s[i] == '+' || s[i] == '-') {
				i++
			}
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		}
	}
	if i < len(s) && isIdent(s[i]) {
		return errAt(start, i+1-start, "bad number %q", s[start:i+1])
	}
	l.pos = i
	l.toks = append(l.toks, token{kind: tNum, text: s[start:i], pos: start, end: i})
	return nil
}

func (l *lexer) str() *Error {
	s, start := l.s, l.pos
	q := s[start]
	var b []byte
	i := start + 1
	for ; i < len(s) && s[i] != q; i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b = append(b, s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case '0':
			b = append(b, 0)
		case '\\', '"', '\'':
			b = append(b, c)
		case 'x', 'u':
			n := 2
			if c == 'u' {
				n = 4
			}
			v, err := strconv.ParseUint(s[i+1:min(i+1+n, len(s))], 16, 32)
			if err != nil || i+1+n > len(s) {
				return errAt(i-1, 2, "bad escape \\%c: want %d hex digits", c, n)
			}
			if c == 'x' {
				b = append(b, byte(v))
			} else {
				b = utf8.AppendRune(b, rune(v))
			}
			i += n
		default:
			// Kept as written, so that a regular expression's \d, \b,
			// \. need no doubling.
			b = append(b, '\\', c)
		}
	}
	if i >= len(s) {
		return errAt(start, len(s)-start, "unterminated string")
	}
	l.pos = i + 1
	l.toks = append(l.toks, token{kind: tStr, text: string(b), pos: start, end: l.pos})
	return nil
}

// path reads a field path: names, dots and brackets; a topic path's
// slashes before its first dot; an @term's name.
func (l *lexer) path() *Error {
	s, start := l.s, l.pos
	i := start
	topic := s[i] == '/'
	if s[i] == '@' {
		i++
	}
	for i < len(s) {
		c := s[i]
		switch {
		case isIdent(c) || c == '.':
			if c == '.' {
				topic = false
			}
			i++
		case c == '/' && topic:
			i++
		case c == '[':
			j, ok := closeBracket(s, i+1)
			if !ok {
				return errAt(i, len(s)-i, "unclosed '['")
			}
			i = j + 1
		default:
			goto done
		}
	}
done:
	text := s[start:i]
	if text == "@" {
		return errAt(start, 1, "'@' names a time term: @log, @publish, @stamp, @t, @clock, @topic or @type")
	}
	if strings.HasSuffix(text, ".") {
		if i < len(s) && s[i] == '@' {
			return errAt(start, i+1-start, "a time term takes no topic: write %s alone (the expression's other paths, or --topics, say the topic)", termAt(s[i:]))
		}
		return errAt(i-1, 1, "a path cannot end with '.'")
	}
	l.pos = i
	l.toks = append(l.toks, token{kind: tPath, text: text, pos: start, end: i})
	return nil
}

// closeBracket returns the offset of the ']' closing a bracket whose
// content starts at i, skipping quoted strings (as rosmsg reads them).
func closeBracket(s string, i int) (int, bool) {
	quoted := false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ']':
			return i, true
		case !quoted && c == '[':
			return 0, false
		}
	}
	return 0, false
}

// termAt returns the @term s starts with.
func termAt(s string) string {
	i := 1
	for i < len(s) && isIdent(s[i]) {
		i++
	}
	return s[:i]
}
