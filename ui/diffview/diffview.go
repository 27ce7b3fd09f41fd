// Package diffview is the Diff tab: the window's recording (A) compared
// with another (B) topic by topic, as `bagscope diff A B` prints it and by
// the same engine (model/diff). A verdict line says whether the two are
// equal, and in which sense (payload bytes, or decoded values with a float
// tolerance); a table has one row per topic with the counts, rates and
// spans of both, its differences and its first and last differing message
// with their times; notes below list the types and definitions that
// differ and what could not be read. Options choose bytes or values, the
// tolerance and the topics.
//
// The comparison runs in the background with progress and cancel. Clicking
// a row moves the window's current time to its first differing message
// (the Last column to its last) and shows both messages, A's and B's,
// decoded side by side with the lines that differ marked.
package diffview

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diff"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Title is the tab's title.
const Title = "Diff"

// DefaultTolerance is `bagscope diff --tolerance`'s default.
const DefaultTolerance = 1e-9

// View is the Diff tab of one window.
type View struct {
	l link.Link
	// pick asks the user for recording B (File › Compare With…); nil
	// hides the button.
	pick func()

	root *fyne.Container
	body *fyne.Container // a stack: the empty state, or the results
	// pair holds A's and B's messages side by side.
	pair fyne.CanvasObject

	bLabel  *widget.Label
	choose  *ttwidget.Button
	others  *ttwidget.Select
	values  *ttwidget.Check
	tol     *widget.Entry
	topics  *widget.Entry
	run     *ttwidget.Button
	stop    *ttwidget.Button
	bar     *widget.ProgressBar
	verdict *widget.Label
	notes   *widget.Label
	table   *widget.Table
	sides   [2]*widget.RichText
	scrolls [2]*container.Scroll
	heads   [2]*widget.Label

	bPath  string
	cancel context.CancelFunc
	gen    int
	// state is the last comparison's outcome, shown.
	state State
	start bag.Time

	mu sync.Mutex
	b  bag.Storage // B, open while its result is shown
	// shown is the difference whose messages the sides show.
	shown *diff.Difference
}

// State is what the tab shows.
type State struct {
	// B is the recording compared with; Running is set while it runs.
	B       string
	Running bool
	// Cancelled is set when the user stopped the comparison.
	Cancelled bool
	// Err says why the two could not be compared.
	Err error
	// Result is the engine's result; Options what it compared.
	Result  *diff.Result
	Options diff.Options
}

// New builds the Diff tab of the window l links; pick, when not nil, asks
// for the recording to compare with (the window's File › Compare With…).
func New(l link.Link, pick func()) *View {
	v := &View{l: l, pick: pick}
	if sum := v.docA().Summary; sum != nil {
		v.start = sum.Start
	}
	v.bLabel = widget.NewLabel("B: none chosen")
	v.bLabel.Truncation = fyne.TextTruncateEllipsis
	v.choose = ttwidget.NewButtonWithIcon("Compare with…", theme.FolderOpenIcon(), func() {
		if v.pick != nil {
			v.pick()
		}
	})
	v.choose.SetToolTip("Choose recording B: a file, a folder or a URL (File › Compare With…, Ctrl+Shift+D)")
	if pick == nil {
		v.choose.Hide()
	}
	var names []string
	for _, m := range v.Others() {
		names = append(names, m.Name())
	}
	v.others = ttwidget.NewSelect(names, func(name string) {
		for _, m := range v.Others() {
			if m.Name() == name {
				v.CompareWith(m.Doc.Path)
			}
		}
	})
	v.others.PlaceHolder = "Recording B of this window"
	v.others.SetToolTip("Compare A with a recording this window shows too (File › Add Recording…)")
	if len(names) == 0 {
		v.others.Hide()
	}
	v.values = ttwidget.NewCheck("Decoded values", func(on bool) {
		if on {
			v.tol.Enable()
		} else {
			v.tol.Disable()
		}
	})
	v.values.SetToolTip("Compare decoded field values instead of payload bytes (diff --values): a copy re-encoded differently is then equal")
	v.tol = widget.NewEntry()
	v.tol.SetText(strconv.FormatFloat(DefaultTolerance, 'g', -1, 64))
	v.tol.SetPlaceHolder("1e-9")
	v.tol.Validator = func(s string) error { _, err := parseTolerance(s); return err }
	v.tol.OnSubmitted = func(string) { v.Run() }
	v.tol.Disable()
	v.topics = widget.NewEntry()
	v.topics.SetPlaceHolder("all topics (or /imu*, /odom)")
	v.topics.OnSubmitted = func(string) { v.Run() }
	v.run = ttwidget.NewButtonWithIcon("Compare", theme.MediaPlayIcon(), v.Run)
	v.run.SetToolTip("Compare A with B with these options (Enter in a field)")
	v.run.Importance = widget.HighImportance
	v.stop = ttwidget.NewButtonWithIcon("Cancel", theme.CancelIcon(), v.Cancel)
	v.stop.SetToolTip("Stop the comparison (Escape)")
	v.stop.Disable()
	v.bar = widget.NewProgressBar()
	v.bar.Hide()

	v.verdict = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.verdict.Wrapping = fyne.TextWrapWord
	v.notes = widget.NewLabel("")
	v.notes.Wrapping = fyne.TextWrapWord
	v.table = v.newTable()
	for i := range v.sides {
		v.sides[i] = widget.NewRichText()
		v.sides[i].Wrapping = fyne.TextWrapOff
		v.heads[i] = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		v.heads[i].Truncation = fyne.TextTruncateEllipsis
	}

	tolBox := container.NewGridWrap(fyne.NewSize(110, v.tol.MinSize().Height), v.tol)
	opts := container.NewBorder(nil, nil, container.NewHBox(v.values, widget.NewLabel("tolerance"), tolBox, widget.NewLabel("Topics")), nil, v.topics)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(v.others, v.choose, v.run, v.stop), v.bLabel),
		opts, v.bar, v.verdict)
	for i := range v.scrolls {
		v.scrolls[i] = container.NewScroll(v.sides[i])
	}
	pair := container.NewHSplit(
		container.NewBorder(v.heads[0], nil, nil, nil, v.scrolls[0]),
		container.NewBorder(v.heads[1], nil, nil, nil, v.scrolls[1]))
	v.pair = pair
	v.body = container.NewStack()
	v.root = container.NewBorder(top, nil, nil, nil, v.body)
	v.showEmpty()
	return v
}

// Content is the tab's content.
func (v *View) Content() fyne.CanvasObject { return v.root }

// State returns what the tab shows.
func (v *View) State() State { return v.state }

// B is the recording compared with ("" when none is chosen).
func (v *View) B() string { return v.bPath }

// SetValues chooses decoded values (with the float tolerance tol) or
// payload bytes, as the tab's options do, for the next Run.
func (v *View) SetValues(on bool, tol float64) {
	v.values.SetChecked(on)
	v.tol.SetText(strconv.FormatFloat(tol, 'g', -1, 64))
}

// SetTopicFilter sets the topic filter (comma-separated topics; * and ?
// are wildcards that also match /), for the next Run.
func (v *View) SetTopicFilter(s string) { v.topics.SetText(s) }

// CompareWith compares the window's recording with the recording at path
// (a file, a folder or a URL).
func (v *View) CompareWith(path string) {
	v.bPath = path
	v.bLabel.SetText("B: " + bag.Shown(path))
	// The choice of the window's recordings names B when it is one.
	v.others.Selected = ""
	for _, m := range v.Others() {
		if m.Doc.Path == path {
			v.others.Selected = m.Name()
		}
	}
	v.others.Refresh()
	v.Run()
}

// showEmpty says what the tab is for until B is chosen.
func (v *View) showEmpty() {
	detail := "Choose recording B with Compare with… or File › Compare With… (Ctrl+Shift+D): a file, a folder or a URL, as Open takes. " +
		"Each topic's counts, rates and spans are compared, and its messages matched by receive time, as `bagscope diff A B` does."
	v.body.Objects = []fyne.CanvasObject{widgets.NewEmptyState("Compare this recording with another", detail)}
	v.body.Refresh()
}

// options reads the options from the tab's fields.
func (v *View) options() (diff.Options, string, error) {
	o := diff.Options{Values: v.values.Checked, Tolerance: DefaultTolerance}
	if o.Values {
		t, err := parseTolerance(v.tol.Text)
		if err != nil {
			return o, "", err
		}
		o.Tolerance = t
	}
	return o, strings.TrimSpace(v.topics.Text), nil
}

func parseTolerance(s string) (float64, error) {
	t, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || t < 0 {
		return 0, fmt.Errorf("tolerance %q: give a number of 0 or more, such as 1e-9 (floats are equal when |a-b| <= tolerance * max(1, |a|, |b|))", s)
	}
	return t, nil
}

// Run compares A with B again with the tab's options, in the background;
// a comparison running is cancelled first.
func (v *View) Run() {
	if v.bPath == "" {
		if v.pick != nil {
			v.pick()
		}
		return
	}
	o, filter, err := v.options()
	if err != nil {
		v.finish(State{B: v.bPath, Err: err}, nil)
		return
	}
	v.Cancel()
	ctx, cancel := context.WithCancel(v.l.Context())
	v.cancel = cancel
	v.gen++
	gen := v.gen
	v.state = State{B: v.bPath, Running: true, Options: o}
	v.verdict.SetText("Comparing with " + bag.Base(v.bPath) + "…")
	v.verdict.Importance = widget.MediumImportance
	v.bar.SetValue(0)
	v.bar.Show()
	v.stop.Enable()
	o.Progress = func(done, total int64) {
		fyne.Do(func() {
			if gen == v.gen && total > 0 {
				v.bar.SetValue(min(1, float64(done)/float64(total)))
			}
		})
	}
	a, path := v.docA().Storage, v.bPath
	member := v.member(path)
	var st State
	var b bag.Storage
	v.l.Go(func(context.Context) {
		st, b = compare(ctx, a, path, member, o, filter)
		if ctx.Err() != nil && b != nil {
			// Stopped, or the window closed: done may never run.
			v.release(b)
			b = nil
		}
	}, func() {
		if gen != v.gen {
			v.release(b)
			return
		}
		cancel()
		v.cancel = nil
		v.finish(st, b)
	})
}

// compare opens B (member, when not nil: a recording the window shows
// too, open already) and compares a with it; the State says what came of
// it.
func compare(ctx context.Context, a bag.Storage, path string, member bag.Storage, o diff.Options, filter string) (State, bag.Storage) {
	st := State{B: path, Options: o}
	b, err := member, error(nil)
	if b == nil {
		b, err = model.OpenStorageWith(path, bag.OpenOptions{Context: ctx})
	}
	if err != nil {
		st.Cancelled = ctx.Err() != nil
		st.Err = fmt.Errorf("cannot open B, %s: %w", bag.Shown(path), err)
		return st, nil
	}
	if filter != "" {
		o.Topics, err = matchTopics(filter, a, b)
		if err != nil {
			st.Err = err
			return st, b
		}
		st.Options.Topics = o.Topics
	}
	st.Result, err = diff.Compare(ctx, a, b, o)
	if err != nil {
		st.Cancelled = ctx.Err() != nil
		st.Err, st.Result = err, nil
	}
	return st, b
}

// Cancel stops the comparison running, if one is.
func (v *View) Cancel() {
	if v.cancel == nil {
		return
	}
	v.cancel()
	v.cancel = nil
	v.gen++
	v.finish(State{B: v.bPath, Cancelled: true}, nil)
}

// finish shows a comparison's outcome; b is B, kept open to read the
// differing messages, closed when replaced or when the window closes.
func (v *View) finish(st State, b bag.Storage) {
	v.mu.Lock()
	old := v.b
	v.b = b
	v.shown = nil
	v.mu.Unlock()
	v.release(old)
	if b != nil {
		context.AfterFunc(v.l.Context(), func() {
			v.mu.Lock()
			defer v.mu.Unlock()
			if v.b == b {
				v.b = nil
				v.release(b)
			}
		})
	}
	v.state = st
	v.bar.Hide()
	v.stop.Disable()
	v.table.UnselectAll()
	for i := range v.sides {
		v.sides[i].Segments = nil
		v.sides[i].Refresh()
		v.heads[i].SetText("")
	}
	text, imp := verdict(st, bag.Base(v.bPath))
	v.verdict.Importance = imp
	v.verdict.SetText(text)
	v.notes.SetText(notes(st, v.start))
	if v.notes.Text == "" {
		v.notes.Hide()
	} else {
		v.notes.Show()
	}
	if st.Result == nil {
		v.body.Objects = []fyne.CanvasObject{widgets.NewEmptyState(emptyTitle(st), text)}
		if st.Err == nil && !st.Cancelled {
			v.showEmpty()
			return
		}
	} else {
		v.body.Objects = []fyne.CanvasObject{v.resultsPane(len(st.Result.Differing()) > 0)}
		v.table.Refresh()
		v.table.ScrollToTop()
		// The first difference's messages show at once, the time left
		// where it is until a row is clicked.
		if d := st.Result.Differing(); len(d) > 0 && d[0].First != nil {
			v.showMessages(d[0], d[0].First)
		}
	}
	v.body.Refresh()
}

func emptyTitle(st State) string {
	if st.Cancelled {
		return "Comparison cancelled"
	}
	return "Could not compare"
}

// verdict is the summary line: equal or differing, and in which sense.
func verdict(st State, bName string) (string, widget.Importance) {
	switch {
	case st.Cancelled:
		return "Cancelled: press Compare to compare again.", widget.WarningImportance
	case st.Err != nil:
		return "Could not compare: " + st.Err.Error() + ". " + advice(st.Err), widget.DangerImportance
	case st.Result == nil:
		return "", widget.MediumImportance
	}
	res := st.Result
	sense := "by payload bytes"
	if res.ByValue {
		sense = fmt.Sprintf("by decoded value, floats within %g", st.Options.Tolerance)
	}
	common := 0
	for _, t := range res.Topics {
		if t.OnlyIn() < 0 {
			common++
		}
	}
	switch {
	case len(res.Topics) == 0:
		return "No topics to compare: neither recording has a topic the filter names.", widget.WarningImportance
	case common == 0:
		return fmt.Sprintf("No common topics: A and %s share none of their %d topics (compared %s).", bName, len(res.Topics), sense), widget.DangerImportance
	case res.Equal():
		return fmt.Sprintf("Identical: the same %d topics, types, definitions and messages (%d each), compared %s.", len(res.Topics), res.Messages[0], sense), widget.SuccessImportance
	}
	return fmt.Sprintf("They differ in %d of %d topics (compared %s; A has %d messages, B %d).", len(res.Differing()), len(res.Topics), sense, res.Messages[0], res.Messages[1]), widget.DangerImportance
}

// advice says what to do about an error.
func advice(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "no topic"):
		return "Change the topic filter (empty compares every topic)."
	case strings.Contains(s, "tolerance"):
		return "Correct the tolerance and press Compare."
	case strings.Contains(s, "cannot open B"):
		return "Choose another recording with Compare with…"
	}
	return "Press Compare to try again."
}

// notes lists what the table does not say: types and definitions that
// differ, topics compared by bytes although values were asked for, and
// what could not be read.
func notes(st State, start bag.Time) string {
	res := st.Result
	if res == nil {
		return ""
	}
	var out []string
	for _, t := range res.Topics {
		if t.TypesDiffer() {
			out = append(out, fmt.Sprintf("%s: types differ: A %s, B %s", t.Name, strings.Join(t.Side[0].Types, " "), strings.Join(t.Side[1].Types, " ")))
		}
		if t.DefinitionsDiffer() {
			out = append(out, fmt.Sprintf("%s: the definitions of %s differ", t.Name, strings.Join(t.Side[0].Types, " ")))
		}
		if t.Undecodable != "" {
			out = append(out, fmt.Sprintf("%s: compared by bytes: %s", t.Name, t.Undecodable))
		}
	}
	for i, it := range res.Its {
		if it == nil {
			continue
		}
		if sk := bag.IterSkipped(it); len(sk) > 0 {
			out = append(out, fmt.Sprintf("%s: %d part(s) could not be read, the first at byte %d: %s", "AB"[i:i+1], len(sk), sk[0].Start, sk[0].Why))
		}
		if n := res.Suspects[i]; n > 0 {
			out = append(out, fmt.Sprintf("%s: %d message(s) read from damaged units", "AB"[i:i+1], n))
		}
	}
	return strings.Join(out, "\n")
}

// matchTopics resolves the topic filter (comma-separated topics; * and ?
// are wildcards that also match /, as diff --topics takes them) over the
// topics of both recordings.
func matchTopics(filter string, st ...bag.Storage) ([]string, error) {
	var all []string
	for _, s := range st {
		for _, c := range s.Connections() {
			all = append(all, c.Topic)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	var out []string
	for _, pat := range strings.Split(filter, ",") {
		pat = strings.TrimSpace(pat)
		if pat == "" {
			continue
		}
		q := regexp.QuoteMeta(pat)
		q = strings.ReplaceAll(strings.ReplaceAll(q, `\*`, ".*"), `\?`, ".")
		re := regexp.MustCompile("^" + q + "$")
		n := 0
		for _, t := range all {
			if re.MatchString(t) {
				out = append(out, t)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("no topic %s in A or B", pat)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// selectDifference moves the window's time to d and shows both messages.
func (v *View) selectDifference(t *diff.Topic, d *diff.Difference) {
	if d == nil {
		return
	}
	if len(v.l.Doc().Members) > 0 {
		// The window shows several recordings, whose messages it
		// places itself: the time moves (A's times are the window's;
		// B's are moved by its offset).
		t := d.Time.Nanos()
		if d.Conn[0] == nil {
			for _, m := range v.Others() {
				if m.Doc.Path == v.bPath {
					t += m.Offset
				}
			}
		}
		v.l.SetCursor(t)
	} else if d.Conn[0] != nil {
		v.l.SelectMessage(msgref.Ref{T: d.Time.Nanos(), Loc: msgref.Loc{ChunkPos: d.Loc[0].Block, Offset: d.Loc[0].Offset, Conn: d.Conn[0].ID}})
	} else {
		v.l.SetCursor(d.Time.Nanos())
	}
	v.showMessages(t, d)
}

// Shown is the difference whose messages the sides show (nil for none).
func (v *View) Shown() *diff.Difference {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.shown
}

// resultsPane is the table with the notes, and below them, when messages
// differ, A's and B's side by side.
func (v *View) resultsPane(differ bool) fyne.CanvasObject {
	notes := container.NewVBox(v.notes, widget.NewSeparator())
	if !differ {
		return container.NewBorder(nil, notes, nil, nil, v.table)
	}
	split := container.NewVSplit(v.table, container.NewBorder(notes, nil, nil, nil, v.pair))
	split.Offset = 0.45
	return split
}

// docA is recording A: the window's recording, or the first of those it
// shows together (File › Add Recording…).
func (v *View) docA() *model.Document {
	d := v.l.Doc()
	if len(d.Members) > 0 {
		return d.Members[0].Doc
	}
	return d
}

// Others are the recordings the window shows beside A (File › Add
// Recording…), which the tab offers as B.
func (v *View) Others() []model.Member {
	if ms := v.l.Doc().Members; len(ms) > 1 {
		return ms[1:]
	}
	return nil
}

// member returns the storage of the recording the window shows beside A
// at path (open already, and not the tab's to close), or nil.
func (v *View) member(path string) bag.Storage {
	for _, m := range v.Others() {
		if m.Doc.Path == path && path != "" {
			return m.Doc.Storage
		}
	}
	return nil
}

// release closes B unless it is a recording the window shows.
func (v *View) release(b bag.Storage) {
	if b == nil {
		return
	}
	for _, m := range v.Others() {
		if m.Doc.Storage == b {
			return
		}
	}
	b.Close()
}
