package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixMCAPReadByOracle repairs MCAPs cut at several offsets: fix writes
// exactly what cat salvages from the cut file, and the independent npm
// reader (@mcap/core, tested with its indexed reader too) reads the copy
// whole and decodes it to the same JSON as cat.
func TestFixMCAPReadByOracle(t *testing.T) {
	t.Parallel() // one of the package's longest; its copies are its own
	requireNodeOracles(t)
	data, err := os.ReadFile("../../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	for _, frac := range []int{30, 55, 90} {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "cut.mcap"), filepath.Join(dir, "fixed.mcap")
		os.WriteFile(in, data[:len(data)*frac/100], 0o644)
		salvaged, _, _ := run("cat", "--json", in)
		if _, stderr, code := run("fix", in, out); code != 3 {
			t.Fatalf("%d%%: fix exit %d (want 3: something lost): %s", frac, code, stderr)
		}
		fixed, stderr, code := run("cat", "--json", out)
		if code != 0 || fixed != salvaged {
			t.Fatalf("%d%%: the copy's messages (exit %d, %s) differ from what cat salvaged: %d against %d lines", frac, code, stderr, strings.Count(fixed, "\n"), strings.Count(salvaged, "\n"))
		}
		oracle, oerr, ocode, err := nodeOracle("mcap_cat.mjs", out)
		if err != nil || ocode != 0 {
			t.Fatalf("%d%%: the npm reader fails on the repaired copy: exit %d, %v %s", frac, ocode, err, oerr)
		}
		ours, err1 := parseCatLines(fixed)
		ref, err2 := parseCatLines(oracle)
		if err1 != nil || err2 != nil || len(ours) != len(ref) || len(ours) == 0 {
			t.Fatalf("%d%%: %d lines ours, %d the oracle's (%v, %v)", frac, len(ours), len(ref), err1, err2)
		}
		for _, d := range diffLines("oracle", ours, ref, len(ours), 3) {
			t.Errorf("%d%%: %s", frac, d)
		}
	}
}
