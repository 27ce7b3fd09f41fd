package expr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sentinels a message's evaluation error wraps.
var (
	// ErrBudget: the expression would read more elements for one message
	// than MaxSteps allows.
	ErrBudget = errors.New("expression takes too much work for one message")
	// ErrData: the message data ends inside a field the expression reads
	// (or its CDR header is bad).
	ErrData = errors.New("message data does not hold the field")
)

// Error is a mistake in an expression: a syntax error, a type error, or a
// field the message definition does not have. Offset and Len say which
// bytes of the expression are wrong.
type Error struct {
	Offset, Len int
	Msg         string
	// Suggest lists close field paths, for an unknown field.
	Suggest []string
}

func errAt(off, n int, format string, args ...any) *Error {
	return &Error{Offset: off, Len: max(n, 1), Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string {
	if len(e.Suggest) == 0 {
		return e.Msg
	}
	return e.Msg + "; did you mean " + strings.Join(e.Suggest, ", ") + "?"
}

// Column returns the 1-based column of the error in src, the expression
// that was parsed, counting characters rather than bytes.
func (e *Error) Column(src string) int {
	return utf8.RuneCountInString(src[:min(max(e.Offset, 0), len(src))]) + 1
}

// Describe writes the error as a terminal shows it: the column and the
// message, then the expression with a caret under what is wrong.
func (e *Error) Describe(src string) string {
	var pad strings.Builder
	for i, r := range src {
		if i >= e.Offset {
			break
		}
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	carets := max(1, utf8.RuneCountInString(src[min(max(e.Offset, 0), len(src)):min(max(e.Offset+e.Len, 0), len(src))]))
	return fmt.Sprintf("column %d: %s\n    %s\n    %s%s", e.Column(src), e.Error(), src, pad.String(), strings.Repeat("^", carets))
}
