package diffview

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/diff"
)

// The table's columns.
const (
	colTopic = iota
	colMsgsA
	colMsgsB
	colHzA
	colHzB
	colSpanA
	colSpanB
	colDiff
	colFirst
	colLast
	nCols
)

var colTitles = [nCols]string{"Topic", "Msgs A", "Msgs B", "Hz A", "Hz B", "Span A", "Span B", "Differences", "First difference", "Last difference"}

var colWidths = [nCols]float32{200, 70, 70, 70, 70, 70, 70, 170, 280, 280}

// topics are the rows: every compared topic.
func (v *View) topicRows() []*diff.Topic {
	if v.state.Result == nil {
		return nil
	}
	return v.state.Result.Topics
}

func (v *View) newTable() *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return len(v.topicRows()), nCols },
		func() fyne.CanvasObject {
			l := ttwidget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			rows := v.topicRows()
			if id.Row < 0 || id.Row >= len(rows) {
				return
			}
			text, align, imp := Cell(rows[id.Row], id.Col, v.start)
			l := o.(*ttwidget.Label)
			l.Alignment, l.Importance = align, imp
			l.SetText(text)
			l.SetToolTip(cellTip(rows[id.Row], id.Col, v.start))
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < nCols {
			o.(*widget.Label).SetText(colTitles[id.Col])
		}
	}
	for i, w := range colWidths {
		t.SetColumnWidth(i, w)
	}
	t.OnSelected = func(id widget.TableCellID) {
		rows := v.topicRows()
		if id.Row < 0 || id.Row >= len(rows) {
			return
		}
		tp := rows[id.Row]
		d := tp.First
		if id.Col == colLast {
			d = tp.Last
		}
		if d == nil {
			v.showTopic(tp)
			return
		}
		v.selectDifference(tp, d)
	}
	return t
}

// Cell is the text of one cell of a topic's row, as `bagscope diff`
// prints its table (counts, rates and spans with "-" for a side without
// the topic), the differences in Topic.Summary's words, and the first and
// last differing message with their times from A's start.
func Cell(t *diff.Topic, col int, start bag.Time) (string, fyne.TextAlign, widget.Importance) {
	a, b := &t.Side[0], &t.Side[1]
	switch col {
	case colTopic:
		return t.Name, fyne.TextAlignLeading, widget.MediumImportance
	case colMsgsA:
		return count(a), fyne.TextAlignTrailing, widget.MediumImportance
	case colMsgsB:
		return count(b), fyne.TextAlignTrailing, widget.MediumImportance
	case colHzA:
		return num(a, a.Rate()), fyne.TextAlignTrailing, widget.MediumImportance
	case colHzB:
		return num(b, b.Rate()), fyne.TextAlignTrailing, widget.MediumImportance
	case colSpanA:
		return num(a, a.Span()), fyne.TextAlignTrailing, widget.MediumImportance
	case colSpanB:
		return num(b, b.Span()), fyne.TextAlignTrailing, widget.MediumImportance
	case colDiff:
		imp := widget.SuccessImportance
		if !t.Equal() {
			imp = widget.DangerImportance
		}
		return t.Summary(), fyne.TextAlignLeading, imp
	case colFirst:
		return diffText(t.First, start), fyne.TextAlignLeading, widget.MediumImportance
	case colLast:
		if t.Last == t.First {
			return "", fyne.TextAlignLeading, widget.MediumImportance
		}
		return diffText(t.Last, start), fyne.TextAlignLeading, widget.MediumImportance
	}
	return "", fyne.TextAlignLeading, widget.MediumImportance
}

// diffText says a differing message briefly: its kind, time from A's
// start, and its position on the topic in A and B.
func diffText(d *diff.Difference, start bag.Time) string {
	if d == nil {
		return ""
	}
	s := fmt.Sprintf("%s +%.6f s", d.Kind, d.Time.Sub(start))
	switch {
	case d.Index[0] >= 0 && d.Index[1] >= 0:
		s += fmt.Sprintf(" (A #%d, B #%d)", d.Index[0], d.Index[1])
	case d.Index[0] >= 0:
		s += fmt.Sprintf(" (A #%d)", d.Index[0])
	case d.Index[1] >= 0:
		s += fmt.Sprintf(" (B #%d)", d.Index[1])
	}
	return s
}

func count(s *diff.Side) string {
	if !s.Present {
		return "-"
	}
	return fmt.Sprint(s.Messages)
}

func num(s *diff.Side, f float64) string {
	if !s.Present {
		return "-"
	}
	return fmt.Sprintf("%.3f", f)
}

// cellTip is a cell's tooltip: a differing message in full (its time,
// places and what differs, as `bagscope diff` prints it), the topic's
// types, or what a click does.
func cellTip(t *diff.Topic, col int, start bag.Time) string {
	switch col {
	case colFirst, colLast:
		d := t.First
		if col == colLast {
			d = t.Last
		}
		if d == nil {
			return ""
		}
		return d.Describe(start) + "\nClick to move the time here and see both messages."
	case colTopic:
		return "A: " + types(&t.Side[0]) + "\nB: " + types(&t.Side[1])
	case colDiff:
		if t.Equal() {
			return "The same type, definition and messages in A and B"
		}
		return "Click to move the time to the first differing message and see both"
	}
	return ""
}

func types(s *diff.Side) string {
	if !s.Present {
		return "no such topic"
	}
	return strings.Join(s.Types, ", ")
}

// SelectTopic selects a topic's row, as a click on it does: the time
// moves to its first differing message, shown from A and B. It returns
// false when no row has that topic.
func (v *View) SelectTopic(name string) bool {
	for i, t := range v.topicRows() {
		if t.Name == name {
			v.table.Select(widget.TableCellID{Row: i, Col: colDiff})
			return true
		}
	}
	return false
}
