package sqlquery

import (
	"fmt"
	"strings"
	"unicode"
)

// Call is one messages('PATH', 'TOPIC') in a query, at [Start, End) of its
// text.
type Call struct {
	Path, Topic string
	Start, End  int
}

// FindCalls returns the messages(...) calls of a query, in order. Their
// arguments must be string literals; a call with other arguments is an
// error naming it. Strings, quoted names and comments are skipped.
func FindCalls(q string) ([]Call, error) {
	var out []Call
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case c == '\'' || c == '"':
			i = skipQuoted(q, i)
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			if j := strings.IndexByte(q[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(q)
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			if j := strings.Index(q[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(q)
			}
		case isIdent(rune(c)):
			j := i
			for j < len(q) && isIdent(rune(q[j])) {
				j++
			}
			word := q[i:j]
			prevDot := i > 0 && q[i-1] == '.'
			if strings.EqualFold(word, "messages") && !prevDot {
				k := skipSpace(q, j)
				if k < len(q) && q[k] == '(' {
					call, end, err := parseCall(q, i, k+1)
					if err != nil {
						return nil, err
					}
					out = append(out, call)
					i = end
					continue
				}
			}
			i = j
		default:
			i++
		}
	}
	return out, nil
}

// parseCall reads 'PATH', 'TOPIC') from p, the call starting at start.
func parseCall(q string, start, p int) (Call, int, error) {
	var args []string
	for {
		p = skipSpace(q, p)
		if p >= len(q) || q[p] != '\'' {
			return Call{}, 0, fmt.Errorf("messages(...) at character %d: give the path and the topic as quoted strings: messages('x.mcap', '/imu')", start+1)
		}
		end := skipQuoted(q, p)
		args = append(args, strings.ReplaceAll(q[p+1:end-1], "''", "'"))
		p = skipSpace(q, end)
		if p < len(q) && q[p] == ',' {
			p++
			continue
		}
		if p < len(q) && q[p] == ')' {
			p++
			break
		}
		return Call{}, 0, fmt.Errorf("messages(...) at character %d: no closing parenthesis", start+1)
	}
	if len(args) != 2 {
		return Call{}, 0, fmt.Errorf("messages(...) at character %d: takes 2 arguments, the path and the topic; got %d", start+1, len(args))
	}
	return Call{Path: args[0], Topic: args[1], Start: start, End: p}, p, nil
}

// Rewrite replaces each call with what with returns for it.
func Rewrite(q string, calls []Call, with func(Call) string) string {
	var b strings.Builder
	last := 0
	for _, c := range calls {
		b.WriteString(q[last:c.Start])
		b.WriteString(with(c))
		last = c.End
	}
	b.WriteString(q[last:])
	return b.String()
}

// Quote quotes s as an SQL string literal.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func skipQuoted(q string, i int) int {
	quote := q[i]
	for j := i + 1; j < len(q); j++ {
		if q[j] == quote {
			if j+1 < len(q) && q[j+1] == quote {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(q)
}

func skipSpace(q string, i int) int {
	for i < len(q) && (q[i] == ' ' || q[i] == '\t' || q[i] == '\n' || q[i] == '\r') {
		i++
	}
	return i
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
