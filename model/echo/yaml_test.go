package echo

import (
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/internal/reftest"
)

func TestPyFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1, "1.0"},
		{-2.5, "-2.5"},
		{0.1, "0.1"},
		{float64(float32(0.1)), "0.10000000149011612"},
		{1e-5, "1e-05"},
		{0.0001, "0.0001"},
		{1e16, "1e+16"},
		{1234567890123456, "1234567890123456.0"},
		{1.5e300, "1.5e+300"},
		{5e-324, "5e-324"},
		{math.NaN(), "nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := PyFloat(tc.f); got != tc.want {
				t.Errorf("PyFloat(%v) = %q, want %q", tc.f, got, tc.want)
			}
		})
	}
}

// TestYAMLStrings checks the string forms against PyYAML's on strings
// that take each style and the line folding.
func TestYAMLStrings(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, tc := range []struct {
		name string
		s    []string
		want string // yaml.dump(s), without the final newline
	}{
		{"plain", []string{"base_link", "two words"}, "- base_link\n- two words"},
		{"empty", []string{""}, "- ''"},
		{"looks like bool", []string{"yes", "True", "off"}, "- 'yes'\n- 'True'\n- 'off'"},
		{"looks like numbers", []string{"1", "1.5", "0x1f", ".inf", "1_000"}, "- '1'\n- '1.5'\n- '0x1f'\n- '.inf'\n- '1_000'"},
		{"null", []string{"~", "null"}, "- '~'\n- 'null'"},
		{"indicators", []string{"-x", "- x", "a: b", "a:b", "#c", "a #c", "[x]", "it's"}, "- -x\n- '- x'\n- 'a: b'\n- a:b\n- '#c'\n- 'a #c'\n- '[x]'\n- it's"},
		{"quote inside single", []string{"'q'"}, "- '''q'''"},
		{"edge spaces", []string{" x", "x "}, "- ' x'\n- 'x '"},
		{"unicode and control", []string{"über", "a\tb"}, "- \"\\xFCber\"\n- \"a\\tb\""},
		{"long plain folds", []string{long[:len(long)-1]}, "- " + strings.TrimSpace(strings.Repeat("word ", 16)) + "\n  " + strings.TrimSpace(strings.Repeat("word ", 14))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := yamlStringList(tc.s); got != tc.want {
				t.Errorf("yamlStringList(%q) =\n%s\nwant\n%s", tc.s, got, tc.want)
			}
		})
	}
}

// TestYAMLMatchesPyYAML checks yamlQuoted and yamlStringList against the
// reference's PyYAML on strings that fold, escape and quote.
func TestYAMLMatchesPyYAML(t *testing.T) {
	reftest.RequireRef(t)
	if err := exec.Command(reftest.Python, "-c", "import yaml").Run(); err != nil {
		reftest.SkipOrFail(t, "PyYAML is missing: "+err.Error())
	}
	cases := []string{
		"hello", "", "a\"b\\c", "line\nbreak", "tab\there", "über ☃ 🤖",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 5),
		strings.Repeat("x", 120) + " tail", strings.Repeat("é", 50) + " " + strings.Repeat("a b ", 30),
		"  leading", "trailing  ", "a  b" + strings.Repeat(" c", 50),
		"yes", "3.14", "2001-12-14", "- dash", "key: value", "x'y", "1:20", "=", "<<",
	}
	for _, s := range cases {
		t.Run(fmt.Sprintf("%.20q", s), func(t *testing.T) {
			script := `import sys, yaml
s = sys.argv[1]
sys.stdout.write(yaml.dump(s, default_style='"').rstrip('\n') + "\x00" + yaml.dump([s]).rstrip('\n'))`
			out, err := exec.Command(reftest.Python, "-c", script, s).Output()
			if err != nil {
				t.Fatal(err)
			}
			wantQ, wantL, _ := strings.Cut(string(out), "\x00")
			if s != "" {
				if got := yamlQuoted(s); got != wantQ {
					t.Errorf("quoted:\n got %q\nwant %q", got, wantQ)
				}
			}
			if got := yamlStringList([]string{s}); got != wantL {
				t.Errorf("list:\n got %q\nwant %q", got, wantL)
			}
		})
	}
}
