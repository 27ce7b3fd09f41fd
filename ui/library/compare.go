package library

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diff"
)

// Comparison is what Compare found of two recordings: the engine's result
// (as `bagscope diff` prints it), or why they could not be compared.
type Comparison struct {
	Paths  [2]string
	Result *diff.Result
	// Start is A's first receive time: differences are shown from it.
	Start bag.Time
	Err   error
}

// Compare compares the recordings at a and b by payload bytes, as
// `bagscope diff A B` does.
func Compare(ctx context.Context, a, b string, progress func(done, total int64)) *Comparison {
	out := &Comparison{Paths: [2]string{a, b}}
	var st [2]bag.Storage
	for i, p := range out.Paths {
		s, err := model.OpenStorageWith(p, bag.OpenOptions{Context: ctx})
		if err != nil {
			out.Err = fmt.Errorf("%s: %w", bag.Shown(p), err)
			return out
		}
		defer s.Close()
		st[i] = s
	}
	if sum, err := st[0].Summary(); err == nil {
		out.Start = sum.Start
	}
	out.Result, out.Err = diff.Compare(ctx, st[0], st[1], diff.Options{Progress: progress})
	return out
}

// Lines are the comparison in words: a verdict, then one line per topic
// that differs, each with its first difference.
func (c *Comparison) Lines() []string {
	if c.Err != nil {
		return []string{"Could not compare: " + c.Err.Error()}
	}
	res := c.Result
	var out []string
	if res.Equal() {
		out = append(out, fmt.Sprintf("Equal: the same %d topics, types, definitions and messages (%d each), compared by payload bytes.", len(res.Topics), res.Messages[0]))
	} else {
		out = append(out, fmt.Sprintf("They differ in %d of %d topics (compared by payload bytes; A has %d messages, B %d).", len(res.Differing()), len(res.Topics), res.Messages[0], res.Messages[1]))
	}
	for _, t := range res.Differing() {
		line := t.Name + ": " + t.Summary()
		if t.TypesDiffer() {
			line += " (A " + strings.Join(t.Side[0].Types, " ") + ", B " + strings.Join(t.Side[1].Types, " ") + ")"
		}
		if t.First != nil {
			line += "; first " + t.First.Describe(c.Start)
		}
		out = append(out, line)
	}
	return out
}

// compareSelected compares the two selected recordings in the background
// and shows what differs.
func (v *View) compareSelected() {
	if len(v.selected) != 2 {
		return
	}
	a, b := v.selected[0], v.selected[1]
	ctx, stop := context.WithCancel(context.Background())
	bar := widget.NewProgressBar()
	wait := dialog.NewCustom("Comparing…", "Cancel", container.NewVBox(
		widget.NewLabel("A: "+v.shownName(a)+"\nB: "+v.shownName(b)), bar), v.win)
	wait.SetOnClosed(stop)
	wait.Show()
	Background(func() {
		c := Compare(ctx, a, b, func(done, total int64) {
			fyne.Do(func() { bar.SetValue(float64(done) / float64(max(total, 1))) })
		})
		fyne.Do(func() {
			cancelled := ctx.Err() != nil
			wait.Hide()
			stop()
			if cancelled {
				return
			}
			v.showComparison(c)
		})
	})
}

// LastComparison is the last comparison shown (tests read it).
func (v *View) LastComparison() *Comparison { return v.compared }

// showComparison shows a comparison in a dialog over the library: the
// two recordings, a table of every topic, and the differences in words.
func (v *View) showComparison(c *Comparison) {
	v.compared = c
	head := widget.NewLabel("A: " + v.shownName(c.Paths[0]) + "\nB: " + v.shownName(c.Paths[1]))
	lines := c.Lines()
	verdict := widget.NewLabelWithStyle(lines[0], fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	verdict.Wrapping = fyne.TextWrapWord
	details := widget.NewLabel(strings.Join(lines[1:], "\n"))
	details.Wrapping = fyne.TextWrapWord
	var body fyne.CanvasObject = container.NewVBox(head, verdict, details)
	if c.Result != nil {
		body = container.NewBorder(container.NewVBox(head, verdict), nil, nil, nil,
			container.NewVSplit(topicTable(c.Result), container.NewVScroll(details)))
	}
	d := dialog.NewCustom("Compare recordings", "Close", body, v.win)
	if v.acts.Compare != nil {
		// The window's Diff tab shows more: the options, and both
		// messages of a difference side by side.
		d.SetButtons([]fyne.CanvasObject{
			widget.NewButtonWithIcon("Open A with a Diff tab", theme.ContentCopyIcon(), func() {
				d.Hide()
				v.acts.Compare(c.Paths[0], c.Paths[1])
			}),
			widget.NewButton("Close", d.Hide),
		})
	}
	size := v.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(1000, size.Width*0.92), min(640, size.Height*0.9)))
	d.Show()
}

// topicTable is every compared topic: its messages, rates and spans in A
// and B, and its differences.
func topicTable(res *diff.Result) fyne.CanvasObject {
	heads := []string{"Topic", "Msgs A", "Msgs B", "Hz A", "Hz B", "Differences"}
	widths := []float32{260, 90, 90, 80, 80, 300}
	t := widget.NewTableWithHeaders(
		func() (int, int) { return len(res.Topics), len(heads) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			t := res.Topics[id.Row]
			a, b := &t.Side[0], &t.Side[1]
			l.Alignment = fyne.TextAlignTrailing
			l.Importance = widget.MediumImportance
			switch id.Col {
			case 0:
				l.Alignment = fyne.TextAlignLeading
				l.SetText(t.Name)
			case 1:
				l.SetText(count(a))
			case 2:
				l.SetText(count(b))
			case 3:
				l.SetText(rate(a))
			case 4:
				l.SetText(rate(b))
			default:
				l.Alignment = fyne.TextAlignLeading
				if !t.Equal() {
					l.Importance = widget.DangerImportance
				}
				l.SetText(t.Summary())
			}
		})
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(heads[id.Col])
		}
	}
	for i, w := range widths {
		t.SetColumnWidth(i, w)
	}
	return t
}

func count(s *diff.Side) string {
	if !s.Present {
		return "—"
	}
	return fmt.Sprint(s.Messages)
}

func rate(s *diff.Side) string {
	if !s.Present {
		return "—"
	}
	return fmt.Sprintf("%.2f", s.Rate())
}
