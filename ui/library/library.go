// Package library is File › Open Library…: a folder of recordings, or a
// catalogue `bagscope catalog` wrote, shown as a table of recordings with
// sortable columns, a filter, health badges and each recording's duration
// as a bar on a calendar timeline the rows share. A double click (or
// Enter) opens a recording in its own window; two selected rows
// (Ctrl+click) can be compared as `bagscope diff` compares them. The rows
// come from model/catalog, which reads a folder's recordings from their
// indexes in the background, with progress and cancel. The Query (SQL)
// tab (ui/library/query) runs SQL as `bagscope sql` runs it over the
// library's catalogue: its own, or one written from the rows read.
package library

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/library/query"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Actions are what the library asks of the app.
type Actions struct {
	// Open opens the recording at path in its own window.
	Open func(path string)
	// OpenLibrary asks for another folder or catalogue (the empty
	// state's button).
	OpenLibrary func()
	// Compare, when set, opens recording a in its own window showing
	// its Diff tab against b (the comparison dialog's button).
	Compare func(a, b string)
}

// Background runs the library's work off the UI goroutine; tests make it
// synchronous.
var Background = func(f func()) { go f() }

// View is one library window's content.
type View struct {
	Content fyne.CanvasObject
	win     fyne.Window
	acts    Actions
	source  string

	rows     *catalog.Table
	selected []string // the selected recordings' paths, in the order picked
	focus    int      // the row the keyboard acts on (-1: none)

	grid     *widget.Table
	filter   *widget.Entry
	status   *widget.Label
	openBtn  *ttwidget.Button
	compare  *ttwidget.Button
	progress *widget.ProgressBar
	cancel   *widget.Button
	busy     *fyne.Container
	empty    *fyne.Container
	emptyMsg *widget.Label
	widths   [numCols]float32
	cols     *fillLast

	// base is the folder the Path column shows paths from: the library's
	// folder, or the folder a catalogue's recordings share.
	base string

	stop context.CancelFunc
	// compared is the last comparison shown.
	compared *Comparison
	// loaded, when set, is called once the rows are shown (tests and
	// --screenshot wait on it).
	loaded func()

	// query is the query box (its tab); qcat the catalogue it reads.
	query *query.View
	qcat  *queryCatalog
	tabs  *container.AppTabs
}

// New builds the library of source (a folder of recordings, or a
// catalogue) in window w and starts reading it.
func New(w fyne.Window, source string, acts Actions, loaded func()) *View {
	v := &View{win: w, acts: acts, source: source, rows: catalog.NewTable(nil), focus: -1, loaded: loaded}
	v.filter = widget.NewEntry()
	v.filter.SetPlaceHolder("Filter by path, format, health or metadata (\"unhealthy\", \"mcap\")…")
	v.filter.ActionItem = widget.NewIcon(theme.SearchIcon())
	v.filter.OnChanged = v.setFilter
	v.filter.OnSubmitted = func(string) { v.openFocused() }
	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	v.openBtn = ttwidget.NewButtonWithIcon("Open", theme.FileIcon(), v.openFocused)
	v.openBtn.SetToolTip("Open the selected recording in its own window (Enter, or double-click a row)")
	v.compare = ttwidget.NewButtonWithIcon("Compare", theme.ViewRefreshIcon(), v.compareSelected)
	v.compare.SetToolTip("Compare the two selected recordings (Ctrl+click selects a second) topic by topic, as bagscope diff does")
	v.progress = widget.NewProgressBar()
	v.cancel = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		if v.stop != nil {
			v.stop()
		}
	})
	v.busy = container.NewBorder(nil, nil, widget.NewLabel("Reading the recordings' indexes…"), v.cancel, v.progress)
	v.busy.Hide()
	v.emptyMsg = widget.NewLabel("")
	v.emptyMsg.Alignment = fyne.TextAlignCenter
	v.emptyMsg.Wrapping = fyne.TextWrapWord
	another := widget.NewButtonWithIcon("Open Library…", theme.FolderOpenIcon(), func() {
		if v.acts.OpenLibrary != nil {
			v.acts.OpenLibrary()
		}
	})
	v.empty = container.NewCenter(widgets.NewCentered(560, container.NewVBox(v.emptyMsg, container.NewCenter(another))))
	v.empty.Hide()

	v.grid = widget.NewTableWithHeaders(
		func() (int, int) { return v.rows.Len(), numCols },
		func() fyne.CanvasObject { return newCell(v) },
		v.updateCell,
	)
	v.grid.ShowHeaderColumn = false
	v.grid.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		b.IconPlacement = widget.ButtonIconTrailingText
		return b
	}
	v.grid.UpdateHeader = v.updateHeader
	v.measure()

	bar := container.NewBorder(nil, nil, nil, container.NewHBox(v.openBtn, v.compare), v.filter)
	v.cols = &fillLast{v: v}
	area := container.NewStack(&fyne.Container{Layout: v.cols, Objects: []fyne.CanvasObject{v.grid}}, v.empty)
	bottom := container.NewVBox(v.busy, v.status)
	v.Content = v.withQuery(container.NewBorder(container.NewPadded(bar), container.NewPadded(bottom), nil, nil, area))
	v.updateButtons()
	v.load()
	return v
}

// Close stops the reading and the query, if any, and removes the
// catalogue written for the query box.
func (v *View) Close() {
	if v.stop != nil {
		v.stop()
	}
	v.query.Cancel()
	v.qcat.remove()
}

// load reads the source's rows in the background: a catalogue's
// recordings table, or each recording of a folder from its index.
func (v *View) load() {
	ctx, stop := context.WithCancel(context.Background())
	v.stop = stop
	v.busy.Show()
	v.status.SetText("Reading " + v.source + "…")
	src := v.source
	Background(func() {
		var recs []catalog.Recording
		var topics []catalog.Topic
		var err error
		if catalog.IsCatalog(src) {
			recs, err = catalog.ReadRecordings(src)
			if err == nil {
				topics, _ = catalog.ReadTopics(src) // the query box's examples
			}
		} else {
			o := catalog.Options{Progress: func(done, total int, _ string) {
				fyne.Do(func() { v.progress.SetValue(float64(done) / float64(max(total, 1))) })
			}}
			recs, topics, _, err = catalog.Collect(ctx, []string{src}, o)
		}
		if err == nil && ctx.Err() == nil {
			v.qcat.set(recs, topics)
		}
		fyne.Do(func() { v.show(recs, err, ctx.Err() != nil) })
	})
}

// show puts the rows read into the table, or says why there are none.
func (v *View) show(recs []catalog.Recording, err error, cancelled bool) {
	v.busy.Hide()
	v.stop = nil
	col, desc := v.rows.SortedBy()
	v.rows = catalog.NewTable(recs)
	v.base = v.source
	if catalog.IsCatalog(v.source) {
		v.base = sharedFolder(recs)
	}
	v.rows.Sort(col, desc)
	v.rows.SetFilter(v.filter.Text)
	v.selected = nil
	v.focus = -1
	switch {
	case cancelled:
		v.emptyMsg.SetText("Cancelled: " + v.source + " was not read. Open it again to read it, or open another folder.")
	case err != nil:
		v.emptyMsg.SetText(fmt.Sprintf("%s could not be read: %v.\nOpen a folder of recordings (ROS 1 bags, MCAP files, rosbag2 folders) or a catalogue that bagscope catalog wrote.", v.source, err))
	default:
		v.emptyMsg.SetText("No recordings in " + v.source + ".\nA library lists the ROS 1 bags, MCAP files and rosbag2 folders under a folder (and its subfolders), or the recordings of a catalogue that bagscope catalog wrote.")
	}
	v.refresh()
	if v.loaded != nil {
		v.loaded()
	}
}

// refresh redraws the table and the status line after the rows change.
func (v *View) refresh() {
	if len(v.rows.All()) == 0 {
		v.empty.Show()
	} else {
		v.empty.Hide()
		if v.rows.Len() == 0 {
			v.emptyMsg.SetText("No recording matches \"" + v.filter.Text + "\". Clear the filter to see all " + human.Plural(uint64(len(v.rows.All())), "recording") + ".")
			v.empty.Show()
		}
	}
	v.measure()
	if v.cols != nil && v.cols.size.Width > 0 {
		v.cols.apply()
	}
	v.grid.Refresh()
	v.updateStatus()
	v.updateButtons()
}

func (v *View) updateStatus() {
	all := v.rows.All()
	var damaged, unread, failed int
	var size int64
	for i := range all {
		size += all[i].Size
		switch catalog.Badge(&all[i]) {
		case catalog.BadgeDamaged:
			damaged++
		case catalog.BadgeUnread:
			unread++
		case catalog.BadgeFailed:
			failed++
		}
	}
	text := fmt.Sprintf("%s, %s", human.Plural(uint64(len(all)), "recording"), human.Size(size))
	if v.rows.Len() != len(all) {
		text = fmt.Sprintf("%d of %s", v.rows.Len(), text)
	}
	text += fmt.Sprintf(": %d damaged, %d not indexed, %d unreadable", damaged, unread, failed)
	switch len(v.selected) {
	case 1:
		text += ". Selected: " + filepath.Base(v.selected[0]) + " (Ctrl+click a second to compare)"
	case 2:
		text += ". Selected: " + filepath.Base(v.selected[0]) + " and " + filepath.Base(v.selected[1])
	}
	v.status.SetText(text + "  —  " + v.source)
}

func (v *View) updateButtons() {
	if v.focusedRow() != nil {
		v.openBtn.Enable()
	} else {
		v.openBtn.Disable()
	}
	if len(v.selected) == 2 {
		v.compare.Enable()
	} else {
		v.compare.Disable()
	}
}

func (v *View) setFilter(text string) {
	v.rows.SetFilter(text)
	v.refresh()
}

// Filter returns the filter box (tests type in it).
func (v *View) Filter() *widget.Entry { return v.filter }

// Rows returns the rows shown, in order.
func (v *View) Rows() *catalog.Table { return v.rows }

// Selected returns the selected recordings' paths.
func (v *View) Selected() []string { return slices.Clone(v.selected) }

// SortBy sorts by col; the same column again reverses the order (as a
// click on its header does).
func (v *View) SortBy(col catalog.Column) {
	cur, desc := v.rows.SortedBy()
	if cur == col {
		desc = !desc
	} else {
		desc = col == catalog.ColStart || col == catalog.ColSize || col == catalog.ColDuration || col == catalog.ColMessages
	}
	v.rows.Sort(col, desc)
	v.refresh()
}

// Tap selects row i as a click does: alone, or (add true: a Ctrl or
// Shift click) added to the selection, or taken out of it when it was
// in. Two at most are kept: the last two picked.
func (v *View) Tap(i int, add bool) {
	if i < 0 || i >= v.rows.Len() {
		return
	}
	p := v.rows.Row(i).Path
	v.focus = i
	switch {
	case !add:
		v.selected = []string{p}
	case slices.Contains(v.selected, p):
		v.selected = slices.DeleteFunc(v.selected, func(s string) bool { return s == p })
	default:
		v.selected = append(v.selected, p)
		if len(v.selected) > 2 {
			v.selected = v.selected[len(v.selected)-2:]
		}
	}
	v.grid.Refresh()
	v.updateStatus()
	v.updateButtons()
}

// OpenRow opens row i's recording (a double click).
func (v *View) OpenRow(i int) {
	if i < 0 || i >= v.rows.Len() || v.acts.Open == nil {
		return
	}
	r := v.rows.Row(i)
	if b := catalog.Badge(r); b == catalog.BadgeFailed {
		v.status.SetText(r.Path + " could not be read: " + r.Error)
		return
	}
	v.acts.Open(r.Path)
}

// TypedKey handles the library's keys: Enter opens the selected row,
// Up and Down move the selection.
func (v *View) TypedKey(ev *fyne.KeyEvent) {
	if v.queryShown() {
		v.query.TypedKey(ev)
		return
	}
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		v.openFocused()
	case fyne.KeyDown:
		v.Tap(min(v.focus+1, v.rows.Len()-1), false)
		v.grid.ScrollTo(widget.TableCellID{Row: v.focus, Col: 0})
	case fyne.KeyUp:
		v.Tap(max(v.focus-1, 0), false)
		v.grid.ScrollTo(widget.TableCellID{Row: v.focus, Col: 0})
	}
}

func (v *View) focusedRow() *catalog.Recording {
	if v.focus < 0 || v.focus >= v.rows.Len() {
		return nil
	}
	return v.rows.Row(v.focus)
}

// openFocused opens the selected row, or the only row the filter leaves.
func (v *View) openFocused() {
	if v.focusedRow() == nil && v.rows.Len() == 1 {
		v.focus = 0
	}
	v.OpenRow(v.focus)
}

// addModifier reports whether a click now adds to the selection (Ctrl,
// Cmd or Shift held).
func addModifier() bool {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()&(fyne.KeyModifierControl|fyne.KeyModifierSuper|fyne.KeyModifierShift) != 0
	}
	return false
}

// rowIndex finds path among the rows shown (-1 when filtered out).
func (v *View) rowIndex(path string) int {
	for i := range v.rows.Len() {
		if v.rows.Row(i).Path == path {
			return i
		}
	}
	return -1
}

// shownName is a recording's path as the library shows it: relative to
// the library's folder (a catalogue's: the one its recordings share) when
// under it.
func (v *View) shownName(path string) string {
	base := v.base
	if base == "" {
		base = v.source
	}
	if rel, err := filepath.Rel(base, path); err == nil && !bag.IsURL(path) && rel != "" && rel[0] != '.' {
		return rel
	}
	if bag.IsURL(path) && bag.IsURL(base) {
		// Below an S3 prefix: the rest of the URL.
		prefix := bag.Shown(base)
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		if rel, ok := strings.CutPrefix(bag.Shown(path), prefix); ok && rel != "" {
			return rel
		}
	}
	return bag.Shown(path)
}

// sharedFolder is the deepest local folder every recording is under ("" when
// none, or for URLs).
func sharedFolder(recs []catalog.Recording) string {
	var base string
	for i, r := range recs {
		if bag.IsURL(r.Path) || !filepath.IsAbs(r.Path) {
			return ""
		}
		d := filepath.Dir(r.Path)
		if i == 0 {
			base = d
			continue
		}
		for base != "/" && base != "." && d != base && !strings.HasPrefix(d, base+string(filepath.Separator)) {
			base = filepath.Dir(base)
		}
	}
	return base
}
