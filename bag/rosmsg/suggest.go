package rosmsg

import (
	"regexp"
	"sort"
	"strings"
)

var indexRE = regexp.MustCompile(`\[[^\]]*\]?`)

// normIndex writes every array index or selector as [0], the form
// Plan.Paths uses.
func normIndex(s string) string { return indexRE.ReplaceAllString(s, "[0]") }

// SuggestPaths returns up to three of paths close to p, closest first: by
// edit distance with every index and selector ignored, paths that end with
// p's last field or start with p counting as close. It is what the plot
// box and the expression language offer for a field that does not exist.
func SuggestPaths(p string, paths []string) []string {
	np := normIndex(p)
	type cand struct {
		s string
		d int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, q := range paths {
		nq := normIndex(q)
		if seen[nq] {
			continue
		}
		seen[nq] = true
		d := editDistance(np, nq)
		if strings.HasSuffix(nq, "."+lastPart(np)) || strings.HasPrefix(nq, np) {
			d = min(d, len(nq)/4)
		}
		if d <= max(3, len(np)/3) {
			cs = append(cs, cand{q, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].s)
	}
	return out
}

func lastPart(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
