package plot

import (
	"errors"
	"testing"
)

// TestParseExprErrorPlace checks that a syntax error says where it is: the
// byte offset of what is wrong, and its column in characters.
func TestParseExprErrorPlace(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		column int
	}{
		{"foo(/a.x)", 0, 1},
		{"deriv(foo(/a.x))", 6, 7},
		{"deriv(/a.x", 10, 11},
		{"deriv(/a.x, 2)", 0, 1},
		{"scale(/a.x, two)", 12, 13},
		{"scale(/a.x,   two)", 14, 15},
		{"avg(/a.x, 2.5)", 10, 11},
		{"deriv(/a.x) junk", 12, 13},
		{"diff(, /a.x)", 5, 6},
		{"/a.x(", 4, 5},
		{"deriv(/é.x(", 11, 11}, // é is two bytes, one column
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseExpr(tc.in)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *SyntaxError", err, err)
			}
			if se.Offset != tc.offset || se.Column(tc.in) != tc.column {
				t.Errorf("offset %d column %d, want %d and %d (%v)", se.Offset, se.Column(tc.in), tc.offset, tc.column, err)
			}
		})
	}
}

// TestParseExprLeafPlace checks that every leaf knows where its path
// starts.
func TestParseExprLeafPlace(t *testing.T) {
	in := "diff( /a.x, scale(/b.y,2))"
	e, err := ParseExpr(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	e.Walk(func(l *Expr) { got = append(got, l.Pos) })
	if len(got) != 2 || got[0] != 6 || got[1] != 18 || in[got[0]:got[0]+4] != "/a.x" || in[got[1]:got[1]+4] != "/b.y" {
		t.Errorf("leaf places %v", got)
	}
}
