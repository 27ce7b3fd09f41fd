package series

import (
	"regexp"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// CompleteField lists completions of a partly typed field reference: first
// the topics that start with prefix (a leading slash optional), then, for
// each topic that prefix already names, the plottable paths of its type that
// continue the typed path, then the latency series when the type has a
// header. At most limit entries (0: no limit).
//
// The paths are those of the topic's sample when SampleFields has read one
// for b (every element and key seen: "/joint_states.position[shoulder_pan]",
// "/tf.transforms[child_frame_id=base_link].transform.translation.x", with
// each array's "[*]" and "[0]" forms), else the type's paths with "[0]"
// and "[*]" for each array. An index, key or selector already typed is
// kept ("/scan.ranges[1" completes to "/scan.ranges[1]",
// "/tf.transforms[laser].transform.tr" to
// "/tf.transforms[laser].transform.translation.x").
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
	sample := SampleOf(b)
	for _, t := range topics {
		bt := bareTopic(t)
		if !strings.HasPrefix(bp, bt) || (len(bp) > len(bt) && bp[len(bt)] != '.') {
			continue
		}
		typed := strings.TrimPrefix(bp[len(bt):], ".")
		rest := typed
		norm := rest
		switch {
		case strings.HasSuffix(rest, "["):
			// "ranges[": offer every listed index as is.
		case openBracketRE.MatchString(rest):
			rest += "]"
			norm = normIndex(rest)
		default:
			norm = normIndex(rest)
		}
		hasHeader := false
		var plans []*rosmsg.Plan
		for _, c := range topicConns(b, t) {
			plan, err := planFor(cache, c)
			if err != nil {
				continue
			}
			plans = append(plans, plan)
			if _, err := CompileStamp(plan); err == nil {
				hasHeader = true
			}
		}
		// What the sample (or the types) list, as typed.
		listed, ok := sample.Paths(t)
		if !ok {
			for _, plan := range plans {
				tpl, wild := plan.Paths(), plan.SelectorPaths()
				for i := 0; i < len(tpl) && i < len(wild); i++ {
					listed = append(listed, tpl[i])
					if wild[i] != tpl[i] {
						listed = append(listed, wild[i])
					}
				}
			}
		}
		for _, p := range listed {
			if strings.HasPrefix(p, typed) && !add(t+"."+p) {
				return out
			}
		}
		// The type's paths continuing a typed index, key or selector.
		if norm != rest || strings.HasSuffix(rest, "[") {
			for _, plan := range plans {
				for _, p := range plan.Paths() {
					if strings.HasPrefix(p, norm) && !add(t+"."+rest+p[len(norm):]) {
						return out
					}
				}
			}
		}
		if hasHeader && strings.HasPrefix(LatencyPath, rest) && !add(t+"."+LatencyPath) {
			return out
		}
	}
	return out
}

// openBracketRE matches a path that ends inside a bracket: "ranges[12",
// "position[shoul".
var openBracketRE = regexp.MustCompile(`\[[^\]]+$`)
