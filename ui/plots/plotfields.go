package plots

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// topicFields is one topic of the Fields list and its plottable paths.
type topicFields struct {
	topic, typ string
	paths      []string // full paths, "/imu.linear_acceleration.x"
}

// plottableFields lists, per topic of d, the field paths that can be
// plotted: what CompleteField offers for "TOPIC." (array elements as [0],
// the latency for types with a header). The topics come as the Topics tab
// lists them by name: by recording, then by name (link.SortTopics).
func plottableFields(d *model.Document, cache *rosmsg.Cache) []topicFields {
	b := d.Storage
	topics := series.Topics(b)
	link.SortTopics(d, topics)
	types := map[string]string{}
	for _, c := range b.Connections() {
		if _, ok := types[c.Topic]; !ok {
			types[c.Topic] = c.Type
		}
	}
	var out []topicFields
	for _, t := range topics {
		tf := topicFields{topic: t, typ: types[t]}
		for _, p := range series.CompleteField(b, cache, t+".", 0) {
			if strings.HasPrefix(p, t+".") {
				tf.paths = append(tf.paths, p)
			}
		}
		if len(tf.paths) > 0 {
			out = append(out, tf)
		}
	}
	return out
}

// fieldList is the Fields side list of the Plots tab: topics and their
// plottable fields, filtered as you type. A field row is dragged onto a
// plot panel to add it there (or below the panels for a new panel);
// double-clicking it or its + button adds it to the selected panel (the
// framed one, where typed series go too).
type fieldList struct {
	g       *View
	all     []topicFields
	shown   map[string][]string // topic -> paths passing the filter
	topics  []string            // topics with paths passing the filter
	types   map[string]string
	filter  *widget.Entry
	tree    *widget.Tree
	content fyne.CanvasObject

	// The drag in progress.
	dragPath string
	dragPos  fyne.Position // absolute, the last Dragged event's
	dragTip  *widget.PopUp
	dragText *widget.Label
}

func newFieldList(g *View) *fieldList {
	f := &fieldList{g: g, all: plottableFields(g.l.Doc(), &g.cache), types: map[string]string{}}
	for _, tf := range f.all {
		f.types[tf.topic] = tf.typ
	}
	f.tree = &widget.Tree{
		ChildUIDs: func(uid widget.TreeNodeID) []widget.TreeNodeID {
			if uid == "" {
				return f.topics
			}
			return f.shown[uid]
		},
		IsBranch: func(uid widget.TreeNodeID) bool { return uid == "" || f.shown[uid] != nil },
		CreateNode: func(branch bool) fyne.CanvasObject {
			if branch {
				l := widget.NewLabel("")
				l.Truncation = fyne.TextTruncateEllipsis
				return l
			}
			return newFieldRow(f)
		},
		UpdateNode: func(uid widget.TreeNodeID, branch bool, o fyne.CanvasObject) {
			if branch {
				o.(*widget.Label).SetText(uid + "  " + f.types[uid])
				return
			}
			o.(*fieldRow).setPath(uid)
		},
	}
	f.tree.ExtendBaseWidget(f.tree)
	f.filter = widget.NewEntry()
	f.filter.SetPlaceHolder("Filter fields")
	f.filter.OnChanged = f.setFilter
	f.setFilter("")
	title := widget.NewLabelWithStyle("Fields", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// Single lines: wrapped text in a VBox takes the height it would need
	// at its narrowest.
	hint := container.New(&widgets.TightVBox{Pull: widgets.CaptionPull},
		widgets.DimText("Drag onto a plot, or below for a new plot.", theme.SizeNameCaptionText, fyne.TextAlignLeading),
		widgets.DimText("Double-click or + adds it to the selected plot.", theme.SizeNameCaptionText, fyne.TextAlignLeading))
	f.content = container.NewBorder(container.NewVBox(title, f.filter, hint), nil, nil, nil, f.tree)
	return f
}

// setFilter shows the fields whose path contains every word of s (case
// ignored), with their topics open.
func (f *fieldList) setFilter(s string) {
	words := strings.Fields(strings.ToLower(s))
	f.shown = map[string][]string{}
	f.topics = nil
	for _, tf := range f.all {
		var paths []string
	path:
		for _, p := range tf.paths {
			lp := strings.ToLower(p)
			for _, w := range words {
				if !strings.Contains(lp, w) {
					continue path
				}
			}
			paths = append(paths, p)
		}
		if len(paths) > 0 {
			f.shown[tf.topic] = paths
			f.topics = append(f.topics, tf.topic)
		}
	}
	f.tree.OpenAllBranches()
	f.tree.Refresh()
}

// paths is every path the list shows, in order.
func (f *fieldList) paths() []string {
	var out []string
	for _, t := range f.topics {
		out = append(out, f.shown[t]...)
	}
	return out
}

// dragged follows a drag of path to the absolute position pos: a label
// follows the pointer and the drop target is highlighted.
func (f *fieldList) dragged(path string, pos fyne.Position, c fyne.Canvas) {
	f.dragPath, f.dragPos = path, pos
	g := f.g
	if !g.dropZone.Visible() {
		g.dropZone.Show()
		g.content.Refresh()
	}
	if f.dragTip == nil && c != nil {
		f.dragText = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		f.dragTip = widget.NewPopUp(f.dragText, c)
	}
	if f.dragTip != nil {
		f.dragText.SetText(path)
		f.dragTip.ShowAtPosition(tipPosition(pos, f.dragTip.MinSize(), f.dragTip.Canvas.Size()))
	}
	p, isNew := g.dropTarget(pos)
	g.markDrop(p, isNew)
}

// tipPosition places a label of size tip beside the pointer at pos:
// below and right of it, or above and left of it where the canvas (of
// size c) ends.
func tipPosition(pos fyne.Position, tip, c fyne.Size) fyne.Position {
	at := pos.AddXY(14, 10)
	if at.X+tip.Width > c.Width {
		at.X = max(0, pos.X-14-tip.Width)
	}
	if at.Y+tip.Height > c.Height {
		at.Y = max(0, pos.Y-6-tip.Height)
	}
	return at
}

// dragEnd drops the dragged path where the last drag event was: on a
// panel it joins that panel, on the drop zone (or Add plot) it fills a new
// panel, elsewhere nothing happens.
func (f *fieldList) dragEnd() {
	g := f.g
	if f.dragTip != nil {
		f.dragTip.Hide()
	}
	path := f.dragPath
	f.dragPath = ""
	if path == "" {
		return
	}
	p, isNew := g.dropTarget(f.dragPos)
	g.markDrop(nil, false)
	g.dropZone.Hide()
	g.content.Refresh()
	switch {
	case p != nil:
		g.add(p, path)
	case isNew:
		g.add(g.addPanel(), path)
	}
}

// addToSelected adds path to the selected panel, as the toolbar's entry
// does (to a new panel below when that is an XY plot).
func (f *fieldList) addToSelected(path string) {
	p := f.g.current
	if p == nil {
		p = f.g.panels[len(f.g.panels)-1]
	}
	f.g.add(p, path)
}

// fieldRow is a draggable field of the Fields list: its path past the
// topic and a + button.
type fieldRow struct {
	widget.BaseWidget
	f     *fieldList
	path  string
	label *widget.Label
	plus  *widget.Button
}

var (
	_ fyne.Draggable      = (*fieldRow)(nil)
	_ fyne.DoubleTappable = (*fieldRow)(nil)
	_ fyne.Tappable       = (*fieldRow)(nil)
)

func newFieldRow(f *fieldList) *fieldRow {
	r := &fieldRow{f: f, label: widget.NewLabel("")}
	r.label.Truncation = fyne.TextTruncateEllipsis
	r.plus = widget.NewButtonWithIcon("", theme.ContentAddIcon(), func() { f.addToSelected(r.path) })
	r.plus.Importance = widget.LowImportance
	r.ExtendBaseWidget(r)
	return r
}

func (r *fieldRow) setPath(path string) {
	r.path = path
	name := path
	if i := strings.Index(path, "."); i >= 0 {
		name = path[i+1:]
	}
	r.label.SetText(name)
}

func (r *fieldRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, nil, r.plus, r.label))
}

// Tapped selects the row (the tree's own tap does not reach it).
func (r *fieldRow) Tapped(*fyne.PointEvent) { r.f.tree.Select(r.path) }

// DoubleTapped adds the field to the selected panel.
func (r *fieldRow) DoubleTapped(*fyne.PointEvent) { r.f.addToSelected(r.path) }

// Dragged drags the field towards a plot.
func (r *fieldRow) Dragged(e *fyne.DragEvent) {
	r.f.dragged(r.path, e.AbsolutePosition, fyne.CurrentApp().Driver().CanvasForObject(r))
}

// DragEnd drops the field.
func (r *fieldRow) DragEnd() { r.f.dragEnd() }
