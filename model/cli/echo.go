package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// echoArrayMax is how many elements of a long array the text form shows.
const echoArrayMax = 32

// writeEcho prints a decoded message as `rostopic echo` does: one field per
// line, nested messages indented, scalar arrays on one line (long ones
// shortened).
func writeEcho(w *bufio.Writer, n *rosmsg.Node, depth int) {
	for i := range n.Children {
		writeField(w, &n.Children[i], depth)
	}
}

func writeField(w *bufio.Writer, f *rosmsg.Node, depth int) {
	ind := strings.Repeat("  ", depth)
	switch {
	case f.Array && f.Kind == rosmsg.KindMessage:
		if f.Len() == 0 {
			fmt.Fprintf(w, "%s%s: []\n", ind, f.Name)
			return
		}
		fmt.Fprintf(w, "%s%s:\n", ind, f.Name)
		for i := range f.Children {
			fmt.Fprintf(w, "%s  -\n", ind)
			writeEcho(w, &f.Children[i], depth+2)
		}
	case f.Array:
		fmt.Fprintf(w, "%s%s: %s\n", ind, f.Name, arrayText(f))
	case f.Kind == rosmsg.KindMessage:
		fmt.Fprintf(w, "%s%s:\n", ind, f.Name)
		writeEcho(w, f, depth+1)
	default:
		fmt.Fprintf(w, "%s%s: %s\n", ind, f.Name, scalarText(f))
	}
}

// scalarText formats one scalar value.
func scalarText(n *rosmsg.Node) string {
	switch v := n.Value().(type) {
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case rosmsg.Time:
		return fmt.Sprintf("%d.%09d", v.Sec, v.Nsec)
	case rosmsg.Duration:
		return fmt.Sprintf("%.9f", v.Seconds())
	default:
		return fmt.Sprint(v)
	}
}

// arrayText formats an array of scalars on one line.
func arrayText(n *rosmsg.Node) string {
	count := n.Len()
	if n.Kind == rosmsg.KindUint8 {
		b := n.Bytes()
		shown := b[:min(len(b), echoArrayMax)]
		s := fmt.Sprintf("<%d bytes>", len(b))
		if len(shown) > 0 {
			s += " " + strings.TrimSpace(fmt.Sprintf("% x", shown))
			if len(shown) < len(b) {
				s += " ..."
			}
		}
		return s
	}
	parts := make([]string, 0, min(count, echoArrayMax)+1)
	for i := 0; i < count && i < echoArrayMax; i++ {
		e, ok := n.Elem(i)
		if !ok {
			break
		}
		parts = append(parts, scalarText(&e))
	}
	if count > echoArrayMax {
		parts = append(parts, fmt.Sprintf("... (%d more)", count-echoArrayMax))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
