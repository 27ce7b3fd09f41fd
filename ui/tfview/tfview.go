// Package tfview is the TF tab: the transform tree of /tf and /tf_static at
// the current time (model/tf, as `bagscope tf` prints it), each frame
// static or dynamic with its parent, topic, publisher, rate and age; the
// tree's problems; and a lookup of one frame in another as tf2_echo prints
// it. The tree follows the current time: the window reads the transform
// history once (model/tf.History), and each move looks the tree up in it
// in the background, the newest move winning.
package tfview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/tf"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Tab is the TF tab, or nil when the recording has no transform topic.
func Tab(l link.Link) *container.TabItem {
	if len(tf.Connections(l.Doc().Storage)) == 0 {
		return nil
	}
	return container.NewTabItemWithIcon("TF", theme.MenuIcon(), New(l).Content())
}

// View shows the transform tree at the current time.
type View struct {
	l       link.Link
	content fyne.CanvasObject
	title   *widget.Label
	tree    *widget.Tree
	detail  *widget.Label
	target  *widget.Select
	source  *widget.Select
	echo    *widget.Label
	plotBtn *widget.Button
	plotMsg *widget.Label
	issues  *widget.Label
	// cur is the tree shown; rows the tree's lines by frame name.
	cur  *tf.Tree
	rows map[string]string
	kids map[string][]string
	// chosen says the user picked the lookup's frames: until then each
	// tree picks its own default pair.
	chosen bool
	// stale says the time moved while the tab was hidden (or nothing was
	// read yet).
	stale bool
	// hist is the recording's transform history (the window reads it
	// once, for this tab and the 3D tab), histErr the damage its read
	// stopped on; asked says it was asked for, histAt the time to read
	// once it comes.
	hist    *tf.History
	histErr error
	asked   bool
	histAt  int64
	// reads reads the tree at the newest time moved to.
	reads *link.Latest
	// job is the history's read: its progress and Stop, or Retry once
	// stopped.
	job *widgets.JobStatus
	// plotting cancels the lookup over time being read, nil when none is.
	plotting func()
	// OnRead, for tests, is called on the UI goroutine after each tree is
	// shown; OnPlotted after a lookup over time is read (and plotted).
	OnRead, OnPlotted func()
}

// New builds the TF view of l's recording.
func New(l link.Link) *View {
	v := &View{l: l, rows: map[string]string{}}
	v.title = widget.NewLabelWithStyle("Reading the transforms…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.tree = widget.NewTree(v.childIDs, v.isBranch,
		func(bool) fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
			lb := o.(*widget.Label)
			lb.SetText(v.rows[id])
			imp := widget.MediumImportance
			if f := v.frame(id); f != nil && (f.Stale || f.Suspect != "") {
				imp = widget.WarningImportance
			}
			if lb.Importance != imp {
				lb.Importance = imp
				lb.Refresh()
			}
		})
	v.tree.OnSelected = func(id widget.TreeNodeID) {
		v.showDetail(id)
		if f := v.frame(id); f != nil {
			v.source.SetSelected(f.Name)
		}
	}
	v.detail = widget.NewLabel("Select a frame for its transform to its parent.")
	v.detail.Wrapping = fyne.TextWrapWord
	chosen := func(string) { v.chosen = true; v.lookup() }
	v.target = widget.NewSelect(nil, chosen)
	v.target.PlaceHolder = "target frame"
	v.source = widget.NewSelect(nil, chosen)
	v.source.PlaceHolder = "source frame"
	v.echo = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	v.echo.Wrapping = fyne.TextWrapWord
	v.issues = widget.NewLabel("")
	v.issues.Wrapping = fyne.TextWrapWord
	lookupRow := container.NewGridWithColumns(2, v.target, v.source)
	v.plotBtn = widget.NewButtonWithIcon("Plot over time", theme.ContentAddIcon(), v.PlotOverTime)
	v.plotBtn.Disable()
	v.plotMsg = widget.NewLabel("")
	v.plotMsg.Wrapping = fyne.TextWrapWord
	v.plotMsg.Hide()
	plotRow := container.NewBorder(nil, nil, v.plotBtn, nil, v.plotMsg)
	right := container.NewVBox(
		widgets.DimWrapped("Lookup: the source frame in the target frame at the current time, as tf2_echo TARGET SOURCE prints it", fyne.TextAlignLeading),
		lookupRow, v.echo, plotRow, widget.NewSeparator(), v.detail, widget.NewSeparator(), v.issues)
	split := container.NewHSplit(v.tree, container.NewVScroll(right))
	split.Offset = 0.55
	v.job = widgets.NewJobStatus(func() { l.StopTFHistory() }, func() { v.readAt(v.histAt) })
	v.job.Relayout = func() { v.content.Refresh() }
	l.OnTFHistoryProgress(func(done, total int64) {
		v.job.Progress(link.TFHistoryProgressText(done, total), float64(done)/float64(total))
	})
	v.content = container.NewBorder(container.NewVBox(v.title, v.job.Content()), nil, nil, nil, split)
	// The tree is read from the transform history (read once, the first
	// time the tab shows): only while the tab shows, and once when it is
	// shown again after the time moved.
	v.stale = true
	v.reads = link.ReadLatest(l, v.readTree, func(r treeRead, t int64) { v.show(r.tree, r.err, t) })
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
	return v
}

// Content is the view's content.
func (v *View) Content() fyne.CanvasObject { return v.content }

// Tree is the tree shown (nil before the first read ends).
func (v *View) Tree() *tf.Tree { return v.cur }

// frame is the frame of tree node id.
func (v *View) frame(id string) *tf.Frame {
	if v.cur == nil {
		return nil
	}
	return v.cur.Frames[id]
}

func (v *View) childIDs(id widget.TreeNodeID) []widget.TreeNodeID {
	return v.kids[id]
}

func (v *View) isBranch(id widget.TreeNodeID) bool {
	return len(v.kids[id]) > 0
}

// kidsOf is the tree as the Tree widget shows it: each frame under the
// frame it is reached from depth first from the roots (so a loop shows
// once, cut where it closes), the roots and the frames only a loop reaches
// under "". Frames without a name are left out: the widget's root is "".
func kidsOf(t *tf.Tree) map[string][]string {
	kids := map[string][]string{}
	var path []string
	t.Walk(func(f *tf.Frame, depth int) {
		path = append(path[:min(depth, len(path))], f.Name)
		if f.Name == "" {
			return // its children show at the top
		}
		parent := ""
		if depth > 0 {
			parent = path[depth-1]
		}
		kids[parent] = append(kids[parent], f.Name)
	})
	return kids
}

// now is the current time, or the recording's start before there is one.
func (v *View) now() int64 {
	if t, ok := v.l.Cursor(); ok {
		return t
	}
	return v.l.Doc().Summary.Start.Nanos()
}

// readAt shows the tree at receive time t: once the transform history
// is read, a search in it in the background, later moves folded into one
// after it.
func (v *View) readAt(t int64) {
	v.stale = false
	if v.hist != nil {
		v.reads.At(t)
		return
	}
	v.histAt = t
	if v.asked {
		return
	}
	v.asked = true
	v.l.TFHistory(func(h *tf.History, err error) {
		if errors.Is(err, link.ErrTFHistoryStopped) {
			v.asked = false
			v.title.SetText("TF history stopped")
			v.job.Stopped(link.TFHistoryStoppedText)
			return
		}
		v.job.Done()
		if h == nil {
			v.title.SetText("Cannot read the transforms: " + errText(err))
			return
		}
		v.hist, v.histErr = h, err
		v.reads.At(v.histAt)
	})
}

// treeRead is a tree read at a time, with the error that stopped it.
type treeRead struct {
	tree *tf.Tree
	err  error
}

// readTree is the tree at t (in the background).
func (v *View) readTree(ctx context.Context, t int64) treeRead {
	tr, err := v.hist.TreeAt(ctx, bag.TimeFromNanos(t))
	if err == nil {
		err = v.histErr
	}
	return treeRead{tr, err}
}

// show puts tree tr (read at t) on screen.
func (v *View) show(tr *tf.Tree, err error, t int64) {
	if tr == nil {
		v.title.SetText("Cannot read the transforms: " + errText(err))
		return
	}
	v.cur = tr
	start := v.l.Doc().Summary.Start.Nanos()
	v.rows, v.kids = rowsOf(tr), kidsOf(tr)
	title := fmt.Sprintf("Transforms at %s: %d frames, %d %s", human.RelTime(t-start), len(tr.Frames), len(tr.Roots), plural(len(tr.Roots), "root", "roots"))
	if len(tr.Later) > 0 {
		title += fmt.Sprintf("; %d not yet published", len(tr.Later))
	}
	if err != nil {
		title += " (the read stopped: " + errText(err) + ")"
	}
	v.title.SetText(title)
	names := tr.Names()
	keep := func(s *widget.Select, def string) {
		s.Options = names
		if !v.chosen || s.Selected != "" && !contains(names, s.Selected) {
			s.Selected = ""
		}
		if s.Selected == "" && def != "" {
			s.Selected = def
		}
		s.Refresh()
	}
	defTarget := ""
	if top := v.kids[""]; len(top) > 0 {
		defTarget = top[0]
	}
	// The source defaults to the first leaf under the target: the far
	// end of its first chain.
	defSource := defTarget
	for len(v.kids[defSource]) > 0 {
		defSource = v.kids[defSource][0]
	}
	if defSource == defTarget {
		defSource = ""
	}
	keep(v.target, defTarget)
	keep(v.source, defSource)
	v.tree.Refresh()
	v.tree.OpenAllBranches()
	v.issues.SetText(issuesText(tr))
	v.lookup()
	if v.OnRead != nil {
		v.OnRead()
	}
}

// showDetail shows frame id's transform to its parent.
func (v *View) showDetail(id string) {
	f := v.frame(id)
	if f == nil {
		return
	}
	if f.Root {
		v.detail.SetText(f.Name + " is a root: no transform names a parent for it.")
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %s (%s, from %s", f.Name, f.Parent, kind(f), f.Topic)
	if f.Publisher != "" {
		fmt.Fprintf(&b, " by %s", f.Publisher)
	}
	fmt.Fprintf(&b, "; %d updates in the recording)\n", f.Updates)
	if !f.Static {
		fmt.Fprintf(&b, "stamp %s, received %s, age %.3f s\n", f.Stamp, f.Received, f.Age)
	}
	b.WriteString(tf.EchoLines(f.Transform))
	if f.Suspect != "" {
		b.WriteString("From a damaged unit: " + f.Suspect + "\n")
	}
	v.detail.SetText(strings.TrimSuffix(b.String(), "\n"))
}

// lookup shows the source frame in the target frame.
func (v *View) lookup() {
	if v.cur == nil || v.target.Selected == "" || v.source.Selected == "" || v.target.Selected == v.source.Selected {
		v.plotBtn.Disable()
	} else if v.plotting == nil {
		v.plotBtn.Enable()
	}
	if v.cur == nil || v.target.Selected == "" || v.source.Selected == "" {
		v.echo.SetText("Choose a target and a source frame.")
		return
	}
	tr, err := v.cur.Lookup(v.target.Selected, v.source.Selected)
	if err != nil {
		v.echo.SetText(errText(err))
		return
	}
	v.echo.SetText(strings.TrimSuffix(tf.EchoText(v.cur.At, tr), "\n"))
}

// rowsOf is each frame's line in the tree.
func rowsOf(t *tf.Tree) map[string]string {
	rows := map[string]string{}
	t.Walk(func(f *tf.Frame, _ int) {
		if f.Root {
			rows[f.Name] = f.Name + "   root"
			return
		}
		line := fmt.Sprintf("%s   %s · %s", f.Name, kind(f), f.Topic)
		if f.Publisher != "" {
			line += " (" + f.Publisher + ")"
		}
		if !f.Static {
			line += fmt.Sprintf(" · %.1f Hz · age %.3f s", f.RateHz, f.Age)
		}
		if f.Stale {
			line += " · STALE"
		}
		if f.Suspect != "" {
			line += " · SUSPECT"
		}
		rows[f.Name] = line
	})
	return rows
}

// issuesText lists the tree's problems.
func issuesText(t *tf.Tree) string {
	if len(t.Findings) == 0 {
		return "No problems found."
	}
	fs := t.Findings
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s:", len(fs), plural(len(fs), "problem", "problems"))
	for _, f := range fs {
		fmt.Fprintf(&b, "\n• %s: %s", f.Kind, f.Message)
	}
	return b.String()
}

func kind(f *tf.Frame) string {
	if f.Static {
		return "static"
	}
	return "dynamic"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
