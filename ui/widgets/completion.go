package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// CompletionMax is how many suggestions the popup lists.
const CompletionMax = 40

// CompletionEntry is an entry that lists suggestions under itself as you
// type. Down and Up move through them, Enter or a click takes one, Escape
// closes the list; typing goes on into the entry while the list shows.
//
// Fyne gives keyboard focus to a popup's content, so the list takes the
// focus and hands every key it does not use back to the entry (as
// fyne-x's CompletionEntry does).
type CompletionEntry struct {
	widget.Entry
	// suggest returns the suggestions for the text typed so far.
	suggest func(text string) []string
	// OnPicked, when set, is called after a suggestion is taken.
	OnPicked func(string)

	options []string
	popup   *widget.PopUp
	list    *completionList
	// picking is set while the entry's text is set from a suggestion, so
	// that it does not open the list again.
	picking bool
}

// Suggestions returns the suggestions listed now, and whether the list is
// shown.
func (e *CompletionEntry) Suggestions() ([]string, bool) {
	return e.options, e.popup != nil && e.popup.Visible()
}

// NewCompletionEntry returns an entry that lists suggest's suggestions
// for the text typed so far.
func NewCompletionEntry(suggest func(string) []string) *CompletionEntry {
	e := &CompletionEntry{suggest: suggest}
	e.ExtendBaseWidget(e)
	return e
}

// TypedRune updates the suggestions after the entry takes the rune.
func (e *CompletionEntry) TypedRune(r rune) {
	e.Entry.TypedRune(r)
	e.refreshSuggestions()
}

// TypedKey updates the suggestions after editing keys; Down opens them.
func (e *CompletionEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyDown:
		e.refreshSuggestions()
		if e.popup != nil && e.popup.Visible() {
			e.list.move(1)
		}
		return
	case fyne.KeyEscape:
		e.hideSuggestions()
		return
	}
	e.Entry.TypedKey(k)
	if k.Name == fyne.KeyBackspace || k.Name == fyne.KeyDelete {
		e.refreshSuggestions()
	}
}

// refreshSuggestions lists what suggest offers for the current text.
func (e *CompletionEntry) refreshSuggestions() {
	if e.picking || e.suggest == nil {
		return
	}
	e.options = e.suggest(e.Text)
	if len(e.options) > CompletionMax {
		e.options = e.options[:CompletionMax]
	}
	if len(e.options) == 0 || (len(e.options) == 1 && e.options[0] == e.Text) {
		e.hideSuggestions()
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(e)
	if c == nil {
		return
	}
	if e.popup == nil {
		e.list = newCompletionList(e)
		e.popup = widget.NewPopUp(e.list, c)
	}
	e.list.sel = -1
	e.list.UnselectAll()
	e.list.Refresh()
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e)
	rows := min(len(e.options), 8)
	e.popup.Resize(fyne.NewSize(e.Size().Width, float32(rows)*e.list.rowHeight()+4))
	e.popup.ShowAtPosition(pos.AddXY(0, e.Size().Height))
	c.Focus(e.list)
}

// hideSuggestions closes the list and gives the focus back to the entry.
func (e *CompletionEntry) hideSuggestions() {
	if e.popup == nil || !e.popup.Visible() {
		return
	}
	e.popup.Hide()
	if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
		c.Focus(e)
	}
}

// pick takes suggestion i into the entry.
func (e *CompletionEntry) pick(i int) {
	if i < 0 || i >= len(e.options) {
		return
	}
	s := e.options[i]
	e.picking = true
	e.SetText(s)
	e.CursorColumn = len([]rune(s))
	e.picking = false
	e.hideSuggestions()
	if e.OnPicked != nil {
		e.OnPicked(s)
	}
}

// completionList is the popup's list. It holds the focus while shown and
// passes typing on to its entry.
type completionList struct {
	widget.List
	e      *CompletionEntry
	sel    int
	moving bool // Select is called by move, not by a click
}

var _ fyne.Focusable = (*completionList)(nil)

func newCompletionList(e *CompletionEntry) *completionList {
	l := &completionList{e: e, sel: -1}
	l.Length = func() int { return len(e.options) }
	l.CreateItem = func() fyne.CanvasObject {
		t := widget.NewLabel("")
		t.Truncation = fyne.TextTruncateEllipsis
		return t
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < len(e.options) {
			o.(*widget.Label).SetText(e.options[i])
		}
	}
	l.OnSelected = func(i widget.ListItemID) {
		if !l.moving { // a click, not a move with the keys
			e.pick(i)
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *completionList) rowHeight() float32 {
	return widget.NewLabel("/x").MinSize().Height
}

// move selects the suggestion d rows down (or up).
func (l *completionList) move(d int) {
	n := len(l.e.options)
	if n == 0 {
		return
	}
	l.sel = min(max(l.sel+d, 0), n-1)
	l.moving = true
	l.Select(l.sel)
	l.moving = false
	l.ScrollTo(l.sel)
}

// FocusGained makes the list focusable.
func (l *completionList) FocusGained() {}

// FocusLost makes the list focusable.
func (l *completionList) FocusLost() {}

// TypedRune passes typing on to the entry.
func (l *completionList) TypedRune(r rune) { l.e.TypedRune(r) }

// TypedKey moves through the list, takes a suggestion or closes the list;
// other keys go to the entry.
func (l *completionList) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyDown:
		l.move(1)
	case fyne.KeyUp:
		l.move(-1)
	case fyne.KeyReturn, fyne.KeyEnter:
		if l.sel >= 0 {
			l.e.pick(l.sel)
		} else {
			l.e.hideSuggestions()
			l.e.TypedKey(k)
		}
	case fyne.KeyEscape:
		l.e.hideSuggestions()
	default:
		l.e.Entry.TypedKey(k)
		l.e.refreshSuggestions()
	}
}
