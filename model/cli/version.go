package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is bagscope's version (the window's About shows ui.Version;
// ui's TestVersionAndIDAgree keeps both equal to FyneApp.toml's).
const Version = "0.1.0"

// commit is the commit bagscope was built from, set by the Makefile with
// -ldflags "-X github.com/bagscope/bagscope/model/cli.commit=...". When
// empty, the build's own VCS stamp is used, if it has one.
var commit string

// versionString is what --version prints after "bagscope ".
func versionString() string {
	c := commit
	if c == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			dirty := ""
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					c = s.Value[:min(12, len(s.Value))]
				case "vcs.modified":
					if s.Value == "true" {
						dirty = "-dirty"
					}
				}
			}
			if c != "" {
				c += dirty
			}
		}
	}
	if c == "" {
		c = "unknown"
	}
	return fmt.Sprintf("%s (commit %s, %s, %s/%s)", Version, c, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
