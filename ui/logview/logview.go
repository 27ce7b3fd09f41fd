// Package logview is the Log tab of a recording's window: the log
// messages of its /rosout-like topics in a table filtered by level, node
// and text, following the window's current time. The text filter takes
// plain text, or an expression on the log messages (find's grammar:
// level >= WARN && name ~ "camera" && msg ~ "timeout|lost"), evaluated
// by model/query as `bagscope find` does.
package logview

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/ui/link"
)

// logPanel is the Log tab: the bag's log messages (/rosout,
// rosgraph_msgs/Log or rcl_interfaces/msg/Log) in a table filtered by
// level, node and text, coloured by level. The row at or before the time
// cursor is highlighted; clicking a row selects its message.
type logPanel struct {
	l       link.Link
	content fyne.CanvasObject

	level  *widget.Select
	node   *widget.Select
	text   *widget.Entry
	count  *widget.Label
	table  *widget.Table
	status *widget.Label
	// problem says what could not be read; detail describes the
	// highlighted row's source (file, line, function) and stamp.
	problem *widget.Label
	detail  *widget.Label
	body    *fyne.Container

	entries []sensor.LogEntry
	rows    []int // indexes into entries that pass the filter
	filter  sensor.LogFilter
	// keep, when not nil, are the messages the text's expression holds
	// for; exprGen counts the texts, so that a stale search is dropped.
	keep        map[msgref.Loc]bool
	exprGen     int
	exprProblem bool   // problem says what is wrong with the expression
	readProblem string // what the log's read could not read
	topics      []string
	start       int64 // the recording's start, for relative times
	cur         int   // highlighted row, or -1
	busy        bool  // the panel is selecting a row itself
}

// Log table columns.
const (
	logColTime = iota
	logColLevel
	logColNode
	logColMsg
	logCols
)

// logColWidths are the columns' widths; the message column takes what
// the others leave (logTableLayout), at least its width here.
var logColWidths = []float32{110, 70, 220, 400}

// logTableLayout gives the table its whole size and its message column
// the width the other columns leave, so that the table never scrolls
// sideways and a selected message does not push the time out of view.
type logTableLayout struct {
	t *widget.Table
	w float32
}

func (l *logTableLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	rest := size.Width - theme.ScrollBarSize() - 2*theme.Padding()
	for _, w := range logColWidths[:logColMsg] {
		rest -= w + theme.SeparatorThicknessSize()
	}
	if w := max(rest, logColWidths[logColMsg]); w != l.w {
		l.w = w
		l.t.SetColumnWidth(logColMsg, w)
	}
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.Position{})
	}
}

func (l *logTableLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}

// levelAll is the level chooser's "no filter" entry.
const levelAll = "All levels"

// nodeAll is the node chooser's "no filter" entry.
const nodeAll = "All nodes"

func newLogPanel(l link.Link) *logPanel {
	p := &logPanel{l: l, cur: -1, start: l.Doc().Summary.Start.Nanos()}
	levels := []string{levelAll}
	for _, s := range sensor.Severities[1:] {
		levels = append(levels, s.String()+" and above")
	}
	p.level = widget.NewSelect(levels, func(s string) {
		p.filter.MinLevel = sensor.SevUnknown
		for _, sev := range sensor.Severities {
			if s == sev.String()+" and above" {
				p.filter.MinLevel = sev
			}
		}
		p.refilter()
	})
	p.level.SetSelected(levelAll)
	p.node = widget.NewSelect([]string{nodeAll}, func(s string) {
		p.filter.Node = s
		if s == nodeAll {
			p.filter.Node = ""
		}
		p.refilter()
	})
	p.node.SetSelected(nodeAll)
	p.text = widget.NewEntry()
	p.text.SetPlaceHolder(`Filter: text (message, node, file, function), or an expression: level >= WARN && msg ~ "timeout"`)
	p.text.OnChanged = p.textChanged
	p.count = widget.NewLabel("")
	p.status = widget.NewLabel("Reading the log messages…")

	p.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(p.rows), logCols },
		func() fyne.CanvasObject {
			t := widget.NewLabel("")
			t.Truncation = fyne.TextTruncateEllipsis
			return t
		},
		p.updateCell,
	)
	p.table.ShowHeaderColumn = false
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		lb := o.(*widget.Label)
		lb.TextStyle.Bold = true
		lb.SetText([]string{"Time", "Level", "Node", "Message"}[id.Col])
	}
	for c, w := range logColWidths {
		p.table.SetColumnWidth(c, w)
	}
	p.table.OnSelected = p.selected

	filters := container.NewBorder(nil, nil,
		container.NewHBox(p.level, p.node), p.count, p.text)
	p.body = container.NewStack(container.NewCenter(p.status))
	p.problem = widget.NewLabel("")
	p.problem.Importance = widget.WarningImportance
	p.problem.Truncation = fyne.TextTruncateEllipsis
	p.problem.Hide()
	p.detail = widget.NewLabel("")
	p.detail.Truncation = fyne.TextTruncateEllipsis
	p.content = container.NewBorder(container.NewVBox(filters, p.problem), p.detail, nil, nil, p.body)

	topics := model.LogTopics(l.Doc())
	p.topics = topics
	var (
		mu      sync.Mutex
		entries []sensor.LogEntry
		skipped int
		rerr    error
	)
	l.Go(func(ctx context.Context) {
		e, n, err := sensor.ReadLog(ctx, l.Doc().Storage, nil, topics)
		mu.Lock()
		entries, skipped, rerr = e, n, err
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		p.setEntries(entries, skipped, rerr)
	})
	l.OnCursor(p.followCursor)
	return p
}

// setEntries shows the log read in the background.
func (p *logPanel) setEntries(entries []sensor.LogEntry, skipped int, err error) {
	p.entries = entries
	p.node.Options = append([]string{nodeAll}, sensor.LogNodes(entries)...)
	p.node.Refresh()
	if err != nil || skipped > 0 {
		msg := fmt.Sprintf("%s could not be read", human.Plural(uint64(skipped), "log message"))
		if err != nil {
			msg += ": " + err.Error()
		}
		p.status.SetText(msg)
		if len(entries) > 0 {
			p.readProblem = msg
			p.problem.SetText(msg)
			p.problem.Show()
		}
	}
	if len(entries) == 0 {
		if err == nil && skipped == 0 {
			p.status.SetText("The log topics hold no message.")
		}
		return
	}
	p.body.Objects = []fyne.CanvasObject{container.New(&logTableLayout{t: p.table}, p.table)}
	p.body.Refresh()
	p.refilter()
}

// refilter applies the filter and highlights the cursor's row again.
func (p *logPanel) refilter() {
	if p.count == nil {
		return // still being built
	}
	p.rows = sensor.FilterLog(p.entries, p.filter)
	if p.keep != nil {
		kept := p.rows[:0]
		for _, r := range p.rows {
			if p.keep[p.entries[r].Ref.Loc] {
				kept = append(kept, r)
			}
		}
		p.rows = kept
	}
	p.count.SetText(fmt.Sprintf("%s of %s", human.Count(uint64(len(p.rows))), human.Plural(uint64(len(p.entries)), "message")))
	p.cur = -1
	p.busy = true
	p.table.UnselectAll()
	p.busy = false
	p.table.Refresh()
	if t, ok := p.l.Cursor(); ok {
		p.followCursor(t)
	}
}

// followCursor highlights the last row at or before t and scrolls to it.
func (p *logPanel) followCursor(t int64) {
	row := sensor.LogRowAt(p.entries, p.rows, t)
	if row == p.cur {
		return
	}
	p.cur = row
	p.showDetail()
	p.busy = true
	defer func() { p.busy = false }()
	if row < 0 {
		p.table.UnselectAll()
		return
	}
	p.table.Select(widget.TableCellID{Row: row, Col: logColMsg})
	p.table.ScrollTo(widget.TableCellID{Row: row, Col: logColTime})
}

// selected selects the clicked row's message, which moves the cursor to it.
func (p *logPanel) selected(id widget.TableCellID) {
	if p.busy || id.Row < 0 || id.Row >= len(p.rows) {
		return
	}
	p.cur = id.Row
	p.showDetail()
	p.l.SelectMessage(p.entries[p.rows[id.Row]].Ref)
}

// showDetail describes the highlighted row: where in the source it was
// logged, its own stamp and its topic.
func (p *logPanel) showDetail() {
	if p.cur < 0 || p.cur >= len(p.rows) {
		p.detail.SetText("")
		return
	}
	e := &p.entries[p.rows[p.cur]]
	var parts []string
	if e.File != "" {
		parts = append(parts, fmt.Sprintf("%s:%d", e.File, e.Line))
	}
	if e.Function != "" {
		parts = append(parts, e.Function)
	}
	if e.Stamp != 0 {
		parts = append(parts, "stamped "+human.RelTime(e.Stamp-p.start))
	}
	parts = append(parts, "on "+e.Topic)
	p.detail.SetText(strings.Join(parts, "  ·  "))
}

// levelImportance colours a level: warnings and errors stand out, debug
// is dim.
func levelImportance(s sensor.Severity) widget.Importance {
	switch s {
	case sensor.SevDebug:
		return widget.LowImportance
	case sensor.SevWarn:
		return widget.WarningImportance
	case sensor.SevError, sensor.SevFatal:
		return widget.DangerImportance
	}
	return widget.MediumImportance
}

func (p *logPanel) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	lb := o.(*widget.Label)
	if id.Row < 0 || id.Row >= len(p.rows) {
		lb.SetText("")
		return
	}
	e := &p.entries[p.rows[id.Row]]
	lb.Importance = widget.MediumImportance
	lb.TextStyle = fyne.TextStyle{}
	var text string
	switch id.Col {
	case logColTime:
		text = human.RelTime(e.Ref.T - p.start)
		lb.TextStyle.Monospace = true
	case logColLevel:
		text = e.Severity.String()
		if e.Severity == sensor.SevUnknown {
			text = fmt.Sprint(e.Level)
		}
		lb.Importance = levelImportance(e.Severity)
		lb.TextStyle.Bold = e.Severity >= sensor.SevWarn
	case logColNode:
		text = e.Node
	case logColMsg:
		text = strings.ReplaceAll(e.Msg, "\n", " ↵ ")
		if e.Severity >= sensor.SevWarn {
			lb.Importance = levelImportance(e.Severity)
		}
	}
	lb.SetText(text)
}

// Tab is the Log tab of a document with log topics, or nil.
func Tab(l link.Link) *container.TabItem {
	if len(model.LogTopics(l.Doc())) == 0 {
		return nil
	}
	return container.NewTabItemWithIcon("Log", theme.ListIcon(), newLogPanel(l).content)
}
