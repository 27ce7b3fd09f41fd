package ui

import (
	"os"
	"regexp"
	"testing"

	"github.com/bagscope/bagscope/model/cli"
)

// TestVersionAndIDAgree keeps the three places that name bagscope's version
// and the two that name its application ID equal: the window's About
// (Version, AppID), the command line's --version (cli.Version) and the
// packaging metadata fyne reads (FyneApp.toml's [Details]).
func TestVersionAndIDAgree(t *testing.T) {
	toml, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	details := regexp.MustCompile(`(?s)\[Details\](.*?)(?:\n\[|$)`).FindSubmatch(toml)
	if details == nil {
		t.Fatal("FyneApp.toml has no [Details] table")
	}
	field := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + ` = "([^"]*)"`).FindSubmatch(details[1])
		if m == nil {
			t.Fatalf("FyneApp.toml's [Details] has no %s", name)
		}
		return string(m[1])
	}
	tests := []struct{ what, got, want string }{
		{"ui.Version (About)", Version, field("Version")},
		{"cli.Version (--version)", cli.Version, field("Version")},
		{"ui.AppID", AppID, field("ID")},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s is %q; FyneApp.toml says %q", tt.what, tt.got, tt.want)
		}
	}
}
