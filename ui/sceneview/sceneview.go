// Package sceneview is the 3D tab: the point clouds, laser scans,
// transform frames, markers (Marker, MarkerArray), paths, odometry trails,
// poses and occupancy grids of a recording at the current time, in a chosen fixed
// frame (model/scene reads and places them through the transform tree,
// and draws them with its software renderer). Drag orbits, right-, middle-
// or shift-drag pans, the wheel zooms; Top, Side and 3D set the view, a
// followed frame keeps the camera on it; a click on a point shows its
// fields. The scene follows the current time: each move reads it again in
// the background, the newest move winning.
package sceneview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/scene"
	"github.com/bagscope/bagscope/model/tf"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Tab is the 3D tab, or nil when the recording has nothing it draws.
func Tab(l link.Link) *container.TabItem {
	if !scene.Drawable(l.Doc()) {
		return nil
	}
	return container.NewTabItemWithIcon("3D", theme.ViewFullScreenIcon(), New(l).Content())
}

// Choices of the selects.
const (
	autoColor  = "auto"
	plainColor = "one colour"
	noFollow   = "none"
)

// decimations are the offered strides.
var decimations = []string{"all points", "every 2nd", "every 4th", "every 8th", "every 16th"}

// View is the 3D tab's content.
type View struct {
	l       link.Link
	reader  *model.MessageReader
	content fyne.CanvasObject
	canvas  *sceneCanvas

	fixedSel  *widget.Select
	followSel *widget.Select
	colorSel  *widget.Select
	decSel    *widget.Select
	axesCheck *widget.Check
	topicBox  *fyne.Container
	title     *widget.Label
	readout   *widget.Label

	topics []scene.Topic
	shown  map[string]bool // topics drawn
	axes   bool
	fixed  string // "" until the first tree picks one
	follow string
	color  string
	stride int

	cur    *scene.Scene
	tree   *tf.Tree
	fitted bool
	// treeWhole says tree was read whole (a settings change at the same
	// time reuses it); TreeReads counts the trees looked up in the
	// history, for tests.
	treeWhole bool
	TreeReads int

	stale bool
	// reads reads the scene at the newest time asked for; hist is the
	// recording's transform history (read once by the window, for this
	// tab and the TF tab), histErr the damage its read stopped on, asked
	// that it was asked for and histAt the time to read once it comes.
	reads   *link.Latest
	hist    *tf.History
	histErr error
	asked   bool
	histAt  int64
	// job is the history's read: its progress and Stop, or Retry once
	// stopped.
	job *widgets.JobStatus
	// OnRead, for tests, is called on the UI goroutine after each scene
	// is shown.
	OnRead func()
}

// New builds the 3D view of l's recording.
func New(l link.Link) *View {
	v := &View{l: l, reader: model.NewMessageReader(l.Doc().Storage, nil), shown: map[string]bool{}, axes: true, stride: 1,
		color: autoColor, follow: noFollow}
	v.reads = link.NewLatest(v.read)
	v.topics = scene.Topics(l.Doc())
	v.canvas = newSceneCanvas()
	v.canvas.OnPick = v.picked
	v.title = widget.NewLabel("Reading the scene…")
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.readout = widget.NewLabel("Drag to orbit, right-drag or shift-drag to pan, scroll to zoom; click a point for its fields.")
	v.readout.Truncation = fyne.TextTruncateEllipsis

	v.fixedSel = widget.NewSelect(nil, func(f string) {
		if f != "" && f != v.fixed {
			v.fixed = f
			v.fitted = false
			v.reload()
		}
	})
	v.fixedSel.PlaceHolder = "fixed frame"
	v.followSel = widget.NewSelect([]string{noFollow}, func(f string) {
		v.follow = f
		v.applyFollow()
	})
	v.followSel.Selected = noFollow
	v.colorSel = widget.NewSelect([]string{autoColor, plainColor}, func(c string) {
		if c != "" && c != v.color {
			v.color = c
			v.reload()
		}
	})
	v.colorSel.Selected = autoColor
	v.decSel = widget.NewSelect(decimations, func(s string) {
		st := 1 << max(slices.Index(decimations, s), 0)
		if st != v.stride {
			v.stride = st
			v.reload()
		}
	})
	v.decSel.Selected = decimations[0]
	v.axesCheck = widget.NewCheck("TF frames", func(b bool) {
		if b != v.axes {
			v.axes = b
			v.reload()
		}
	})
	v.axesCheck.Checked = true
	checks := []fyne.CanvasObject{widget.NewLabelWithStyle("Topics", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	for _, t := range v.topics {
		v.shown[t.Name] = true
		name := t.Name
		c := widget.NewCheck(name, func(b bool) {
			if v.shown[name] != b {
				v.shown[name] = b
				v.reload()
			}
		})
		c.Checked = true
		checks = append(checks, c)
	}
	if len(tf.Connections(l.Doc().Storage)) > 0 {
		checks = append(checks, v.axesCheck)
	}
	v.topicBox = container.NewVBox(checks...)

	view := func(name string, f func(c *scene.Camera)) *widget.Button {
		return widget.NewButton(name, func() { v.canvas.move(f) })
	}
	fit := widget.NewButtonWithIcon("Fit", theme.ViewFullScreenIcon(), v.fit)
	bar := container.NewHBox(
		widget.NewLabel("Fixed frame"), sized(v.fixedSel, 150),
		view("3D", func(c *scene.Camera) { d := scene.DefaultCamera(); c.Yaw, c.Pitch = d.Yaw, d.Pitch }),
		view("Top", (*scene.Camera).Top), view("Side", (*scene.Camera).Side), fit,
		widget.NewLabel("Follow"), sized(v.followSel, 130),
		widget.NewLabel("Colour"), sized(v.colorSel, 120),
		sized(v.decSel, 120),
	)
	side := container.NewVScroll(container.NewPadded(v.topicBox))
	v.job = widgets.NewJobStatus(func() { l.StopTFHistory() }, func() { v.readAt(v.histAt) })
	v.job.Relayout = func() { v.content.Refresh() }
	l.OnTFHistoryProgress(func(done, total int64) {
		v.job.Progress(link.TFHistoryProgressText(done, total), float64(done)/float64(total))
	})
	top := container.NewVBox(container.NewHScroll(bar), v.title, v.job.Content())
	split := container.NewHSplit(side, v.canvas)
	split.Offset = 0.16
	v.content = container.NewBorder(top, v.readout, nil, nil, split)
	if len(v.topics) == 0 && len(tf.Connections(l.Doc().Storage)) == 0 {
		v.content = widgets.NewEmptyState("Nothing to draw in 3D", "The recording has no point cloud, laser scan, marker, path, odometry, pose, occupancy grid or transform topic.")
	}
	// The scene is read only while the tab shows, and once when it is
	// shown again after the time moved; its tree comes from the transform
	// history, read once.
	v.stale = true
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

// Scene is the scene shown (nil before the first read ends).
func (v *View) Scene() *scene.Scene { return v.cur }

func sized(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
}

// now is the current time, or the recording's start before there is one.
func (v *View) now() int64 {
	if t, ok := v.l.Cursor(); ok {
		return t
	}
	return v.l.Doc().Summary.Start.Nanos()
}

// reload reads the scene again at the time shown (a setting changed).
func (v *View) reload() {
	if v.cur == nil && !v.reads.Reading() {
		v.stale = true
		if v.content.Visible() {
			v.readAt(v.now())
		}
		return
	}
	v.readAt(v.reads.Want())
}

// options are the settings of the next read.
func (v *View) options() scene.Options {
	o := scene.Options{Fixed: v.fixed, Axes: v.axes, AxisSize: 0.5, Cloud: scene.CloudOptions{Stride: v.stride}}
	for _, t := range v.topics {
		if v.shown[t.Name] {
			o.Topics = append(o.Topics, t)
		}
	}
	switch v.color {
	case autoColor:
		o.ScanBy = "intensity"
	case plainColor:
		o.Cloud.ColorField = "-"
	default:
		o.Cloud.ColorField, o.ScanBy = v.color, v.color
	}
	return o
}

// readAt reads the scene at receive time t in the background, once the
// transform history is read (for a recording with transforms). While a
// read runs, later moves are folded into one read after it.
func (v *View) readAt(t int64) {
	v.stale = false
	if v.hist != nil || len(tf.Connections(v.l.Doc().Storage)) == 0 {
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
			v.title.SetText("Cannot read the transforms: " + err.Error())
			return
		}
		v.hist, v.histErr = h, err
		v.reads.At(v.histAt)
	})
}

// read reads the scene at t, then calls finish (the Latest's run).
func (v *View) read(t int64, finish func(apply func())) {
	opt := v.options()
	rd, h, histErr := v.reader, v.hist, v.histErr
	// A setting changed at the same time: the tree then holds.
	var reuse *tf.Tree
	if v.cur != nil && v.cur.At == t && v.treeWhole {
		reuse = v.tree
	}
	v.l.WithIndex(func(x *model.MessageIndex) {
		var mu sync.Mutex
		var sc *scene.Scene
		var tree *tf.Tree
		var treeErr error
		read := false
		v.l.Go(func(ctx context.Context) {
			tr, err := reuse, error(nil)
			if tr == nil && h != nil {
				if tr, err = h.TreeAt(ctx, bag.TimeFromNanos(t)); err == nil {
					err = histErr
				}
				read = true
			}
			o := opt
			if o.Fixed == "" {
				if o.Fixed = scene.DefaultFixed(tr, nil); o.Fixed == "" {
					o.Fixed = scene.DefaultFixed(nil, firstFrames(ctx, rd, x, t, o.Topics))
				}
			}
			s := scene.Load(ctx, scene.Input{Reader: rd, Index: x, Tree: tr, History: h}, t, o)
			mu.Lock()
			sc, tree, treeErr = s, tr, err
			mu.Unlock()
		}, func() {
			mu.Lock()
			s, tr, err := sc, tree, treeErr
			if read {
				v.TreeReads++
			}
			mu.Unlock()
			finish(func() {
				if s != nil {
					v.show(s, tr, err)
				}
			})
		})
	})
}

// firstFrames are the frames the topics' messages at t name, for a fixed
// frame when the recording has no transforms.
func firstFrames(ctx context.Context, rd *model.MessageReader, x *model.MessageIndex, t int64, topics []scene.Topic) []string {
	s := scene.Load(ctx, scene.Input{Reader: rd, Index: x}, t, scene.Options{Topics: topics, Fixed: "\x00"})
	var out []string
	for _, ly := range s.Layers {
		out = append(out, ly.Frame)
	}
	return out
}

// show puts a read scene on screen.
func (v *View) show(s *scene.Scene, tr *tf.Tree, err error) {
	v.cur, v.tree, v.treeWhole = s, tr, tr != nil && err == nil
	if v.fixed == "" {
		v.fixed = s.Frame
	}
	frames := framesOf(s, tr)
	v.fixedSel.Options = frames
	v.fixedSel.Selected = v.fixed
	v.fixedSel.Refresh()
	v.followSel.Options = append([]string{noFollow}, frames...)
	v.followSel.Refresh()
	colors := []string{autoColor, plainColor}
	for _, ly := range s.Layers {
		for _, f := range ly.Fields {
			if !slices.Contains(colors, f) {
				colors = append(colors, f)
			}
		}
	}
	v.colorSel.Options = colors
	v.colorSel.Refresh()
	v.title.SetText(v.titleOf(s, err))
	v.canvas.SetScene(s)
	if !v.fitted && (s.Count() > 0 || len(s.Lines) > 0) {
		v.fitted = true
		v.fit()
	}
	v.applyFollow()
	if v.OnRead != nil {
		v.OnRead()
	}
}

// framesOf lists the frames a fixed frame can be: the tree's and those
// the messages name.
func framesOf(s *scene.Scene, tr *tf.Tree) []string {
	var out []string
	if tr != nil {
		out = tr.Names()
	}
	for _, ly := range s.Layers {
		if ly.Frame != "" && !slices.Contains(out, ly.Frame) {
			out = append(out, ly.Frame)
		}
	}
	if s.Frame != "" && !slices.Contains(out, s.Frame) {
		out = append(out, s.Frame)
	}
	slices.Sort(out)
	return out
}

func (v *View) titleOf(s *scene.Scene, err error) string {
	start := v.l.Doc().Summary.Start.Nanos()
	var b strings.Builder
	drawn := 0
	for _, ly := range s.Layers {
		if ly.Count > 0 {
			drawn++
		}
	}
	fmt.Fprintf(&b, "At %s in %s: %d of %d topics drawn, %s points", human.RelTime(s.At-start), s.Frame, drawn, len(s.Layers), human.Count(uint64(s.Count())))
	// The colour scale of each cloud coloured by a field: turbo from
	// blue at its lowest value to red at its highest.
	for _, ly := range s.Layers {
		if in := ly.Info; in != nil && in.ColorField != "" && in.ColorField != "rgb" && in.ColorField != "rgba" {
			fmt.Fprintf(&b, "  ·  %s by %s, blue %s to red %s", ly.Topic, in.ColorField,
				strconv.FormatFloat(in.Lo, 'g', 4, 64), strconv.FormatFloat(in.Hi, 'g', 4, 64))
		}
	}
	var probs []string
	for _, ly := range s.Layers {
		if ly.Problem != "" {
			probs = append(probs, ly.Topic+": "+ly.Problem)
		}
		if ly.Note != "" {
			probs = append(probs, ly.Topic+": "+ly.Note)
		}
	}
	if err != nil {
		probs = append(probs, "the transforms' read stopped: "+err.Error())
	}
	if len(probs) > 0 {
		b.WriteString("  ·  " + strings.Join(probs, "; "))
	}
	return b.String()
}

// fit frames the whole scene.
func (v *View) fit() {
	if v.cur == nil {
		return
	}
	lo, hi, ok := v.cur.FitBounds()
	if !ok {
		return
	}
	w, h := v.canvas.pixelSize()
	v.canvas.move(func(c *scene.Camera) { c.Fit(lo, hi, w, h) })
}

// applyFollow puts the camera's target on the followed frame.
func (v *View) applyFollow() {
	if v.follow == "" || v.follow == noFollow || v.cur == nil {
		return
	}
	p, err := scene.FramePose(v.tree, v.cur.Frame, v.follow)
	if err != nil {
		v.readout.SetText("Cannot follow " + v.follow + ": " + err.Error())
		return
	}
	v.canvas.move(func(c *scene.Camera) { c.Target = p.T })
}

// picked shows the fields of the clicked point.
func (v *View) picked(cloud, point int, ok bool) {
	if !ok || v.cur == nil || cloud >= len(v.cur.Clouds) {
		v.readout.SetText("No point under the pointer.")
		return
	}
	p := v.cur.Clouds[cloud]
	var b strings.Builder
	fmt.Fprintf(&b, "%s  (%.3f, %.3f, %.3f) in %s", p.Topic, p.X[point], p.Y[point], p.Z[point], v.cur.Frame)
	if p.Source != nil {
		for _, f := range p.Source.Fields(point) {
			b.WriteString("   " + f.Name + " " + strconv.FormatFloat(f.Value, 'g', 6, 64))
		}
	}
	v.readout.SetText(b.String())
}
