// Package servicesview is the Services tab: the service calls a
// recording's `…/_service_event` topics hold, each request paired with its
// response (model/services: by client_gid and sequence_number, the
// client's and the server's events), with its latency and missing
// responses, filtered by service and status; and the actions' goals with
// their states, feedback and results. Selecting a call or a goal moves the
// window's current time to it and shows its request and response decoded;
// the current time moving highlights the call at or before it. Each
// action's goals show their lifetimes on the timeline (state lanes).
package servicesview

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/link"
)

// Tab is the Services tab, or nil when the recording has no service
// event and no action topic.
func Tab(l link.Link) *container.TabItem {
	if len(services.Connections(l.Doc().Storage)) == 0 {
		return nil
	}
	return container.NewTabItemWithIcon("Services", theme.MailSendIcon(), New(l).Content())
}

// LaneGroup is the name of the view's state lanes on the timeline.
const LaneGroup = "Services"

// maxLanesPerAction bounds the timeline lanes an action's goals take:
// goals that overlap more than this share the last lane.
const maxLanesPerAction = 4

// Filter choices.
const (
	allServices = "All services"
	allCalls    = "All calls"
)

// statuses are the status chooser's entries after allCalls.
var statuses = []string{"no response", "answered", "no request"}

// Calls table columns.
const (
	colTime = iota
	colService
	colClient
	colSeq
	colLatency
	colStatus
	colRequest
	colResponse
	numCols
)

var callHeaders = []string{"Time", "Service", "Client", "Seq", "Latency", "Status", "Request", "Response"}
var callWidths = []float32{85, 150, 70, 40, 70, 105, 150, 120}

// Goals table columns.
const (
	gcolStart = iota
	gcolAction
	gcolGoal
	gcolState
	gcolDuration
	gcolFeedback
	gcolResult
	numGoalCols
)

var goalHeaders = []string{"Start", "Action", "Goal", "State", "Lifetime", "Feedback", "Result"}
var goalWidths = []float32{95, 130, 95, 90, 80, 75, 200}

// View is the Services tab.
type View struct {
	l       link.Link
	content fyne.CanvasObject
	title   *widget.Label
	service *widget.Select
	status  *widget.Select
	count   *widget.Label
	calls   *widget.Table
	goals   *widget.Table
	detail  *widget.Label
	body    *fyne.Container
	// inner holds the Calls and Goals tabs, when there are goals.
	inner *container.AppTabs

	rep  *services.Report
	rows []int // indexes into rep.Calls that pass the filter
	// clients numbers the clients' gids in the order they first call.
	clients map[services.GID]int
	start   int64
	end     int64
	cur     int // highlighted call row, -1 for none
	busy    bool
	// goalShown says a goal's selection moves the time: the detail stays
	// the goal's.
	goalShown bool
	// stale says the time moved while the tab was hidden.
	stale bool
	// detailGen counts the details asked for, so a late decode of an
	// earlier selection is dropped.
	detailGen int
	reader    *model.MessageReader

	// OnRead, for tests, is called on the UI goroutine once the calls
	// are shown; OnDetail after each detail is shown.
	OnRead, OnDetail func()
}

// New builds the Services view of l's recording and starts reading its
// service events in the background.
func New(l link.Link) *View {
	d := l.Doc()
	v := &View{l: l, cur: -1, start: d.Summary.Start.Nanos(), end: d.Summary.End.Nanos()}
	v.reader = model.NewMessageReader(d.Storage, &rosmsg.Cache{})
	v.title = widget.NewLabelWithStyle("Reading the service events…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.service = widget.NewSelect([]string{allServices}, func(string) { v.refilter() })
	v.service.SetSelected(allServices)
	v.status = widget.NewSelect(append([]string{allCalls}, statuses...), func(string) { v.refilter() })
	v.status.SetSelected(allCalls)
	v.count = widget.NewLabel("")
	v.calls = newTable(func() (int, int) { return len(v.rows), numCols }, v.updateCall, callHeaders, callWidths)
	v.calls.OnSelected = v.selectedCall
	v.goals = newTable(func() (int, int) {
		if v.rep == nil {
			return 0, numGoalCols
		}
		return len(v.rep.Goals), numGoalCols
	}, v.updateGoal, goalHeaders, goalWidths)
	v.goals.OnSelected = v.selectedGoal
	v.detail = widget.NewLabelWithStyle("Select a call for its request and response.", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	v.detail.Wrapping = fyne.TextWrapWord
	v.body = container.NewStack(container.NewCenter(widget.NewLabel("Reading the service events…")))
	filters := container.NewBorder(nil, nil, container.NewHBox(v.service, v.status), nil, v.count)
	v.content = container.NewBorder(container.NewVBox(v.title, filters), nil, nil, nil, v.body)

	var (
		mu   sync.Mutex
		rep  *services.Report
		rerr error
	)
	l.Go(func(ctx context.Context) {
		r, err := services.Read(ctx, d.Storage, services.Options{
			Progress: func(done, total int64) {
				if total > 0 {
					msg := fmt.Sprintf("Reading the service events… %d%%", 100*done/total)
					fyne.Do(func() { v.title.SetText(msg) })
				}
			},
		})
		mu.Lock()
		rep, rerr = r, err
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		v.show(rep, rerr)
	})
	// Following the time costs a read of the highlighted call's events:
	// a hidden tab catches up when shown.
	l.OnCursor(func(t int64) {
		if !v.content.Visible() {
			v.stale = true
			return
		}
		v.followCursor(t)
	})
	l.OnShown(v.content, func() {
		if t, ok := l.Cursor(); ok && v.stale {
			v.stale = false
			v.followCursor(t)
		}
	})
	return v
}

// newTable is a table with a bold header row and the given widths.
func newTable(length func() (int, int), update func(widget.TableCellID, fyne.CanvasObject), headers []string, widths []float32) *widget.Table {
	t := widget.NewTableWithHeaders(length,
		func() fyne.CanvasObject {
			lb := widget.NewLabel("")
			lb.Truncation = fyne.TextTruncateEllipsis
			return lb
		}, update)
	t.ShowHeaderColumn = false
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		lb := o.(*widget.Label)
		lb.TextStyle.Bold = true
		if id.Col >= 0 && id.Col < len(headers) {
			lb.SetText(headers[id.Col])
		}
	}
	for c, w := range widths {
		t.SetColumnWidth(c, w)
	}
	return t
}

// Content is the view's content.
func (v *View) Content() fyne.CanvasObject { return v.content }

// Report is the calls and goals shown (nil before the read ends).
func (v *View) Report() *services.Report { return v.rep }

// Rows are the calls shown, as indexes into Report().Calls.
func (v *View) Rows() []int { return v.rows }

// Detail is the text shown of the selected call or goal.
func (v *View) Detail() string { return v.detail.Text }

// Title is the view's headline.
func (v *View) Title() string { return v.title.Text }

// SetFilter chooses the service ("" for all) and the status ("" for
// all: "no response", "answered", "no request") of the calls shown.
func (v *View) SetFilter(service, status string) {
	if service == "" {
		service = allServices
	}
	if status == "" {
		status = allCalls
	}
	v.service.SetSelected(service)
	v.status.SetSelected(status)
}

// SelectCall selects row of the calls shown, as a click does.
func (v *View) SelectCall(row int) { v.calls.Select(widget.TableCellID{Row: row, Col: colService}) }

// SelectGoal selects goal i, as a click does.
func (v *View) SelectGoal(i int) {
	v.ShowGoals()
	v.goals.Select(widget.TableCellID{Row: i, Col: gcolAction})
}

// ShowGoals shows the goals' table rather than the calls'.
func (v *View) ShowGoals() {
	if v.inner != nil {
		v.inner.SelectIndex(1)
	}
}

// CurrentRow is the highlighted call row (the call at or before the
// current time), -1 for none.
func (v *View) CurrentRow() int { return v.cur }

// show shows the report read.
func (v *View) show(rep *services.Report, err error) {
	v.rep = rep
	if rep == nil {
		v.title.SetText("The service events could not be read: " + err.Error())
		v.title.Importance = widget.DangerImportance
		v.title.Refresh()
		return
	}
	v.clients = map[services.GID]int{}
	for i := range rep.Calls {
		if _, ok := v.clients[rep.Calls[i].Client]; !ok {
			v.clients[rep.Calls[i].Client] = len(v.clients) + 1
		}
	}
	names := []string{allServices}
	for _, s := range rep.Services {
		names = append(names, s.Name)
	}
	v.service.Options = names
	v.service.Refresh()
	v.title.SetText(headline(rep, err))
	if err != nil || rep.Undecodable > 0 {
		v.title.Importance = widget.WarningImportance
		v.title.Refresh()
	}
	callsPane := fyne.CanvasObject(v.calls)
	if len(rep.Calls) == 0 {
		callsPane = container.NewCenter(widget.NewLabel("The service event topics hold no event."))
	}
	left := callsPane
	if len(rep.Goals) > 0 {
		// Calls and goals each take the tab's height: a window of 800
		// pixels leaves too little for both at once.
		goalsTitle := widget.NewLabel(goalsHeadline(rep))
		goalsTitle.Truncation = fyne.TextTruncateEllipsis
		v.inner = container.NewAppTabs(
			container.NewTabItem(fmt.Sprintf("Calls (%d)", len(rep.Calls)), callsPane),
			container.NewTabItem(fmt.Sprintf("Goals (%d)", len(rep.Goals)), container.NewBorder(goalsTitle, nil, nil, nil, v.goals)),
		)
		left = v.inner
	}
	main := container.NewHSplit(left, container.NewVScroll(v.detail))
	main.Offset = 0.62
	v.body.Objects = []fyne.CanvasObject{main}
	v.body.Refresh()
	v.refilter()
	v.l.SetStateLanes(LaneGroup, Lanes(rep, v.end))
	if v.OnRead != nil {
		v.OnRead()
	}
}

// headline says what the recording's services hold.
func headline(rep *services.Report, err error) string {
	calls, missing := 0, 0
	for _, s := range rep.Services {
		calls += s.Calls
		missing += s.Missing
	}
	parts := []string{fmt.Sprintf("%s of %s", human.Plural(uint64(calls), "call"), human.Plural(uint64(len(rep.Services)), "service")),
		fmt.Sprintf("%s missing a response", human.Count(uint64(missing)))}
	if len(rep.Actions) > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s", human.Plural(uint64(len(rep.Goals)+rep.GoalsLeftOut), "goal"), human.Plural(uint64(len(rep.Actions)), "action")))
	}
	if rep.CallsLeftOut > 0 {
		parts = append(parts, fmt.Sprintf("the first %s listed (%s more counted)", human.Count(uint64(len(rep.Calls))), human.Count(uint64(rep.CallsLeftOut))))
	}
	if rep.Undecodable > 0 {
		parts = append(parts, fmt.Sprintf("%s could not be decoded (%s)", human.Plural(uint64(rep.Undecodable), "message"), rep.FirstUndecodable))
	}
	if err != nil {
		parts = append(parts, "the read stopped: "+err.Error())
	}
	return strings.Join(parts, "  ·  ")
}

func goalsHeadline(rep *services.Report) string {
	var parts []string
	for _, a := range rep.Actions {
		var st []string
		for _, k := range slices.Sorted(maps.Keys(a.States)) {
			st = append(st, fmt.Sprintf("%d %s", a.States[k], k))
		}
		parts = append(parts, fmt.Sprintf("%s: %s (%s)", a.Name, human.Plural(uint64(a.Goals), "goal"), strings.Join(st, ", ")))
	}
	return "Goals  ·  " + strings.Join(parts, "  ·  ")
}

// refilter applies the filters and highlights the current time's call.
func (v *View) refilter() {
	if v.count == nil || v.rep == nil {
		return
	}
	svc, st := v.service.Selected, v.status.Selected
	v.rows = v.rows[:0]
	for i := range v.rep.Calls {
		c := &v.rep.Calls[i]
		if svc != allServices && svc != "" && v.rep.Services[c.Service].Name != svc {
			continue
		}
		if st != allCalls && st != "" && c.Status() != st {
			continue
		}
		v.rows = append(v.rows, i)
	}
	v.count.SetText(fmt.Sprintf("%s of %s", human.Count(uint64(len(v.rows))), human.Plural(uint64(len(v.rep.Calls)), "call")))
	v.cur = -1
	v.busy = true
	v.calls.UnselectAll()
	v.busy = false
	v.calls.Refresh()
	if t, ok := v.l.Cursor(); ok {
		v.followCursor(t)
	}
}

// rowAt is the last row whose call starts at or before t, or -1.
func (v *View) rowAt(t int64) int {
	i, _ := slices.BinarySearchFunc(v.rows, t, func(r int, t int64) int {
		if v.rep.Calls[r].Time() <= t {
			return -1
		}
		return 1
	})
	return i - 1
}

// followCursor highlights the call at or before t and scrolls to it.
func (v *View) followCursor(t int64) {
	if v.rep == nil {
		return
	}
	row := v.rowAt(t)
	if row == v.cur {
		return
	}
	v.cur = row
	v.busy = true
	defer func() { v.busy = false }()
	if row < 0 {
		v.calls.UnselectAll()
		return
	}
	v.calls.Select(widget.TableCellID{Row: row, Col: colService})
	v.calls.ScrollTo(widget.TableCellID{Row: row, Col: colTime})
	if !v.goalShown {
		v.showCall(row)
	}
}

// selectedCall moves the time to the clicked call's first event, which
// the Message tab shows.
func (v *View) selectedCall(id widget.TableCellID) {
	if v.busy || id.Row < 0 || id.Row >= len(v.rows) {
		return
	}
	v.cur = id.Row
	v.showCall(id.Row)
	v.l.SelectMessage(v.rep.Calls[v.rows[id.Row]].First().Ref)
}

func (v *View) selectedGoal(id widget.TableCellID) {
	if v.rep == nil || id.Row < 0 || id.Row >= len(v.rep.Goals) {
		return
	}
	g := &v.rep.Goals[id.Row]
	v.detailGen++
	v.setDetail(goalText(v.rep, g, v.start))
	// The time moves to the goal: the call highlighted there keeps the
	// goal's detail.
	v.goalShown = true
	defer func() { v.goalShown = false }()
	if g.Sent != 0 {
		v.l.SelectMessage(g.SentRef)
	} else {
		v.l.SetCursor(g.Start())
	}
}

func (v *View) setDetail(s string) {
	v.detail.SetText(s)
	if v.OnDetail != nil {
		v.OnDetail()
	}
}

// showCall shows row's call: its events, then its request and response
// decoded in the background.
func (v *View) showCall(row int) {
	c := v.rep.Calls[v.rows[row]]
	head := callText(v.rep, &c, v.clients[c.Client], v.start)
	v.detailGen++
	gen := v.detailGen
	v.detail.SetText(head + "\n\nDecoding the request and response…")
	var mu sync.Mutex
	var body string
	v.l.Go(func(ctx context.Context) {
		b := v.decode(&c)
		mu.Lock()
		body = b
		mu.Unlock()
	}, func() {
		if gen != v.detailGen {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		v.setDetail(head + "\n\n" + body)
	})
}

// decode reads the call's request and response from its events.
func (v *View) decode(c *services.Call) string {
	var sb strings.Builder
	for _, side := range []struct {
		name  string
		field string
		kinds []services.EventType
	}{
		{"Request", "request", []services.EventType{services.RequestSent, services.RequestReceived}},
		{"Response", "response", []services.EventType{services.ResponseReceived, services.ResponseSent}},
	} {
		fmt.Fprintf(&sb, "%s:\n", side.name)
		var ref *msgref.Ref
		for _, k := range side.kinds {
			if c.Has[k] {
				r := c.Events[k].Ref
				ref = &r
				break
			}
		}
		if ref == nil {
			sb.WriteString("  (not recorded)\n\n")
			continue
		}
		text, err := v.decodeOne(*ref, side.field)
		if err != nil {
			fmt.Fprintf(&sb, "  (could not be read: %v)\n\n", err)
			continue
		}
		sb.WriteString(indent(text))
		sb.WriteString("\n")
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (v *View) decodeOne(ref msgref.Ref, field string) (string, error) {
	m, err := v.reader.Read(ref)
	if err != nil {
		return "", err
	}
	root, warn, err := v.reader.Decode(m)
	if err != nil {
		return "", err
	}
	seq := root.Field(field)
	if seq == nil || seq.Len() == 0 {
		return "(empty)", nil
	}
	e, ok := seq.Elem(0)
	if !ok {
		return "", fmt.Errorf("no %s element", field)
	}
	text := strings.TrimRight(echo.Short(&e, 64), "\n")
	if text == "" {
		text = "(no field)"
	}
	if m.Suspect != "" {
		text = "⚠ from a damaged unit: " + m.Suspect + "\n" + text
	}
	if warn != "" {
		text += "\n⚠ " + warn
	}
	return text, nil
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// callText describes a call: service, client, sequence number, sides,
// status and latency, then each recorded event with its time and stamp.
func callText(rep *services.Report, c *services.Call, client int, start int64) string {
	s := rep.Services[c.Service]
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s  ·  sequence number %d\nclient %d, gid %x\n%s", s.Name, c.Seq, client, c.Client[:], c.Status())
	if l, ok := c.Latency(); ok {
		fmt.Fprintf(&sb, " in %s", stats.Interval(l))
	}
	fmt.Fprintf(&sb, ", recorded by the %s\n", c.Sides())
	for k := range services.EventType(4) {
		if !c.Has[k] {
			fmt.Fprintf(&sb, "  %-17s —\n", k)
			continue
		}
		e := c.Events[k]
		fmt.Fprintf(&sb, "  %-17s %s  stamp %s\n", k, human.RelTimeN(e.Ref.T-start, 6), human.RelTimeN(e.Stamp-start, 6))
	}
	return strings.TrimRight(sb.String(), "\n")
}

// goalText describes a goal: its action and id, state, lifetime, what
// was asked, its status transitions, feedback and result.
func goalText(rep *services.Report, g *services.Goal, start int64) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s\ngoal %s\n%s", rep.Actions[g.Action].Name, g.ID, g.State())
	if end, ok := g.End(); ok {
		fmt.Fprintf(&sb, " after %s", stats.Interval(end-g.Start()))
	}
	sb.WriteString("\n")
	if g.Sent != 0 {
		fmt.Fprintf(&sb, "  sent       %s  %s\n", human.RelTimeN(g.Sent-start, 6), g.Request)
	}
	if g.Responded {
		fmt.Fprintf(&sb, "  %-9s  %s  (send_goal response)\n", map[bool]string{true: "accepted", false: "rejected"}[g.Accepted], human.RelTimeN(g.RespondedAt-start, 6))
	}
	for _, tr := range g.Transitions {
		fmt.Fprintf(&sb, "  %-9s  %s\n", strings.ToLower(tr.Status.String()), human.RelTimeN(tr.T-start, 6))
	}
	if g.TransitionsLeftOut > 0 {
		fmt.Fprintf(&sb, "  (%d more transitions)\n", g.TransitionsLeftOut)
	}
	if g.CancelAt != 0 {
		fmt.Fprintf(&sb, "  cancel asked %s\n", human.RelTimeN(g.CancelAt-start, 6))
	}
	if g.Feedback > 0 {
		fmt.Fprintf(&sb, "  feedback   %d, %s .. %s\n", g.Feedback, human.RelTimeN(g.FirstFeedback-start, 3), human.RelTimeN(g.LastFeedback-start, 3))
	}
	if g.HasResult {
		fmt.Fprintf(&sb, "  result     %s %s  %s\n", human.RelTimeN(g.ResultAt-start, 6), g.ResultStatus, g.Result)
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (v *View) updateCall(id widget.TableCellID, o fyne.CanvasObject) {
	lb := o.(*widget.Label)
	if v.rep == nil || id.Row < 0 || id.Row >= len(v.rows) {
		lb.SetText("")
		return
	}
	c := &v.rep.Calls[v.rows[id.Row]]
	lb.Importance = widget.MediumImportance
	lb.TextStyle = fyne.TextStyle{}
	var text string
	switch id.Col {
	case colTime:
		text = human.RelTime(c.Time() - v.start)
		lb.TextStyle.Monospace = true
	case colService:
		// An action's services by the action and their part:
		// "/fibonacci · send_goal".
		text = strings.Replace(v.rep.Services[c.Service].Name, "/_action/", " · ", 1)
	case colClient:
		text = fmt.Sprintf("client %d", v.clients[c.Client])
	case colSeq:
		text = fmt.Sprint(c.Seq)
	case colLatency:
		if l, ok := c.Latency(); ok {
			text = stats.Interval(l)
		} else {
			text = "—"
		}
	case colStatus:
		text = c.Status()
		switch text {
		case "no response":
			lb.Importance = widget.DangerImportance
			lb.TextStyle.Bold = true
		case "no request":
			lb.Importance = widget.WarningImportance
		}
	case colRequest:
		text = c.Request
	case colResponse:
		text = c.Response
	}
	lb.SetText(text)
}

func (v *View) updateGoal(id widget.TableCellID, o fyne.CanvasObject) {
	lb := o.(*widget.Label)
	if v.rep == nil || id.Row < 0 || id.Row >= len(v.rep.Goals) {
		lb.SetText("")
		return
	}
	g := &v.rep.Goals[id.Row]
	lb.Importance = widget.MediumImportance
	lb.TextStyle = fyne.TextStyle{}
	var text string
	switch id.Col {
	case gcolStart:
		text = human.RelTime(g.Start() - v.start)
		lb.TextStyle.Monospace = true
	case gcolAction:
		text = v.rep.Actions[g.Action].Name
	case gcolGoal:
		text = g.ID.String()[:8]
		lb.TextStyle.Monospace = true
	case gcolState:
		text = g.State()
		switch toneOf(g) {
		case model.ToneBad:
			lb.Importance = widget.DangerImportance
		case model.ToneWarn:
			lb.Importance = widget.WarningImportance
		case model.ToneGood:
			lb.Importance = widget.SuccessImportance
		}
	case gcolDuration:
		if end, ok := g.End(); ok {
			text = stats.Interval(end - g.Start())
		} else {
			text = "open"
		}
	case gcolFeedback:
		text = fmt.Sprint(g.Feedback)
	case gcolResult:
		text = g.Result
	}
	lb.SetText(text)
}
