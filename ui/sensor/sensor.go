// Package sensor is the Sensor tab of a recording's window: the images,
// laser scans and point clouds of its sensor topics, drawn at the
// window's current time, with zoom, pan and a read-out under the pointer.
package sensor

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	msensor "github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/model/video"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// sensorTopics returns the topics of d that the Sensor view draws.
func sensorTopics(d *model.Document) []string {
	var out []string
	for _, t := range d.Topics {
		if msensor.KindOf(t.Type) != msensor.KindNone {
			out = append(out, t.Topic)
		}
	}
	return out
}

// sensorPanel is the Sensor tab: the picture of an image, laser scan or
// point cloud message. It shows the selected message when it is one, and
// otherwise follows the time cursor on its topic: the topic's message at
// or before the cursor.
type sensorPanel struct {
	l       link.Link
	reader  *model.MessageReader
	content fyne.CanvasObject

	topicSel *widget.Select
	prev     *widget.Button // the topic's previous and next message
	next     *widget.Button
	position *widget.Label // "12 / 40"
	title    *widget.Label
	readout  *widget.Label
	note     *widget.Label
	body     *fyne.Container // stack: empty state, image, points, problem

	empty   fyne.CanvasObject
	problem *widget.Label

	// The image view and its controls.
	img      *imageView
	imgPane  fyne.CanvasObject
	cmapSel  *widget.Select
	loEntry  *widget.Entry
	hiEntry  *widget.Entry
	autoBtn  *widget.Button
	scalarUI *fyne.Container
	zoomText *widget.Label

	// The point view (laser scans, point clouds) and its controls.
	pts       *pointView
	ptsPane   fyne.CanvasObject
	fieldSel  *widget.Select
	cloudCmap *widget.Select
	legend    *canvas.Raster
	legendTxt *widget.Label
	cloudUI   *fyne.Container

	topic string
	ref   msgref.Ref
	has   bool
	cur   *sensorResult // what is shown

	// Reads run one at a time; a request made meanwhile waits in queued
	// (only the newest). While the tab is hidden nothing is read: the
	// newest request waits in pending until it shows.
	reading bool
	queued  *msgref.Ref
	pending *msgref.Ref

	// Settings of single-channel images and clouds, kept across frames.
	cmap   *msensor.ColorMap
	auto   bool
	lo, hi float64
	field  string // cloud colour field; "" picks z or intensity
	// scanField colours scans: scanPlain (""), scanRange, scanIntensity.
	scanField string
	busy      bool // the panel is setting its own widgets

	// H.264/H.265 topics: their indexes and decoder, the frame strip, and
	// what shows in place of the picture without ffmpeg.
	vs        *videoState
	strip     *frameStrip
	noDecoder *widget.Label
	noDecPane fyne.CanvasObject
	bottom    *fyne.Container // the strip over the read-out and note
}

// sensorResult is a read and decoded sensor message, ready to show.
type sensorResult struct {
	ref   msgref.Ref
	topic string
	typ   string
	kind  msensor.Kind
	err   error

	frame *msensor.ImageFrame
	pic   image.Image // the frame drawn with the panel's settings

	scan  *msensor.LaserScan
	cloud *msensor.Cloud
	set   *pointSet

	video *videoResult // an H.264/H.265 frame (kind KindImage)
}

func newSensorPanel(l link.Link) *sensorPanel {
	p := &sensorPanel{l: l, reader: model.NewMessageReader(l.Doc().Storage, nil), cmap: msensor.TurboMap, auto: true}
	topics := sensorTopics(l.Doc())
	p.topicSel = widget.NewSelect(topics, func(t string) {
		if p.busy {
			return
		}
		p.topic = t
		p.follow()
	})
	p.topicSel.PlaceHolder = "Sensor topic"
	p.title = widget.NewLabel("")
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.readout = widget.NewLabel("")
	p.readout.TextStyle.Monospace = true
	p.readout.Truncation = fyne.TextTruncateEllipsis
	p.note = widget.NewLabel("")
	p.problem = widget.NewLabel("")
	p.problem.Wrapping = fyne.TextWrapWord
	p.problem.Importance = widget.DangerImportance

	p.buildImagePane()
	p.buildPointPane()
	p.vs = &videoState{reader: model.NewMessageReader(l.Doc().Storage, nil), indexes: map[string]*video.Index{}, lazy: map[string]*video.Index{}}
	p.strip = newFrameStrip()
	p.strip.OnSelect = p.selectFrame
	p.strip.Hide()
	p.noDecoder = widget.NewLabel("")
	p.noDecoder.Wrapping = fyne.TextWrapWord
	p.noDecoder.Importance = widget.WarningImportance
	p.noDecPane = container.NewPadded(p.noDecoder)

	p.empty = widgets.NewEmptyState("No sensor message shown",
		"Select an image, laser scan or point cloud message (in the timeline, Records or the Message view), or pick a sensor topic above: "+
			"the view then follows the time cursor on that topic.")
	p.body = container.NewStack(p.empty)
	p.prev = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { p.step(-1) })
	p.next = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { p.step(+1) })
	p.position = widget.NewLabel("")
	top := container.NewBorder(nil, nil,
		container.NewHBox(sized(p.topicSel, 260), p.prev, p.next, p.position), nil, p.title)
	bottom := container.NewBorder(p.strip, nil, nil, p.note, p.readout)
	p.bottom = bottom
	p.content = container.NewBorder(top, bottom, nil, nil, p.body)
	l.OnShown(p.content, func() {
		if ref := p.pending; ref != nil {
			p.pending = nil
			p.request(*ref)
			return
		}
		if p.topic == "" && len(topics) > 0 {
			// Shown with nothing chosen: the first sensor topic at the
			// current time, rather than an empty view.
			p.setTopic(topics[0])
			p.follow()
		}
	})

	l.OnMessage(func(ref msgref.Ref) {
		c := l.Doc().Storage.Connection(ref.Conn)
		if c == nil || msensor.KindOf(c.Type) == msensor.KindNone {
			return
		}
		p.setTopic(c.Topic)
		p.request(ref)
	})
	l.OnCursor(func(int64) { p.follow() })
	if ref, ok := l.Message(); ok {
		if c := l.Doc().Storage.Connection(ref.Conn); c != nil && msensor.KindOf(c.Type) != msensor.KindNone {
			p.setTopic(c.Topic)
			p.request(ref)
		}
	}
	return p
}

// setTopic shows topic in the chooser without following the cursor.
func (p *sensorPanel) setTopic(topic string) {
	p.topic = topic
	p.busy = true
	p.topicSel.SetSelected(topic)
	p.busy = false
}

// follow shows the panel's topic's message at or before the cursor (the
// first one before the cursor reaches it).
func (p *sensorPanel) follow() {
	topic := p.topic
	if topic == "" {
		return
	}
	p.l.WithIndex(func(x *model.MessageIndex) {
		if p.topic != topic {
			return
		}
		tm := x.Topic(topic)
		if tm == nil || tm.Len() == 0 {
			return
		}
		t, ok := p.l.Cursor()
		i := 0
		if ok {
			i = max(0, tm.Search(t+1)-1)
		}
		ref := tm.At(i)
		if p.has && p.ref.T == ref.T && p.ref.Conn == ref.Conn {
			return // the shown message, or one received at the same time
		}
		p.request(ref)
	})
}

// request reads and shows ref, after the read in progress if any.
func (p *sensorPanel) request(ref msgref.Ref) {
	if p.content != nil && !p.content.Visible() {
		p.pending = &ref
		return
	}
	if p.has && p.ref == ref {
		return
	}
	p.ref, p.has = ref, true
	if p.reading {
		p.queued = &ref
		p.vs.cancelDecode() // a video frame no longer wanted
		return
	}
	p.read(ref)
}

// step selects the previous (-1) or next (+1) message of the panel's
// topic, which every view then shows.
func (p *sensorPanel) step(delta int) {
	if p.cur == nil {
		return
	}
	shown := p.cur.ref
	p.l.WithIndex(func(x *model.MessageIndex) {
		tm := x.Topic(p.topic)
		if tm == nil {
			return
		}
		if i := tm.IndexOf(shown) + delta; i >= 0 && i < tm.Len() {
			p.l.SelectMessage(tm.At(i))
		}
	})
}

// updatePosition says which of its topic's messages is shown and
// enables the previous and next buttons where there is one.
func (p *sensorPanel) updatePosition() {
	p.prev.Disable()
	p.next.Disable()
	p.position.SetText("")
	if p.cur == nil {
		return
	}
	ref := p.cur.ref
	p.l.WithIndex(func(x *model.MessageIndex) {
		tm := x.Topic(p.topic)
		if tm == nil || p.cur == nil || p.cur.ref != ref {
			return
		}
		i := tm.IndexOf(ref)
		if i < 0 {
			return
		}
		p.position.SetText(fmt.Sprintf("%s / %s", human.Count(uint64(i+1)), human.Count(uint64(tm.Len()))))
		if i > 0 {
			p.prev.Enable()
		}
		if i+1 < tm.Len() {
			p.next.Enable()
		}
	})
}

// settings are what the background work needs of the panel's controls.
type sensorSettings struct {
	cmap      *msensor.ColorMap
	auto      bool
	lo, hi    float64
	field     string
	scanField string
}

func (p *sensorPanel) settings() sensorSettings {
	return sensorSettings{cmap: p.cmap, auto: p.auto, lo: p.lo, hi: p.hi, field: p.field, scanField: p.scanField}
}

func (p *sensorPanel) read(ref msgref.Ref) {
	p.reading = true
	set := p.settings()
	var (
		mu  sync.Mutex
		res *sensorResult
	)
	// The topic's messages (a video frame needs its keyframe's), once
	// the index is built.
	var tm *model.TopicMessages
	if x := p.l.Index(); x != nil {
		if c := p.l.Doc().Storage.Connection(ref.Conn); c != nil {
			tm = x.Topic(c.Topic)
		}
	}
	vj := &videoJob{state: p.vs, topic: tm}
	p.l.Go(func(ctx context.Context) {
		vj.ctx = ctx
		r := readSensor(p.reader, ref, set, vj)
		mu.Lock()
		res = r
		mu.Unlock()
	}, func() {
		p.reading = false
		mu.Lock()
		r := res
		mu.Unlock()
		if q := p.queued; q != nil {
			p.queued = nil
			if *q != ref {
				p.read(*q)
				return
			}
		}
		p.display(r)
	})
}

// readSensor reads, decodes and draws a sensor message (in the
// background).
// A video message (H.264/H.265) is indexed and decoded through vj; with
// vj nil it is described, not drawn.
func readSensor(rd *model.MessageReader, ref msgref.Ref, set sensorSettings, vj *videoJob) *sensorResult {
	r := &sensorResult{ref: ref}
	m, err := rd.Read(ref)
	if err != nil {
		r.err = err
		return r
	}
	r.topic, r.typ = m.Conn.Topic, m.Conn.Type
	r.kind = msensor.KindOf(m.Conn.Type)
	root, _, err := rd.Decode(m)
	if err != nil {
		r.err = err
		return r
	}
	if c, format, ok := videoCodec(r.typ, root); ok {
		if vj == nil {
			vj = &videoJob{ctx: context.Background()}
		}
		r.fillVideo(vj.ctx, vj.state, vj.topic, root, c, format)
		return r
	}
	r.fill(root, set)
	return r
}

// fill decodes root into the view's data with settings set.
func (r *sensorResult) fill(root *rosmsg.Node, set sensorSettings) {
	switch r.kind {
	case msensor.KindImage:
		r.frame, r.err = msensor.DecodeImage(r.typ, root)
		if r.err == nil {
			r.draw(set)
		}
	case msensor.KindLaser:
		r.scan, r.err = msensor.DecodeLaserScan(root)
		if r.err == nil {
			r.set = scanPoints(r.scan, set.scanField, set.cmap)
		}
	case msensor.KindCloud:
		r.cloud, r.err = msensor.DecodeCloud(root, set.field, 0)
		if r.err != nil && set.field != "" && r.cloud != nil {
			// The chosen field is not in this cloud: its default.
			r.cloud, r.err = msensor.DecodeCloud(root, "", 0)
		}
		if r.err == nil {
			r.set = cloudPoints(r.cloud, set.cmap)
		}
	default:
		r.err = fmt.Errorf("%s is not drawn by the Sensor view", r.typ)
	}
}

// draw renders the image frame with the colour map and range of set (the
// frame's own range when set.auto).
func (r *sensorResult) draw(set sensorSettings) {
	f := r.frame
	if !f.Scalar() {
		r.pic = f.Img
		return
	}
	lo, hi := set.lo, set.hi
	if set.auto {
		lo, hi = f.Lo, f.Hi
	}
	r.pic = f.Render(lo, hi, set.cmap)
}

// Scan colourings.
const (
	scanPlain     = "one colour"
	scanRange     = "range"
	scanIntensity = "intensity"
)

// scanPoints are a laser scan's points with its range_max drawn as a
// circle, in the theme's primary colour or coloured by range or
// intensity through cm (over the drawn points' own span).
func scanPoints(s *msensor.LaserScan, by string, cm *msensor.ColorMap) *pointSet {
	n := len(s.Points)
	ps := &pointSet{Rings: true, Origin: true, Limit: s.RangeMax, X: make([]float32, n), Y: make([]float32, n)}
	for i, pt := range s.Points {
		ps.X[i], ps.Y[i] = float32(pt.X), float32(pt.Y)
	}
	if by != scanRange && by != scanIntensity {
		return ps
	}
	val := func(pt msensor.ScanPoint) float64 {
		if by == scanRange {
			return pt.Range
		}
		return pt.Intensity
	}
	lo, hi := scanSpan(s, by)
	ps.C = make([]color.NRGBA, n)
	for i, pt := range s.Points {
		v := val(pt)
		switch {
		case math.IsNaN(v):
			ps.C[i] = color.NRGBA{128, 128, 128, 255}
		case hi > lo:
			ps.C[i] = cm.At((v - lo) / (hi - lo))
		default:
			ps.C[i] = cm.At(0.5)
		}
	}
	return ps
}

// scanSpan returns the smallest and largest range or intensity of a
// scan's drawn points (NaN intensities left out).
func scanSpan(s *msensor.LaserScan, by string) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, pt := range s.Points {
		v := pt.Range
		if by == scanIntensity {
			v = pt.Intensity
		}
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	return lo, hi
}

// cloudPoints are a cloud's points coloured by its colour field through
// cm, or by their own packed colours.
func cloudPoints(c *msensor.Cloud, cm *msensor.ColorMap) *pointSet {
	ps := &pointSet{X: c.X, Y: c.Y}
	if c.RGB != nil {
		// Packed colours (PCL's rgb): the points' own.
		ps.C = make([]color.NRGBA, len(c.RGB))
		for i, v := range c.RGB {
			ps.C[i] = color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}
		}
		return ps
	}
	if c.C == nil {
		return ps
	}
	ps.C = make([]color.NRGBA, len(c.C))
	span := c.Hi - c.Lo
	for i, v := range c.C {
		t := 0.5
		if span > 0 {
			t = (float64(v) - c.Lo) / span
		}
		if math.IsNaN(t) {
			ps.C[i] = color.NRGBA{128, 128, 128, 255}
			continue
		}
		ps.C[i] = cm.At(t)
	}
	return ps
}

// display shows a read sensor message.
func (p *sensorPanel) display(r *sensorResult) {
	prev := p.cur
	p.cur = r
	defer p.indexVideo(r) // a lazily indexed video topic's whole index, or stop another's
	p.updatePosition()
	start := p.l.Doc().Summary.Start.Nanos()
	title := fmt.Sprintf("%s  ·  %s  ·  %s", r.topic, r.typ, human.RelTime(r.ref.T-start))
	p.readout.SetText("")
	switch r.kind {
	case msensor.KindImage:
		p.readout.SetText(imageHint)
	case msensor.KindLaser, msensor.KindCloud:
		p.readout.SetText(pointsHint)
	}
	p.note.SetText("")
	p.showStrip(r)
	if r.err != nil {
		p.readout.SetText("")
		if r.frame != nil {
			title += "  ·  " + r.frame.Info.Caption()
		}
		p.title.SetText(title)
		p.problem.SetText(r.err.Error())
		p.show(container.NewPadded(p.problem))
		return
	}
	switch {
	case r.video != nil:
		title += "  ·  " + videoTitle(r)
		p.note.SetText(videoNote(r.video))
		p.scalarUI.Hide()
		switch {
		case r.pic != nil:
			p.img.SetImage(r.pic)
			p.show(p.imgPane)
			p.updateZoomText()
		case r.video.noDecoder:
			p.readout.SetText("")
			p.noDecoder.SetText(noDecoderText(r))
			p.show(p.noDecPane)
		case r.video.decodeErr != nil:
			p.readout.SetText("")
			p.problem.SetText("The frame is not drawn: " + r.video.decodeErr.Error())
			p.show(container.NewPadded(p.problem))
		default:
			p.readout.SetText("")
			p.problem.SetText("The frame is not drawn yet: the topic's messages are being indexed.")
			p.show(container.NewPadded(p.problem))
		}
	case r.kind == msensor.KindImage:
		title += "  ·  " + r.frame.Info.Caption()
		p.img.SetImage(r.pic)
		p.showScalarUI(r.frame)
		p.show(p.imgPane)
		p.updateZoomText()
	case r.kind == msensor.KindLaser:
		s := r.scan
		keep := prev != nil && prev.kind == msensor.KindLaser && prev.topic == r.topic
		p.pts.SetPoints(r.set, keep)
		title += fmt.Sprintf("  ·  %s, %.1f° to %.1f°, range %s to %s", human.Plural(uint64(s.Beams), "beam"),
			s.AngleMin*180/math.Pi, s.AngleMax*180/math.Pi, formatLength(s.RangeMin), formatLength(s.RangeMax))
		p.note.SetText(scanNote(s))
		p.showScanUI(s)
		p.show(p.ptsPane)
	case r.kind == msensor.KindCloud:
		c := r.cloud
		keep := prev != nil && prev.kind == msensor.KindCloud && prev.topic == r.topic
		p.pts.SetPoints(r.set, keep)
		title += fmt.Sprintf("  ·  %s (%d×%d), point_step %d", human.Plural(uint64(c.Total), "point"), c.Width, c.Height, c.PointStep)
		p.note.SetText(cloudNote(c))
		p.showCloudUI(c)
		p.show(p.ptsPane)
	}
	p.title.SetText(title)
}

// scanNote says how many beams are drawn and why the others are not.
func scanNote(s *msensor.LaserScan) string {
	text := fmt.Sprintf("%s of %s drawn", human.Count(uint64(len(s.Points))), human.Plural(uint64(s.Beams), "beam"))
	var why []string
	for _, c := range []struct {
		n    int
		what string
	}{{s.NaN, "NaN"}, {s.Inf, "infinite"}, {s.Below, "below range_min"}, {s.Above, "above range_max"}} {
		if c.n > 0 {
			why = append(why, fmt.Sprintf("%s %s", human.Count(uint64(c.n)), c.what))
		}
	}
	if len(why) > 0 {
		text += " (" + strings.Join(why, ", ") + ")"
	}
	return text
}

// cloudNote says how many points are drawn: decimation and NaNs.
func cloudNote(c *msensor.Cloud) string {
	text := fmt.Sprintf("%s drawn", human.Plural(uint64(len(c.X)), "point"))
	if c.Stride > 1 {
		text += fmt.Sprintf(", every %s", ordinal(c.Stride))
	}
	if c.NaN > 0 {
		text += fmt.Sprintf(", %s without finite x, y", human.Count(uint64(c.NaN)))
	}
	return text
}

func ordinal(n int) string {
	s := strconv.Itoa(n)
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// formatLength writes metres with up to 4 significant digits: "0.02 m".
func formatLength(m float64) string {
	return strconv.FormatFloat(m, 'g', 4, 64) + " m"
}

// show puts o in the body.
func (p *sensorPanel) show(o fyne.CanvasObject) {
	if len(p.body.Objects) == 1 && p.body.Objects[0] == o {
		return
	}
	p.body.Objects = []fyne.CanvasObject{o}
	p.body.Refresh()
}

// buildImagePane makes the image view with its zoom buttons, and the
// colour map and range of single-channel images.
func (p *sensorPanel) buildImagePane() {
	p.img = newImageView()
	p.img.OnHover = p.hoverPixel
	p.img.OnZoom = func(float32) { p.updateZoomText() }
	fit := widget.NewButtonWithIcon("Fit", theme.ViewFullScreenIcon(), p.img.Fit)
	one := widget.NewButton("1:1", p.img.OneToOne)
	in := widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { p.img.ZoomBy(1.25) })
	out := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { p.img.ZoomBy(1 / 1.25) })
	p.zoomText = widget.NewLabel("")
	var names []string
	for _, m := range msensor.ColorMaps {
		names = append(names, m.Name)
	}
	p.cmapSel = widget.NewSelect(names, func(name string) {
		if p.busy {
			return
		}
		p.cmap = msensor.ColorMapNamed(name)
		p.redraw()
	})
	p.loEntry = widget.NewEntry()
	p.hiEntry = widget.NewEntry()
	for _, e := range []*widget.Entry{p.loEntry, p.hiEntry} {
		e.OnSubmitted = func(string) { p.setRange() }
	}
	p.autoBtn = widget.NewButton("Auto range", func() {
		p.auto = true
		p.redraw()
	})
	p.scalarUI = container.NewHBox(widget.NewLabel("Colour map"), p.cmapSel,
		widget.NewLabel("Range"), sized(p.loEntry, 90), widget.NewLabel("to"), sized(p.hiEntry, 90), p.autoBtn)
	p.scalarUI.Hide()
	tools := container.NewHBox(fit, one, out, in, p.zoomText, p.scalarUI)
	p.imgPane = container.NewBorder(tools, nil, nil, nil, p.img)
}

// sized makes o at least w wide.
func sized(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
}

// buildPointPane makes the point view with its fit button and, for
// clouds, the colour field and its legend.
func (p *sensorPanel) buildPointPane() {
	p.pts = newPointView()
	p.pts.OnHover = p.hoverMetres
	fit := widget.NewButtonWithIcon("Fit", theme.ViewFullScreenIcon(), p.pts.Fit)
	in := widget.NewButtonWithIcon("", theme.ZoomInIcon(), func() { p.pts.ZoomBy(1.25) })
	out := widget.NewButtonWithIcon("", theme.ZoomOutIcon(), func() { p.pts.ZoomBy(1 / 1.25) })
	p.fieldSel = widget.NewSelect(nil, func(f string) {
		if p.busy {
			return
		}
		if r := p.cur; r != nil && r.kind == msensor.KindLaser {
			p.scanField = f
		} else {
			p.field = f
		}
		p.redraw()
	})
	p.legend = canvas.NewRaster(func(w, h int) image.Image {
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for x := 0; x < w; x++ {
			c := p.cmap.At(float64(x) / float64(max(1, w-1)))
			for y := 0; y < h; y++ {
				img.SetNRGBA(x, y, c)
			}
		}
		return img
	})
	p.legend.SetMinSize(fyne.NewSize(120, 12))
	p.legendTxt = widget.NewLabel("")
	p.cloudCmap = widget.NewSelect(func() []string {
		var n []string
		for _, m := range msensor.ColorMaps {
			n = append(n, m.Name)
		}
		return n
	}(), func(name string) {
		if p.busy {
			return
		}
		p.cmap = msensor.ColorMapNamed(name)
		p.redraw()
	})
	p.cloudCmap.SetSelected(p.cmap.Name)
	p.cloudUI = container.NewHBox(widget.NewLabel("Colour by"), p.fieldSel, p.cloudCmap, container.NewCenter(p.legend), p.legendTxt)
	p.cloudUI.Hide()
	tools := container.NewHBox(fit, out, in, p.cloudUI)
	p.ptsPane = container.NewBorder(tools, nil, nil, nil, p.pts)
}

// showScalarUI shows the colour map and range controls for a
// single-channel frame.
func (p *sensorPanel) showScalarUI(f *msensor.ImageFrame) {
	if !f.Scalar() {
		p.scalarUI.Hide()
		return
	}
	if p.auto {
		p.lo, p.hi = f.Lo, f.Hi
	}
	p.busy = true
	p.cmapSel.SetSelected(p.cmap.Name)
	p.loEntry.SetText(formatValue(p.lo))
	p.hiEntry.SetText(formatValue(p.hi))
	p.busy = false
	p.scalarUI.Show()
}

// showScanUI offers to colour a scan by range, or intensity where it
// has them.
func (p *sensorPanel) showScanUI(s *msensor.LaserScan) {
	opts := []string{scanPlain, scanRange}
	if lo, hi := scanSpan(s, scanIntensity); lo <= hi {
		opts = append(opts, scanIntensity)
	}
	by := p.scanField
	if !slices.Contains(opts, by) {
		by = scanPlain
	}
	p.busy = true
	p.fieldSel.Options = opts
	p.fieldSel.SetSelected(by)
	p.cloudCmap.SetSelected(p.cmap.Name)
	p.busy = false
	if by == scanPlain {
		p.legendTxt.SetText("")
		p.legend.Hide()
	} else {
		lo, hi := scanSpan(s, by)
		unit := ""
		if by == scanRange {
			unit = " m"
		}
		p.legendTxt.SetText(fmt.Sprintf("%s  %s … %s%s", by, formatValue(lo), formatValue(hi), unit))
		p.legend.Show()
	}
	p.legend.Refresh()
	p.cloudUI.Show()
}

// showCloudUI offers the cloud's fields to colour by.
func (p *sensorPanel) showCloudUI(c *msensor.Cloud) {
	p.busy = true
	p.fieldSel.Options = c.CloudFields()
	p.fieldSel.SetSelected(c.ColorField)
	p.cloudCmap.SetSelected(p.cmap.Name)
	p.busy = false
	switch {
	case c.RGB != nil:
		p.legendTxt.SetText(c.ColorField + ": the points' own colours")
		p.legend.Hide()
	case c.ColorField != "":
		p.legendTxt.SetText(fmt.Sprintf("%s  %s … %s", c.ColorField, formatValue(c.Lo), formatValue(c.Hi)))
		p.legend.Show()
	default:
		p.legendTxt.SetText("no field to colour by")
		p.legend.Hide()
	}
	p.legend.Refresh()
	p.cloudUI.Show()
}

func formatValue(v float64) string { return strconv.FormatFloat(v, 'g', 5, 64) }

// setRange takes the range typed in the entries.
func (p *sensorPanel) setRange() {
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(p.loEntry.Text), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(p.hiEntry.Text), 64)
	if err1 != nil || err2 != nil || !(hi > lo) {
		p.note.SetText("The range needs two numbers, the first below the second.")
		return
	}
	p.lo, p.hi, p.auto = lo, hi, false
	p.redraw()
}

// redraw draws the shown message again with the current settings.
func (p *sensorPanel) redraw() {
	r := p.cur
	if r == nil || r.err != nil {
		return
	}
	set := p.settings()
	var (
		mu  sync.Mutex
		out *sensorResult
	)
	p.l.Go(func(context.Context) {
		n := *r
		switch n.kind {
		case msensor.KindImage:
			n.draw(set)
		case msensor.KindLaser:
			n.set = scanPoints(n.scan, set.scanField, set.cmap)
		case msensor.KindCloud:
			if set.field != "" && set.field != r.cloud.ColorField {
				// Another field: decode the message again.
				n = *readSensor(p.reader, r.ref, set, nil)
				break
			}
			n.set = cloudPoints(n.cloud, set.cmap)
		}
		mu.Lock()
		out = &n
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		if p.cur != r {
			return // another message arrived meanwhile
		}
		p.display(out)
	})
}

// What the read-out says while the pointer is elsewhere.
const (
	imageHint  = "Point at a pixel for its value · wheel zooms, drag pans · after a click: + − zoom, 1 is 1:1, 0 fits"
	pointsHint = "Point for coordinates (x right, y up) · wheel zooms, drag pans · after a click: + − zoom, 0 fits"
)

// hoverPixel shows the pixel under the pointer.
func (p *sensorPanel) hoverPixel(x, y int, ok bool) {
	r := p.cur
	if !ok || r == nil || r.frame == nil {
		p.readout.SetText(imageHint)
		return
	}
	v, ok := r.frame.Pixel(x, y)
	if !ok {
		p.readout.SetText(imageHint)
		return
	}
	p.readout.SetText(fmt.Sprintf("x %d  y %d  ·  %s", x, y, v))
}

// hoverMetres shows the point under the pointer in metres.
func (p *sensorPanel) hoverMetres(x, y float64, ok bool) {
	if !ok {
		p.readout.SetText(pointsHint)
		return
	}
	text := fmt.Sprintf("x %.3f m  y %.3f m", x, y)
	r := p.cur
	if r != nil && r.kind == msensor.KindLaser {
		text += fmt.Sprintf("  ·  range %.3f m  angle %.1f°", math.Hypot(x, y), math.Atan2(y, x)*180/math.Pi)
	}
	// The point drawn nearest the pointer, if close enough to be the one
	// pointed at.
	if r != nil && r.set != nil {
		if i := nearestPoint(r.set, x, y, hoverRadius/p.pts.ppm); i >= 0 {
			switch {
			case r.scan != nil:
				sp := r.scan.Points[i]
				text += fmt.Sprintf("  ·  beam %d: %.3f m at %.1f°", sp.Index, sp.Range, sp.Angle*180/math.Pi)
				if !math.IsNaN(sp.Intensity) {
					text += fmt.Sprintf(", intensity %s", formatValue(sp.Intensity))
				}
			case r.cloud != nil && r.cloud.RGB != nil:
				text += fmt.Sprintf("  ·  point %s = #%06x", r.cloud.ColorField, r.cloud.RGB[i]&0xffffff)
			case r.cloud != nil && r.cloud.C != nil:
				text += fmt.Sprintf("  ·  point %s = %s", r.cloud.ColorField, formatValue(float64(r.cloud.C[i])))
			}
		}
	}
	p.readout.SetText(text)
}

// hoverRadius is how near the pointer (view units) a point must be for
// the read-out to describe it.
const hoverRadius = 6

// nearestPoint returns the index of the point of s nearest x, y within
// radius (metres), or -1.
func nearestPoint(s *pointSet, x, y, radius float64) int {
	best, bestD := -1, radius*radius
	for i := range s.X {
		dx, dy := float64(s.X[i])-x, float64(s.Y[i])-y
		if d := dx*dx + dy*dy; d <= bestD {
			best, bestD = i, d
		}
	}
	return best
}

// updateZoomText shows the image's zoom as a percentage.
func (p *sensorPanel) updateZoomText() {
	if p.img.pic == nil {
		p.zoomText.SetText("")
		return
	}
	p.zoomText.SetText(fmt.Sprintf("%.0f%%", p.img.Zoom()*100))
}

// Tab is the Sensor tab of a document with image, laser scan or point
// cloud topics, or nil.
func Tab(l link.Link) *container.TabItem {
	if len(sensorTopics(l.Doc())) == 0 {
		return nil
	}
	return container.NewTabItemWithIcon("Sensor", theme.MediaPhotoIcon(), newSensorPanel(l).content)
}
