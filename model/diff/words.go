package diff

import (
	"fmt"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// Summary says a topic's differences in a few words ("equal", "only in
// B", "3 changed, 1 dropped"), as `bagscope diff` and the window's
// library print them.
func (t *Topic) Summary() string {
	if i := t.OnlyIn(); i >= 0 {
		return "only in " + "AB"[i:i+1]
	}
	var parts []string
	if t.TypesDiffer() {
		parts = append(parts, "types differ")
	} else if t.DefinitionsDiffer() {
		parts = append(parts, "definitions differ")
	}
	for _, k := range []struct {
		n    uint64
		what string
	}{{t.Changed, "changed"}, {t.Dropped, "dropped"}, {t.Added, "added"}} {
		if k.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", k.n, k.what))
		}
	}
	if len(parts) == 0 {
		return "equal"
	}
	return strings.Join(parts, ", ")
}

// Describe says one differing message: its kind, time (and seconds from
// start), positions, places, and what differs.
func (d *Difference) Describe(start bag.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s at %s (+%.9f s)", d.Kind, d.Time, d.Time.Sub(start))
	for i := range 2 {
		if d.Index[i] >= 0 {
			fmt.Fprintf(&b, ", %s message %d (%s, %d bytes)", "AB"[i:i+1], d.Index[i], d.Where[i], d.Size[i])
		}
	}
	if d.Kind == Changed {
		switch {
		case d.Field != "":
			fmt.Fprintf(&b, ": %s is %s in A, %s in B", d.Field, d.A, d.B)
		case d.A != "" || d.B != "":
			fmt.Fprintf(&b, ": A %s, B %s", orDecoded(d.A), orDecoded(d.B))
		case d.At >= 0:
			fmt.Fprintf(&b, ": first differing byte %d", d.At)
		default:
			fmt.Fprintf(&b, ": one payload is the other's prefix")
		}
	}
	return b.String()
}

func orDecoded(s string) string {
	if s == "" {
		return "decoded"
	}
	return s
}
