// Package message is the Message tab of a recording's window: the
// selected message as a field tree or as text, its bytes with each
// field's span, its image when it is one, and the actions on it (step,
// copy, plot a field, show its record), following the selected message.
package message

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// messagePanel is the Message tab: the selected message decoded as a tree
// of fields (or as `rostopic echo` prints it) beside its bytes, under the
// picture of an image message; draggable dividers part them and are
// remembered. Selecting a field highlights its bytes; tapping a byte
// selects the field that holds it. A field's value, its path in the plot
// syntax and the whole message as YAML or JSON are copied from the row
// menu (right click), the Copy button or the keys (message_copy.go).
// Arrays of numbers show several elements to a row with a sparkline, or
// one per row named by their keys. Prev and Next step through the
// message's topic, keeping the view as the user left it.
type messagePanel struct {
	l      link.Link
	reader *model.MessageReader
	// enums name the read message's integer values by its constants.
	enums   model.Enums
	content fyne.CanvasObject
	body    *fyne.Container // the empty state or the view

	empty fyne.CanvasObject
	view  fyne.CanvasObject

	title   *widgets.ClipLabel // cut with an ellipsis, whole in a tooltip
	where   *widgets.TipLine   // a raster: its text changes with every message (see LineLabel)
	prev    *widget.Button
	next    *widget.Button
	records *widget.Button
	plot    *widget.Button
	problem *widget.Label
	// addDefs offers to add a definition folder, beside the problem of a
	// message whose type has no definition.
	addDefs *widget.Button
	// problemRow holds the problem and addDefs; hidden with the problem.
	problemRow *fyne.Container
	tree       *msgTree
	detail     *widget.Label
	hex        *widgets.HexView

	// The fields pane shows the tree or the message as text.
	treeBtn, textBtn *widget.Button
	copyBtn          *widget.Button
	echo             *widget.Label // the text view
	echoScroll       *container.Scroll
	treeView         fyne.CanvasObject
	textMode         bool
	echoFor          *rosmsg.Node // the message echo shows, or nil

	// The image pane shows above the tree when the message is an image.
	split     *container.Split // treePane (or treeImage) | hex
	treePane  fyne.CanvasObject
	treeImage *fyne.Container  // picSplit, turned to fit (pictureLayout)
	picSplit  *container.Split // the picture above or beside the tree
	picture   *canvas.Image
	caption   *widgets.ClipLabel

	ref  msgref.Ref
	has  bool
	gen  int            // generation of the newest read, so older reads are dropped
	msg  *model.Message // nil until read
	ft   *model.FieldTree
	sel  string // selected tree node, or ""
	busy bool   // a tree selection made by the panel itself, not the user

	// reading is set while a read is in flight; a message shown meanwhile
	// waits for it (only the newest: p.ref) instead of starting another
	// read of a 4 MB picture beside it.
	reading bool
}

// firstRows is about how many tree rows a newly shown message opens.
const firstRows = 32

// New is the Message tab's content in a recording's window.
func New(l link.Link) fyne.CanvasObject {
	return newMessageView(l).content
}

func newMessageView(l link.Link) *messagePanel {
	p := &messagePanel{l: l, reader: model.NewMessageReader(l.Doc().Storage, nil)}
	// One mark for every view: what any read of the window learns.
	p.reader.Distrust = l.Doc().Distrust()

	p.title = widgets.NewClipLabel("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.where = widgets.NewTipLine("", fyne.TextStyle{})
	p.prev = widget.NewButtonWithIcon("Prev", theme.NavigateBackIcon(), func() { p.step(-1) })
	p.next = widget.NewButtonWithIcon("Next", theme.NavigateNextIcon(), func() { p.step(+1) })
	p.next.IconPlacement = widget.ButtonIconTrailingText
	p.records = widget.NewButtonWithIcon("Show in Records", theme.ListIcon(), p.showInRecords)
	if model.Lister(l.Doc().Storage) == nil {
		p.records.Hide() // the Records view does not read this format yet
	}
	p.plot = widget.NewButtonWithIcon("Plot", theme.GridIcon(), p.plotField)
	p.plot.Disable()
	p.problem = widget.NewLabel("")
	p.problem.Wrapping = fyne.TextWrapWord
	p.problem.Importance = widget.DangerImportance
	p.problem.Hide()
	// Where a message has no definition, the folder that holds one can be
	// added right here (the window reopens the recording with it).
	p.addDefs = widget.NewButtonWithIcon("Add definition folder…", theme.FolderOpenIcon(), func() {
		if f := l.Actions().AddDefinitionFolder; f != nil {
			f()
		}
	})
	p.addDefs.Hide()
	p.problemRow = container.NewBorder(nil, nil, nil, container.NewVBox(p.addDefs), p.problem)
	p.problemRow.Hide() // shown with the problem, so a panel without one keeps its height

	p.tree = newMsgTree(p)
	p.tree.OnSelected = p.selectField
	p.tree.OnUnselected = func(string) {}
	p.detail = widget.NewLabel("")
	p.detail.Wrapping = fyne.TextWrapWord // the status line: the whole path and value
	p.hex = widgets.NewHexView()
	p.hex.OnSelect = p.selectByte
	p.hex.OnShortcut = p.typedShortcut // Ctrl+Shift+C, Y, J from the bytes too

	p.treePane = p.newFieldsPane()
	nav := container.NewHBox(p.prev, p.next)
	actions := container.NewHBox(p.treeBtn, p.textBtn, p.copyBtn, p.records, p.plot)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nav, actions, p.title),
		p.where,
		p.problemRow,
	)
	p.picture = canvas.NewImageFromImage(nil)
	p.picture.FillMode = canvas.ImageFillContain
	p.picture.SetMinSize(fyne.NewSize(96, 72))
	p.caption = widgets.NewClipLabel("", fyne.TextAlignLeading, fyne.TextStyle{})
	// The Sensor tab draws the picture at full size, with zoom and a
	// pixel read-out.
	sensor := widget.NewButtonWithIcon("Open in Sensor", theme.ZoomInIcon(), func() {
		if !showInSensorTab(p.l) {
			p.setDetail("This window has no Sensor tab.")
		}
	})
	sensor.Importance = widget.LowImportance
	imagePane := container.NewBorder(container.NewBorder(nil, nil, nil, sensor, p.caption), nil, nil, nil, p.picture)
	p.picSplit = container.NewVSplit(imagePane, p.treePane)
	p.picSplit.Offset = 0.45 // the fields keep the larger part; Open in Sensor shows the picture whole
	widgets.RememberSplit(p.picSplit, splitMsgPicture)
	p.treeImage = container.New(&pictureLayout{}, p.picSplit)
	// The bytes scroll sideways when the divider leaves them less than
	// their width: the fields get the room they need.
	hexPane := container.NewBorder(nil, hexLegendMessage(), nil, nil, container.NewHScroll(p.hex))
	p.split = container.NewHSplit(p.treePane, hexPane)
	p.split.Offset = 0.5
	widgets.RememberSplit(p.split, splitMsgBytes)
	p.view = container.NewBorder(top, p.detail, nil, nil, p.split)

	start := widget.NewButtonWithIcon("Next", theme.NavigateNextIcon(), p.first)
	start.IconPlacement = widget.ButtonIconTrailingText
	start.Importance = widget.HighImportance
	p.empty = widgets.NewCentered(560, container.NewVBox(
		widgets.NewEmptyState("No message selected",
			"Select a message: click the timeline, a plot point or a message record in Records, or start at the first message of the selected topic."),
		container.NewCenter(start)))

	p.body = container.NewStack(p.empty)
	p.content = p.body
	l.Actions().StepMessage = p.step
	l.OnDistrust(p.distrusted)
	l.OnMessageShown(p.content, p.show) // decoded only while shown
	if ref, ok := l.Message(); ok {
		p.show(ref)
	}
	return p
}

// distrusted shows the message shown again, marked, when a read found
// the unit it was read from damaged (link.Link.OnDistrust).
func (p *messagePanel) distrusted() {
	m := p.msg
	if !p.has || m == nil || m.Suspect != "" || m.Damaged != "" {
		return
	}
	if p.reader.Distrust.Unit(bag.Loc{Block: m.Ref.ChunkPos, Offset: m.Ref.Offset}) != "" {
		p.msg = nil // read again: show returns early for the message it shows
		p.show(p.ref)
	}
}

// show reads and decodes the message ref in the background and shows it.
func (p *messagePanel) show(ref msgref.Ref) {
	if p.has && p.ref == ref && p.msg != nil {
		return
	}
	p.ref, p.has = ref, true
	p.gen++
	gen := p.gen
	topic := "?"
	if c := p.l.Doc().Storage.Connection(ref.Conn); c != nil {
		topic = c.Topic
	}
	if p.msg == nil || p.msg.Conn.Topic != topic {
		// The title names the topic until the message is read; the same
		// topic keeps its full title (measuring a label's cut is costly,
		// and playback shows a message every frame).
		p.title.SetText(topic)
	}
	p.where.SetText("Reading the message…")
	if len(p.body.Objects) != 1 || p.body.Objects[0] != p.view {
		// Refreshing the stack refreshes everything in it: only when the
		// view comes in, not on every message played.
		p.body.Objects = []fyne.CanvasObject{p.view}
		p.body.Refresh()
	}
	p.updatePosition()
	if p.reading {
		return // read when the read in flight ends (read's done)
	}
	p.read(ref, gen)
}

// read reads and decodes ref in the background and shows it, unless a
// newer message was shown meanwhile: then that one is read next.
func (p *messagePanel) read(ref msgref.Ref, gen int) {
	p.reading = true
	var (
		mu    sync.Mutex
		msg   *model.Message
		root  *rosmsg.Node
		pic   *messageImage
		warn  string
		err   error
		enums model.Enums
	)
	p.l.Go(func(context.Context) {
		m, e := p.reader.Read(ref)
		var r *rosmsg.Node
		var w string
		var mi *messageImage
		var en model.Enums
		if e == nil {
			r, w, e = p.reader.Decode(m)
			if r != nil {
				en = p.reader.Enums(m)
			}
			if r == nil && m != nil && e != nil {
				// Still show the bytes of a message that does not decode.
				w, e = "Could not decode: "+e.Error(), nil
			}
			if m != nil && sensor.IsImageType(m.Conn.Type) {
				// Decoded here: a camera frame can take milliseconds.
				mi = &messageImage{}
				mi.img, mi.info, mi.err = sensor.MessageImage(m.Conn.Type, r)
			}
		}
		mu.Lock()
		msg, root, pic, warn, err, enums = m, r, mi, w, e, en
		mu.Unlock()
	}, func() {
		p.reading = false
		if gen != p.gen {
			p.read(p.ref, p.gen) // the newest shown while this one was read
			return
		}
		mu.Lock()
		defer mu.Unlock()
		p.enums = enums
		p.display(msg, root, warn, err)
		p.showImage(pic)
	})
}

// messageImage is the picture of an image message, or why there is none.
type messageImage struct {
	img  image.Image
	info sensor.ImageInfo
	err  error
}

// pixelScaleMax is the largest image side scaled by repeating pixels,
// so that small images show their pixels instead of a blur.
const pixelScaleMax = 512

// showImage shows an image message's picture above the tree, or no image
// pane when mi is nil.
func (p *messagePanel) showImage(mi *messageImage) {
	var leading fyne.CanvasObject = p.treePane
	if mi != nil {
		leading = p.treeImage
		text := "Image  ·  " + mi.info.Caption()
		p.caption.Importance = widget.MediumImportance
		p.caption.Truncation = fyne.TextTruncateEllipsis
		p.caption.Wrapping = fyne.TextWrapOff
		if mi.err != nil {
			text += "  ·  " + mi.err.Error()
			p.caption.Importance = widget.DangerImportance
			p.caption.Truncation = fyne.TextTruncateOff
			p.caption.Wrapping = fyne.TextWrapWord
		}
		p.caption.SetText(text)
		p.picture.Image = mi.img
		p.picture.ScaleMode = canvas.ImageScaleSmooth
		if b := mi.info; mi.img != nil && b.Width <= pixelScaleMax && b.Height <= pixelScaleMax {
			p.picture.ScaleMode = canvas.ImageScalePixels
		}
		p.picture.Refresh()
	} else if p.picture.Image != nil {
		p.picture.Image = nil // not kept alive by a hidden pane
		p.picture.Refresh()
	}
	if p.split.Leading != leading {
		p.split.Leading = leading
		p.split.Refresh()
	}
}

// display shows a read message.
//
// A message of the same type as the one shown before keeps the view as the
// user left it: open branches, arrays listed one per row, the selected
// field (its bytes highlighted in the new message) and the scroll, so that
// stepping or playing shows one field changing.
func (p *messagePanel) display(m *model.Message, root *rosmsg.Node, warn string, err error) {
	oldFT, oldSel := p.ft, p.sel
	same := oldFT != nil && root != nil && p.msg != nil && m != nil &&
		p.msg.Conn.Type == m.Conn.Type && p.msg.Conn.MD5Sum == m.Conn.MD5Sum
	p.sel = ""
	p.plot.Disable()
	p.setDetail(p.idleHint())
	if err != nil {
		p.msg, p.ft = nil, nil
		p.updateEcho()
		p.problem.SetText(err.Error())
		p.problem.Show()
		p.problemRow.Show()
		p.addDefs.Hide()
		p.hex.Clear()
		p.tree.Refresh()
		p.updatePosition()
		return
	}
	p.msg = m
	p.ft = nil
	if root != nil {
		p.ft = model.NewFieldTree(root)
		p.ft.Grouped = true
		p.ft.SetEnums(p.enums)
	}
	title := fmt.Sprintf("%s  ·  %s", m.Conn.Topic, m.Conn.Type)
	if src := m.Conn.DefinitionSource; src != "" {
		title += "  ·  definition from " + src
	}
	if p.title.Text != title {
		p.title.SetText(title)
	}
	switch {
	case m.Suspect != "":
		// Never shown as good: the mark comes first.
		warn = strings.TrimSpace("Suspect message: " + m.Suspect + ". Its values may not be the ones recorded. " + warn)
	case m.Damaged != "":
		warn = strings.TrimSpace("From a damaged chunk: " + m.Damaged + ". This message's record was read whole, up to the damage. " + warn)
	}
	if m.Suspect != "" || m.Damaged != "" {
		// Its tick on the timeline is marked too, whether or not a read
		// of every message has run.
		p.l.AddMarks(link.Mark{Kind: link.Suspect, Topic: m.Conn.Topic, T: m.Time.Nanos()})
	}
	if warn != "" {
		p.problem.SetText(warn)
		p.problem.Show()
		p.problemRow.Show()
	} else {
		p.problem.Hide()
		p.problemRow.Hide()
	}
	if root == nil && m.Conn.Encoding == "cdr" && m.Conn.Definition == "" && p.l.Actions().AddDefinitionFolder != nil {
		p.addDefs.Show()
	} else {
		p.addDefs.Hide()
	}
	p.hex.SetData(bytes.NewReader(m.Context), m.RecordStart, m.RecordEnd-m.RecordStart, model.MessageSpans(m, root))
	p.hex.ScrollToOffset(m.DataOffset)
	if same {
		p.ft.KeepView(oldFT)
		p.tree.Refresh()
		if _, _, ok := p.ft.Range(oldSel); ok && oldSel != "" {
			p.selectField(oldSel) // the tree still selects it
		} else {
			p.tree.UnselectAll()
		}
	} else {
		p.tree.UnselectAll()
		p.tree.CloseAllBranches()
		if p.ft != nil {
			for _, id := range p.ft.OpenFirst(firstRows) {
				p.tree.OpenBranch(id)
			}
		}
		p.tree.Refresh()
		p.tree.ScrollToTop()
	}
	p.updateEcho()
	p.updatePosition()
}

// updatePosition says where the message is: its place in its topic, its
// time and its bytes. The place needs the message index.
func (p *messagePanel) updatePosition() {
	ref := p.ref
	p.l.WithIndex(func(x *model.MessageIndex) {
		if p.ref != ref {
			return
		}
		p.setWhere(x)
	})
}

func (p *messagePanel) setWhere(x *model.MessageIndex) {
	ref := p.ref
	var parts []string
	tm, i := p.topicOf(x)
	if tm != nil && i >= 0 {
		parts = append(parts, fmt.Sprintf("message %s of %s on %s", human.Count(uint64(i+1)), human.Count(uint64(tm.Len())), tm.Topic))
	}
	topics := p.stepTopics()
	if len(topics) > 1 {
		parts = append(parts, "Prev, Next step through "+human.Plural(uint64(len(topics)), "topic"))
	}
	_, hasPrev := stepRef(x, topics, ref, p.refTopic(), -1)
	_, hasNext := stepRef(x, topics, ref, p.refTopic(), +1)
	p.prev.Enable()
	p.next.Enable()
	if !hasPrev {
		p.prev.Disable()
	}
	if !hasNext {
		p.next.Disable()
	}
	start := p.l.Doc().Summary.Start
	t := bag.TimeFromNanos(ref.T)
	parts = append(parts, human.RelTime(ref.T-start.Nanos()),
		fmt.Sprintf("%s UTC (%d.%09d)", human.Time(t), t.Sec, t.NSec))
	if tm != nil {
		// A message of an added recording (File › Add Recording…) is
		// shown at its time plus the offset: its own time too.
		if r, _ := link.RecordingOf(p.l.Doc(), tm.Topic); r.Prefix != "" {
			own := bag.TimeFromNanos(ref.T - r.Offset)
			parts = append(parts, fmt.Sprintf("in %s %s: %s UTC (%d.%09d), offset %+.3f s", strings.TrimSuffix(r.Prefix, ":"), r.Name, human.Time(own), own.Sec, own.NSec, float64(r.Offset)/1e9))
		}
	}
	if m := p.msg; m != nil {
		parts = append(parts, messagePlace(p.l.Doc(), m))
	}
	p.where.SetText(strings.Join(parts, "  ·  "))
}

// messagePlace says where a message's bytes are: its record in its ROS 1
// chunk, or its block in another format.
func messagePlace(d *model.Document, m *model.Message) string {
	size := human.Plural(uint64(len(m.Data)), "byte")
	if d.Bag != nil {
		return fmt.Sprintf("%s, record at %d in the chunk at %d (%s)", size, m.RecordStart, m.Ref.ChunkPos, m.Compression)
	}
	for _, blk := range d.Storage.Blocks() {
		if blk.Offset == m.Ref.ChunkPos {
			comp := m.Compression
			if comp == "" {
				comp = "none"
			}
			return fmt.Sprintf("%s in the chunk at %d (%s)", size, m.Ref.ChunkPos, comp)
		}
	}
	return fmt.Sprintf("%s in the record at %d", size, m.Ref.ChunkPos)
}

// topicOf returns the selected message's topic in the index and its
// position there (-1 when the index does not list it).
func (p *messagePanel) topicOf(x *model.MessageIndex) (*model.TopicMessages, int) {
	c := p.l.Doc().Storage.Connection(p.ref.Conn)
	if c == nil {
		return nil, -1
	}
	tm := x.Topic(c.Topic)
	if tm == nil {
		return nil, -1
	}
	return tm, tm.IndexOf(p.ref)
}

// refTopic is the topic of the selected message, or "".
func (p *messagePanel) refTopic() string {
	if c := p.l.Doc().Storage.Connection(p.ref.Conn); c != nil {
		return c.Topic
	}
	return ""
}

// stepTopics are the topics Prev and Next step through: the selected
// topics when the selected message is on one of them, else the message's
// own topic (a message picked outside the selection, or with none).
func (p *messagePanel) stepTopics() []string {
	sel, own := p.l.Topics(), p.refTopic()
	if len(sel) > 0 && (own == "" || slices.Contains(sel, own)) {
		return sel
	}
	if own != "" {
		return []string{own}
	}
	return nil
}

// step selects the message delta (+1 or -1) places away in time order
// among the step topics.
func (p *messagePanel) step(delta int) {
	if !p.has {
		p.first()
		return
	}
	p.l.WithIndex(func(x *model.MessageIndex) {
		if r, ok := stepRef(x, p.stepTopics(), p.ref, p.refTopic(), delta); ok {
			p.l.SelectMessage(r)
		}
	})
}

// stepRef returns the message after (delta > 0) or before (delta < 0) cur
// among the topics' messages merged in time order. Messages at one time
// are ordered by the topics' order, then by their order in their topic.
// cur is on topic curTopic, which need not be among topics: then the next
// message is the first at or after cur's time, the previous the last
// before it.
func stepRef(x *model.MessageIndex, topics []string, cur msgref.Ref, curTopic string, delta int) (msgref.Ref, bool) {
	k, ci := -1, -1 // cur's topic among topics, and its place there
	for j, name := range topics {
		if name == curTopic {
			if tm := x.Topic(name); tm != nil {
				k, ci = j, tm.IndexOf(cur)
			}
			break
		}
	}
	if k >= 0 && ci < 0 {
		k = -1 // not indexed: step by time alone
	}
	var best msgref.Ref
	bestTopic, found := 0, false
	for j, name := range topics {
		tm := x.Topic(name)
		if tm == nil {
			continue
		}
		var i int
		switch {
		case j == k:
			i = ci + delta
		case delta > 0 && j < k:
			i = tm.Search(cur.T + 1) // messages at cur's time come before it
		case delta > 0:
			i = tm.Search(cur.T)
		case j < k:
			i = tm.Search(cur.T+1) - 1
		default:
			i = tm.Search(cur.T) - 1
		}
		if i < 0 || i >= tm.Len() {
			continue
		}
		r := tm.At(i)
		better := !found
		if found && delta > 0 {
			better = r.T < best.T || r.T == best.T && j < bestTopic
		} else if found {
			better = r.T > best.T || r.T == best.T && j > bestTopic
		}
		if better {
			best, bestTopic, found = r, j, true
		}
	}
	return best, found
}

// first selects the earliest message of the selected topics, or the
// first message of the first topic.
func (p *messagePanel) first() {
	p.l.WithIndex(func(x *model.MessageIndex) {
		var tm *model.TopicMessages
		for _, name := range p.l.Topics() {
			if t := x.Topic(name); t != nil && t.Len() > 0 && (tm == nil || t.At(0).T < tm.At(0).T) {
				tm = t
			}
		}
		if tm == nil || tm.Len() == 0 {
			for _, t := range x.Topics {
				if t.Len() > 0 {
					tm = t
					break
				}
			}
		}
		if tm != nil && tm.Len() > 0 {
			p.l.SelectMessage(tm.At(0))
		}
	})
}

// showInRecords opens the message's chunk in the Records tab and selects
// its record.
func (p *messagePanel) showInRecords() {
	if p.has {
		if f := p.l.Actions().ShowMessageRecord; f != nil {
			f(p.ref.ChunkPos, p.ref.Offset)
		}
	}
}

// plotField adds the selected field to the plots, by key when its array
// elements have keys (position[shoulder_pan] follows the joint whatever its
// place in later messages).
func (p *messagePanel) plotField() {
	if p.ft == nil || !p.plottable(p.sel) || p.l.Actions().AddSeries == nil || p.msg == nil {
		return
	}
	path := p.ft.KeyPath(p.sel)
	if path == "" {
		path = p.ft.Path(p.sel)
	}
	p.l.Actions().AddSeries(p.msg.Conn.Topic + "." + path)
	p.l.SelectTab("Plots")
}
