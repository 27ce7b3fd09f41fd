package expr

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// sample is one message with its definition and its value as a
// reference decoded it (JSON in bagscope cat --json's form).
type sample struct {
	name string
	plan *rosmsg.Plan
	data []byte
	json string
}

// goldenSamples are the ROS 1 messages of rosmsg's testdata with the
// values genpy (the ROS 1 reference) decoded, made by ref_types.py.
func goldenSamples(t testing.TB) []sample {
	t.Helper()
	f, err := os.Open("../testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			Type, Case, Hex, JSON string
			Text                  string `json:"full_text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		p, err := rosmsg.Compile(l.Type, l.Text)
		if err != nil {
			t.Fatal(err)
		}
		data, err := hex.DecodeString(l.Hex)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sample{l.Type + "/" + l.Case, p, data, l.JSON})
	}
	return out
}

// cdrSamples are the real ROS 2 messages of rosmsg's testdata (94 types
// of the rosbags-rs test bag and the MCAP files of ../shared/bags), with
// the values of rosmsg's tree decoder, which rosmsg's tests compare with
// the npm oracle.
func cdrSamples(t testing.TB) []sample {
	t.Helper()
	var out []sample
	for _, file := range []string{"../testdata/rosbags_rs_cdr.jsonl", "../testdata/mcap_cdr_messages.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{}
		for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r struct{ Type, Encoding, Text, Data string }
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.Text != "" {
				texts[r.Type] = r.Text
			}
			p, err := rosmsg.CompileSchema(r.Encoding, rosmsg.EncodingCDR, r.Type, texts[r.Type])
			if err != nil {
				t.Fatal(err)
			}
			data, _ := base64.StdEncoding.DecodeString(r.Data)
			root, err := p.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sample{fmt.Sprintf("%s#%d", r.Type, i), p, data, string(rosmsg.AppendJSON(nil, root))})
		}
	}
	return out
}

// quote writes s as an expression's string literal.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checker builds, for every leaf of a reference value, expressions that
// must hold for the message, and counts them.
type checker struct {
	t *testing.T
	s sample
	n int
}

func (c *checker) must(src string, want bool) {
	c.t.Helper()
	e, err := Parse(src)
	if err != nil {
		c.t.Fatalf("%s: Parse(%s): %v", c.s.name, src, err)
	}
	p, err := e.Compile(c.s.plan, "")
	if err != nil {
		c.t.Fatalf("%s: Compile(%s): %v", c.s.name, src, err)
	}
	got, err := p.Match(p.NewState(), &Input{Data: c.s.data})
	if err != nil || got != want {
		c.t.Errorf("%s: %s = %v, %v; want %v", c.s.name, src, got, err, want)
	}
	c.n++
}

func (c *checker) leaf(path string, f *rosmsg.FieldPlan, v any) {
	switch x := v.(type) {
	case json.Number:
		c.must(path+" == "+x.String(), true)
		if f.Kind != rosmsg.KindFloat32 && f.Kind != rosmsg.KindFloat64 {
			c.must(path+" != "+x.String(), false)
			c.must(path+" >= "+x.String()+" && "+path+" <= "+x.String(), true)
		}
	case string:
		switch {
		case f.Kind == rosmsg.KindString || f.Kind == rosmsg.KindWString:
			c.must(path+" == "+quote(x), true)
			c.must("len("+path+") == "+strconv.Itoa(len(x)), true)
			c.must(path+" != "+quote(x+"x"), true)
		case x == "NaN":
			c.must(path+" != "+path, true)
			c.must(path+" == "+path, false)
		case x == "Infinity":
			c.must(path+" > 1.7976931348623157e308", true)
		case x == "-Infinity":
			c.must(path+" < -1.7976931348623157e308", true)
		}
	case bool:
		c.must(path+" == "+strconv.FormatBool(x), true)
		c.must("!"+path+" == "+strconv.FormatBool(!x), true)
	case map[string]any: // a ROS 1 time or duration, normalised
		secs, _ := x["secs"].(json.Number).Int64()
		nsecs, _ := x["nsecs"].(json.Number).Int64()
		c.must(fmt.Sprintf("%s.secs * 1000000000 + %s.nsecs == %d", path, path, secs*1e9+nsecs), true)
	}
}

func (c *checker) msg(m *rosmsg.MsgPlan, v map[string]any, prefix string, depth int) {
	for i := range m.Fields {
		f := &m.Fields[i]
		path := prefix + f.Name
		fv := v[f.Name]
		if !f.Array {
			if f.Kind == rosmsg.KindMessage {
				if rosmsg.IsTimeMsg(f.Msg) {
					tv := fv.(map[string]any)
					c.must(fmt.Sprintf("%s.sec == %s && %s.nanosec == %s", path, tv["sec"], path, tv["nanosec"]), true)
					c.must(fmt.Sprintf("%s == %s + %s / 1e9", path, tv["sec"], tv["nanosec"]), true)
				}
				if depth < 6 {
					c.msg(f.Msg, fv.(map[string]any), path+".", depth+1)
				}
				continue
			}
			c.leaf(path, f, fv)
			continue
		}
		if f.IsBytes() {
			b, _ := base64.StdEncoding.DecodeString(fv.(string))
			c.must(fmt.Sprintf("len(%s) == %d", path, len(b)), true)
			for k := 0; k < len(b) && k < 4; k++ {
				c.must(fmt.Sprintf("%s[%d] == %d", path, k, b[k]), true)
			}
			continue
		}
		arr := fv.([]any)
		c.must(fmt.Sprintf("len(%s) == %d", path, len(arr)), true)
		c.must(fmt.Sprintf("len(%s[*]) == %d", path, len(arr)), true)
		for k, ev := range arr {
			if k >= 3 && k < len(arr)-1 {
				continue // the first three and the last
			}
			ep := fmt.Sprintf("%s[%d]", path, k)
			if f.Kind == rosmsg.KindMessage {
				if depth < 6 {
					c.msg(f.Msg, ev.(map[string]any), ep+".", depth+1)
				}
				continue
			}
			c.leaf(ep, f, ev)
			if n, ok := ev.(json.Number); ok && k == 0 {
				c.must(fmt.Sprintf("any(%s[*] == %s)", path, n), true)
				c.must(fmt.Sprintf("count(%s[*] == %s) >= 1", path, n), true)
			}
			if s, ok := ev.(string); ok && k == 0 && f.Kind == rosmsg.KindString {
				c.must(fmt.Sprintf("any(%s[*] == %s)", path, quote(s)), true)
			}
		}
	}
}

// TestLeavesMatchReference writes, for every field of every sample, the
// expressions that compare it with the value the reference decoded, and
// requires each to hold: field reading, numbers, strings, times, arrays,
// len and any are checked against genpy (ROS 1) and the oracle-checked
// tree decoder (CDR).
func TestLeavesMatchReference(t *testing.T) {
	samples := append(goldenSamples(t), cdrSamples(t)...)
	total := 0
	for _, s := range samples {
		d := json.NewDecoder(strings.NewReader(s.json))
		d.UseNumber()
		var v map[string]any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		c := &checker{t: t, s: s}
		c.msg(s.plan.Root, v, "", 0)
		total += c.n
	}
	if total < 5000 {
		t.Errorf("only %d expressions checked", total)
	}
	t.Logf("%d expressions over %d messages hold", total, len(samples))
}
