package ui

import (
	"strings"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
)

// recordingPrefixes are the prefixes of a window's recordings' topics
// ("" for the first, "B:", …).
func recordingPrefixes(d *model.Document) []string {
	var out []string
	for _, r := range link.Recordings(d) {
		out = append(out, r.Prefix)
	}
	return out
}

// stripPrefix returns a topic or path without a recording's prefix
// ("B:/imu" -> "/imu"): letters and a colon before its first slash.
func stripPrefix(s string) string {
	i := strings.Index(s, ":/")
	if i <= 0 {
		return s
	}
	for _, r := range s[:i] {
		if r < 'A' || r > 'Z' {
			return s
		}
	}
	return s[i+1:]
}

// resolveTopic returns the window's topic that a layout's topic t names:
// t itself, else t without its recording's prefix, else t under one of
// the window's prefixes (the first recording's first); t when none is.
func resolveTopic(t string, have map[string]bool, prefixes []string) string {
	if have[t] {
		return t
	}
	own := stripPrefix(t)
	for _, p := range append([]string{""}, prefixes...) {
		if have[p+own] {
			return p + own
		}
	}
	return t
}

// resolvePlotPath is resolveTopic for a plain series path
// ("B:/imu.linear_acceleration.x"); expressions are kept as they are.
func resolvePlotPath(s string, have map[string]bool, prefixes []string) string {
	if strings.ContainsAny(s, "( ") || fieldOfTopic(s, have) {
		return s
	}
	own := stripPrefix(s)
	for _, p := range append([]string{""}, prefixes...) {
		if fieldOfTopic(p+own, have) {
			return p + own
		}
	}
	return s
}

// fieldOfTopic reports whether path is a field of one of the topics.
func fieldOfTopic(path string, have map[string]bool) bool {
	for t := range have {
		if strings.HasPrefix(path, t+".") {
			return true
		}
	}
	return false
}
