package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLRunsTheHelper: `bagscope sql` runs bagscope-sql (built here, as
// make build builds it) with its flags, prints what it prints and ends
// with its exit status; without it, it says how to build it.
func TestSQLRunsTheHelper(t *testing.T) {
	t.Setenv("BAGSCOPE_SQL", filepath.Join(t.TempDir(), "none"))
	if _, stderr, code := run("sql", "SELECT 1"); code != 1 || !strings.Contains(stderr, "bagscope-sql") {
		t.Errorf("without the helper: exit %d, %q; want 1 naming bagscope-sql", code, stderr)
	}
	bin := builtSQL(t)
	t.Setenv("BAGSCOPE_SQL", bin)
	robot := testdata + "/robot.bag"
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"sql", "--csv", "SELECT count(*) AS n FROM messages('" + robot + "', '/scan')"}, 0, "n\n100\n", ""},
		{[]string{"sql", "--json", "SELECT max(level) AS top FROM messages('" + robot + "', '/rosout')"}, 0, "{\"top\":16}\n", ""},
		{[]string{"sql", "SELEC 1"}, 2, "", "syntax error"},
		{[]string{"sql", "SELECT * FROM messages('" + robot + "', '/nope')"}, 2, "", "no topic /nope"},
		{[]string{"sql", "SELECT 1", "SELECT 2"}, 2, "", "one query"},
		{[]string{"sql", "--json", "--csv", "SELECT 1"}, 2, "", "not both"},
	}
	for _, tc := range tests {
		out, stderr, code := run(tc.args...)
		if code != tc.code || (tc.stdout != "" && out != tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%q: exit %d, %q, %q; want %d, %q, %q", tc.args, code, out, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}
