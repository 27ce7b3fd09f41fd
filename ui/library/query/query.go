// Package query is the library window's query box: SQL run as `bagscope
// sql` runs it, over the library's catalogue (the tables recordings and
// topics) and over recordings' messages (messages('PATH', '/topic')).
// The window does not link DuckDB: each query runs in bagscope-sql, the
// helper the command line runs, found the same way (model/sqlhelper);
// Cancel (Esc) kills it. The result shows as a sortable table (the first
// rows; Export CSV… writes them all), with its row count and the time it
// took; DuckDB's errors show as DuckDB words them, with the line and a
// caret under the position. A double click on a row with a path column
// opens that recording.
package query

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/sqlhelper"
)

// Limit is how many rows of a result the table shows.
var Limit = 1000

// ProgressEvery is how often the progress line is updated while a query
// runs; 0 leaves it as it starts (tests: the test driver runs fyne.Do on
// the calling goroutine, which would race with the test's).
var ProgressEvery = 250 * time.Millisecond

// Background runs a query off the UI goroutine; tests make it
// synchronous.
var Background = func(f func()) { go f() }

// Actions are what the query box asks of the library.
type Actions struct {
	// Open opens the recording at path in its own window.
	Open func(path string)
	// Catalog returns the catalogue folder the tables recordings and
	// topics are read from, writing one for a folder the library read.
	// It is called off the UI goroutine.
	Catalog func() (string, error)
	// Sample returns a recording of the library and one of its topics,
	// for the examples ("" when the library is empty).
	Sample func() (path, topic string)
}

// View is the query box and its result.
type View struct {
	Content fyne.CanvasObject
	win     fyne.Window
	acts    Actions

	editor   *Editor
	examples *widget.Select
	runBtn   *ttwidget.Button
	stopBtn  *ttwidget.Button
	copyBtn  *ttwidget.Button
	saveBtn  *ttwidget.Button
	spinner  *widget.ProgressBarInfinite
	progress *widget.Label
	status   *widget.Label
	message  *widget.Label
	msgBox   *fyne.Container
	grid     *widget.Table
	gridBox  *fyne.Container

	res     *sqlhelper.Result
	order   []int // the rows shown, as indices of res.Rows
	sortCol int   // -1: the query's order
	desc    bool

	stop    context.CancelFunc
	running bool
	// done, when set, is called as each run ends (tests wait on it).
	done func()
	// pid is the running helper's process id (0: none).
	pid atomic.Int64
}

// New builds the query box of a library shown in w.
func New(w fyne.Window, acts Actions) *View {
	v := &View{win: w, acts: acts, sortCol: -1}
	v.editor = newEditor(v.Run, v.Cancel)
	v.editor.SetPlaceHolder("SELECT path, duration, messages FROM recordings ORDER BY start\n\n" +
		"Tables: recordings, topics (the library's catalogue); messages('PATH', '/topic') reads a recording's messages.\n" +
		"Ctrl+Enter runs the query, Esc cancels it.")
	v.editor.SetMinRowsVisible(5)
	v.examples = widget.NewSelect(exampleNames(), v.useExample)
	v.examples.PlaceHolder = "Examples…"
	v.runBtn = ttwidget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), v.Run)
	v.runBtn.Importance = widget.HighImportance
	v.runBtn.SetToolTip("Run the query in bagscope-sql (DuckDB), as bagscope sql runs it (Ctrl+Enter)")
	v.stopBtn = ttwidget.NewButtonWithIcon("Cancel", theme.CancelIcon(), v.Cancel)
	v.stopBtn.SetToolTip("Stop the query: its helper process is killed (Esc)")
	v.copyBtn = ttwidget.NewButtonWithIcon("Copy as CSV", theme.ContentCopyIcon(), v.CopyCSV)
	v.copyBtn.SetToolTip("Copy the rows shown, in their order, as CSV with a header line")
	v.saveBtn = ttwidget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), v.exportCSV)
	v.saveBtn.SetToolTip("Run the query again and save every row of its result as CSV (bagscope sql --csv)")
	v.spinner = widget.NewProgressBarInfinite()
	v.spinner.Stop()
	v.spinner.Hide()
	v.progress = widget.NewLabel("")
	v.progress.Hide()
	v.status = widget.NewLabel("")
	v.status.Truncation = fyne.TextTruncateEllipsis
	v.message = widget.NewLabel("")
	v.message.TextStyle = fyne.TextStyle{Monospace: true}
	v.message.Wrapping = fyne.TextWrapWord
	v.msgBox = container.NewPadded(container.NewVScroll(v.message))

	v.grid = widget.NewTableWithHeaders(
		func() (int, int) {
			if v.res == nil {
				return 0, 0
			}
			return len(v.order), len(v.res.Columns)
		},
		func() fyne.CanvasObject { return newCell(v) },
		func(id widget.TableCellID, o fyne.CanvasObject) { o.(*cell).set(id) },
	)
	v.grid.ShowHeaderColumn = false
	v.grid.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		b.IconPlacement = widget.ButtonIconTrailingText
		b.Alignment = widget.ButtonAlignLeading
		return b
	}
	v.grid.UpdateHeader = v.updateHeader
	v.gridBox = container.NewStack(v.grid)
	v.gridBox.Hide()

	bar := container.NewBorder(nil, nil, container.NewHBox(v.runBtn, v.stopBtn, v.examples), container.NewHBox(v.copyBtn, v.saveBtn))
	top := container.NewBorder(nil, bar, nil, nil, v.editor)
	line := container.NewBorder(nil, nil, nil, nil, container.NewStack(v.spinner, v.progress))
	bottom := container.NewVBox(line, v.status)
	results := container.NewBorder(nil, bottom, nil, nil, container.NewStack(v.gridBox, v.msgBox))
	split := container.NewVSplit(container.NewPadded(top), results)
	split.SetOffset(0.3)
	v.Content = split
	v.idle()
	if _, err := sqlhelper.Find(); err != nil {
		v.say(missingHelper(err))
	} else {
		v.say("Type a query above and press Ctrl+Enter, or pick one of the Examples.\n\n" +
			"recordings: one row per recording (path, format, size, start, end, duration, messages, health, metadata…)\n" +
			"topics: one row per topic of each recording (path, topic, type, messages, rate, interval_median, gaps, longest_gap, bytes, qos…)\n" +
			"messages('PATH', '/topic'): a recording's messages (log_time, publish_time, then each field: \"pose.position.x\")")
	}
	return v
}

// missingHelper says the helper is missing and how to get it.
func missingHelper(err error) string {
	return "The query box runs bagscope-sql, the helper that runs DuckDB for bagscope sql, and it is missing:\n" +
		err.Error() + "\n\n" +
		"make build builds it beside bagscope and bagscope-gui; $BAGSCOPE_SQL may name it elsewhere."
}

// Editor returns the query's entry (tests type in it).
func (v *View) Editor() *Editor { return v.editor }

// Result returns the result shown (nil: none).
func (v *View) Result() *sqlhelper.Result { return v.res }

// Message returns the text shown in place of a result (an error, the
// hint), "" when a result is shown.
func (v *View) Message() string {
	if v.msgBox.Visible() {
		return v.message.Text
	}
	return ""
}

// Status returns the line under the result (its rows and time).
func (v *View) Status() string { return v.status.Text }

// Running reports whether a query runs.
func (v *View) Running() bool { return v.running }

// PID is the process id of the helper running the query (0: none).
func (v *View) PID() int { return int(v.pid.Load()) }

// OnDone sets a function called as each run ends (tests wait on it).
func (v *View) OnDone(f func()) { v.done = f }

// Shown returns the cells of the rows shown, in the table's order.
func (v *View) Shown() [][]sqlhelper.Cell {
	if v.res == nil {
		return nil
	}
	out := make([][]sqlhelper.Cell, len(v.order))
	for i, r := range v.order {
		out[i] = v.res.Rows[r]
	}
	return out
}

// say shows text in place of a result.
func (v *View) say(text string) {
	v.message.SetText(text)
	v.gridBox.Hide()
	v.msgBox.Show()
}

// idle sets the buttons for no query running.
func (v *View) idle() {
	v.running = false
	v.stop = nil
	v.spinner.Stop()
	v.spinner.Hide()
	v.progress.Hide()
	v.stopBtn.Disable()
	v.runBtn.Enable()
	if v.res != nil && len(v.res.Rows) > 0 {
		v.copyBtn.Enable()
	} else {
		v.copyBtn.Disable()
	}
	if v.res != nil {
		v.saveBtn.Enable()
	} else {
		v.saveBtn.Disable()
	}
}

// busy sets the buttons and the progress line for a run.
func (v *View) busy(what string) context.Context {
	ctx, stop := context.WithCancel(context.Background())
	v.stop = stop
	v.running = true
	v.runBtn.Disable()
	v.copyBtn.Disable()
	v.saveBtn.Disable()
	v.stopBtn.Enable()
	v.spinner.Show()
	v.spinner.Start()
	v.progress.SetText(what)
	v.progress.Show()
	return ctx
}

// request is the query of the box, over the library's catalogue.
func (v *View) request() (sqlhelper.Request, string, error) {
	req := sqlhelper.Request{Query: strings.TrimSpace(v.editor.Text), Limit: Limit}
	bin, err := sqlhelper.Find()
	if err != nil {
		return req, "", fmt.Errorf("%s", missingHelper(err))
	}
	return req, bin, nil
}

// Run runs the query in the box (Ctrl+Enter).
func (v *View) Run() {
	if v.running {
		return
	}
	req, bin, err := v.request()
	if req.Query == "" {
		v.say("Type a query first: SELECT * FROM recordings, or pick one of the Examples.")
		return
	}
	if err != nil {
		v.say(err.Error())
		return
	}
	ctx := v.busy("Running the query…")
	start := time.Now()
	var rows atomic.Int64
	ticking := make(chan struct{})
	if every := ProgressEvery; every > 0 {
		go v.tick(every, ticking, start, &rows)
	}
	Background(func() {
		var res *sqlhelper.Result
		cat := ""
		var err error
		if v.acts.Catalog != nil && usesCatalog(req.Query) {
			cat, err = v.acts.Catalog()
		}
		if err == nil {
			req.Catalog = cat
			req.Started = func(pid int) { v.pid.Store(int64(pid)) }
			res, err = sqlhelper.Run(ctx, bin, req, func(n int) { rows.Store(int64(n)) })
		}
		v.pid.Store(0)
		close(ticking)
		cancelled := ctx.Err() != nil
		fyne.Do(func() { v.finish(res, err, cancelled) })
	})
}

// tick updates the progress line every so often until stop is closed.
func (v *View) tick(every time.Duration, stop chan struct{}, start time.Time, rows *atomic.Int64) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			n, took := rows.Load(), time.Since(start)
			fyne.Do(func() {
				if v.running {
					v.progress.SetText(fmt.Sprintf("Running the query… %.1f s, %s so far (Esc cancels)", took.Seconds(), human.Plural(uint64(n), "row")))
				}
			})
		}
	}
}

// usesCatalog reports whether a query may name the catalogue's tables
// (a query of messages() alone needs none written).
func usesCatalog(q string) bool {
	l := strings.ToLower(q)
	return strings.Contains(l, "recordings") || strings.Contains(l, "topics")
}

// finish shows a run's result, or why there is none.
func (v *View) finish(res *sqlhelper.Result, err error, cancelled bool) {
	switch {
	case cancelled:
		v.idle()
		v.status.SetText("Cancelled: the query was stopped (its helper killed).")
	case err != nil:
		v.res = nil
		v.idle()
		v.status.SetText("The query failed.")
		v.say(err.Error())
		if row, col, ok := errorAt(v.editor.Text, err.Error()); ok {
			v.editor.CursorRow, v.editor.CursorColumn = row, col
			v.editor.Refresh()
			v.status.SetText(fmt.Sprintf("The query failed at line %d, column %d (the cursor is there).", row+1, col+1))
		}
	default:
		v.res = res
		v.order = make([]int, len(res.Rows))
		for i := range v.order {
			v.order[i] = i
		}
		v.sortCol, v.desc = -1, false
		v.idle()
		v.measure()
		v.msgBox.Hide()
		v.gridBox.Show()
		v.grid.UnselectAll()
		v.grid.ScrollToTop()
		v.grid.Refresh()
		v.status.SetText(summary(res))
		if len(res.Columns) == 0 {
			v.say("The statement ran (it returns no columns). " + summary(res))
		}
	}
	if v.done != nil {
		v.done()
	}
}

// summary is the status line of a result.
func summary(res *sqlhelper.Result) string {
	took := fmt.Sprintf("%.2f s", res.Took.Seconds())
	var s string
	switch {
	case len(res.Rows) < res.Total:
		s = fmt.Sprintf("First %s of %s shown, %s. More rows: Export CSV… writes them all.", human.Count(uint64(len(res.Rows))), human.Plural(uint64(res.Total), "row"), took)
	default:
		s = fmt.Sprintf("%s, %s", human.Plural(uint64(res.Total), "row"), took)
	}
	if p := pathCol(res); p >= 0 {
		s += ". Double-click a row to open its recording"
	}
	if len(res.Lost) > 0 {
		s += ". ⚠ " + strings.Join(res.Lost, "; ")
	}
	return s
}

// pathCol is the result's column of recording paths (-1: none).
func pathCol(res *sqlhelper.Result) int {
	if res == nil {
		return -1
	}
	return res.Column("path")
}

// Cancel stops the query running (Esc): its helper is killed.
func (v *View) Cancel() {
	if v.stop != nil {
		v.progress.SetText("Cancelling…")
		v.stop()
	}
}

// SortBy sorts the rows by column col; the same column again reverses
// the order (as a click on its header does).
func (v *View) SortBy(col int) {
	if v.res == nil || col < 0 || col >= len(v.res.Columns) {
		return
	}
	if v.sortCol == col {
		v.desc = !v.desc
	} else {
		v.sortCol, v.desc = col, false
	}
	rows := v.res.Rows
	slices.SortStableFunc(v.order, func(a, b int) int {
		x, y := rows[a][col], rows[b][col]
		switch {
		case v.res.Less(col, x, y):
			if v.desc && !y.Null {
				return 1
			}
			return -1
		case v.res.Less(col, y, x):
			if v.desc && !x.Null {
				return -1
			}
			return 1
		}
		return 0
	})
	v.grid.Refresh()
}

func (v *View) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*widget.Button)
	if v.res == nil || id.Col < 0 || id.Col >= len(v.res.Columns) {
		b.SetText("")
		return
	}
	b.SetText(v.res.Columns[id.Col])
	switch {
	case v.sortCol != id.Col:
		b.SetIcon(nil)
	case v.desc:
		b.SetIcon(theme.MenuDropDownIcon())
	default:
		b.SetIcon(theme.MenuDropUpIcon())
	}
	col := id.Col
	b.OnTapped = func() { v.SortBy(col) }
}

// measure sets the columns' widths from the header and the first rows.
func (v *View) measure() {
	if v.res == nil {
		return
	}
	size, pad := theme.TextSize(), 2*(theme.InnerPadding()+theme.Padding())
	for i, c := range v.res.Columns {
		w := fyne.MeasureText(c, size, fyne.TextStyle{Bold: true}).Width + pad + theme.IconInlineSize()
		for _, r := range v.res.Rows[:min(len(v.res.Rows), 200)] {
			w = max(w, fyne.MeasureText(r[i].Text, size, fyne.TextStyle{}).Width+pad)
		}
		v.grid.SetColumnWidth(i, min(max(w, 60), 420))
	}
}

// OpenRow opens the recording of row i (shown order) when the result
// has a path column (a double click).
func (v *View) OpenRow(i int) {
	p := pathCol(v.res)
	if p < 0 || i < 0 || i >= len(v.order) || v.acts.Open == nil {
		return
	}
	c := v.res.Rows[v.order[i]][p]
	if c.Null || c.Text == "" {
		return
	}
	v.acts.Open(c.Text)
}

// CSV is the rows shown as CSV, with a header line.
func (v *View) CSV() string {
	if v.res == nil {
		return ""
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(v.res.Columns)
	for _, r := range v.order {
		rec := make([]string, len(v.res.Columns))
		for i, c := range v.res.Rows[r] {
			rec[i] = c.Text
		}
		w.Write(rec)
	}
	w.Flush()
	return b.String()
}

// CopyCSV copies the rows shown as CSV.
func (v *View) CopyCSV() {
	if v.res == nil {
		return
	}
	fyne.CurrentApp().Clipboard().SetContent(v.CSV())
	what := human.Plural(uint64(len(v.order)), "row")
	if len(v.res.Rows) < v.res.Total {
		what += " (the first of " + human.Count(uint64(v.res.Total)) + "; Export CSV… saves them all)"
	}
	v.status.SetText("Copied " + what + " as CSV.")
}

// exportCSV asks where to save, then runs the query again writing every
// row there as CSV.
func (v *View) exportCSV() {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		v.ExportTo(wc)
	}, v.win)
	d.SetFileName("query.csv")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv"}))
	d.Show()
}

// ExportTo runs the query again and writes its whole result to wc as
// CSV, with the progress line and Cancel as for a run.
func (v *View) ExportTo(wc fyne.URIWriteCloser) {
	req, bin, err := v.request()
	if err != nil || req.Query == "" || v.running {
		wc.Close()
		if err != nil {
			v.say(err.Error())
		}
		return
	}
	name := wc.URI().Path()
	ctx := v.busy("Exporting every row to " + name + "… (Esc cancels)")
	Background(func() {
		var lost []string
		var err error
		if v.acts.Catalog != nil && usesCatalog(req.Query) {
			req.Catalog, err = v.acts.Catalog()
		}
		if err == nil {
			req.Started = func(pid int) { v.pid.Store(int64(pid)) }
			lost, err = sqlhelper.ExportCSV(ctx, bin, req, wc)
		}
		v.pid.Store(0)
		if cerr := wc.Close(); err == nil {
			err = cerr
		}
		cancelled := ctx.Err() != nil
		if err != nil || cancelled {
			os.Remove(name)
		}
		fyne.Do(func() {
			v.idle()
			switch {
			case cancelled:
				v.status.SetText("Cancelled: " + name + " was not written.")
			case err != nil:
				v.status.SetText("The export failed.")
				dialog.ShowError(fmt.Errorf("%s could not be written: %w", name, err), v.win)
			default:
				s := "Saved every row as CSV: " + name
				if len(lost) > 0 {
					s += ". ⚠ " + strings.Join(lost, "; ")
				}
				v.status.SetText(s)
			}
			if v.done != nil {
				v.done()
			}
		})
	})
}

// TypedKey handles the window's keys while the query box is shown: Esc
// cancels.
func (v *View) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		v.Cancel()
	}
}

// FocusEditor puts the keyboard in the query box.
func (v *View) FocusEditor() { v.win.Canvas().Focus(v.editor) }

// RunShortcut is Ctrl+Enter, which runs the query.
var RunShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierShortcutDefault}
