package echo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/human"
)

// fieldPreview is how many values an array's one-line value shows.
const fieldPreview = 8

// FieldValue is a node's value on one line: numbers as genpy prints them,
// strings quoted, times with their date, arrays by length and first values.
func FieldValue(n *rosmsg.Node) string {
	if n.Array {
		cnt := n.Len()
		switch {
		case n.Kind == rosmsg.KindUint8:
			b := n.Bytes()
			s := fmt.Sprintf("%s bytes", human.Count(uint64(cnt)))
			if cnt > 0 {
				s += fmt.Sprintf(": % x", b[:min(len(b), 16)])
				if cnt > 16 {
					s += " …"
				}
			}
			return s
		case len(n.Children) > 0 || cnt == 0 && (n.Kind == rosmsg.KindMessage || n.Kind == rosmsg.KindString):
			if cnt == 1 {
				return "1 element"
			}
			return fmt.Sprintf("%s elements", human.Count(uint64(cnt)))
		}
		vals := make([]string, 0, fieldPreview)
		for i := range min(cnt, fieldPreview) {
			e, _ := n.Elem(i)
			vals = append(vals, FieldValue(&e))
		}
		s := "[" + strings.Join(vals, ", ")
		if cnt > fieldPreview {
			s += fmt.Sprintf(", … (%s)", human.Count(uint64(cnt)))
		}
		return s + "]"
	}
	switch n.Kind {
	case rosmsg.KindMessage:
		return ""
	case rosmsg.KindBool:
		return strconv.FormatBool(n.Bool())
	case rosmsg.KindInt8, rosmsg.KindInt16, rosmsg.KindInt32, rosmsg.KindInt64:
		return strconv.FormatInt(n.Int(), 10)
	case rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32, rosmsg.KindUint64:
		return strconv.FormatUint(n.Uint(), 10)
	case rosmsg.KindFloat32:
		return strconv.FormatFloat(n.Float(), 'g', -1, 32)
	case rosmsg.KindFloat64:
		return strconv.FormatFloat(n.Float(), 'g', -1, 64)
	case rosmsg.KindString:
		s := n.Text()
		if r := []rune(s); len(r) > 200 {
			s = string(r[:200]) + "…"
		}
		return strconv.Quote(s)
	case rosmsg.KindTime:
		tm := n.Time()
		bt := ros1.Time{Sec: tm.Sec, NSec: tm.Nsec}
		if tm.Nsec < 1e9 && tm.Sec > 0 {
			return fmt.Sprintf("%d.%09d (%s)", tm.Sec, tm.Nsec, bt.Std().Format("2006-01-02 15:04:05.000 MST"))
		}
		return fmt.Sprintf("%d.%09d", tm.Sec, tm.Nsec)
	case rosmsg.KindDuration:
		d := n.Duration()
		return fmt.Sprintf("%d s %d ns", d.Sec, d.Nsec)
	}
	return ""
}
