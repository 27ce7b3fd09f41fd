package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// The npm oracles (testdata/oracle/*.mjs): `make oracles` installs their
// packages from testdata/oracle/package-lock.json into $BAGSCOPE_ORACLES,
// by default ~/.cache/bagscope-npm/node_modules.
const oracleScripts = testdata + "/oracle"

var oraclePackages = []string{
	"@mcap/core", "@foxglove/rosmsg", "@foxglove/rosmsg2-serialization",
	"lz4js", "fzstd", "@foxglove/wasm-zstd",
}

// requireNodeOracles skips (fails in CI) when node or the npm packages are
// missing.
func requireNodeOracles(t testing.TB) {
	t.Helper()
	oracletest.Require(t, oraclePackages...)
}

// nodeOracle runs `node testdata/oracle/SCRIPT ARGS...` and returns its
// stdout, stderr and exit status; err is set only when node could not run.
func nodeOracle(script string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := oracletest.NodeCommand(oracleScripts+"/"+script, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errb.String(), ee.ExitCode(), nil
	}
	return out.String(), errb.String(), 0, err
}

// catLine is one line of `cat --json` (or of an oracle's output), parsed
// with exact numbers.
type catLine struct {
	m map[string]any
}

func (l catLine) key() string {
	tm, _ := l.m["time"].(map[string]any)
	return fmt.Sprintf("%v|%v.%v", l.m["topic"], tm["secs"], tm["nsecs"])
}

// skipped reports whether an oracle line stands for a message the oracle
// did not decode ("skip": reason, or "undecoded": true).
func (l catLine) skipped() bool {
	_, s := l.m["skip"]
	_, u := l.m["undecoded"]
	return s || u
}

func parseCatLines(s string) ([]catLine, error) {
	lines, err := oracletest.JSONLines([]byte(s))
	if err != nil {
		return nil, err
	}
	out := make([]catLine, 0, len(lines))
	for _, m := range lines {
		// "ns" (bagscope's) must be secs and nsecs in nanoseconds; the
		// oracles give only those two.
		if tm, ok := m["time"].(map[string]any); ok {
			if ns, ok := tm["ns"]; ok {
				secs, _ := tm["secs"].(json.Number).Int64()
				nsecs, _ := tm["nsecs"].(json.Number).Int64()
				if n, err := ns.(json.Number).Int64(); err != nil || n != secs*1e9+nsecs {
					return nil, fmt.Errorf("line %d: time.ns %v is not secs %d and nsecs %d", len(out)+1, ns, secs, nsecs)
				}
				delete(tm, "ns")
			}
		}
		out = append(out, catLine{m: m})
	}
	return out, nil
}

// alignSkipped drops the reference's skipped lines and, for each, one line
// of ours with the same topic and time (bagscope may print such messages,
// as bytes or an error, or leave them out). It returns what is left to
// compare, how many reference lines were skipped, and how many of those
// had no line of ours.
func alignSkipped(ours, ref []catLine) (oursKept, refKept []catLine, skipped, absent int) {
	drop := map[string]int{}
	for _, l := range ref {
		if l.skipped() {
			drop[l.key()]++
			skipped++
			continue
		}
		refKept = append(refKept, l)
	}
	for _, l := range ours {
		if k := l.key(); drop[k] > 0 {
			drop[k]--
			continue
		}
		oursKept = append(oursKept, l)
	}
	for _, n := range drop {
		absent += n
	}
	return oursKept, refKept, skipped, absent
}

// jsonDiff compares two decoded JSON values semantically: objects by key,
// arrays item by item, integers exactly, floats by their float64 bits (so
// -0.0 differs from 0.0; NaN and the infinities are strings in the
// contract), an integer never equal to a float. It returns "" when equal,
// else where and how they differ.
func jsonDiff(ref, path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: ours %s, %s %s", path, short(a), ref, short(b))
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			xv, xok := x[k]
			yv, yok := y[k]
			switch {
			case !xok:
				return fmt.Sprintf("%s.%s: missing in ours, %s %s", path, k, ref, short(yv))
			case !yok:
				return fmt.Sprintf("%s.%s: ours %s, missing in %s", path, k, short(xv), ref)
			}
			if d := jsonDiff(ref, path+"."+k, xv, yv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: ours %s, %s %s", path, short(a), ref, short(b))
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: ours has %d items, %s %d: ours %s, %s %s", path, len(x), ref, len(y), short(a), ref, short(b))
		}
		for i := range x {
			if d := jsonDiff(ref, fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	case json.Number:
		y, ok := b.(json.Number)
		if !ok || !numbersEqual(x, y) {
			return fmt.Sprintf("%s: ours %s, %s %s", path, short(a), ref, short(b))
		}
		return ""
	default:
		if a != b {
			return fmt.Sprintf("%s: ours %s, %s %s", path, short(a), ref, short(b))
		}
		return ""
	}
}

func isIntNumber(n json.Number) bool { return !strings.ContainsAny(string(n), ".eE") }

func numbersEqual(a, b json.Number) bool {
	if isIntNumber(a) != isIntNumber(b) {
		return false
	}
	if isIntNumber(a) {
		x, ok1 := new(big.Int).SetString(string(a), 10)
		y, ok2 := new(big.Int).SetString(string(b), 10)
		return ok1 && ok2 && x.Cmp(y) == 0
	}
	x, err1 := a.Float64()
	y, err2 := b.Float64()
	return err1 == nil && err2 == nil && math.Float64bits(x) == math.Float64bits(y)
}

func short(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 160 {
		return string(b[:160]) + "..."
	}
	return string(b)
}

// lineDiff compares one message line of ours with the reference's: topic,
// time, type and msg, and no other keys.
func lineDiff(refName string, ours, ref catLine) string {
	return jsonDiff(refName, "", ours.m, ref.m)
}

// diffLines compares ours with the reference line by line and returns up to
// max descriptions of the differences ("message i (topic at time): field:
// ours X, oracle Y"). Only the first n lines are compared (n < 0: all, and
// the counts must match).
func diffLines(refName string, ours, ref []catLine, n, max int) []string {
	var out []string
	if n < 0 {
		if len(ours) != len(ref) {
			out = append(out, fmt.Sprintf("ours has %d messages, %s %d", len(ours), refName, len(ref)))
		}
		n = min(len(ours), len(ref))
	}
	for i := 0; i < n && i < len(ours) && i < len(ref); i++ {
		d := lineDiff(refName, ours[i], ref[i])
		if d == "" {
			continue
		}
		why := ""
		if ours[i].key() != ref[i].key() && tieOrderOnly(ours, ref, i) {
			why = " (the same messages with this time, in another order: ties should be in file order)"
		}
		out = append(out, fmt.Sprintf("message %d (%s: %s): %s%s", i, refName, ref[i].key(), strings.TrimPrefix(d, "."), why))
		if len(out) >= max {
			out = append(out, "...")
			break
		}
	}
	return out
}

// tieOrderOnly reports whether the lines sharing ref[i]'s time are the same
// messages (topic and time) in ours and ref, only in another order.
func tieOrderOnly(ours, ref []catLine, i int) bool {
	timeOf := func(l catLine) string { return fmt.Sprint(l.m["time"]) }
	t := timeOf(ref[i])
	j := i
	for j > 0 && timeOf(ref[j-1]) == t {
		j--
	}
	var ka, kb []string
	for k := j; k < len(ref) && timeOf(ref[k]) == t; k++ {
		if k >= len(ours) || timeOf(ours[k]) != t {
			return false
		}
		ka = append(ka, ours[k].key())
		kb = append(kb, ref[k].key())
	}
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}
