package rosmsg

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// refPackages are the Debian packages ref_types.py imports besides
// python3-rosbag.
const refPackages = "python3-sensor-msgs python3-geometry-msgs python3-nav-msgs python3-tf2-msgs python3-rosgraph-msgs"

// runRef runs testdata/ref_types.py in the given mode. Without the reference
// (python3, rosbag, message packages) the test is skipped, unless the CI
// environment variable is set, in which case it fails (oracletest.SkipOrFail).
func runRef(t testing.TB, mode string, stdin string) []byte {
	t.Helper()
	oracletest.RequireRef(t)
	cmd := exec.Command(oracletest.Python, "testdata/ref_types.py", mode)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			oracletest.SkipOrFail(t, "reference unavailable ("+strings.TrimSpace(stderr.String())+"); install "+refPackages)
		}
		t.Fatalf("ref_types.py %s: %v\n%s", mode, err, stderr.String())
	}
	return out
}

type refLine struct {
	Type     string `json:"type"`
	MD5      string `json:"md5"`
	FullText string `json:"full_text"`
	Case     string `json:"case"`
	Hex      string `json:"hex"`
	JSON     string `json:"json"`
}

func refLines(t testing.TB, mode string) []refLine {
	out := runRef(t, mode, "")
	var lines []refLine
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l refLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("bad line from ref_types.py: %v", err)
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		t.Fatalf("ref_types.py %s printed nothing", mode)
	}
	return lines
}

var samplesOnce struct {
	done  bool
	lines []refLine
}

func refSamples(t testing.TB) []refLine {
	if !samplesOnce.done {
		samplesOnce.lines = refLines(t, "samples")
		samplesOnce.done = true
	}
	return samplesOnce.lines
}

func TestMD5Reference(t *testing.T) {
	for _, l := range refLines(t, "types") {
		t.Run(l.Type, func(t *testing.T) {
			p, err := Compile(l.Type, l.FullText)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			if p.MD5 != l.MD5 {
				text, _ := p.Definition.MD5Text(l.Type)
				t.Fatalf("md5 = %s, genmsg %s; md5 text:\n%s", p.MD5, l.MD5, text)
			}
			if err := p.CheckMD5(l.MD5); err != nil {
				t.Errorf("CheckMD5: %v", err)
			}
			if err := p.CheckMD5("0123456789abcdef0123456789abcdef"); !errors.Is(err, ErrMD5Mismatch) {
				t.Errorf("CheckMD5(wrong) = %v, want ErrMD5Mismatch", err)
			}
		})
	}
}

func TestDecodeReference(t *testing.T) {
	exact, paths, absent := 0, 0, 0
	samples := refSamples(t)
	for _, l := range samples {
		t.Run(l.Type+"/"+l.Case, func(t *testing.T) {
			p, err := Compile(l.Type, l.FullText)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			data, err := hex.DecodeString(l.Hex)
			if err != nil {
				t.Fatal(err)
			}
			root, err := p.Decode(data)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if root.Start != 0 || root.End != len(data) {
				t.Errorf("root range [%d,%d), want [0,%d)", root.Start, root.End, len(data))
			}
			checkRanges(t, root, "")
			got := string(AppendJSON(nil, root))
			if got == l.JSON {
				exact++
			} else if err := jsonEqual(got, l.JSON); err != nil {
				t.Fatalf("JSON differs: %v\n got: %s\nwant: %s", err, got, l.JSON)
			}
			found, missing := checkPaths(t, p, root, data)
			paths += found
			absent += missing
		})
	}
	t.Logf("%d of %d JSON outputs textually identical to Python's", exact, len(samples))
	t.Logf("%d listed paths extracted and equal to the tree, %d absent from both (empty arrays)", paths, absent)
	if paths < 1000 {
		t.Errorf("only %d paths checked", paths)
	}
}

// checkRanges verifies that children tile their parent's byte range.
func checkRanges(t *testing.T, n *Node, path string) {
	t.Helper()
	if n.Start > n.End {
		t.Errorf("%s: range [%d,%d)", path, n.Start, n.End)
	}
	if n.Array {
		pos := n.Start + n.hdr
		if n.hdr == 0 && n.Len() == 0 {
			pos = n.Start
		}
		for i := 0; i < n.Len(); i++ {
			s, e := n.ElemRange(i)
			if s != pos {
				t.Errorf("%s[%d] starts at %d, want %d", path, i, s, pos)
			}
			pos = e
			if c, ok := n.Elem(i); ok && n.slice == nil {
				checkRanges(t, &c, fmt.Sprintf("%s[%d]", path, i))
			}
		}
		if pos != n.End {
			t.Errorf("%s: elements end at %d, array at %d", path, pos, n.End)
		}
		return
	}
	if n.Kind != KindMessage {
		return
	}
	pos := n.Start
	for i := range n.Children {
		c := &n.Children[i]
		if c.Start != pos {
			t.Errorf("%s.%s starts at %d, want %d", path, c.Name, c.Start, pos)
		}
		pos = c.End
		checkRanges(t, c, path+"."+c.Name)
	}
	if pos != n.End {
		t.Errorf("%s: fields end at %d, message at %d", path, pos, n.End)
	}
}

// jsonEqual compares two JSON texts after parsing: numbers that are integers
// in both are compared exactly, others as float64.
func jsonEqual(a, b string) error {
	var va, vb any
	for _, p := range []struct {
		s string
		v *any
	}{{a, &va}, {b, &vb}} {
		d := json.NewDecoder(strings.NewReader(p.s))
		d.UseNumber()
		if err := d.Decode(p.v); err != nil {
			return err
		}
	}
	return valueEqual(va, vb, "")
}

func valueEqual(a, b any, path string) error {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		for k, v := range x {
			if err := valueEqual(v, y[k], path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		for i := range x {
			if err := valueEqual(x[i], y[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		if x.String() == y.String() {
			return nil
		}
		_, ea := strconv.ParseInt(x.String(), 10, 64)
		_, eb := strconv.ParseInt(y.String(), 10, 64)
		if ea == nil && eb == nil {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		fa, _ := strconv.ParseFloat(x.String(), 64)
		fb, _ := strconv.ParseFloat(y.String(), 64)
		if fa != fb {
			return fmt.Errorf("%s: %v vs %v", path, a, b)
		}
		return nil
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("%s: %#v vs %#v", path, a, b)
	}
	return nil
}

// checkPaths extracts every listed path and compares it with the tree.
func checkPaths(t *testing.T, p *Plan, root *Node, data []byte) (found, missing int) {
	t.Helper()
	for _, ps := range p.Paths() {
		path, err := CompilePath(p, ps)
		if err != nil {
			t.Errorf("CompilePath(%q): %v", ps, err)
			continue
		}
		got, gerr := path.Float64(data)
		want, ok := lookup(root, ps)
		if !ok {
			if !errors.Is(gerr, ErrIndex) {
				t.Errorf("%s: extract = %v, %v; not in tree, want ErrIndex", ps, got, gerr)
			}
			missing++
			continue
		}
		if gerr != nil || !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s: extract = %v, %v; tree has %v", ps, got, gerr, want)
		}
		found++
	}
	return found, missing
}

// lookup finds a listed path in a decoded tree, the slow way.
func lookup(root *Node, path string) (float64, bool) {
	n := *root
	for _, seg := range strings.Split(path, ".") {
		name, idx, hasIdx := seg, 0, false
		if i := strings.IndexByte(seg, '['); i >= 0 {
			name = seg[:i]
			idx, _ = strconv.Atoi(seg[i+1 : len(seg)-1])
			hasIdx = true
		}
		f := n.Field(name)
		if f == nil {
			return 0, false
		}
		n = *f
		if hasIdx {
			e, ok := n.Elem(idx)
			if !ok {
				return 0, false
			}
			n = e
		}
	}
	return n.Float64()
}

func TestUTF8Reference(t *testing.T) {
	cases := []string{
		"", "41", "ff", "c3", "c328", "e282", "e28228", "e2822841", "f09f9a", "f09f9a41", "ed a0 80", "eda080",
		"f4908080", "c0af", "e080af", "f8888080af", "80bf", "fe", "f0", "e0a0", "41c3a9ff42", "efbfbd",
		"f48fbfbf", "f5", "edbfbf", "ee8080e1",
	}
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(strings.ReplaceAll(c, " ", "") + "\n")
	}
	out := runRef(t, "utf8", in.String())
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i, c := range cases {
		if !sc.Scan() {
			t.Fatal("short output")
		}
		var want string
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		b, _ := hex.DecodeString(strings.ReplaceAll(c, " ", ""))
		t.Run(fmt.Sprintf("%d_%s", i, c), func(t *testing.T) {
			if got := decodeUTF8(b); got != want {
				t.Errorf("decodeUTF8(%x) = %q, Python %q", b, got, want)
			}
		})
	}
}
