package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/sweeptest"
)

// mcapCase is one MCAP file to print: a shared one (oracle only) or a
// fixture from make_mcaps.mjs (oracle and the expected values).
type mcapCase struct {
	name     string
	path     string
	expected string // the fixture's expected lines ("" for shared files)
	cut      bool   // cut short: expected lines are the uncut file's
}

// TestCatMCAPMatchesOracle compares `cat --json` on MCAP files with an
// independent reader, @mcap/core + @foxglove/rosmsg2-serialization
// (testdata/oracle/mcap_cat.mjs), message by message, and on generated
// fixtures (testdata/oracle/make_mcaps.mjs: every primitive, nested
// messages, arrays and sequences, extreme values, lz4/zstd/no chunks, with
// and without summary and indexes, out-of-order log times, ros2idl and ros1
// schemas, files cut short) also with the values that were serialised.
//
// Messages the oracle does not decode (ros2idl, ros1, json, bad schemas)
// are not compared with it; the fixtures' expected values still cover
// ros2idl and ros1. A cut file must print a prefix of the uncut file's
// messages, at least as many as the oracle's stream reader reads from it.
//
// BAGSCOPE_MCAP_SEED picks other random fixtures (default 1).
func TestCatMCAPMatchesOracle(t *testing.T) {
	requireNodeOracles(t)
	var cases []mcapCase
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Logf("%s not found: only the generated fixtures are compared", sharedBags)
	} else {
		var paths []string
		filepath.Walk(sharedBags, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".mcap") {
				paths = append(paths, p)
			}
			return nil
		})
		sort.Strings(paths)
		for _, p := range sampleShared(paths) {
			cases = append(cases, mcapCase{name: name(p), path: p})
		}
	}
	own, _ := filepath.Glob("../../testdata/*.mcap")
	for _, p := range own {
		cases = append(cases, mcapCase{name: name(p), path: p})
	}
	cases = append(cases, makeMCAPFixtures(t)...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkCatMCAP(t, c)
		})
	}
}

// makeMCAPFixtures runs make_mcaps.mjs into a temporary directory.
func makeMCAPFixtures(t *testing.T) []mcapCase {
	t.Helper()
	seed := os.Getenv("BAGSCOPE_MCAP_SEED")
	if seed == "" {
		seed = "1"
	}
	dir := t.TempDir()
	out, stderr, code, err := nodeOracle("make_mcaps.mjs", dir, seed)
	if err != nil || code != 0 {
		t.Fatalf("make_mcaps.mjs %s %s: exit %d, %v\n%s%s", dir, seed, code, err, out, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct {
		Name, File, Expected string
		Cut                  bool
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatalf("fixtures.json: %v", err)
	}
	if len(manifest) == 0 {
		t.Fatal("make_mcaps.mjs made no fixtures")
	}
	t.Logf("%d fixtures from make_mcaps.mjs, seed %s", len(manifest), seed)
	// make test compares one in 2 of each fixture's cut copies (a fixture
	// cut once keeps its cut), -long every one (see bag/sweeptest).
	cuts := map[string]int{}
	for _, f := range manifest {
		if f.Cut {
			cuts[cutBase(f.Name)]++
		}
	}
	seen := map[string]int{}
	var cases []mcapCase
	for _, f := range manifest {
		if f.Cut {
			base := cutBase(f.Name)
			k := seen[base]
			seen[base]++
			if cuts[base] > 1 && !sweeptest.Keep(k, 2) {
				continue
			}
		}
		cases = append(cases, mcapCase{
			name:     "fixture/" + f.Name,
			path:     filepath.Join(dir, f.File),
			expected: filepath.Join(dir, f.Expected),
			cut:      f.Cut,
		})
	}
	return cases
}

// cutBase is the name of the fixture a cut copy was cut from
// ("ros2-chunked-lz4.cut339705": "ros2-chunked-lz4").
func cutBase(name string) string {
	if i := strings.LastIndex(name, ".cut"); i >= 0 {
		return name[:i]
	}
	return name
}

func checkCatMCAP(t *testing.T, c mcapCase) {
	var out, errb bytes.Buffer
	code := Run([]string{"cat", "--json", c.path}, &out, &errb)
	ours, err := parseCatLines(out.String())
	if err != nil {
		t.Fatalf("cat --json: %v", err)
	}
	oOut, oErr, oCode, err := nodeOracle("mcap_cat.mjs", c.path)
	if err != nil {
		t.Fatalf("mcap_cat.mjs: %v", err)
	}
	if oCode != 0 && oCode != 1 {
		t.Fatalf("mcap_cat.mjs: exit %d: %s", oCode, oErr)
	}
	oracle, err := parseCatLines(oOut)
	if err != nil {
		t.Fatalf("mcap_cat.mjs: %v", err)
	}
	complete := oCode == 0
	stderrHead := strings.TrimSpace(errb.String())
	if len(stderrHead) > 600 {
		stderrHead = stderrHead[:600] + "..."
	}

	// Against the oracle.
	oursK, oracleK, skipped, absent := alignSkipped(ours, oracle)
	t.Logf("cat: exit %d, %d lines; oracle: %d messages, %d decoded, %d not decoded (%d of those not printed by cat)%s",
		code, len(ours), len(oracle), len(oracleK), skipped, absent, map[bool]string{false: ", read up to an error: " + strings.TrimSpace(oErr), true: ""}[complete])
	if code != 0 && stderrHead != "" {
		t.Logf("cat stderr: %s", stderrHead)
	}
	var diffs []string
	if complete {
		if code != 0 && skipped == 0 {
			t.Errorf("cat --json exit %d on a file the oracle reads whole: %s", code, stderrHead)
		}
		diffs = diffLines("oracle", oursK, oracleK, -1, 8)
	} else {
		if len(oursK) < len(oracleK) {
			t.Errorf("cat printed %d decoded messages; the oracle's stream reader reads %d before it stops", len(oursK), len(oracleK))
		}
		diffs = diffLines("oracle", oursK, oracleK, len(oracleK), 8)
	}
	if len(oracleK) > 0 && len(oursK) == 0 {
		t.Errorf("no message compared: the oracle decoded %d, cat printed none it decoded (exit %d: %s)", len(oracleK), code, stderrHead)
	}
	for _, d := range diffs {
		t.Errorf("vs oracle: %s", d)
	}

	// Against the values the fixture was made from.
	if c.expected == "" {
		return
	}
	exp, err := expectedLines(c.expected)
	if err != nil {
		t.Fatal(err)
	}
	oursE, expK, eSkipped, _ := alignSkipped(ours, exp)
	if c.cut {
		if len(oursE) > len(expK) {
			t.Errorf("cat printed %d messages from a cut file, the whole file has %d", len(oursE), len(expK))
		}
		diffs = diffLines("expected", oursE, expK, len(oursE), 8)
		t.Logf("cut file: cat salvaged %d of the %d messages", len(oursE), len(expK))
	} else {
		diffs = diffLines("expected", oursE, expK, -1, 8)
	}
	if len(expK) > 0 && len(oursE) == 0 && !c.cut {
		t.Errorf("no message compared with the expected values (%d expected, %d without a contract)", len(expK), eSkipped)
	}
	for _, d := range diffs {
		t.Errorf("vs expected: %s", d)
	}
}

// expectedCache holds the parsed expected files: a cut fixture shares its
// uncut source's.
var expectedCache sync.Map // path -> func() ([]catLine, error)

func expectedLines(path string) ([]catLine, error) {
	f, _ := expectedCache.LoadOrStore(path, sync.OnceValues(func() ([]catLine, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		lines, err := parseCatLines(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		return lines, nil
	}))
	return f.(func() ([]catLine, error))()
}
