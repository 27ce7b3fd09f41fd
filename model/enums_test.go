package model

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/echo"
)

// enumTestMessage is a marker-like message whose integer fields its
// constants name, decoded.
func enumTestMessage(t *testing.T) (*rosmsg.Plan, *rosmsg.Node) {
	t.Helper()
	const def = `uint8 ARROW=0
uint8 CUBE=1
uint8 ADD=0
uint8 DELETE=2
int8 STATUS_NO_FIX=-1
int8 STATUS_FIX=0
int8 STATUS_SBAS_FIX=1
uint16 SERVICE_GPS=1
uint16 SERVICE_GLONASS=2
string NAME=ARROW
uint8 type
uint8 action
int8 status
uint16 service
uint8[] levels
float64 x
inner/Level lvl
================================================================================
MSG: inner/Level
byte OK=0
byte WARN=1
byte ERROR=2
byte STALE=3
byte level
`
	plan, err := rosmsg.CompileSchema("ros1msg", "ros1", "test/Marker", def)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte{
		0,    // type
		2,    // action
		0xff, // status -1
		1, 0, // service 1
		2, 0, 0, 0, 1, 3, // levels [1, 3]
		0, 0, 0, 0, 0, 0, 0, 0, // x
		2, // lvl.level
	}
	root, err := plan.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return plan, root
}

// TestEchoNamed checks the Message view's echo text: each integer field
// the field tree names is followed by "  # NAMES", the same names; without
// those comments the text is exactly echo.Short's (rostopic echo's).
func TestEchoNamed(t *testing.T) {
	plan, root := enumTestMessage(t)
	ft := NewFieldTree(root)
	ft.SetEnums(EnumsOf(plan))
	named := echo.Named(root, 100, ft.Enums().Names)
	if stripped := regexp.MustCompile(`  # [A-Z_ |]+`).ReplaceAllString(named, ""); stripped != echo.Short(root, 100) {
		t.Errorf("without its comments the text differs from echo.Short:\n%s\n---\n%s", stripped, echo.Short(root, 100))
	}
	lines := strings.Split(named, "\n")
	for _, tc := range []struct{ line, want string }{
		{"type: 0", "ARROW | ADD"},
		{"action: 2", "DELETE"},
		{"status: -1", "STATUS_NO_FIX"},
		{"service: 1", "SERVICE_GPS"},
		{"x: 0.0", ""},
		{"  level: 2", "ERROR"},
	} {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, tc.line) })
		if i < 0 {
			t.Errorf("no line %q in\n%s", tc.line, named)
			continue
		}
		want := tc.line
		if tc.want != "" {
			want += "  # " + tc.want
		}
		if lines[i] != want {
			t.Errorf("%q, want %q", lines[i], want)
		}
	}
	if got := echo.Named(root, 100, nil); got != echo.Short(root, 100) {
		t.Error("with no names, Named is not Short")
	}
}

// TestEnumNames names integer fields by their type's constants: one name,
// several when they share a value, only the ones named after the field
// when some are, only constants of the field's width, elements of an
// array, and constants of a nested type.
func TestEnumNames(t *testing.T) {
	plan, root := enumTestMessage(t)
	ft := NewFieldTree(root)
	ft.SetEnums(EnumsOf(plan))
	tests := []struct {
		id, want string
	}{
		{"0", "ARROW | ADD"},   // type 0: two constants share the value
		{"1", "DELETE"},        // action 2
		{"2", "STATUS_NO_FIX"}, // status -1, named after the field
		{"3", "SERVICE_GPS"},   // service 1: STATUS_SBAS_FIX is 1 too, but int8
		{"4/0", "CUBE"},        // an element of levels: 1; STATUS_SBAS_FIX is status's
		{"4/1", ""},            // 3: no constant
		{"5", ""},              // a float
		{"6/0", "ERROR"},       // the nested type's own constants
	}
	for _, tc := range tests {
		if got := strings.Join(ft.EnumNames(tc.id), " | "); got != tc.want {
			n := ft.Node(tc.id)
			t.Errorf("%s (%+v): names %q, want %q", tc.id, n, got, tc.want)
		}
	}
	if got := EnumText("50", []string{"FATAL"}); got != "50 (FATAL)" {
		t.Errorf("EnumText = %q", got)
	}
}
