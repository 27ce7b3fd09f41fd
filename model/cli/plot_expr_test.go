package cli

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/plot"
)

// TestPlotExprErrors checks that a wrong series argument is refused with
// what is wrong, its column and a caret under it.
func TestPlotExprErrors(t *testing.T) {
	bag := testdata + "/robot.bag"
	dir := t.TempDir()
	const x, y = "/odom.pose.pose.position.x", "/odom.pose.pose.position.y"
	tests := []struct {
		name     string
		args     []string
		code     int
		column   int // 0: no place
		contains []string
	}{
		{"unknown function", []string{"deriv(foo(" + x + "))"}, 2, 7, []string{`unknown function "foo"`, "deriv(P), integ(P)"}},
		{"missing )", []string{"deriv(" + x}, 2, 33, []string{"missing )"}},
		{"not a number", []string{"scale(" + x + ", two)"}, 2, 35, []string{`"two" is not a number`}},
		{"avg of zero", []string{"avg(" + x + ", 0)"}, 2, 33, []string{"whole number of at least 1"}},
		{"too many arguments", []string{"deriv(" + x + ", 2)"}, 2, 1, []string{"wrong arguments: want deriv(PATH)"}},
		{"junk after", []string{"deriv(" + x + ") junk"}, 2, 35, []string{`unexpected "junk"`}},
		{"empty argument", []string{"diff(, " + x + ")"}, 2, 6, []string{"field path is missing"}},
		{"unknown topic in y", []string{x + " vs deriv(/nope.x)"}, 2, 37, []string{"unknown topic", "/joint_states, /odom"}},
		{"unknown field suggests", []string{"diff(" + x + ", /odom.pose.pose.positon.y)"}, 2, 34, []string{"unknown field", y}},
		{"several elements", []string{"deriv(/joint_states.position[*])"}, 2, 7, []string{"selects several elements", "give an index"}},
		{"range in xy", []string{x + " vs /joint_states.position[0:2]"}, 2, 31, []string{"selects several elements"}},
		{"xy and time series", []string{x + " vs " + y, x}, 2, 0, []string{"cannot share one image"}},
		{"bad axes", []string{x + " vs " + y, "--axes", "round"}, 2, 0, []string{"want auto, equal or free"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"plot", bag, "--csv", dir + "/p.csv"}, tc.args...)
			_, stderr, code := run(args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			for _, s := range tc.contains {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr)
				}
			}
			if tc.column == 0 {
				return
			}
			want := "column " + strconv.Itoa(tc.column) + ":"
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
			// The argument on a line of its own, the caret under the column.
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			if n := len(lines); n > 0 && strings.HasPrefix(lines[n-1], "Run 'bagscope plot --help'") {
				lines = lines[:n-1] // the pointer to the help after a usage error
			}
			if len(lines) < 3 || strings.TrimSpace(lines[len(lines)-2]) != tc.args[0] ||
				lines[len(lines)-1] != strings.Repeat(" ", 4+tc.column-1)+"^" {
				t.Errorf("no caret under column %d:\n%s", tc.column, stderr)
			}
		})
	}
}

// TestPlotExprOutputs checks the images and CSV columns of functions and
// XY paths, and that series come in the order given.
func TestPlotExprOutputs(t *testing.T) {
	bag := testdata + "/robot.bag"
	const x, y = "/odom.pose.pose.position.x", "/odom.pose.pose.position.y"
	pos := func(j string) []string {
		var out []string
		for _, k := range []string{"shoulder_pan", "shoulder_lift", "elbow", "wrist_1", "wrist_2", "wrist_3"} {
			out = append(out, "/joint_states."+j+"["+k+"]")
		}
		return out
	}
	tests := []struct {
		name    string
		args    []string
		image   string // file name; its magic is checked
		columns []string
	}{
		{"deriv png", []string{"deriv(" + x + ")"}, "a.png", []string{"deriv(" + x + ")"}},
		{"canonical names", []string{"integ( odom.twist.twist.linear.x )"}, "b.svg", []string{"integ(/odom.twist.twist.linear.x)"}},
		{"path, function, path", []string{x, "offset(" + y + ", 1)", "/joint_states.position[*]"}, "c.png",
			append([]string{x, "offset(" + y + ", 1)"}, pos("position")...)},
		{"elements, function, index", []string{"/joint_states.position[*]", "deriv(" + x + ")", "/joint_states.velocity[2]"}, "",
			append(pos("position"), "deriv("+x+")", "/joint_states.velocity[2]")},
		{"elements on both sides of a function come first", []string{"/joint_states.position[*]", "deriv(" + x + ")", "/joint_states.velocity[*]"}, "",
			append(append(pos("position"), pos("velocity")...), "deriv("+x+")")},
		{"xy png", []string{x + " vs " + y}, "d.png", []string{x, y}},
		{"two xy paths svg, free axes", []string{x + " vs " + y, "--axes", "free", "integ(" + x + ") vs /joint_states.position[elbow]"}, "e.svg",
			[]string{x, y, "integ(" + x + ")", "/joint_states.position[elbow] (nearest in time)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"plot", bag, "--csv", dir + "/p.csv"}, tc.args...)
			if tc.image != "" {
				args = append(args, "-o", dir+"/"+tc.image)
			}
			_, stderr, code := run(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tc.image != "" {
				b, err := os.ReadFile(dir + "/" + tc.image)
				if err != nil {
					t.Fatal(err)
				}
				magic := "\x89PNG"
				if strings.HasSuffix(tc.image, ".svg") {
					magic = "<?xml"
				}
				if !bytes.HasPrefix(b, []byte(magic)) {
					t.Errorf("%s starts with %q", tc.image, b[:min(len(b), 16)])
				}
			}
			header, _, _ := readCSVRows(t, dir+"/p.csv")
			if !slices.Equal(header, tc.columns) {
				t.Errorf("columns\n%q\nwant\n%q", header, tc.columns)
			}
		})
	}
}

func TestSameParent(t *testing.T) {
	tests := []struct {
		x, y string
		want bool
	}{
		{"/odom.pose.pose.position.x", "/odom.pose.pose.position.y", true},
		{"/odom.pose.pose.position.x", "/odom.twist.twist.linear.y", false},
		{"/odom.pose.pose.position.x", "/tf.transforms[base_link].transform.translation.y", false},
		{"deriv(/odom.pose.pose.position.x)", "/odom.pose.pose.position.y", false},
	}
	for _, tc := range tests {
		x, err1 := plot.ParseExpr(tc.x)
		y, err2 := plot.ParseExpr(tc.y)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := plot.EqualAxes(x, y); got != tc.want {
			t.Errorf("%s vs %s: equal axes %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
