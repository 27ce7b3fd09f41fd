package echo

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// ros2ScalarOracle prints, for the float64 bit patterns and the strings on
// its stdin (JSON), Python's repr of each float, and the value PyYAML
// writes in `ros2 topic echo`'s message_to_yaml (allow_unicode, no line
// width) for each float and each string, as the value of a one-key
// mapping.
const ros2ScalarOracle = `import json, struct, sys, yaml
req = json.load(sys.stdin)
def val(v):
    out = yaml.dump({'v': v}, allow_unicode=True, width=sys.maxsize, default_flow_style=False)
    assert out.startswith('v:')
    return out[2:]
floats = [struct.unpack('<d', struct.pack('<Q', b))[0] for b in req['bits']]
json.dump({'repr': [repr(f) for f in floats], 'yaml': [val(f) for f in floats],
           'str': [val(s) for s in req['strings']]}, sys.stdout)`

// TestROS2ScalarsMatchPyYAML checks the number and string writers of the
// ROS 2 text, which append to one buffer without building strings,
// against Python's repr and PyYAML: floats of every exponent, float32s
// widened, NaN, infinities and signed zeros; strings whose style PyYAML
// decides from neighbouring characters (": ", " #", "- "), non-ASCII
// next to those, line and paragraph separators, invalid UTF-8 (one U+FFFD
// a byte, as Python has the string).
func TestROS2ScalarsMatchPyYAML(t *testing.T) {
	reftest.RequireRef(t)
	if err := exec.Command(reftest.Python, "-c", "import yaml").Run(); err != nil {
		reftest.SkipOrFail(t, "PyYAML is missing: "+err.Error())
	}
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-5, 1e-4, 9.999e-5, 1e15, 1e16, 1e17, 123456789.125,
		1234567890123456, 12345678901234567, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, -2.5e-7,
		math.NaN(), math.Inf(1), math.Inf(-1), float64(float32(0.1)), float64(float32(1e20)), 1e22, 1e100, 2e-300}
	rng := rand.New(rand.NewPCG(28, 9))
	for range 1500 {
		floats = append(floats, math.Float64frombits(rng.Uint64()))
	}
	for range 500 {
		floats = append(floats, float64(math.Float32frombits(rng.Uint32())))
	}
	for e := -30; e <= 30; e++ {
		p := math.Pow(10, float64(e))
		floats = append(floats, p, -p*1.5, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)))
	}
	strs := []string{"base_link", "hello world 42", "", " lead", "trail ", "a: b", "a:b", "a #b", "a#b", "#x", "- x", "-x", "-",
		"é: x", "é:x", "ü #", "ü#", "a é", "-é", "é-", ":é", "? é", "?é", "日本語 テキスト", "a\u3000b", "\u00a0lead",
		"x\u2028y", "x\u2029", "\u0085", "tab\tx", "line\nbreak", "yes", "No", "~", "null", "1.5", "0x1F", "1_000", "12:30:45",
		"2001-12-14", "=", "<<", ".inf", "---x", "...", "it's", "'q'", "\"dq\"", "[x]", "{y}", "a,b", "@at", "`bt`", "%p",
		"🤖 robot", "a\x00b", "\ufeffbom", "\ufffd", "bad \xff\xfe utf-8", "\xc3", "é\xff: x", strings.Repeat("long ", 60)}
	bits := make([]uint64, len(floats))
	for i, f := range floats {
		bits[i] = math.Float64bits(f)
	}
	req, err := json.Marshal(map[string]any{"bits": bits, "strings": strs}) // invalid UTF-8 becomes U+FFFD
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(reftest.Python, "-c", ros2ScalarOracle)
	cmd.Stdin = strings.NewReader(string(req))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var want struct {
		Repr, YAML, Str []string
	}
	if err := json.Unmarshal(out, &want); err != nil || len(want.Repr) != len(floats) || len(want.Str) != len(strs) {
		t.Fatalf("oracle: %v: %.200s", err, out)
	}
	bad := 0
	for i, f := range floats {
		yaml := strings.TrimPrefix(want.YAML[i], " ")
		yaml = strings.TrimSuffix(yaml, "\n")
		if got := string(rosmsg.AppendPyRepr([]byte("x"), f)); got != "x"+want.Repr[i] {
			t.Errorf("AppendPyRepr(%v) = %q, want x%s", f, got, want.Repr[i])
			bad++
		}
		if got := PyFloat(f); got != want.Repr[i] {
			t.Errorf("PyFloat(%v) = %q, want %s", f, got, want.Repr[i])
			bad++
		}
		if got := string(appendYAMLFloat([]byte("x"), f)); got != "x"+yaml {
			t.Errorf("appendYAMLFloat(%v) = %q, want x%s", f, got, yaml)
			bad++
		}
		if bad > 10 {
			t.Fatal("too many differences")
		}
	}
	for i, s := range strs {
		// The value as the ROS 2 writer writes a string field "v".
		w := ros2Writer{truncate: -1}
		w.e = yamlEmitter{width: -1, unicode: true, whitespace: true, indention: true, b: []byte("x")}
		w.plainText("v", 0, false)
		w.e.writeIndicator(":", false, false, false)
		w.str(s, 0)
		w.e.indent = 0
		w.e.writeIndent()
		if got := string(w.e.b); got != "xv:"+want.Str[i] {
			t.Errorf("%q:\n got %q\nwant %q", s, got, "xv:"+want.Str[i])
		}
	}
	t.Logf("%d floats and %d strings as PyYAML writes them", len(floats), len(strs))
}

// TestQuotedAsIsMatchesPyYAML checks the ROS 1 text's short cut for a
// string field (quotedAsIs: the string between double quotes) against
// PyYAML's yaml.dump(s, default_style='"'), on strings around the line
// width with spaces at every place a fold could come, and with the
// characters that must be escaped.
func TestQuotedAsIsMatchesPyYAML(t *testing.T) {
	reftest.RequireRef(t)
	if err := exec.Command(reftest.Python, "-c", "import yaml").Run(); err != nil {
		reftest.SkipOrFail(t, "PyYAML is missing: "+err.Error())
	}
	var strs []string
	for n := 70; n <= 90; n++ {
		for _, sp := range []int{1, 2, 5, n / 2, n - 3, n - 2} {
			b := []byte(strings.Repeat("x", n))
			for k := sp; k < n; k += 7 {
				b[k] = ' '
			}
			strs = append(strs, string(b))
		}
	}
	strs = append(strs, "a\"b", `a\b`, "tab\tx", "é", "~", "x\x7f", "plain words", "'single'", " lead", "trail ")
	req, err := json.Marshal(strs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(reftest.Python, "-c", `import json, sys, yaml
json.dump([yaml.dump(s, default_style='"').rstrip('\n') for s in json.load(sys.stdin)], sys.stdout)`)
	cmd.Stdin = strings.NewReader(string(req))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(strs) {
		t.Fatalf("oracle: %v: %.200s", err, out)
	}
	asIs := 0
	for i, s := range strs {
		if !quotedAsIs(s) {
			continue
		}
		asIs++
		if got := `"` + s + `"`; got != want[i] {
			t.Errorf("%q: quotedAsIs, but PyYAML writes %q", s, want[i])
		}
	}
	if asIs < 50 || asIs == len(strs) {
		t.Errorf("%d of %d strings quoted as they are: the cases do not exercise both sides", asIs, len(strs))
	}
}
