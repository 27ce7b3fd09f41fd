package echo

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// This file writes strings as PyYAML 6's yaml.dump does with its defaults
// (best_width 80, best_indent 2, allow_unicode off), which is how genpy's
// strify_message, and so `rostopic echo`, prints string fields and lists
// of strings; and with allow_unicode on and no line width, which is how
// rosidl_runtime_py's message_to_yaml, and so `ros2 topic echo`, prints
// them (ros2.go). It is a port of the parts of yaml/emitter.py that a
// string scalar takes: analyze_scalar, choose_scalar_style, write_plain,
// write_single_quoted and write_double_quoted, with their line folding.

const (
	yamlWidth  = 80
	yamlIndent = 2
)

// yamlEmitter is the part of PyYAML's Emitter state a scalar writer uses.
type yamlEmitter struct {
	// width is best_width: 0 is PyYAML's default (80), -1 no folding
	// (width=sys.maxsize).
	width int
	// unicode is allow_unicode: printable non-ASCII characters are
	// written as they are.
	unicode bool
	// b is the text written: bytes appended to a slice that a caller
	// may hand in and reuse (AppendROS2Message).
	b          []byte
	column     int
	indent     int
	whitespace bool
	indention  bool
}

// over says whether column is past the line width.
func (e *yamlEmitter) over(column int) bool {
	switch e.width {
	case 0:
		return column > yamlWidth
	case -1:
		return false
	}
	return column > e.width
}

// printable is the part of PyYAML's printable range beyond ASCII that
// allow_unicode lets through unescaped in a double-quoted scalar.
func (e *yamlEmitter) printable(ch rune) bool {
	return ch >= 0x20 && ch <= 0x7e || e.unicode && (ch >= 0xa0 && ch <= 0xd7ff || ch >= 0xe000 && ch <= 0xfffd)
}

func (e *yamlEmitter) write(s string) {
	e.b = append(e.b, s...)
	e.column += utf8.RuneCountInString(s)
}

// yamlSpaces are the spaces an indent is written from.
const yamlSpaces = "                                                                "

func (e *yamlEmitter) writeIndicator(ind string, needWhitespace, whitespace, indention bool) {
	if !e.whitespace && needWhitespace {
		ind = " " + ind
	}
	e.whitespace = whitespace
	e.indention = e.indention && indention
	e.write(ind)
}

func (e *yamlEmitter) writeIndent() {
	if !e.indention || e.column > e.indent || e.column == e.indent && !e.whitespace {
		e.writeLineBreak("")
	}
	if e.column < e.indent {
		e.whitespace = true
		for n := e.indent - e.column; n > 0; n -= len(yamlSpaces) {
			e.b = append(e.b, yamlSpaces[:min(n, len(yamlSpaces))]...)
		}
		e.column = e.indent
	}
}

func (e *yamlEmitter) writeLineBreak(br string) {
	if br == "" {
		br = "\n"
	}
	e.whitespace, e.indention = true, true
	e.b = append(e.b, br...)
	e.column = 0
}

// yamlQuoted is yaml.dump(s, default_style='"') without its final newline:
// how strify_message prints a non-empty string field.
func yamlQuoted(s string) string {
	e := &yamlEmitter{whitespace: true, indention: true, indent: yamlIndent}
	e.writeDoubleQuoted([]rune(s), true)
	return string(e.b)
}

// yamlStringList is yaml.dump(list) of strings without its final newline:
// a block sequence, each item in the style PyYAML chooses for it.
func yamlStringList(items []string) string {
	e := &yamlEmitter{whitespace: true, indention: true}
	for i, s := range items {
		e.indent = 0
		if i > 0 {
			e.writeIndent()
		}
		e.writeIndicator("-", true, false, true)
		e.indent = yamlIndent
		r := []rune(s)
		switch yamlStyle(s, false) {
		case '"':
			e.writeDoubleQuoted(r, true)
		case '\'':
			e.writeSingleQuoted(r, true)
		default:
			e.writePlain(r, true)
		}
	}
	return string(e.b)
}

func isBreak(c rune) bool { return c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029' }

// isSpaceOrEnd says whether the character at byte offset i of s is a
// space or a break, or s ends before it.
func isSpaceOrEnd(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	ch, _ := utf8.DecodeRuneInString(s[i:])
	return isSpace(ch)
}

func isSpace(ch rune) bool {
	return strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029", ch)
}

// yamlStyle chooses the style of a string scalar in block context: 0 for
// plain, or the quote character, as choose_scalar_style does after
// analyze_scalar; unicode is allow_unicode. It walks the string's
// characters as Python does its str's: an invalid UTF-8 byte is one
// U+FFFD, as []rune(s) has it.
func yamlStyle(str string, unicode bool) rune {
	if len(str) == 0 {
		return '\'' // plain "" would read as null
	}
	var blockInd, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(str, "---") || strings.HasPrefix(str, "...") {
		blockInd = true
	}
	preceded := true
	_, first := utf8.DecodeRuneInString(str)
	followed := isSpaceOrEnd(str, first)
	prevSpace, prevBreak := false, false
	for i, ch := range str {
		// next is where the character after ch starts; followed says
		// whether that one is a space or the end.
		_, size := utf8.DecodeRuneInString(str[i:])
		next := i + size
		last := next == len(str)
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) {
				blockInd = true
			}
			if (ch == '?' || ch == ':') && followed {
				blockInd = true
			}
			if ch == '-' && followed {
				blockInd = true
			}
		} else {
			if ch == ':' && followed {
				blockInd = true
			}
			if ch == '#' && preceded {
				blockInd = true
			}
		}
		if isBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || ch >= 0x20 && ch <= 0x7e) {
			// Printable non-ASCII characters are special only when
			// allow_unicode is off; others always are.
			if !unicode || !(ch == 0x85 || ch >= 0xa0 && ch <= 0xd7ff || ch >= 0xe000 && ch <= 0xfffd || ch >= 0x10000 && ch < 0x10ffff) || ch == 0xfeff {
				special = true
			}
		}
		switch {
		case ch == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if last {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case isBreak(ch):
			if i == 0 {
				leadingBreak = true
			}
			if last {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		preceded = isSpace(ch)
		if !last {
			_, size := utf8.DecodeRuneInString(str[next:])
			followed = isSpaceOrEnd(str, next+size)
		}
	}
	plain, single := true, true
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		plain = false
	}
	if breakSpace {
		plain, single = false, false
	}
	if spaceBreak || special {
		plain, single = false, false
	}
	if lineBreaks || blockInd {
		plain = false
	}
	if plain && !yamlResolvesToStr(str) {
		plain = false
	}
	switch {
	case plain:
		return 0
	case single:
		return '\''
	}
	return '"'
}

// yamlImplicit returns PyYAML's implicit resolvers: a plain scalar
// matching one reads as something other than a string, so such a string is
// quoted. They are compiled on first use, not at every start of every
// command (856 allocations in the package's initialisation).
var yamlImplicit = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`),
		regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`),
		regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
		regexp.MustCompile(`^(?:<<)$`),
		regexp.MustCompile(`^(?:~|null|Null|NULL|)$`),
		regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`),
		regexp.MustCompile(`^(?:=)$`),
	}
})

// yamlFirst are the first characters each resolver is tried for.
var yamlFirst = []string{"yYnNtTfFoO", "-+0123456789.", "-+0123456789", "<", "~nN", "0123456789", "="}

func yamlResolvesToStr(s string) bool {
	if s == "" {
		return false
	}
	for i, re := range yamlImplicit() {
		if strings.ContainsRune(yamlFirst[i], rune(s[0])) && re.MatchString(s) {
			return false
		}
	}
	return true
}

var yamlEscapes = map[rune]string{
	0: "0", '\a': "a", '\b': "b", '\t': "t", '\n': "n", '\v': "v", '\f': "f", '\r': "r",
	0x1b: "e", '"': "\"", '\\': "\\", 0x85: "N", 0xa0: "_", 0x2028: "L", 0x2029: "P",
}

func (e *yamlEmitter) writeDoubleQuoted(text []rune, split bool) {
	e.writeIndicator(`"`, true, false, false)
	start, end := 0, 0
	for end <= len(text) {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		if ch == -1 || strings.ContainsRune("\"\\\u0085\u2028\u2029\ufeff", ch) || !e.printable(ch) {
			if start < end {
				e.write(pyslice(text, start, end))
				start = end
			}
			if ch != -1 {
				var data string
				if r, ok := yamlEscapes[ch]; ok {
					data = `\` + r
				} else if ch <= 0xff {
					data = fmt.Sprintf(`\x%02X`, ch)
				} else if ch <= 0xffff {
					data = fmt.Sprintf(`\u%04X`, ch)
				} else {
					data = fmt.Sprintf(`\U%08X`, ch)
				}
				e.write(data)
				start = end + 1
			}
		}
		if 0 < end && end < len(text)-1 && (ch == ' ' || start >= end) && e.over(e.column+(end-start)) && split {
			data := pyslice(text, start, end) + `\`
			if start < end {
				start = end
			}
			e.write(data)
			e.writeIndent()
			e.whitespace, e.indention = false, false
			if text[start] == ' ' {
				e.write(`\`)
			}
		}
		end++
	}
	e.writeIndicator(`"`, false, false, false)
}

func (e *yamlEmitter) writeSingleQuoted(text []rune, split bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	start, end := 0, 0
	for end <= len(text) {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.over(e.column) && split && start != 0 && end != len(text) {
					e.writeIndent()
				} else {
					e.write(pyslice(text, start, end))
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				e.writeBreaks(text[start:end])
				e.writeIndent()
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) || ch == '\'' {
				if start < end {
					e.write(pyslice(text, start, end))
					start = end
				}
			}
		}
		if ch == '\'' {
			e.write("''")
			start = end + 1
		}
		if ch != -1 {
			spaces = ch == ' '
			breaks = isBreak(ch)
		}
		end++
	}
	e.writeIndicator("'", false, false, false)
}

func (e *yamlEmitter) writePlain(text []rune, split bool) {
	if len(text) == 0 {
		return
	}
	if !e.whitespace {
		e.write(" ")
	}
	e.whitespace, e.indention = false, false
	spaces, breaks := false, false
	start, end := 0, 0
	for end <= len(text) {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.over(e.column) && split {
					e.writeIndent()
					e.whitespace, e.indention = false, false
				} else {
					e.write(pyslice(text, start, end))
				}
				start = end
			}
		case breaks:
			if !isBreak(ch) {
				e.writeBreaks(text[start:end])
				e.writeIndent()
				e.whitespace, e.indention = false, false
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) {
				e.write(pyslice(text, start, end))
				start = end
			}
		}
		if ch != -1 {
			spaces = ch == ' '
			breaks = isBreak(ch)
		}
		end++
	}
}

// pyslice is Python's text[start:end]: empty when start >= end.
func pyslice(text []rune, start, end int) string {
	if start >= end {
		return ""
	}
	return string(text[start:end])
}

// writeBreaks writes a run of line breaks of a scalar as PyYAML's folded
// and literal writers do: a leading '\n' doubled, each break on its own.
func (e *yamlEmitter) writeBreaks(run []rune) {
	if run[0] == '\n' {
		e.writeLineBreak("")
	}
	for _, br := range run {
		if br == '\n' {
			e.writeLineBreak("")
		} else {
			e.writeLineBreak(string(br))
		}
	}
}
