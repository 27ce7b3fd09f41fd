package model

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// fieldID returns the ID of the top-level field name.
func fieldID(t *testing.T, ft *FieldTree, name string) string {
	t.Helper()
	for _, c := range ft.Children("") {
		if ft.Node(c).Name == name {
			return c
		}
	}
	t.Fatalf("no field %s", name)
	return ""
}

func TestFieldTreeGroups(t *testing.T) {
	root := reftest.DecodeNth(t, "../testdata/custom-all-types.bag", "/all_types", 1)
	tests := []struct {
		field  string
		rows   []string // names of the rows under the field
		values []string // their values
		paths  []string
	}{
		{"f32_dyn", []string{"[0..3]"}, []string{"NaN, 1.5, 1e-45, 3.4028235e+38"}, []string{"f32_dyn[0:4]"}},
		{"u8_dyn", []string{"[0..5]"}, []string{"250, 251, 252, 253, 254, 255"}, []string{"u8_dyn[0:6]"}},
		{"b_fixed", []string{"[0..1]"}, []string{"true, false"}, []string{"b_fixed[0:2]"}},
		{"i8_dyn", []string{"[0..2]"}, []string{"-128, 0, 127"}, []string{"i8_dyn[0:3]"}},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			ft := NewFieldTree(root)
			ft.Grouped = true
			id := fieldID(t, ft, tc.field)
			var names, values, paths []string
			for _, c := range ft.Children(id) {
				if !IsGroup(c) || ft.IsBranch(c) {
					t.Fatalf("row %q is not a group row", c)
				}
				names = append(names, ft.GroupName(c))
				values = append(values, ft.GroupValue(c))
				paths = append(paths, ft.Path(c))
			}
			if strings.Join(names, "|") != strings.Join(tc.rows, "|") ||
				strings.Join(values, "|") != strings.Join(tc.values, "|") ||
				strings.Join(paths, "|") != strings.Join(tc.paths, "|") {
				t.Errorf("rows %q %q %q, want %q %q %q", names, values, paths, tc.rows, tc.values, tc.paths)
			}
			// One element per row on request, and back.
			ft.SetPerElement(id, true)
			n := ft.Node(id)
			if got := len(ft.Children(id)); got != n.Len() {
				t.Errorf("per element: %d rows, want %d", got, n.Len())
			}
			ft.SetPerElement(id, false)
			if got := len(ft.Children(id)); got != len(tc.rows) {
				t.Errorf("grouped again: %d rows, want %d", got, len(tc.rows))
			}
		})
	}
}

// TestFieldTreeGroupsLong checks a long array: rows of GroupSize elements
// up to the listed ones, a "more" row, and At landing on the group row
// whose bytes hold the offset.
func TestFieldTreeGroupsLong(t *testing.T) {
	root := reftest.DecodeNth(t, "../assets/sample.bag", "/camera/image_raw", 0)
	ft := NewFieldTree(root)
	ft.Grouped = true
	id := fieldID(t, ft, "data")
	n := ft.Node(id)
	if n.Len() <= FieldTreeFirst {
		t.Fatalf("data has %d elements: too few for this test", n.Len())
	}
	kids := ft.Children(id)
	g := GroupSize(n.Kind)
	wantRows := (FieldTreeFirst + g - 1) / g
	if len(kids) != wantRows+1 || !IsMore(kids[len(kids)-1]) {
		t.Fatalf("%d rows (last %q), want %d groups and a more row", len(kids), kids[len(kids)-1], wantRows)
	}
	for _, tc := range []struct {
		name string
		elem int
	}{{"first", 0}, {"in the second group", g + 1}, {"past the listed ones", FieldTreeFirst + 3}, {"last", n.Len() - 1}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := n.ElemRange(tc.elem)
			got := ft.At(s)
			if !IsGroup(got) {
				t.Fatalf("At gives %q, not a group row", got)
			}
			_, lo, hi, _ := ft.Group(got)
			if tc.elem < lo || tc.elem >= hi {
				t.Errorf("At gives the group of %d..%d for element %d", lo, hi-1, tc.elem)
			}
			rs, re, ok := ft.Range(got)
			if !ok || s < rs || s >= re {
				t.Errorf("the group's bytes %d..%d do not hold the element's %d", rs, re, s)
			}
		})
	}
}

func TestFieldTreeCopyText(t *testing.T) {
	root := reftest.DecodeNth(t, "../testdata/custom-all-types.bag", "/all_types", 1)
	ft := NewFieldTree(root)
	ft.Grouped = true
	tests := []struct {
		field, want string
	}{
		{"s", "über ☃ 🤖"},
		{"t", "4294967295.999999999"},
		{"d", "-0.000000001"},
		{"i64", "-9223372036854775808"},
		{"f64", "-0"},
		{"u8_fixed", "[0, 1, 254, 255]"},
		{"s_dyn", "- ''\n- a\n- two words"},
		{"inner", "x: -2\nname: \"in\""},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			if got := ft.CopyText(fieldID(t, ft, tc.field)); got != tc.want {
				t.Errorf("CopyText = %q, want %q", got, tc.want)
			}
		})
	}
	if got, want := ft.CopyText(""), echo.Message(root); got != want {
		t.Errorf("CopyText of the message is not its echo:\n%s", got)
	}
	group := ft.Children(fieldID(t, ft, "u8_dyn"))[0]
	if got := ft.CopyText(group); got != "250, 251, 252, 253, 254, 255" {
		t.Errorf("CopyText of a group = %q", got)
	}
}

// TestMessageJSON checks the copied JSON is the indented form of cat --json,
// with lists of scalars on one line.
func TestMessageJSON(t *testing.T) {
	root := reftest.DecodeNth(t, "../testdata/single-message.bag", "/answer", 0)
	if got, want := echo.JSON(root), "{\n  \"data\": 42\n}"; got != want {
		t.Errorf("MessageJSON = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		path, topic string
		n           int
		want        []string // lines it holds
	}{
		{"../assets/sample.bag", "/imu", 0, []string{`  "orientation_covariance": [0.0025, 0.0, 0.0, 0.0, 0.0025, 0.0, 0.0, 0.0, 0.0025],`}},
		{"../testdata/custom-all-types.bag", "/all_types", 1, []string{`  "s_dyn": ["", "a", "two words"],`, `  "i8_dyn": [-128, 0, 127],`, `  "inners": [`}},
		{"../testdata/custom-all-types.bag", "/all_types", 0, []string{`  "f32_dyn": [],`}},
	} {
		t.Run(tc.topic, func(t *testing.T) {
			root := reftest.DecodeNth(t, tc.path, tc.topic, tc.n)
			got := echo.JSON(root)
			for _, w := range tc.want {
				if !strings.Contains(got, "\n"+w+"\n") {
					t.Errorf("no line %q in\n%s", w, got)
				}
			}
			var a, b any
			if err := json.Unmarshal([]byte(got), &a); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(rosmsg.AppendJSON(nil, root), &b)
			if !reflect.DeepEqual(a, b) {
				t.Error("the indented JSON does not read as cat --json's")
			}
		})
	}
}

// TestFieldTreeKeys checks elements named by a key array: JointState's
// name, the top-level joint_names of a JointTrajectoryControllerState,
// and /tf's child frames; keyed arrays of numbers list one element per
// row with their keys.
func TestFieldTreeKeys(t *testing.T) {
	joints := sharedBags + "/gt-ros-pkg__hrl/hai_sandbox/gt_strongbot/motions/joints_2010-08-17-19-51-09.bag"
	if _, err := os.Stat(joints); err != nil {
		reftest.SkipOrFail(t, err)
	}
	tests := []struct {
		name, path, topic string
		field             []string // path of field names to the array
		wantRows          []string // RowName of its first rows
	}{
		{"top-level joint_names", joints, "r_arm_controller/state", []string{"actual", "positions"},
			[]string{"[0] r_shoulder_pan_joint", "[1] r_shoulder_lift_joint"}},
		{"tf child frames", "../assets/sample.bag", "/tf", []string{"transforms"}, []string{"[0] base_link"}},
		{"no key array", "../assets/sample.bag", "/imu", []string{"orientation_covariance"}, []string{""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ft := NewFieldTree(reftest.DecodeNth(t, tc.path, tc.topic, 0))
			ft.Grouped = true
			id := fieldID(t, ft, tc.field[0])
			for _, name := range tc.field[1:] {
				found := ""
				for _, c := range ft.Children(id) {
					if n := ft.Node(c); n != nil && n.Name == name {
						found = c
					}
				}
				if found == "" {
					t.Fatalf("no field %s", name)
				}
				id = found
			}
			kids := ft.Children(id)
			for i, want := range tc.wantRows {
				got := ft.RowName(kids[i])
				if want == "" {
					if !IsGroup(kids[i]) {
						t.Errorf("row %d of an array without keys is %q, not a group", i, got)
					}
					continue
				}
				if got != want {
					t.Errorf("row %d is %q, want %q", i, got, want)
				}
			}
		})
	}
}

// keySink keeps the values a selection reads.
type keySink map[string]float64

func (s keySink) Value(name []byte, v float64) { s[string(name)] = v }

// TestFieldTreeKeyPath compiles the key path of keyed values with the
// plots' selector and checks it reads the tree's value.
func TestFieldTreeKeyPath(t *testing.T) {
	joints := sharedBags + "/gt-ros-pkg__hrl/hai_sandbox/gt_strongbot/motions/joints_2010-08-17-19-51-09.bag"
	if _, err := os.Stat(joints); err != nil {
		reftest.SkipOrFail(t, err)
	}
	tests := []struct {
		name, path, topic, index, want string
	}{
		{"joint by top-level names", joints, "r_arm_controller/state", "actual.positions[3]", "actual.positions[r_elbow_flex_joint]"},
		{"tf by child frame", "../assets/sample.bag", "/tf", "transforms[0].transform.translation.x", "transforms[base_link].transform.translation.x"},
		{"no keys", "../assets/sample.bag", "/imu", "orientation.x", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ros1.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s := ros1.NewStore(b)
			x, err := BuildMessageIndex(context.Background(), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := NewMessageReader(s, nil)
			m, err := r.Read(x.Topic(tc.topic).At(0))
			if err != nil {
				t.Fatal(err)
			}
			root, _, err := r.Decode(m)
			if err != nil {
				t.Fatal(err)
			}
			ft := NewFieldTree(root)
			ft.Grouped = true
			var id string
			walkTree(ft, "", func(c string) {
				if ft.Path(c) == tc.index {
					id = c
				}
			})
			if id == "" {
				t.Fatalf("no row %s", tc.index)
			}
			got := ft.KeyPath(id)
			if got != tc.want {
				t.Fatalf("KeyPath = %q, want %q", got, tc.want)
			}
			if got == "" {
				return
			}
			plan, _ := r.Cache.Get(m.Conn.Type, m.Conn.MD5Sum, m.Conn.Definition)
			sel, err := rosmsg.CompileSelection(plan, got)
			if err != nil {
				t.Fatal(err)
			}
			vals := keySink{}
			if _, err := sel.Walk(m.Data, nil, vals); err != nil {
				t.Fatal(err)
			}
			want, _ := ft.Node(id).Float64()
			if len(vals) != 1 || vals[got] != want {
				t.Errorf("%s reads %v, the tree has %v", got, vals, want)
			}
		})
	}
}

func TestQuoteKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"shoulder_pan", "shoulder_pan"},
		{"base link", "base link"},
		{"3", `"3"`},
		{"1:4", `"1:4"`},
		{"", `""`},
		{"*", `"*"`},
		{" x", `" x"`},
		{"a[b]", `"a[b]"`},
		{"k=v", `"k=v"`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := quoteKey(tc.in); got != tc.want {
				t.Errorf("quoteKey(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestFieldTreeKeepView(t *testing.T) {
	a := NewFieldTree(reftest.DecodeNth(t, "../assets/sample.bag", "/camera/image_raw", 0))
	b := NewFieldTree(reftest.DecodeNth(t, "../assets/sample.bag", "/camera/image_raw", 1))
	a.Grouped, b.Grouped = true, true
	data := fieldID(t, a, "data")
	kids := a.Children(data)
	a.ShowMore(kids[len(kids)-1])
	a.SetPerElement(data, true)
	b.KeepView(a)
	if got, want := len(b.Children(data)), len(a.Children(data)); got != want || !b.PerElement(data) {
		t.Errorf("after KeepView: %d rows (want %d), one per row %v", got, want, b.PerElement(data))
	}
}
