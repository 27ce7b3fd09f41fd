package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReadmeExamples runs the README's console examples ("$ bagscope
// ..." followed by its output) and compares what they print with the
// README's text; a line "..." stands for any lines. Examples whose files
// are placeholders (old.bag) and examples without output are not run.
// Times print in UTC, as in the README.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	ran := 0
	blocks := strings.Split(string(readme), "```console\n")
	for _, b := range blocks[1:] {
		b = b[:strings.Index(b, "```")]
		lines := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
		for i := 0; i < len(lines); i++ {
			cmd, ok := strings.CutPrefix(lines[i], "$ bagscope ")
			if !ok {
				continue
			}
			var want []string
			for i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				want = append(want, lines[i])
			}
			if c, _, found := strings.Cut(cmd, "  #"); found {
				cmd = c
			}
			args := shellWords(cmd)
			runnable := len(want) > 0
			for k, a := range args {
				// Paths name a folder (testdata/x.bag); other words (a
				// frame, a flag's value) are passed as they are.
				if strings.HasPrefix(a, "-") || k == 0 || !strings.Contains(a, "/") {
					continue
				}
				if _, err := os.Stat(filepath.Join("../..", a)); err != nil {
					runnable = false
					break
				}
				args[k] = filepath.Join("../..", a)
			}
			if !runnable {
				continue
			}
			out, stderr, _ := run(args...)
			// A terminal shows stdout, then what the command says on
			// stderr (its summary lines) after it.
			got := strings.Split(strings.TrimSuffix(strings.ReplaceAll(out+stderr, "../../", ""), "\n"), "\n")
			if !matchLines(got, want) {
				t.Errorf("README example `bagscope %s` prints:\n%s\n(stderr %s)\nthe README says:\n%s", cmd, strings.Join(got, "\n"), stderr, strings.Join(want, "\n"))
			}
			ran++
		}
	}
	if ran < 2 {
		t.Errorf("only %d README examples ran", ran)
	}
}

// matchLines reports whether got matches want, where a want line "..."
// matches any number of lines.
func matchLines(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 0; k <= len(got); k++ {
			if matchLines(got[k:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchLines(got[1:], want[1:])
}

// readmeSynopsis matches a row of the README's command table: the
// command's synopsis in backticks.
var readmeSynopsis = regexp.MustCompile("(?m)^\\| `bagscope ([a-z]+)([^`]*)` \\|")

// readmeFlag matches a flag in a synopsis: --name or -x.
var readmeFlag = regexp.MustCompile(`(?:^|[\s\[|])(--?[a-z][a-z-]*)`)

// TestReadmeCommandTable checks the README's table of commands against the
// binary's commands: every command has a row (but help, completion and
// version, which the text describes), every flag a row names is the
// command's, and a row names the command's --json and selection flags
// (--topics, --exclude, --range) when it has them.
func TestReadmeCommandTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range readmeSynopsis.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = strings.ReplaceAll(m[2], `\|`, "|")
	}
	root := newRoot(&env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	for _, c := range root.Commands() {
		name := c.Name()
		if name == "help" || name == "completion" || name == "version" {
			continue
		}
		row, ok := rows[name]
		if !ok {
			t.Errorf("README's command table has no row for %s", name)
			continue
		}
		named := map[string]bool{}
		for _, m := range readmeFlag.FindAllStringSubmatch(row, -1) {
			f := m[1]
			var found bool
			if long, ok := strings.CutPrefix(f, "--"); ok {
				found = c.Flags().Lookup(long) != nil || c.InheritedFlags().Lookup(long) != nil
				named[long] = true
			} else {
				sh := c.Flags().ShorthandLookup(f[1:])
				found = sh != nil
				if sh != nil {
					named[sh.Name] = true
				}
			}
			if !found {
				t.Errorf("README: bagscope %s%s: %s is not a flag of %s", name, row, f, name)
			}
		}
		for _, f := range []string{"json", "topics", "exclude", "range"} {
			if fl := c.LocalFlags().Lookup(f); fl != nil && !fl.Hidden && !named[f] {
				t.Errorf("README: bagscope %s%s: lacks --%s, which %s has", name, row, f, name)
			}
		}
	}
}

// shellWords splits a README command line as the shell does for the
// quoting the README uses: words separated by spaces, '...' and "..."
// quoting spaces and each other.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}
