package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// db3Case is one rosbag2 SQLite recording to print: a .db3 (or .db3.zstd)
// file or a folder with a metadata.yaml, shared (oracle only) or written by
// the test (oracle and the values that were serialised).
type db3Case struct {
	name     string
	path     string
	expected string // the fixture's expected lines ("" for shared recordings)
}

// db3Stats adds up what TestCatDB3MatchesOracle compared.
type db3Stats struct {
	mu                               sync.Mutex
	recordings, messages, skipped    int
	unreadable                       []string // .zstd files and WALs the oracle cannot read
	expectedRecordings, expectedMsgs int
}

// db3OraclePackages are the npm packages db3_cat.mjs and make_db3s.mjs load
// besides oraclePackages.
var db3OraclePackages = []string{"@foxglove/rosbag2-web", "@foxglove/sql.js", "@foxglove/rosmsg-msgs-common", "js-yaml"}

// TestCatDB3MatchesOracle compares `cat --json` on rosbag2 SQLite
// recordings with an independent reader, @foxglove/rosbag2-web (SQLite
// compiled to WASM by sql.js) + @foxglove/rosmsg2-serialization
// (testdata/oracle/db3_cat.mjs), message by message: every .db3 and
// .db3.zstd file and every .db3 folder (found by its metadata.yaml) in the
// shared bags, and .db3 files the test writes itself (make_db3s.mjs makes
// random messages and serialises them with the npm MessageWriter,
// write_db3.py writes them with Python's standard sqlite3 module in schema
// versions 1 to 4: standard Jazzy types without stored definitions, random
// types stored in message_definitions, ties, rows out of timestamp order,
// rows of unknown topics, a WAL-mode file, a split folder with metadata.yaml,
// one without, MESSAGE zstd compression), which are also compared with the
// values that were serialised.
//
// Definitions: both sides take the file's message_definitions, else the
// standard Jazzy definitions (bagscope's embedded ones; the oracle's from
// @foxglove/rosmsg-msgs-common). With a ROS 2 installed (AMENT_PREFIX_PATH,
// /opt/ros) bagscope prefers its definitions, which may differ.
//
// Messages the oracle does not decode (no definition anywhere) are not
// compared; .zstd files fzstd cannot decompress are counted and left out.
// BAGSCOPE_DB3_SEED picks other random fixtures (default 1).
func TestCatDB3MatchesOracle(t *testing.T) {
	requireNodeOracles(t)
	requireDB3Oracles(t)
	var cases []db3Case
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Logf("%s not found: only the generated fixtures are compared", sharedBags)
	} else {
		cases = sharedDB3Cases()
	}
	cases = append(cases, makeDB3Fixtures(t)...)
	var st db3Stats
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				checkCatDB3(t, c, &st)
			})
		}
	})
	t.Logf("%d recordings compared with the oracle, %d messages equal, %d the oracle does not decode; %d fixtures (%d messages) compared with their values",
		st.recordings, st.messages, st.skipped, st.expectedRecordings, st.expectedMsgs)
	if len(st.unreadable) > 0 {
		sort.Strings(st.unreadable)
		t.Logf("%d files the oracle cannot read, left out: %s", len(st.unreadable), strings.Join(st.unreadable, "; "))
	}
}

// requireDB3Oracles skips (fails in CI) when the .db3 oracle's packages or
// the Python that writes the fixtures are missing.
func requireDB3Oracles(t testing.TB) {
	t.Helper()
	oracletest.Require(t, db3OraclePackages...)
	oracletest.RequirePython(t, "sqlite3")
}

// sharedDB3Cases lists the shared .db3 and .db3.zstd files, and the
// folders whose metadata.yaml describes a .db3 recording (a sample of them
// without -long; see sampleShared).
func sharedDB3Cases() []db3Case {
	var cases []db3Case
	filepath.Walk(sharedBags, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case !info.IsDir() && (strings.HasSuffix(p, ".db3") || strings.HasSuffix(p, ".db3.zstd")):
			cases = append(cases, db3Case{name: name(p), path: p})
		case info.IsDir() && isDB3Folder(p):
			cases = append(cases, db3Case{name: name(p) + "/", path: p})
		}
		return nil
	})
	sort.Slice(cases, func(i, j int) bool { return cases[i].path < cases[j].path })
	if sweeptest.Long() {
		return cases
	}
	paths := make([]string, len(cases))
	byPath := map[string]db3Case{}
	for i, c := range cases {
		paths[i] = c.path
		byPath[c.path] = c
	}
	cases = cases[:0]
	for _, p := range sampleShared(paths) {
		cases = append(cases, byPath[p])
	}
	return cases
}

// isDB3Folder reports whether dir is a rosbag2 folder of .db3 files: it has
// a metadata.yaml and .db3 files, or no storage file and a metadata.yaml
// that says sqlite3.
func isDB3Folder(dir string) bool {
	meta, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		return false
	}
	entries, _ := os.ReadDir(dir)
	var db3, mcap int
	for _, e := range entries {
		n := strings.TrimSuffix(e.Name(), ".zstd")
		switch {
		case strings.HasSuffix(n, ".db3"):
			db3++
		case strings.HasSuffix(n, ".mcap"):
			mcap++
		}
	}
	if db3 > 0 || mcap > 0 {
		return db3 > 0 && mcap == 0
	}
	return bytes.Contains(meta, []byte("storage_identifier: sqlite3"))
}

// makeDB3Fixtures runs make_db3s.mjs and write_db3.py into a temporary directory.
func makeDB3Fixtures(t *testing.T) []db3Case {
	t.Helper()
	seed := os.Getenv("BAGSCOPE_DB3_SEED")
	if seed == "" {
		seed = "1"
	}
	dir := t.TempDir()
	out, stderr, code, err := nodeOracle("make_db3s.mjs", dir, seed)
	if err != nil || code != 0 {
		t.Fatalf("make_db3s.mjs %s %s: exit %d, %v\n%s%s", dir, seed, code, err, out, stderr)
	}
	if b, err := exec.Command(refPython, oracleScripts+"/write_db3.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("write_db3.py %s: %v\n%s", dir, err, b)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fixtures.json"))
	if err != nil {
		t.Fatal(err)
	}
	var manifest []struct{ Name, Path, Expected string }
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatalf("fixtures.json: %v", err)
	}
	if len(manifest) == 0 {
		t.Fatal("make_db3s.mjs made no fixtures")
	}
	t.Logf("%d fixtures from make_db3s.mjs, seed %s", len(manifest), seed)
	var cases []db3Case
	for _, f := range manifest {
		cases = append(cases, db3Case{name: "fixture/" + f.Name, path: filepath.Join(dir, f.Path), expected: filepath.Join(dir, f.Expected)})
	}
	return cases
}

func checkCatDB3(t *testing.T, c db3Case, st *db3Stats) {
	oOut, oErr, oCode, err := nodeOracle("db3_cat.mjs", c.path)
	if err != nil {
		t.Fatalf("db3_cat.mjs: %v", err)
	}
	switch oCode {
	case 0, 1:
	case 3:
		t.Skipf("not a .db3 recording: %s", strings.TrimSpace(oErr))
	case 4:
		st.mu.Lock()
		st.unreadable = append(st.unreadable, c.name+": "+strings.TrimSpace(oErr))
		st.mu.Unlock()
		t.Logf("the oracle cannot read it, not compared: %s", strings.TrimSpace(oErr))
		return
	default:
		t.Fatalf("db3_cat.mjs: exit %d: %s", oCode, oErr)
	}
	oracle, err := parseCatLines(oOut)
	if err != nil {
		t.Fatalf("db3_cat.mjs: %v", err)
	}
	var out, errb bytes.Buffer
	code := Run([]string{"cat", "--json", c.path}, &out, &errb)
	ours, err := parseCatLines(out.String())
	if err != nil {
		t.Fatalf("cat --json: %v", err)
	}
	complete := oCode == 0
	stderrHead := strings.TrimSpace(errb.String())
	if len(stderrHead) > 600 {
		stderrHead = stderrHead[:600] + "..."
	}

	oursK, oracleK, skipped, absent := alignSkipped(ours, oracle)
	t.Logf("cat: exit %d, %d lines; oracle: %d messages, %d decoded, %d not decoded (%d of those not printed by cat)%s",
		code, len(ours), len(oracle), len(oracleK), skipped, absent, map[bool]string{false: ", read up to an error: " + strings.TrimSpace(oErr), true: ""}[complete])
	if code != 0 && stderrHead != "" {
		t.Logf("cat stderr: %s", stderrHead)
	}
	var diffs []string
	if complete {
		// A folder whose metadata.yaml names files it lacks lost them:
		// the oracle reads what is there "whole", bagscope says so.
		if code != 0 && skipped == 0 && !strings.Contains(errb.String(), "files missing") {
			t.Errorf("cat --json exit %d on a recording the oracle reads whole: %s", code, stderrHead)
		}
		diffs = diffLines("oracle", oursK, oracleK, -1, 8)
	} else {
		if len(oursK) < len(oracleK) {
			t.Errorf("cat printed %d decoded messages; the oracle reads %d before it stops", len(oursK), len(oracleK))
		}
		diffs = diffLines("oracle", oursK, oracleK, len(oracleK), 8)
	}
	if len(oracleK) > 0 && len(oursK) == 0 {
		t.Errorf("no message compared: the oracle decoded %d, cat printed none it decoded (exit %d: %s)", len(oracleK), code, stderrHead)
	}
	for _, d := range diffs {
		t.Errorf("vs oracle: %s", d)
	}
	st.mu.Lock()
	st.recordings++
	st.messages += len(oracleK)
	st.skipped += skipped
	st.mu.Unlock()

	if c.expected == "" {
		return
	}
	b, err := os.ReadFile(c.expected)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := parseCatLines(string(b))
	if err != nil {
		t.Fatalf("%s: %v", c.expected, err)
	}
	oursE, expK, _, _ := alignSkipped(ours, exp)
	if len(expK) == 0 {
		t.Errorf("the fixture has no message to compare with its values")
	}
	for _, d := range diffLines("expected", oursE, expK, -1, 8) {
		t.Errorf("vs expected: %s", d)
	}
	// The oracle must agree with the values too, or it proves nothing.
	oracleD, oExpK, _, _ := alignSkipped(oracle, exp)
	for _, d := range diffLines("expected", oracleD, oExpK, -1, 3) {
		t.Errorf("the oracle differs from the values serialised (\"ours\" is the oracle here): %s", d)
	}
	st.mu.Lock()
	st.expectedRecordings++
	st.expectedMsgs += len(expK)
	st.mu.Unlock()
}
