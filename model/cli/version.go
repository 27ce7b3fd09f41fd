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

// versionJSON is `version --json`'s object.
type versionJSON struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

// versionString is what --version prints after "bagscope ".
func versionString() string {
	v := versionInfo()
	return fmt.Sprintf("%s (commit %s, %s, %s/%s)", v.Version, v.Commit, v.Go, v.OS, v.Arch)
}

// versionInfo is the version, the commit built ("unknown" when neither the
// Makefile nor the build's VCS stamp says) and the Go toolchain and
// platform.
func versionInfo() versionJSON {
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
	return versionJSON{Version, c, runtime.Version(), runtime.GOOS, runtime.GOARCH}
}
