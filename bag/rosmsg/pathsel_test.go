package rosmsg

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nv is one named value a selection reads.
type nv struct {
	name string
	v    float64
}

type collect struct{ out []nv }

func (c *collect) Value(name []byte, v float64) { c.out = append(c.out, nv{string(name), v}) }

func (a nv) same(b nv) bool {
	return a.name == b.name && (a.v == b.v && math.Signbit(a.v) == math.Signbit(b.v) || math.IsNaN(a.v) && math.IsNaN(b.v))
}

// oracle evaluates a selection path on a decoded tree, the slow way, as
// the Selection documentation describes it: the reference of the tests.
type oracle struct {
	out      []nv
	mismatch bool
}

// eval reads segs from message node levels[len-1]; levels are the
// messages the key array search may climb to.
func (o *oracle) eval(levels []*Node, segs []pseg, name string) {
	cur := levels[len(levels)-1]
	sg := segs[0]
	f := cur.Field(sg.name)
	if f == nil {
		panic("no field " + sg.name)
	}
	name += sg.name
	leaf := func(n *Node, name string, rest []pseg) {
		if len(rest) > 0 && n.Kind == KindMessage {
			o.eval(append(slices.Clone(levels), n), rest, name+".")
			return
		}
		if len(rest) == 1 {
			t := uint64(n.Time().Sec)
			if rest[0].name == "nsecs" {
				t = uint64(n.Time().Nsec)
			}
			if n.Kind == KindDuration {
				d := n.Duration()
				v := float64(d.Sec)
				if rest[0].name == "nsecs" {
					v = float64(d.Nsec)
				}
				o.out = append(o.out, nv{name + "." + rest[0].name, v})
				return
			}
			o.out = append(o.out, nv{name + "." + rest[0].name, float64(t)})
			return
		}
		v, _ := n.Float64()
		o.out = append(o.out, nv{name, v})
	}
	if !sg.hasBra {
		leaf(f, name, segs[1:])
		return
	}
	elemDo := func(i int, elemName string) {
		e, ok := f.Elem(i)
		if !ok {
			return
		}
		if e.Kind == KindMessage {
			if len(segs) > 1 {
				sub := oracle{}
				sub.eval([]*Node{&e}, segs[1:], elemName+".")
				o.out = append(o.out, sub.out...)
				o.mismatch = o.mismatch || sub.mismatch
			}
			return
		}
		saved := levels
		levels = nil
		leaf(&e, elemName, segs[1:])
		levels = saved
	}
	sp := sg.spec
	if sp.kind == specIndex {
		elemDo(sp.idx, name+"["+strconv.Itoa(sp.idx)+"]")
		return
	}
	// The key array.
	var keys *Node
	explicit := ""
	if sp.kind == specMatch && f.Kind != KindMessage {
		explicit = sp.field
	}
	if sp.kind != specMatch || explicit != "" {
	search:
		for l := len(levels) - 1; l >= 0; l-- {
			var cands []*Node
			for i := range levels[l].Children {
				c := &levels[l].Children[i]
				if c.Array && c.Kind == KindString && c != f {
					if explicit != "" && c.Name == explicit || explicit == "" && (c.Name == "name" || c.Name == "names" || strings.HasSuffix(c.Name, "_names")) {
						cands = append(cands, c)
					}
				}
			}
			slices.SortStableFunc(cands, func(a, b *Node) int {
				rank := func(n *Node) int {
					switch n.Name {
					case "name":
						return 0
					case "names":
						return 1
					}
					return 2
				}
				return rank(a) - rank(b)
			})
			if len(cands) > 0 {
				keys = cands[0]
				break search
			}
		}
	}
	n := f.Len()
	keyOf := func(i int) string {
		e, _ := keys.Elem(i)
		return e.Text()
	}
	if keys != nil && keys.Len() != n {
		if n > 0 {
			o.mismatch = true
		}
		return
	}
	natKey := ""
	if f.Kind == KindMessage && keys == nil {
		for _, k := range elemKeyFields {
			if e, ok := f.Elem(0); ok && e.Field(k) != nil && e.Field(k).Kind == KindString && !e.Field(k).Array {
				natKey = k
				break
			}
		}
	}
	fieldOf := func(i int, path string) (*Node, bool) {
		e, ok := f.Elem(i)
		if !ok {
			return nil, false
		}
		n := &e
		for _, part := range strings.Split(path, ".") {
			idx := -1
			if j := strings.IndexByte(part, '['); j >= 0 {
				idx, _ = strconv.Atoi(part[j+1 : len(part)-1])
				part = part[:j]
			}
			n = n.Field(part)
			if idx >= 0 {
				el, ok := n.Elem(idx)
				if !ok {
					return nil, false
				}
				n = &el
			}
		}
		return n, true
	}
	q := func(s string) string { return string(appendKey(nil, []byte(s))) }
	qv := func(s string) string { return string(appendValue(nil, []byte(s))) }
	lo, hi := 0, n
	if sp.kind == specRange {
		lo = min(sp.lo, n)
		if sp.hi >= 0 {
			hi = min(sp.hi, n)
		}
	}
	for i := lo; i < hi; i++ {
		switch sp.kind {
		case specAll, specRange:
			switch {
			case keys != nil:
				elemDo(i, name+"["+q(keyOf(i))+"]")
			case natKey != "":
				k, _ := fieldOf(i, natKey)
				elemDo(i, name+"["+natKey+"="+qv(k.Text())+"]")
			default:
				elemDo(i, name+"["+strconv.Itoa(i)+"]")
			}
		case specKey:
			if keys != nil {
				if keyOf(i) == sp.key {
					elemDo(i, name+"["+q(sp.key)+"]")
				}
			} else if k, _ := fieldOf(i, natKey); k.Text() == sp.key {
				elemDo(i, name+"["+natKey+"="+qv(sp.key)+"]")
			}
		case specMatch:
			if explicit != "" {
				if keyOf(i) == sp.key {
					elemDo(i, name+"["+explicit+"="+qv(sp.key)+"]")
				}
				continue
			}
			k, ok := fieldOf(i, sp.field)
			if !ok {
				continue
			}
			match := false
			if k.Kind == KindString {
				match = k.Text() == sp.key
			} else {
				v, _ := k.Float64()
				want, _ := strconv.ParseFloat(sp.key, 64)
				if sp.key == "true" {
					want = 1
				}
				match = v == want
			}
			if match {
				elemDo(i, name+"["+sp.field+"="+qv(sp.key)+"]")
			}
		}
	}
}

func oracleSelect(root *Node, path string) ([]nv, bool) {
	segs, msg := splitPath(path)
	if msg != "" {
		panic(msg)
	}
	var o oracle
	o.eval([]*Node{root}, segs, "")
	fixed := true
	for _, sg := range segs {
		if sg.hasBra && (sg.spec.kind == specAll || sg.spec.kind == specRange) {
			fixed = false
		}
	}
	if fixed {
		for i := range o.out {
			o.out[i].name = path
		}
	}
	return o.out, o.mismatch
}

// selSample is one serialized message and its plan.
type selSample struct {
	name string
	p    *Plan
	data []byte
}

func selSamples(t *testing.T) []selSample {
	var out []selSample
	for _, l := range golden(t) {
		p, err := Compile(l.Type, l.FullText)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := hex.DecodeString(l.Hex)
		out = append(out, selSample{l.Type + "/" + l.Case, p, data})
	}
	type rec struct{ Type, Encoding, Text, Data string }
	for _, file := range []string{"testdata/rosbags_rs_cdr.jsonl", "testdata/mcap_cdr_messages.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{}
		for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r rec
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.Text != "" {
				texts[r.Type] = r.Text
			}
			p := mustSchema(t, r.Encoding, r.Type, texts[r.Type])
			data, _ := base64.StdEncoding.DecodeString(r.Data)
			out = append(out, selSample{fmt.Sprintf("%s#%d", r.Type, i), p, data})
		}
	}
	return out
}

// TestPathSelectionMatchesTree reads every "[*]" path of every sample message
// (ROS 1 golden messages, real CDR messages), every element name it gives
// back as a path, and keyed and ranged variants, and compares each with
// the decoded tree; every prefix of the data must fail cleanly.
func TestPathSelectionMatchesTree(t *testing.T) {
	checked := 0
	for _, smp := range selSamples(t) {
		root, err := smp.p.Decode(smp.data)
		if err != nil {
			continue
		}
		walk := func(path string) ([]nv, error) {
			s, err := CompileSelection(smp.p, path)
			if err != nil {
				t.Fatalf("%s: CompileSelection(%q): %v", smp.name, path, err)
			}
			var c collect
			buf, err := s.Walk(smp.data, []byte("/t."), &c)
			if string(buf) != "/t." {
				t.Fatalf("%s: %s: Walk returned buffer %q", smp.name, path, buf)
			}
			for i := range c.out {
				if !strings.HasPrefix(c.out[i].name, "/t.") {
					t.Fatalf("%s: %s: name %q lacks the prefix", smp.name, path, c.out[i].name)
				}
				c.out[i].name = c.out[i].name[3:]
			}
			return c.out, err
		}
		compare := func(path string) []nv {
			got, err := walk(path)
			want, mismatch := oracleSelect(root, path)
			if mismatch {
				if !errors.Is(err, ErrIndex) {
					t.Errorf("%s: %s: key array mismatch, got %v", smp.name, path, err)
				}
				return nil
			}
			if err != nil && !(errors.Is(err, ErrIndex) && len(want) == 0) {
				t.Errorf("%s: %s: %v", smp.name, path, err)
				return nil
			}
			if len(got) != len(want) {
				t.Errorf("%s: %s: %d values %.4v, tree has %d %.4v", smp.name, path, len(got), got, len(want), want)
				return nil
			}
			for i := range got {
				if !got[i].same(want[i]) {
					t.Errorf("%s: %s: value %d is %v, tree has %v", smp.name, path, i, got[i], want[i])
				}
			}
			checked += len(got)
			return got
		}
		for _, path := range smp.p.SelectorPaths() {
			got := compare(path)
			seen := map[string]bool{}
			for _, g := range got {
				if seen[g.name] || len(seen) > 40 {
					continue
				}
				seen[g.name] = true
				again := compare(g.name)
				var want []nv
				for _, h := range got {
					if h.name == g.name {
						want = append(want, h)
					}
				}
				if len(again) != len(want) {
					t.Errorf("%s: %s gives %v; as part of %s: %v", smp.name, g.name, again, path, want)
				}
			}
			if strings.Contains(path, "[*]") {
				compare(strings.Replace(path, "[*]", "[1:]", 1))
				compare(strings.Replace(path, "[*]", "[:2]", 1))
				compare(strings.Replace(path, "[*]", "[1:3]", 1))
			}
			s, _ := CompileSelection(smp.p, path)
			for n := 0; n < len(smp.data); n += 1 + len(smp.data)/97 {
				var c collect
				if _, err := s.Walk(smp.data[:n], nil, &c); err == nil && len(c.out) > len(got) {
					t.Fatalf("%s: %s on %d bytes: %d values", smp.name, path, n, len(c.out))
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d values checked", checked)
	}
	t.Logf("%d values checked against the tree", checked)
}

// TestPathSelectionKeys checks the documented examples on real messages.
func TestPathSelectionKeys(t *testing.T) {
	samples := map[string]selSample{}
	for _, s := range selSamples(t) {
		samples[s.name] = s
	}
	tests := []struct {
		sample, path string
		want         []nv
	}{
		{"sensor_msgs/JointState/rich", "position[frame]", []nv{{"position[frame]", 123456789.125}}},
		{"sensor_msgs/JointState/rich", `position[""]`, []nv{{`position[""]`, 1e-05}}},
		{"sensor_msgs/JointState/rich", `velocity[name=frame]`, []nv{{`velocity[name=frame]`, -2.5e-07}}},
		{"sensor_msgs/JointState/rich", `effort[1:2]`, []nv{{`effort[""]`, math.Copysign(0, -1)}}},
		{"sensor_msgs/JointState/rich", `position[nope]`, nil},
		{"tf2_msgs/TFMessage/rich", "transforms[frame].transform.translation.z", []nv{{"transforms[frame].transform.translation.z", math.Inf(1)}}},
		{"tf2_msgs/TFMessage/rich", `transforms[child_frame_id="frame"].transform.translation.z`, []nv{{`transforms[child_frame_id="frame"].transform.translation.z`, math.Inf(1)}}},
		{"tf2_msgs/TFMessage/rich", "transforms[child_frame_id=frame].transform.rotation.w", []nv{{"transforms[child_frame_id=frame].transform.rotation.w", 1e16}}},
		{"tf2_msgs/TFMessage/rich", `transforms[header.frame_id=""].transform.rotation.w`, []nv{{`transforms[header.frame_id=""].transform.rotation.w`, 1e16}}},
		{"tf2_msgs/TFMessage/rich", `transforms[header.seq=95028].transform.rotation.w`, []nv{{`transforms[header.seq=95028].transform.rotation.w`, 123456789.125}}},
		{"tf2_msgs/TFMessage/rich", `transforms[2:].header.stamp.secs`, []nv{{`transforms[child_frame_id=frame].header.stamp.secs`, 1700000000}}},
		{"sensor_msgs/msg/JointState#42", "position[*]", []nv{{"position[joint1]", 0.1}, {"position[joint2]", 0.2}, {"position[joint3]", 0.3}}},
		{"sensor_msgs/msg/JointState#42", "effort[joint3]", []nv{{"effort[joint3]", 3}}},
		{"sensor_msgs/msg/MultiDOFJointState#49", "transforms[joint2].translation.y", []nv{{"transforms[joint2].translation.y", 1}}},
		{"sensor_msgs/msg/MultiDOFJointState#49", "twist[*].linear.x", []nv{{"twist[joint1].linear.x", 0.1}, {"twist[joint2].linear.x", 0}}},
		{"tf2_msgs/msg/TFMessage#93", "transforms[*].transform.translation.y", []nv{{"transforms[child_frame_id=child_frame].transform.translation.y", 2}}},
	}
	for _, tc := range tests {
		smp, ok := samples[tc.sample]
		if !ok {
			t.Fatalf("no sample %s", tc.sample)
		}
		s, err := CompileSelection(smp.p, tc.path)
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
			continue
		}
		var c collect
		if _, err := s.Walk(smp.data, nil, &c); err != nil {
			t.Errorf("%s: %v", tc.path, err)
		}
		if len(c.out) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.path, c.out, tc.want)
			continue
		}
		for i := range c.out {
			if !c.out[i].same(tc.want[i]) {
				t.Errorf("%s: got %v, want %v", tc.path, c.out, tc.want)
			}
		}
	}
}

// TestPathSelectionKeyLevels checks the key array rule on a type with keys at
// several levels (pr2_controllers_msgs/JointTrajectoryControllerState:
// positions of the actual point keyed by the top-level joint_names).
func TestPathSelectionKeyLevels(t *testing.T) {
	const def = `Header header
string[] joint_names
trajectory_msgs/JointTrajectoryPoint desired
trajectory_msgs/JointTrajectoryPoint actual
trajectory_msgs/JointTrajectoryPoint error
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id
================================================================================
MSG: trajectory_msgs/JointTrajectoryPoint
float64[] positions
float64[] velocities
float64[] accelerations
duration time_from_start
`
	p, err := Compile("pr2_controllers_msgs/JointTrajectoryControllerState", def)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	u32 := func(v uint32) { b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	str := func(s string) { u32(uint32(len(s))); b = append(b, s...) }
	f64 := func(v float64) {
		x := math.Float64bits(v)
		for i := 0; i < 8; i++ {
			b = append(b, byte(x>>(8*i)))
		}
	}
	u32(1)
	u32(2)
	u32(3)
	str("base")
	u32(2)
	str("a_joint")
	str("b_joint")
	for pt := 0; pt < 3; pt++ {
		u32(2)
		f64(float64(10*pt + 1))
		f64(float64(10*pt + 2))
		u32(1)
		f64(float64(100*pt + 5))
		u32(0)
		u32(uint32(pt))
		u32(7)
	}
	for _, tc := range []struct {
		path string
		want []nv
	}{
		{"actual.positions[*]", []nv{{"actual.positions[a_joint]", 11}, {"actual.positions[b_joint]", 12}}},
		{"error.positions[b_joint]", []nv{{"error.positions[b_joint]", 22}}},
		{"desired.positions[joint_names=a_joint]", []nv{{"desired.positions[joint_names=a_joint]", 1}}},
		{"actual.accelerations[*]", nil},
		{"error.time_from_start.nsecs", []nv{{"error.time_from_start.nsecs", 7}}},
	} {
		s, err := CompileSelection(p, tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		var c collect
		_, err = s.Walk(b, nil, &c)
		if err != nil {
			t.Errorf("%s: %v", tc.path, err)
		}
		if fmt.Sprint(c.out) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.path, c.out, tc.want)
		}
	}
	// velocities has 1 element, joint_names 2: that message has no value.
	s, _ := CompileSelection(p, "actual.velocities[*]")
	var c collect
	if _, err := s.Walk(b, nil, &c); !errors.Is(err, ErrIndex) || len(c.out) != 0 {
		t.Errorf("length mismatch: %v, %v", c.out, err)
	}
}

func TestPathSelectionCompileErrors(t *testing.T) {
	js, _ := goldenSample(t, "sensor_msgs/JointState", "rich")
	tf, _ := goldenSample(t, "tf2_msgs/TFMessage", "rich")
	imu, _ := goldenSample(t, "sensor_msgs/Imu", "rich")
	for _, tc := range []struct {
		p    *Plan
		path string
		want string
	}{
		{js, "position[]", "empty brackets"},
		{js, "position[3:3]", "empty range"},
		{js, "position[2:1]", "empty range"},
		{js, "position[*", "unclosed"},
		{js, "name[*]", "not a plottable value"},
		{js, "position[x=a]", `no string array "x"`},
		{js, "position[*].x", "not a message"},
		{js, "header[*]", "not an array"},
		{js, "position", "is an array"},
		{js, "position[*]x", "want '.'"},
		{js, "position[a\"b]", "unclosed"},
		{js, "position[a\\b]", "quote it"},
		{tf, "transforms[*]", "not plottable"},
		{tf, "transforms[child_frame_id=a]", "not plottable"},
		{tf, "transforms[nothing=a].transform.translation.x", "has no field"},
		{tf, "transforms[transform.translation.x=a].transform.translation.x", "not a number"},
		{imu, "orientation_covariance[k]", "no key array"},
		{imu, "linear_acceleration..x", "empty field name"},
	} {
		_, err := CompileSelection(tc.p, tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrPath) {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
}

func TestPathNeedsQuote(t *testing.T) {
	for k, want := range map[string]bool{"shoulder_pan": false, "": true, "*": true, "12": true, "1:2": true, ":": true,
		"base_link/x.y": false, "a=b": true, "a]": true, " a": true, "r2-d2": false, "l\n": true} {
		if got := needsQuote([]byte(k)); got != want {
			t.Errorf("needsQuote(%q) = %v", k, got)
		}
		if want {
			// A quoted key parses back to itself.
			sp, msg := parseSpec(string(appendKey(nil, []byte(k))))
			if msg != "" || sp.kind != specKey || sp.key != k {
				t.Errorf("%q quoted parses as %+v %s", k, sp, msg)
			}
		}
	}
}
