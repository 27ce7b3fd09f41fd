package rosmsg

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// runOracle runs testdata/cdr_oracle.mjs. Without node or the npm packages
// the test is skipped, unless the CI environment variable is set, in which
// case it fails (oracletest.SkipOrFail).
func runOracle(t *testing.T, stdin string, args ...string) []map[string]any {
	t.Helper()
	oracletest.Require(t, "@foxglove/rosmsg", "@foxglove/rosmsg2-serialization", "@foxglove/rosmsg-msgs-common")
	cmd := oracletest.NodeCommand("testdata/cdr_oracle.mjs", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			oracletest.SkipOrFail(t, "CDR oracle unavailable: "+strings.TrimSpace(stderr.String()))
		}
		t.Fatalf("cdr_oracle.mjs %v: %v\n%s", args, err, stderr.String())
	}
	recs := oracletest.MustJSONLines(t, "cdr_oracle.mjs", out)
	if len(recs) == 0 {
		t.Fatalf("cdr_oracle.mjs %v printed nothing", args)
	}
	return recs
}

// TestCDROracle decodes random definitions and values serialised by
// @foxglove/rosmsg2-serialization's MessageWriter and compares our JSON
// with its MessageReader's values.
func TestCDROracle(t *testing.T) {
	const count = 400
	recs := runOracle(t, "", "random", strconv.Itoa(count), "20240607")
	fields := 0
	for i, r := range recs {
		text, data := r["text"].(string), r["data"].(string)
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			b, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				t.Fatal(err)
			}
			fields += compareWithOracle(t, SchemaROS2Msg, r["type"].(string), text, b, r["value"])
		})
	}
	t.Logf("%d random messages, %d values equal to the oracle's", len(recs), fields)
}

// TestCDRRealMessages decodes the real messages in testdata (from the
// rosbags-rs test bag, 94 types with edge values, and the MCAP files of
// ../shared/bags) and compares them with the oracle where it can decode
// them (it does not build service event types).
func TestCDRRealMessages(t *testing.T) {
	type rec struct{ Type, Encoding, Text, Data, Source string }
	var recs []rec
	for _, file := range []string{"testdata/rosbags_rs_cdr.jsonl", "testdata/mcap_cdr_messages.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r rec
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.Text != "" {
				texts[r.Type] = r.Text
			}
			r.Text = texts[r.Type]
			recs = append(recs, r)
		}
	}
	// Without the oracle: every message decodes completely.
	types := map[string]bool{}
	for i, r := range recs {
		p := mustSchema(t, r.Encoding, r.Type, r.Text)
		data, _ := base64.StdEncoding.DecodeString(r.Data)
		root, err := p.Decode(data)
		if err != nil {
			t.Errorf("%d %s: %v", i, r.Type, err)
			continue
		}
		if len(data)-root.End > 3 || root.End > len(data) {
			t.Errorf("%d %s: decoded %d of %d bytes", i, r.Type, root.End, len(data))
		}
		if !json.Valid(AppendJSON(nil, root)) {
			t.Errorf("%d %s: invalid JSON", i, r.Type)
		}
		types[r.Type] = true
	}
	t.Logf("%d real messages of %d types decoded", len(recs), len(types))

	var in strings.Builder
	for _, r := range recs {
		line, _ := json.Marshal(map[string]string{"type": r.Type, "text": r.Text, "data": r.Data})
		in.Write(line)
		in.WriteByte('\n')
	}
	out := runOracle(t, in.String(), "decode")
	if len(out) != len(recs) {
		t.Fatalf("oracle decoded %d of %d messages", len(out), len(recs))
	}
	compared, skipped := 0, 0
	for i, r := range recs {
		if e, ok := out[i]["error"]; ok {
			if !strings.Contains(r.Type, "/srv/") {
				t.Errorf("%d %s: oracle fails: %v", i, r.Type, e)
			}
			skipped++
			continue
		}
		t.Run(fmt.Sprintf("%d_%s", i, r.Type), func(t *testing.T) {
			data, _ := base64.StdEncoding.DecodeString(r.Data)
			compareWithOracle(t, r.Encoding, r.Type, r.Text, data, out[i]["value"])
		})
		compared++
	}
	t.Logf("%d real messages equal to the oracle's, %d it cannot decode (service events)", compared, skipped)
}

// compareWithOracle decodes data and compares our JSON, parsed again, with
// the oracle's value; it returns the number of leaf values compared.
func compareWithOracle(t *testing.T, enc, typ, text string, data []byte, want any) int {
	t.Helper()
	p, err := CompileSchema(enc, EncodingCDR, typ, text)
	if err != nil {
		t.Fatalf("CompileSchema: %v\n%s", err, text)
	}
	root, err := p.Decode(data)
	if err != nil {
		t.Fatalf("Decode: %v\n%s\n%s", err, text, hex.Dump(data))
	}
	js := AppendJSON(nil, root)
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var got any
	if err := d.Decode(&got); err != nil {
		t.Fatalf("our JSON does not parse: %v\n%s", err, js)
	}
	n := 0
	if err := oracleEqualMsg(p.Root, got, want, "", &n); err != nil {
		t.Fatalf("%v\ndefinition:\n%s\nours:   %s\noracle: %v", err, text, js, want)
	}
	checkCDRRanges(t, root, "", data)
	checkPaths(t, p, root, data)
	return n
}

func oracleEqualMsg(m *MsgPlan, got, want any, path string, n *int) error {
	g, ok1 := got.(map[string]any)
	w, ok2 := want.(map[string]any)
	if !ok1 || !ok2 || len(g) != len(w) || len(g) != len(m.Fields) {
		return fmt.Errorf("%s: message %v vs %v", path, got, want)
	}
	for i := range m.Fields {
		f := &m.Fields[i]
		if err := oracleEqualField(f, g[f.Name], w[f.Name], path+"."+f.Name, n); err != nil {
			return err
		}
	}
	return nil
}

func oracleEqualField(f *FieldPlan, got, want any, path string, n *int) error {
	if !f.Array {
		return oracleEqualValue(f, got, want, path, n)
	}
	if f.Kind == KindUint8 { // base64 on both sides
		*n++
		if got != want {
			return fmt.Errorf("%s: bytes %v vs %v", path, got, want)
		}
		return nil
	}
	g, ok1 := got.([]any)
	w, ok2 := want.([]any)
	if !ok1 || !ok2 || len(g) != len(w) {
		return fmt.Errorf("%s: array %v vs %v", path, got, want)
	}
	for i := range g {
		if err := oracleEqualValue(f, g[i], w[i], fmt.Sprintf("%s[%d]", path, i), n); err != nil {
			return err
		}
	}
	return nil
}

func oracleEqualValue(f *FieldPlan, got, want any, path string, n *int) error {
	*n++
	switch f.Kind {
	case KindMessage:
		*n--
		return oracleEqualMsg(f.Msg, got, want, path, n)
	case KindFloat32, KindFloat64:
		var gf float64
		switch g := got.(type) {
		case json.Number:
			v, err := strconv.ParseFloat(g.String(), 64)
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			gf = v
		case string:
			switch g {
			case "NaN":
				gf = math.NaN()
			case "Infinity":
				gf = math.Inf(1)
			case "-Infinity":
				gf = math.Inf(-1)
			default:
				return fmt.Errorf("%s: float %q", path, g)
			}
		default:
			return fmt.Errorf("%s: float %#v", path, got)
		}
		ws, _ := want.(string)
		bits, err := hex.DecodeString(strings.TrimPrefix(ws, "f:"))
		if err != nil || len(bits) != 8 {
			return fmt.Errorf("%s: oracle float %#v", path, want)
		}
		wf := math.Float64frombits(binary.BigEndian.Uint64(bits))
		if math.Float64bits(gf) != math.Float64bits(wf) && !(math.IsNaN(gf) && math.IsNaN(wf)) {
			return fmt.Errorf("%s: %v (%#x) vs %v (%#x)", path, gf, math.Float64bits(gf), wf, math.Float64bits(wf))
		}
		return nil
	case KindInt8, KindInt16, KindInt32, KindInt64, KindUint8, KindUint16, KindUint32, KindUint64:
		g, ok := got.(json.Number)
		var ws string
		switch w := want.(type) {
		case json.Number:
			ws = w.String()
		case string: // int64, uint64
			ws = w
		}
		if !ok || g.String() != ws {
			return fmt.Errorf("%s: integer %#v vs %#v", path, got, want)
		}
		return nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s: %#v vs %#v", path, got, want)
	}
	return nil
}
