// Package find is the Find bar of a recording's window (Ctrl+F): an
// expression (bag/rosmsg/expr, the grammar of `bagscope find`) evaluated
// on every message in the background by model/query, with progress and
// Cancel. Its hits are ticked on their topics' timeline lanes and listed
// with the values that matched; F3 and Shift+F3 step the window's time
// through them, and they export as `bagscope find --csv` writes them.
package find

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// MaxHits is how many hits the bar keeps (the rest are counted, and the
// status says so): a list, lane ticks and CSV of a few hundred thousand
// hits stay responsive and small.
const MaxHits = 200_000

// sideW is the width of the hits' list, beside the tabs.
const sideW = 360

// Bar is the Find bar. It is hidden until Show; the window places
// Content below its tabs and Side, the hits' list, beside them.
type Bar struct {
	l     link.Link
	win   fyne.Window
	start bag.Time

	root      *fyne.Container
	side      *fyne.Container
	entry     *exprEntry
	findBtn   *widgets.TipButton
	cancelBtn *widgets.TipButton
	prevBtn   *widgets.TipButton
	nextBtn   *widgets.TipButton
	exportBtn *widgets.TipButton
	progress  *widget.ProgressBar
	status    *widget.Label
	list      *widget.List

	// said is what the status says when no button's tip shows.
	said string
	// hits are the last search's, sorted by time; expr the expression
	// they are of; cur the hit the time was last stepped to, or -1.
	hits  []query.Hit
	expr  string
	cur   int
	busy  bool // the bar is selecting a row itself
	valid bool // the entry's text compiles

	// cancel stops the running search; gen counts searches, so that a
	// cancelled one's end is not shown over the next.
	cancel  context.CancelFunc
	gen     int
	running bool

	// OnHide is told when the bar closes (Escape or its ×).
	OnHide func()
}

// New builds the Find bar of l's recording; w shows its dialogs.
func New(l link.Link, w fyne.Window) *Bar {
	b := &Bar{l: l, win: w, cur: -1}
	b.start, _ = model.TimeRange(l.Doc().Storage)
	b.entry = newExprEntry(b)
	b.entry.SetPlaceHolder(`Find: an expression, e.g. level >= ERROR, /imu.linear_acceleration.z > 12, msg ~ "timeout"`)
	tip := b.tip
	b.findBtn = widgets.NewTipButton("Find", theme.SearchIcon(), "Search every message for the expression (Enter)", tip, func() { b.Search(b.entry.Text) })
	b.findBtn.Importance = widget.HighImportance
	b.cancelBtn = widgets.NewTipButton("Cancel", theme.CancelIcon(), "Stop the search; the hits found so far stay", tip, b.Cancel)
	b.prevBtn = widgets.NewTipButton("", theme.MoveUpIcon(), "Previous hit before the current time (Shift+F3, Ctrl+Shift+G)", tip, func() { b.Step(-1) })
	b.nextBtn = widgets.NewTipButton("", theme.MoveDownIcon(), "Next hit after the current time (F3, Ctrl+G)", tip, func() { b.Step(+1) })
	b.exportBtn = widgets.NewTipButton("CSV…", theme.DocumentSaveIcon(), "Save the hits as CSV: topic, times and a column per value, as bagscope find --csv writes them", tip, b.exportDialog)
	closeBtn := widgets.NewTipButton("", theme.WindowCloseIcon(), "Close the Find bar (Escape); its hits stay on the timeline until the next search", tip, b.Hide)
	for _, bt := range []*widgets.TipButton{b.cancelBtn, b.prevBtn, b.nextBtn, b.exportBtn, closeBtn} {
		bt.Importance = widget.LowImportance
	}
	b.progress = widget.NewProgressBar()
	b.status = widget.NewLabel("")
	b.status.Truncation = fyne.TextTruncateEllipsis
	b.list = widget.NewList(func() int { return len(b.hits) }, func() fyne.CanvasObject {
		lb := widget.NewLabel("")
		lb.Truncation = fyne.TextTruncateEllipsis
		return lb
	}, b.updateRow)
	b.list.OnSelected = func(id widget.ListItemID) {
		if !b.busy {
			b.goTo(id)
		}
	}
	b.cancelBtn.Hide()
	b.progress.Hide()
	row := container.NewBorder(nil, nil, nil,
		container.NewHBox(b.findBtn, b.cancelBtn, b.prevBtn, b.nextBtn, b.exportBtn, closeBtn), b.entry)
	b.root = container.NewVBox(widget.NewSeparator(), row, container.NewStack(b.status, b.progress))
	b.root.Hide()
	title := widget.NewLabelWithStyle("Hits", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.side = container.NewBorder(title, nil, widget.NewSeparator(), nil, container.New(&fixedWidth{w: sideW}, b.list))
	b.side.Hide()
	b.setButtons()
	b.say("Type an expression and press Enter: it is evaluated on every message of the topics whose type has its fields.")
	return b
}

// Content is the bar, hidden until Show.
func (b *Bar) Content() fyne.CanvasObject { return b.root }

// Side is the hits' list, shown with the bar once a search has hits.
func (b *Bar) Side() fyne.CanvasObject { return b.side }

// showSide shows the hits' list while the bar shows and has hits.
func (b *Bar) showSide() {
	if b.root.Visible() && len(b.hits) > 0 {
		b.side.Show()
	} else {
		b.side.Hide()
	}
}

// Show shows the bar and gives its entry the keyboard.
func (b *Bar) Show() {
	b.root.Show()
	b.showSide()
	if c := fyne.CurrentApp().Driver().CanvasForObject(b.entry); c != nil {
		c.Focus(b.entry)
	} else if b.win != nil {
		b.win.Canvas().Focus(b.entry)
	}
}

// Hide closes the bar; a running search goes on, and its hits stay on
// the timeline.
func (b *Bar) Hide() {
	if !b.root.Visible() {
		return
	}
	b.root.Hide()
	b.showSide()
	if c := fyne.CurrentApp().Driver().CanvasForObject(b.entry); c != nil && c.Focused() == b.entry {
		c.Unfocus()
	}
	if b.OnHide != nil {
		b.OnHide()
	}
}

// Shown says whether the bar shows.
func (b *Bar) Shown() bool { return b.root.Visible() }

// Entry is the expression's entry.
func (b *Bar) Entry() fyne.Focusable { return b.entry }

// Hits returns the last search's hits, by time.
func (b *Bar) Hits() []query.Hit { return b.hits }

// Current returns the index of the hit the time was stepped to, or -1.
func (b *Bar) Current() int { return b.cur }

// Running says whether a search runs.
func (b *Bar) Running() bool { return b.running }

// Status returns what the bar says.
func (b *Bar) Status() string { return b.said }

// say sets the status line.
func (b *Bar) say(s string) {
	b.said = s
	b.status.SetText(s)
}

// tip shows a button's tip in the status line, or what the bar said.
func (b *Bar) tip(s string) {
	if s == "" {
		s = b.said
	}
	b.status.SetText(s)
}

// check compiles the entry's text as the user types, saying where a
// mistake is and what the topics it would search are.
func (b *Bar) check(text string) {
	if b.running {
		return
	}
	text = strings.TrimSpace(text)
	if text == "" {
		b.valid = false
		b.setButtons()
		b.status.Importance = widget.MediumImportance
		b.say("Type an expression and press Enter.")
		return
	}
	var cache rosmsg.Cache
	c, err := query.Compile(b.l.Doc().Storage, &cache, text, bag.MessageFilter{})
	b.valid = err == nil
	b.setButtons()
	if err != nil {
		b.status.Importance = widget.DangerImportance
		b.say(ErrorText(text, err))
		return
	}
	b.status.Importance = widget.MediumImportance
	link.SortTopics(b.l.Doc(), c.Topics) // by recording, as the Topics tab
	b.say(fmt.Sprintf("Enter searches %s: %s", human.Plural(uint64(len(c.Topics)), "topic"), strings.Join(c.Topics, ", ")))
}

// showError says what is wrong with the expression: its column, the
// message and the fields it suggests, in the error colour, and puts the
// entry's cursor there.
func (b *Bar) showError(text string, err error) {
	b.status.Importance = widget.DangerImportance
	b.say(ErrorText(text, err))
	var xe *expr.Error
	if errors.As(err, &xe) {
		b.entry.CursorColumn = xe.Column(text) - 1
		b.entry.Refresh()
	}
}

// ErrorText says what is wrong with an expression as the bar shows it
// (widgets.ExprErrorText).
func ErrorText(text string, err error) string { return widgets.ExprErrorText(text, err) }

// setButtons enables what can be done now.
func (b *Bar) setButtons() {
	enable := func(bt *widgets.TipButton, ok bool) {
		if ok {
			bt.Enable()
		} else {
			bt.Disable()
		}
	}
	enable(b.findBtn, !b.running && b.valid)
	enable(b.prevBtn, len(b.hits) > 0)
	enable(b.nextBtn, len(b.hits) > 0)
	enable(b.exportBtn, len(b.hits) > 0)
	if b.running {
		b.cancelBtn.Show()
		b.progress.Show()
		b.status.Hide()
	} else {
		b.cancelBtn.Hide()
		b.progress.Hide()
		b.status.Show()
	}
}

// EntryText is the expression in the entry.
func (b *Bar) EntryText() string { return b.entry.Text }

// SearchFor shows the bar with text in its entry and searches for it (the
// window's --find).
func (b *Bar) SearchFor(text string) {
	b.Show()
	b.entry.SetText(text)
	b.Search(text)
}

// Search runs the expression on every message in the background,
// replacing the hits when it ends (or is cancelled: the hits so far).
func (b *Bar) Search(text string) {
	text = strings.TrimSpace(text)
	if text == "" || b.running {
		return
	}
	ctx, cancel := context.WithCancel(b.l.Context())
	b.cancel = cancel
	b.gen++
	gen := b.gen
	b.running = true
	b.progress.SetValue(0)
	b.setButtons()
	var (
		mu     sync.Mutex
		res    *query.Result
		err    error
		last   time.Time
		shown  float64
		pushed bool
	)
	progress := func(done, total int64) {
		if total <= 0 {
			return
		}
		mu.Lock()
		f := min(1, float64(done)/float64(total))
		now := time.Now()
		if now.Sub(last) < 50*time.Millisecond && f < 1 || pushed {
			mu.Unlock()
			return
		}
		last, shown, pushed = now, f, true
		mu.Unlock()
		fyne.Do(func() {
			mu.Lock()
			v := shown
			pushed = false
			mu.Unlock()
			if b.gen == gen {
				b.progress.SetValue(v)
			}
		})
	}
	s := b.l.Doc().Storage
	b.l.Go(func(context.Context) {
		r, e := query.Find(ctx, s, text, bag.MessageFilter{}, query.Options{MaxHits: MaxHits, Progress: progress})
		mu.Lock()
		res, err = r, e
		mu.Unlock()
	}, func() {
		cancel()
		mu.Lock()
		r, e := res, err
		mu.Unlock()
		if gen == b.gen {
			b.done(text, r, e)
		}
	})
}

// Cancel stops the running search.
func (b *Bar) Cancel() {
	if b.cancel != nil {
		b.cancel()
	}
}

// done shows a search's end: its hits on the timeline and in the list,
// and what it searched, missed or could not read.
func (b *Bar) done(text string, res *query.Result, err error) {
	b.running = false
	b.cancel = nil
	defer b.setButtons()
	if res == nil {
		if err != nil {
			b.showError(text, err)
		}
		return
	}
	if res.Compiled != nil {
		link.SortTopics(b.l.Doc(), res.Compiled.Topics) // by recording, as the Topics tab
	}
	b.hits, b.expr, b.cur = res.Hits, text, -1
	marks := make([]link.Mark, len(res.Hits))
	for i, h := range res.Hits {
		marks[i] = link.Mark{Kind: link.Hit, Topic: h.Topic, T: h.Time.Nanos()}
	}
	b.l.SetMarks(link.Hit, marks)
	b.busy = true
	b.list.UnselectAll()
	b.busy = false
	b.list.Refresh()
	b.list.ScrollToTop()
	b.showSide()
	b.status.Importance = widget.MediumImportance
	b.say(Summary(res, err))
}

// Summary says what a search found, searched and missed, as the bar's
// status line says it.
func Summary(res *query.Result, err error) string {
	var parts []string
	n := uint64(len(res.Hits)) + uint64(res.Dropped)
	head := fmt.Sprintf("%s in %s", human.Plural(n, "hit"), human.Plural(uint64(res.Messages), "message"))
	if c := res.Compiled; c != nil {
		head += " of " + strings.Join(c.Topics, ", ")
	}
	if errors.Is(err, context.Canceled) {
		head = "Cancelled: " + head + " searched so far"
	} else if err != nil {
		head += "; the search stopped: " + err.Error()
	}
	parts = append(parts, head)
	if res.Dropped > 0 {
		parts = append(parts, fmt.Sprintf("%s of them are kept (bagscope find --max-hits lists more)", human.Count(uint64(len(res.Hits)))))
	}
	if c := res.Compiled; c != nil && len(c.Unread) > 0 {
		topics := map[string]bool{}
		for _, u := range c.Unread {
			if !slices.Contains(c.Topics, u.Topic) {
				topics[u.Topic] = true
			}
		}
		if len(topics) > 0 {
			parts = append(parts, fmt.Sprintf("%s not searched (their types lack the fields)", human.Plural(uint64(len(topics)), "other topic")))
		}
	}
	if res.Failed > 0 {
		f := res.First[0]
		parts = append(parts, fmt.Sprintf("%s could not be evaluated (the first on %s: %v)", human.Plural(uint64(res.Failed), "message"), f.Topic, f.Err))
	}
	if len(res.Skipped) > 0 {
		parts = append(parts, fmt.Sprintf("%s of the file could not be read (%s lost)", human.Plural(uint64(len(res.Skipped)), "range"), human.Plural(res.LostMessages, "message")))
	}
	if n > 0 && err == nil {
		parts = append(parts, "F3 and Shift+F3 step through them")
	}
	return strings.Join(parts, "; ") + "."
}

// Step moves the window's time to the next (+1) or previous (-1) hit:
// from the hit it was last moved to while the time is still there, else
// from the current time; past the last hit it wraps to the first.
func (b *Bar) Step(delta int) {
	n := len(b.hits)
	if n == 0 {
		return
	}
	t, hasT := b.l.Cursor()
	var i int
	switch {
	case b.cur >= 0 && b.cur < n && hasT && b.hits[b.cur].Time.Nanos() == t:
		i = b.cur + delta
	case delta > 0:
		i = sort.Search(n, func(k int) bool { return b.hits[k].Time.Nanos() > t })
		if !hasT {
			i = 0
		}
	default:
		i = sort.Search(n, func(k int) bool { return b.hits[k].Time.Nanos() >= t }) - 1
		if !hasT {
			i = n - 1
		}
	}
	wrapped := i < 0 || i >= n
	i = (i%n + n) % n
	b.goTo(i)
	if wrapped {
		b.say(fmt.Sprintf("Hit %d of %d (wrapped around).", i+1, n))
	}
}

// goTo moves the window's time to hit i and selects its message.
func (b *Bar) goTo(i int) {
	if i < 0 || i >= len(b.hits) {
		return
	}
	b.cur = i
	h := b.hits[i]
	b.busy = true
	b.list.Select(i)
	b.list.ScrollTo(i)
	b.busy = false
	b.say(fmt.Sprintf("Hit %d of %d: %s at %s.", i+1, len(b.hits), h.Topic, human.RelTime(h.Time.Nanos()-b.start.Nanos())))
	ref := Ref(h)
	b.l.SelectMessage(ref)
	if t, ok := b.l.Cursor(); !ok || t != ref.T {
		// The message was selected already (the one at the start): the
		// time still moves to it.
		b.l.MoveCursor(ref.T)
	}
}

// Ref is the message address of a hit.
func Ref(h query.Hit) msgref.Ref {
	return msgref.Ref{T: h.Time.Nanos(), Loc: msgref.Loc{ChunkPos: h.Loc.Block, Offset: h.Loc.Offset, Conn: h.Conn}}
}

// RowText is hit i's line in the list: its time from the start, topic
// and the values the expression read, as `bagscope find` prints them.
func (b *Bar) RowText(i int) string { return rowText(b.hits[i], b.start) }

func rowText(h query.Hit, start bag.Time) string {
	var sb strings.Builder
	sb.WriteString(human.RelTime(h.Time.Nanos() - start.Nanos()))
	sb.WriteString("  ")
	sb.WriteString(h.Topic)
	for _, v := range h.Values {
		sb.WriteString("  ")
		sb.WriteString(v.Name)
		sb.WriteByte('=')
		sb.Write(v.AppendText(nil))
	}
	return sb.String()
}

func (b *Bar) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	lb := o.(*widget.Label)
	if id < 0 || id >= len(b.hits) {
		lb.SetText("")
		return
	}
	lb.SetText(rowText(b.hits[id], b.start))
}

// WriteCSV writes the hits as `bagscope find --csv` does.
func (b *Bar) WriteCSV(w io.Writer) error { return query.WriteHitsCSV(w, b.hits, b.start) }

// fixedWidth lays its objects out w wide, at the full height.
type fixedWidth struct{ w float32 }

func (f *fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(fyne.NewSize(f.w, size.Height))
	}
}

func (f *fixedWidth) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(f.w, 0) }
