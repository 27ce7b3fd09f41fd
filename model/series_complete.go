package model

import (
	"regexp"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// CompleteField lists completions of a partly typed field reference: first
// the topics that start with prefix (a leading slash optional), then, for
// each topic that prefix already names, the plottable paths of its type that
// continue the typed path ("/scan.ranges[1" completes to
// "/scan.ranges[1]": typed array indices are kept), then the latency series
// when the type has a header. At most limit entries (0: no limit).
func CompleteField(b bag.Storage, cache *rosmsg.Cache, prefix string, limit int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) bool {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
		return limit <= 0 || len(out) < limit
	}
	bp := bareTopic(prefix)
	topics := Topics(b)
	for _, t := range topics {
		if strings.HasPrefix(bareTopic(t), bp) && !add(t) {
			return out
		}
	}
	for _, t := range topics {
		bt := bareTopic(t)
		if !strings.HasPrefix(bp, bt) || (len(bp) > len(bt) && bp[len(bt)] != '.') {
			continue
		}
		rest := strings.TrimPrefix(bp[len(bt):], ".")
		norm := rest
		switch {
		case strings.HasSuffix(rest, "["):
			// "ranges[": offer every listed index as is.
		case openIndexRE.MatchString(rest):
			rest += "]"
			norm = normIndex(rest)
		default:
			norm = normIndex(rest)
		}
		hasHeader := false
		for _, c := range topicConns(b, t) {
			plan, err := planFor(cache, c)
			if err != nil {
				continue
			}
			if _, err := compileStamp(plan); err == nil {
				hasHeader = true
			}
			for _, p := range plan.Paths() {
				if strings.HasPrefix(p, norm) && !add(t+"."+rest+p[len(norm):]) {
					return out
				}
			}
		}
		if hasHeader && strings.HasPrefix(LatencyPath, rest) && !add(t+"."+LatencyPath) {
			return out
		}
	}
	return out
}

// openIndexRE matches a path that ends inside an array index: "ranges[12".
var openIndexRE = regexp.MustCompile(`\[\d+$`)
