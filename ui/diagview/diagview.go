// Package diagview is the Diagnostics tab: the statuses of the
// recording's diagnostic_msgs/DiagnosticArray topics (model/diag) at the
// current time, as a table (level OK/WARN/ERROR/STALE in its colour, name,
// hardware_id, message, age; the worst first) with the selected status's
// key/values beside it; filters by level and name; and buttons and keys ([ and ]) that move
// the current time to the previous or next change of any status's level.
// Each status's level over time is a state lane on the timeline
// (link.SetStateLanes).
//
// The levels over time are read once, in the background, when the window
// opens, with each status's per-bucket index; the table is read again,
// only from the time buckets holding each status's latest report
// (diag.History.ReadRanges), each time the current time moves while the
// tab shows, the newest move winning.
package diagview

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// AppendTab appends the Diagnostics tab to tabs when the recording has a
// diagnostics topic.
func AppendTab(tabs *container.AppTabs, l link.Link) {
	if it := Tab(l); it != nil {
		tabs.Append(it)
	}
}

// Group is the name of the view's state lanes on the timeline.
const Group = "Diagnostics"

// Tab is the Diagnostics tab, or nil when the recording has no
// diagnostics topic.
func Tab(l link.Link) *container.TabItem {
	if len(diag.Connections(l.Doc().Storage)) == 0 {
		return nil
	}
	return container.NewTabItemWithIcon("Diagnostics", theme.WarningIcon(), New(l).Content())
}

// The table's columns.
const (
	colLevel = iota
	colName
	colHW
	colMessage
	colAge
	nCols
)

var colTitles = [nCols]string{"Level", "Name", "Hardware ID", "Message", "Updated"}
var colWidths = [nCols]float32{72, 190, 100, 210, 110}

// View shows the diagnostics at the current time.
type View struct {
	l       link.Link
	content fyne.CanvasObject
	title   *widget.Label
	status  *widget.Label
	stop    *widgets.TipButton
	prev    *widgets.TipButton
	next    *widgets.TipButton
	levels  map[diag.Level]*widget.Check
	name    *widget.Entry
	table   *StatusTable
	detail  *widget.Label

	hist   *diag.History
	lanes  []model.StateLane
	tab    *diag.Table
	rows   []diag.Status
	filter diag.Filter
	// sel is the selected status, kept as the time moves.
	sel    diag.Key
	hasSel bool
	// userSel says the user picked it: until then it is the first row.
	userSel bool
	busy    bool // the table is being told to select: not the user

	// stale says the time moved while the tab was hidden (or nothing was
	// read yet); reads reads the table at the newest time moved to.
	stale  bool
	reads  *link.Latest
	cancel context.CancelFunc

	// OnRead, for tests, is called on the UI goroutine after each table
	// is shown.
	OnRead func()
}

// New builds the Diagnostics view of l's recording and starts reading the
// statuses' levels over time.
func New(l link.Link) *View {
	v := &View{l: l, levels: map[diag.Level]*widget.Check{}, stale: true}
	v.reads = link.NewLatest(v.readTable)
	v.title = widget.NewLabelWithStyle("Reading the diagnostics…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	say := v.say
	v.stop = widgets.NewTipButton("Stop", theme.CancelIcon(), "Stop reading the diagnostics", say, func() {
		if v.cancel != nil {
			v.cancel()
		}
	})
	v.prev = widgets.NewTipButton("Previous change", theme.MediaSkipPreviousIcon(), "Move the current time to the previous change of any status's level ([ in the table)", say, func() { v.Step(false) })
	v.next = widgets.NewTipButton("Next change", theme.MediaSkipNextIcon(), "Move the current time to the next change of any status's level (] in the table)", say, func() { v.Step(true) })
	v.prev.Disable()
	v.next.Disable()
	var checks []fyne.CanvasObject
	for lv := diag.OK; lv <= diag.Stale; lv++ {
		c := widget.NewCheck(lv.String(), func(bool) { v.refilter() })
		c.Checked = true
		v.levels[lv] = c
		checks = append(checks, c)
	}
	v.name = widget.NewEntry()
	v.name.SetPlaceHolder("Filter by name (any part, any case)")
	v.name.OnChanged = func(string) { v.refilter() }

	v.table = newStatusTable(v)
	v.detail = widget.NewLabelWithStyle("Select a status for its key/values.", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	v.detail.Wrapping = fyne.TextWrapWord
	split := container.NewHSplit(v.table, container.NewVScroll(v.detail))
	split.Offset = 0.7
	bar := container.NewBorder(nil, nil,
		container.NewHBox(append(append([]fyne.CanvasObject{}, checks...), widget.NewSeparator())...),
		container.NewHBox(v.prev, v.next, v.stop), v.name)
	v.content = container.NewBorder(container.NewVBox(v.title, bar), v.status, nil, nil, split)

	l.OnCursor(func(t int64) {
		if !v.content.Visible() {
			v.stale = true
			return
		}
		v.readAt(t)
	})
	l.OnShown(v.content, func() {
		if v.stale {
			v.readAt(v.now())
		}
	})
	v.readHistory()
	return v
}

// Content is the view's content.
func (v *View) Content() fyne.CanvasObject { return v.content }

// Table is the table shown (nil before the first read ends); Rows its rows
// that pass the filter, in order.
func (v *View) Table() *diag.Table  { return v.tab }
func (v *View) Rows() []diag.Status { return v.rows }

// History is the statuses' levels over time (nil until read).
func (v *View) History() *diag.History { return v.hist }

// SetFilter sets the level and name filters.
func (v *View) SetFilter(levels []diag.Level, name string) {
	for lv, c := range v.levels {
		c.Checked = len(levels) == 0
		for _, want := range levels {
			if want == lv {
				c.Checked = true
			}
		}
		c.Refresh()
	}
	v.name.SetText(name) // refilters
	v.refilter()
}

func (v *View) say(s string) { v.status.SetText(s) }

// now is the current time, or the recording's start before there is one.
func (v *View) now() int64 {
	if t, ok := v.l.Cursor(); ok {
		return t
	}
	return v.l.Doc().Summary.Start.Nanos()
}

// readHistory reads every status's levels over time in the background,
// with progress and a Stop button, then puts the lanes on the timeline.
func (v *View) readHistory() {
	ctx, cancel := context.WithCancel(v.l.Context())
	v.cancel = cancel
	st := v.l.Doc().Storage
	var (
		mu   sync.Mutex
		h    *diag.History
		err  error
		last int
	)
	progress := func(done, total int64) {
		if total <= 0 {
			return
		}
		pct := int(100 * done / total)
		mu.Lock()
		changed := pct != last
		last = pct
		mu.Unlock()
		if changed {
			fyne.Do(func() {
				v.title.SetText(fmt.Sprintf("Reading the diagnostics… %d%% of %s", pct, human.Plural(uint64(total), "message")))
			})
		}
	}
	v.l.Go(func(context.Context) {
		hh, e := diag.ReadHistory(ctx, st, diag.Options{Progress: progress})
		mu.Lock()
		h, err = hh, e
		mu.Unlock()
	}, func() {
		cancel()
		v.stop.Hide()
		mu.Lock()
		hh, e := h, err
		mu.Unlock()
		v.showHistory(hh, e)
	})
}

// showHistory puts the levels over time on the timeline and reads the
// table at the current time.
func (v *View) showHistory(h *diag.History, err error) {
	if h == nil {
		v.title.SetText("Cannot read the diagnostics: " + errText(err))
		return
	}
	v.hist = h
	v.lanes = h.Lanes()
	v.l.SetStateLanes(Group, v.lanes)
	v.prev.Enable()
	v.next.Enable()
	if err != nil {
		v.say("The read of the levels over time stopped: " + errText(err) + " (the timeline's lanes show what was read)")
	} else if h.Undecodable > 0 {
		v.say(fmt.Sprintf("%s could not be decoded (the first: %s)", human.Plural(uint64(h.Undecodable), "diagnostics message"), h.First))
	}
	v.stale = true
	if v.content.Visible() {
		v.readAt(v.now())
	}
}

// readAt reads the table at receive time t in the background. While a
// read runs, later moves are folded into one read after it.
func (v *View) readAt(t int64) {
	v.stale = false
	v.reads.At(t)
}

// tableRead is a table read at a time, with the error that stopped it.
type tableRead struct {
	tab *diag.Table
	err error
}

// readTable starts a read of the table at t: from the window before t
// that the history bounds, once it is read.
func (v *View) readTable(t int64, finish func(apply func())) {
	st, h := v.l.Doc().Storage, v.hist
	var mu sync.Mutex
	var res tableRead
	v.l.Go(func(ctx context.Context) {
		tb, e := diag.TableAt(ctx, st, h, bag.TimeFromNanos(t), diag.Options{})
		mu.Lock()
		res = tableRead{tb, e}
		mu.Unlock()
	}, func() {
		mu.Lock()
		r := res
		mu.Unlock()
		finish(func() { v.show(r.tab, r.err, t) })
	})
}

// show puts table tb (read at t) on screen.
func (v *View) show(tb *diag.Table, err error, t int64) {
	if tb == nil {
		v.title.SetText("Cannot read the diagnostics: " + errText(err))
		return
	}
	v.tab = tb
	v.refilter()
	start := v.l.Doc().Summary.Start.Nanos()
	counts := tb.Counts()
	var parts []string
	for lv := diag.OK; lv <= diag.Stale; lv++ {
		if counts[lv] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[lv], lv))
		}
	}
	other := len(tb.Rows)
	for lv := diag.OK; lv <= diag.Stale; lv++ {
		other -= counts[lv]
	}
	if other > 0 {
		parts = append(parts, fmt.Sprintf("%d of other levels", other))
	}
	title := fmt.Sprintf("Diagnostics at %s: %d %s", human.RelTime(t-start), len(tb.Rows), plural(len(tb.Rows), "status", "statuses"))
	if len(parts) > 0 {
		title += " (" + strings.Join(parts, ", ") + ")"
	}
	if v.hist != nil {
		if later := len(v.hist.Tracks) - len(tb.Rows); later > 0 {
			title += fmt.Sprintf("; %d first reported later", later)
		}
		if len(tb.Rows) == 0 {
			first := int64(-1)
			for _, tr := range v.hist.Tracks {
				if first < 0 || tr.First < first {
					first = tr.First
				}
			}
			if first >= 0 {
				title = fmt.Sprintf("Diagnostics at %s: no status reported yet; the first report comes at %s (Next change goes there)", human.RelTime(t-start), human.RelTime(first-start))
			} else {
				title = "The diagnostics topics hold no status"
			}
		}
	}
	if err != nil {
		title += " (the read stopped: " + errText(err) + ")"
	}
	if tb.Undecodable > 0 {
		title += fmt.Sprintf("; %d messages could not be decoded", tb.Undecodable)
	}
	v.title.SetText(title)
	if v.OnRead != nil {
		v.OnRead()
	}
}

// refilter applies the filters to the table and keeps the selection.
func (v *View) refilter() {
	if v.detail == nil {
		return // still being built
	}
	v.filter = diag.Filter{Name: strings.TrimSpace(v.name.Text)}
	all := true
	for lv, c := range v.levels {
		if c.Checked {
			if v.filter.Levels == nil {
				v.filter.Levels = map[diag.Level]bool{}
			}
			v.filter.Levels[lv] = true
		} else {
			all = false
		}
	}
	if all {
		v.filter.Levels = nil // every level, and those no name has
	} else if v.filter.Levels == nil {
		v.filter.Levels = map[diag.Level]bool{255: false} // none checked: nothing passes
	}
	v.rows = nil
	if v.tab != nil {
		v.rows = v.tab.Filtered(v.filter)
	}
	// The worst first (ERROR, WARN, STALE, OK), then by name, as the
	// timeline colours them; until the user picks one, the first is
	// selected, so its key/values show.
	sort.SliceStable(v.rows, func(i, j int) bool {
		a, b := v.rows[i].Level.Tone(), v.rows[j].Level.Tone()
		if a != b {
			return a > b
		}
		return false
	})
	if !v.userSel && len(v.rows) > 0 {
		v.sel, v.hasSel = v.rows[0].Key(), true
	}
	v.table.Refresh()
	v.busy = true
	v.table.UnselectAll()
	if i := v.selectedRow(); i >= 0 {
		v.table.Select(widget.TableCellID{Row: i, Col: colName})
	}
	v.busy = false
	v.showDetail()
	if v.tab != nil && len(v.rows) == 0 && len(v.tab.Rows) > 0 {
		v.say(fmt.Sprintf("No status passes the filter (%d at this time): check a level or clear the name", len(v.tab.Rows)))
	}
}

// selectedRow is the row of the selected status, or -1.
func (v *View) selectedRow() int {
	if !v.hasSel {
		return -1
	}
	for i := range v.rows {
		if v.rows[i].Key() == v.sel {
			return i
		}
	}
	return -1
}

// Select selects row i's status.
func (v *View) Select(i int) {
	if v.busy || i < 0 || i >= len(v.rows) {
		return
	}
	v.sel, v.hasSel, v.userSel = v.rows[i].Key(), true, true
	v.showDetail()
}

// Detail is the detail pane's text.
func (v *View) Detail() string { return v.detail.Text }

// showDetail shows the selected status: where it comes from and its
// key/values.
func (v *View) showDetail() {
	i := v.selectedRow()
	if i < 0 {
		v.detail.SetText("Select a status for its key/values.")
		return
	}
	s := &v.rows[i]
	var b strings.Builder
	start := v.l.Doc().Summary.Start.Nanos()
	fmt.Fprintf(&b, "%s\n%s: %s\n", s.Name, s.Level, s.Message)
	if s.HardwareID != "" {
		fmt.Fprintf(&b, "hardware_id: %s\n", s.HardwareID)
	}
	fmt.Fprintf(&b, "on %s, received %s", s.Topic, human.RelTime(s.Received.Nanos()-start))
	if !s.Stamp.IsZero() {
		fmt.Fprintf(&b, ", stamped %s", human.RelTime(s.Stamp.Nanos()-start))
	}
	b.WriteString("\n")
	if s.Suspect != "" {
		fmt.Fprintf(&b, "From a damaged unit: %s\n", s.Suspect)
	}
	if len(s.Values) == 0 {
		b.WriteString("\nNo key/values.")
	} else {
		w := 0
		for _, kv := range s.Values {
			w = max(w, len([]rune(kv.Key)))
		}
		fmt.Fprintf(&b, "\n%d key/values:\n", len(s.Values))
		for _, kv := range s.Values {
			fmt.Fprintf(&b, "%-*s  %s\n", w, kv.Key, kv.Value)
		}
	}
	if v.hist != nil {
		if tr := v.hist.Track(s.Key()); tr != nil {
			fmt.Fprintf(&b, "\n%s in the recording, %s of level", human.Plural(tr.Reports, "report"), human.Plural(uint64(len(tr.Spans)), "span"))
		}
	}
	v.detail.SetText(strings.TrimSuffix(b.String(), "\n"))
}

// Step moves the current time to the next (forward) or previous change of
// any status's level.
func (v *View) Step(forward bool) {
	if v.hist == nil {
		return
	}
	t, ok := model.NextChange(v.lanes, v.now(), forward)
	if !ok || t > v.l.Doc().Summary.End.Nanos() {
		if forward {
			v.say("No change of level after the current time.")
		} else {
			v.say("No change of level before the current time.")
		}
		return
	}
	v.l.SetCursor(t)
	v.say("At " + human.RelTime(t-v.l.Doc().Summary.Start.Nanos()) + ": " + v.changesAt(t))
}

// changesAt says which statuses change level at t.
func (v *View) changesAt(t int64) string {
	var names []string
	for _, tr := range v.hist.Tracks {
		for i, s := range tr.Spans {
			if s.Start == t {
				from := "first report"
				if i > 0 {
					from = tr.Spans[i-1].Level.String()
				}
				names = append(names, fmt.Sprintf("%s %s → %s", v.hist.Title(tr.Key), from, s.Level))
			}
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "a status's last report ends"
	}
	return strings.Join(names, "; ")
}

// cell fills table cell id.
func (v *View) cell(id widget.TableCellID, o fyne.CanvasObject) {
	lb := o.(*widget.Label)
	if id.Row < 0 || id.Row >= len(v.rows) {
		lb.SetText("")
		return
	}
	s := &v.rows[id.Row]
	lb.Importance = widget.MediumImportance
	lb.TextStyle = fyne.TextStyle{}
	var text string
	switch id.Col {
	case colLevel:
		text = s.Level.String()
		lb.Importance = levelImportance(s.Level)
		lb.TextStyle.Bold = true
	case colName:
		text = s.Name
		if v.hist != nil {
			text = v.hist.Title(s.Key())
		}
	case colHW:
		text = s.HardwareID
	case colMessage:
		text = strings.ReplaceAll(s.Message, "\n", " ↵ ")
		if s.Suspect != "" {
			text = "SUSPECT · " + text
			lb.Importance = widget.WarningImportance
		}
	case colAge:
		text = human.Seconds(v.tab.At.Nanos()-s.Received.Nanos(), 1) + " s ago"
		if v.hist != nil {
			if tr := v.hist.Track(s.Key()); tr != nil && tr.Stopped(v.hist.End) && v.tab.At.Nanos() >= tr.Spans[len(tr.Spans)-1].End {
				text += ", stopped"
				lb.Importance = widget.WarningImportance
			}
		}
	}
	lb.SetText(text)
}

// levelImportance colours a level as the timeline's lanes do: OK green,
// WARN amber, ERROR red; STALE (grey on the timeline) in the text's own
// colour, as a dim label would be hard to read.
func levelImportance(l diag.Level) widget.Importance {
	switch l {
	case diag.OK:
		return widget.SuccessImportance
	case diag.Warn:
		return widget.WarningImportance
	case diag.Error:
		return widget.DangerImportance
	}
	return widget.MediumImportance
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
