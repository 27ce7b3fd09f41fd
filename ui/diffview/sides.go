package diffview

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"

	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diff"
	"github.com/bagscope/bagscope/model/echo"
)

// arrayLimit bounds the elements of each array shown of a message.
const arrayLimit = 64

// Side is one message of a difference as the tab shows it: its text
// decoded (or why it could not be), one line a field.
type Side struct {
	// Missing says the recording has no message there (dropped, added).
	Missing bool
	Lines   []string
	Err     error
}

// showTopic says what a topic without differing messages is.
func (v *View) showTopic(t *diff.Topic) {
	text := t.Name + ": " + t.Summary()
	if t.OnlyIn() >= 0 {
		text += "; no message to compare"
	}
	v.heads[0].SetText(text)
	v.heads[1].SetText("")
	for i := range v.sides {
		v.sides[i].Segments = nil
		v.sides[i].Refresh()
	}
}

// showMessages reads A's and B's messages of d in the background and
// shows them side by side, the lines that differ marked.
func (v *View) showMessages(t *diff.Topic, d *diff.Difference) {
	v.mu.Lock()
	v.shown = d
	b := v.b
	v.mu.Unlock()
	for i := range v.heads {
		v.heads[i].SetText("ABA"[i:i+1] + ": reading…")
	}
	a := v.docA().Storage
	var sides [2]Side
	v.l.Go(func(context.Context) {
		v.mu.Lock()
		defer v.mu.Unlock()
		if v.b != b || v.shown != d {
			return // replaced, or the window closed
		}
		sides = ReadSides(d, [2]bag.Storage{a, b})
	}, func() {
		if v.Shown() != d {
			return
		}
		v.showSides(t, d, sides)
	})
}

// ReadSides reads and decodes the two messages of d (from A and B).
func ReadSides(d *diff.Difference, st [2]bag.Storage) [2]Side {
	var out [2]Side
	var cache rosmsg.Cache
	for i := range 2 {
		c := d.Conn[i]
		if c == nil || st[i] == nil {
			out[i].Missing = true
			continue
		}
		m, err := st[i].ReadMessage(c.ID, d.Loc[i])
		if err != nil {
			out[i].Err = err
			continue
		}
		p, err := model.PlanFor(&cache, m.Conn)
		if err != nil {
			out[i].Err = err
			continue
		}
		root, err := p.Decode(m.Data)
		if err != nil {
			out[i].Err = fmt.Errorf("undecodable (%d bytes): %w", len(m.Data), err)
			continue
		}
		out[i].Lines = strings.Split(strings.TrimRight(echo.Short(root, arrayLimit), "\n"), "\n")
	}
	return out
}

// Marked says which lines of each side differ from the other's line at
// the same place (every line of a side whose other is missing).
func Marked(sides [2]Side) [2][]bool {
	var out [2][]bool
	for i := range 2 {
		o := sides[1-i]
		out[i] = make([]bool, len(sides[i].Lines))
		for k, line := range sides[i].Lines {
			out[i][k] = k >= len(o.Lines) || o.Lines[k] != line
		}
	}
	return out
}

// showSides shows the two messages, the differing lines in the error
// colour.
func (v *View) showSides(t *diff.Topic, d *diff.Difference, sides [2]Side) {
	marked := Marked(sides)
	for i, s := range sides {
		head := fmt.Sprintf("%s: %s %s", "AB"[i:i+1], t.Name, diffText(d, v.start))
		if d.Index[i] >= 0 {
			head = fmt.Sprintf("%s: %s message %d, %s", "AB"[i:i+1], t.Name, d.Index[i], d.Where[i])
		}
		v.heads[i].SetText(head)
		var segs []widget.RichTextSegment
		switch {
		case s.Missing:
			what := "B has no message of " + t.Name + " at this time (dropped)"
			if i == 0 {
				what = "A has no message of " + t.Name + " at this time (added in B)"
			}
			segs = append(segs, &widget.TextSegment{Text: what, Style: widget.RichTextStyle{ColorName: theme.ColorNameWarning}})
		case s.Err != nil:
			segs = append(segs, &widget.TextSegment{Text: "Cannot show it: " + s.Err.Error(), Style: widget.RichTextStyle{ColorName: theme.ColorNameError}})
		default:
			for k, line := range s.Lines {
				st := widget.RichTextStyleCodeBlock
				st.Inline = false
				if marked[i][k] {
					st.ColorName = theme.ColorNameError
				}
				segs = append(segs, &widget.TextSegment{Text: line, Style: st})
			}
		}
		v.sides[i].Segments = segs
		v.sides[i].Refresh()
		v.scrollTo(i, marked[i])
	}
}

// scrollTo scrolls side i to a few lines above its first marked line.
func (v *View) scrollTo(i int, marked []bool) {
	sc := v.scrolls[i]
	// The scroll clamps its offset to its content's size, which its
	// next layout would set: set it now.
	sc.Content.Resize(sc.Content.MinSize().Max(sc.Size()))
	sc.Offset = fyne.NewPos(0, 0)
	first := slices.Index(marked, true)
	if n := len(v.sides[i].Segments); first > 2 && n > 0 {
		lh := v.sides[i].MinSize().Height / float32(n)
		sc.Offset.Y = max(0, min(lh*float32(first-2), v.sides[i].MinSize().Height-sc.Size().Height))
	}
	sc.Refresh()
}
