package timeline

import (
	"image/color"
	"math"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/widgets"
)

// CreateRenderer draws the lanes.
func (v *View) CreateRenderer() fyne.WidgetRenderer {
	r := &timelineRenderer{v: v, lanes: widgets.NewRectRaster(), over: widgets.NewRectRaster()}
	r.tipBG = canvas.NewRectangle(color.Transparent)
	r.tipText = canvas.NewText("", color.Black)
	r.tipText.TextSize = 12
	v.r = r
	r.build()
	return r
}

type timelineRenderer struct {
	v      *View
	objs   []fyne.CanvasObject
	shapes widgets.Shapes // the texts
	// The rectangles, painted as two rasters (see RectRaster): the lanes
	// under their titles, and the chunk lane, grid, selection and cursor
	// over them, which hides lanes scrolled under the chunk lane.
	lanes, over *widgets.RectRaster
	tipBG       *canvas.Rectangle
	tipText     *canvas.Text
}

func (r *timelineRenderer) Layout(fyne.Size)             { r.build() }
func (r *timelineRenderer) MinSize() fyne.Size           { return r.v.MinSize() }
func (r *timelineRenderer) Refresh()                     { r.build(); canvas.Refresh(r.v) }
func (r *timelineRenderer) Destroy()                     { r.v.r = nil }
func (r *timelineRenderer) Objects() []fyne.CanvasObject { return r.objs }

// timelineColors are the theme's colours the timeline draws with.
type timelineColors struct {
	fg, dim, primary, err, note, laneBG, sel, focus, bg, tip color.Color
	// gap underlines a topic's gaps: the foreground, dimmed. A gap is no
	// damage (the recording has no message there), so it is never the
	// loss's red nor the note's amber.
	gap color.Color
}

func colorsOf(v fyne.Widget) timelineColors {
	th := theme.CurrentForWidget(v)
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	c := func(n fyne.ThemeColorName) color.Color { return th.Color(n, variant) }
	return timelineColors{
		fg: c(theme.ColorNameForeground), dim: c(theme.ColorNamePlaceHolder), primary: c(theme.ColorNamePrimary),
		err: c(theme.ColorNameError), note: c(theme.ColorNameWarning), laneBG: c(theme.ColorNameInputBackground), sel: c(theme.ColorNameSelection),
		focus: c(theme.ColorNameFocus), bg: c(theme.ColorNameBackground), tip: c(theme.ColorNameOverlayBackground),
		gap: widgets.WithAlpha(c(theme.ColorNameForeground), 170),
	}
}

// layoutTip places the hover tooltip beside the mouse, inside the view.
func (r *timelineRenderer) layoutTip() {
	v := r.v
	col := colorsOf(v)
	if v.hover == "" || v.drag != dragNone {
		r.tipBG.Hide()
		r.tipText.Hide()
		return
	}
	r.tipText.Text = ellipsize(v.hover, 110)
	r.tipText.Color = col.fg
	r.tipBG.FillColor = col.tip
	r.tipBG.StrokeColor = col.dim
	r.tipBG.StrokeWidth = 1
	r.tipBG.CornerRadius = 3
	ts := r.tipText.MinSize()
	w, h := ts.Width+10, ts.Height+4
	x := min(v.hoverPos.X+14, v.Size().Width-w-2)
	x = max(x, 2)
	y := v.hoverPos.Y + 16
	if y+h > v.Size().Height {
		y = v.hoverPos.Y - h - 4
	}
	y = max(y, 0)
	r.tipBG.Move(fyne.NewPos(x, y))
	r.tipBG.Resize(fyne.NewSize(w, h))
	r.tipText.Move(fyne.NewPos(x+5, y+2))
	r.tipText.Resize(ts)
	r.tipBG.Show()
	r.tipText.Show()
	r.tipBG.Refresh()
	r.tipText.Refresh()
}

// build makes the picture for the current window and size: two rasters
// of rectangles, whatever the bag's size, and the texts.
func (r *timelineRenderer) build() {
	v := r.v
	col := colorsOf(v)
	objs := append(r.objs[:0], r.lanes.Raster)
	r.shapes.Reset()
	r.lanes.Reset()
	r.over.Reset()
	for _, ras := range []*widgets.RectRaster{r.lanes, r.over} {
		ras.Move(fyne.NewPos(0, 0))
		ras.Resize(v.Size())
	}
	text := func(s string, x, y float32, c color.Color, sz float32, bold bool) {
		t := r.shapes.Text(s, c, sz)
		t.TextStyle.Bold = bold
		t.Move(fyne.NewPos(x, y))
		t.Resize(t.MinSize())
		objs = append(objs, t)
	}
	rect := r.lanes.Rect // until the chunk lane
	outline := func(x, y, w, h float32, c color.Color) { r.over.Outline(x, y, w, h, 1.5, c) }
	pw := v.plotW()
	right := v.labelW() + pw
	bottom := min(v.Size().Height, v.laneY(v.nLanes()))

	// Topic lanes, scrolled: each message a tick where they are sparser
	// than pixels, else per-column density at a stated scale (see
	// model.LaneDrawing). Lanes scrolled out of view are skipped.
	lw, lh := v.labelW(), v.laneH()
	for i, lane := range v.tl.Topics {
		y := v.laneY(i)
		if y+lh < v.lanesTop() || y > v.Size().Height {
			continue
		}
		rect(lw, y, pw, lh, col.laneBG)
		shownTopic := v.topicShown(lane.Topic)
		c := col.fg
		if !shownTopic {
			c = col.dim
		}
		d := v.laneDrawing(i)
		scale := laneScaleLabel(d)
		sw := fyne.MeasureText(scale, tlScaleSize, fyne.TextStyle{}).Width
		ts := v.titleSize()
		text(v.fittedTitle(lane.Topic, lw-sw-14, ts), 4, y+(lh-ts*4/3)/2, c, ts, false)
		text(scale, lw-sw-6, y+(lh-12)/2, col.dim, tlScaleSize, false)
		fill := widgets.WithAlpha(col.primary, 220)
		if !shownTopic {
			fill = widgets.WithAlpha(col.dim, 90)
		}
		colW := pw / float32(max(1, len(d.Heights)))
		for k := 0; k < len(d.Heights); {
			j := k + 1
			for j < len(d.Heights) && d.Heights[j] == d.Heights[k] {
				j++
			}
			if h := d.Heights[k]; h > 0 {
				hh := max(2, float32(math.Round(h*float64(lh-2))))
				rect(lw+float32(k)*colW, y+lh-1-hh, float32(j-k)*colW, hh, fill)
			}
			k = j
		}
		r.gapMarks(i, y, col.gap, shownTopic)
		r.suspectTicks(lane.Topic, y, col.err)
		r.eventMarks(lane.Topic, y)
		r.hitTicks(lane.Topic, y)
	}
	r.stateLanes(col, text)

	// The chunk lane stays on top: a mask hides lanes scrolled under it.
	objs = append(objs, r.over.Raster)
	rect = r.over.Rect
	ch := v.chunkLaneH()
	rect(0, 0, v.Size().Width, v.lanesTop(), col.bg)
	if v.hasChunkLane() {
		rect(v.labelW(), 0, pw, ch, col.laneBG)
		title := v.tl.LaneUnit() // "files" where each span is a .db3 of a folder
		switch {
		case len(v.tl.Chunks) == 0 && len(v.tl.Missing) > 0:
			title = "files" // a recording without chunks: the lane holds the missing files
		case len(v.tl.Chunks) == 0:
			title = "bookmarks" // a recording without chunks: the lane holds the flags
		case v.tl.ChunkRows > 1:
			title = "chunks (overlapping)"
		}
		ts := v.titleSize()
		text(title, 4, (ch-ts*4/3)/2, col.fg, ts, true)
	}

	// Chunks: one block per chunk on its row, shaded by how well it
	// compressed (darker: smaller). Damaged chunks are red, those whose
	// damage lost no message (a note) amber; the shown chunk
	// is outlined.
	rows := v.chunkRows()
	rowH := ch
	if rows > 1 {
		rowH = tlRowH
	}
	var shown []float32
	covered := make([]float32, rows) // per row, where the last block ends
	for _, c := range v.tl.Chunks {
		if c.T1 < v.t0 || c.T0 > v.t1 {
			continue
		}
		x0 := max(v.labelW(), v.x(c.T0))
		x1 := min(right, max(v.x(c.T1), x0+2))
		row := min(c.Row, rows-1)
		if x1 <= covered[row] && c.Damaged == "" && c.Note == "" && c.Pos != v.shown {
			continue // a pixel already drawn: a zoomed-out bag of many chunks stays cheap
		}
		covered[row] = max(covered[row], x1)
		y := float32(row) * rowH
		fill := widgets.WithAlpha(col.primary, uint8(70+150*(1-min(1, c.Ratio))))
		switch {
		case c.Damaged != "":
			fill = col.err
		case c.Note != "":
			// Damage that lost no message: the note colour, not the
			// loss's red.
			fill = col.note
		}
		rect(x0, y+1, x1-x0, rowH-2, fill)
		if x1-x0 >= 6 { // an edge where there is room, so neighbours stay apart
			rect(x0, y+1, 1, rowH-2, widgets.WithAlpha(col.fg, 110))
		}
		if c.Pos == v.shown {
			shown = []float32{x0, y, x1 - x0, rowH}
		}
	}
	if shown != nil {
		outline(shown[0], shown[1], shown[2], shown[3], col.fg)
	}
	// The files missing from a recording of several, between their
	// neighbours.
	r.missingGaps(ch, col, text)

	// Grid lines at the axis ticks and the selected range, over the data.
	for _, tk := range v.ticks() {
		rect(v.x(tk.T), 0, 1, bottom, widgets.WithAlpha(col.dim, 40))
	}
	if v.hasRange && v.r1 >= v.t0 && v.r0 <= v.t1 {
		x0, x1 := max(v.labelW(), v.x(v.r0)), min(right, v.x(v.r1))
		rect(x0, 0, max(1, x1-x0), bottom, widgets.WithAlpha(col.sel, 110))
	}
	// A scroll bar when the lanes do not fit.
	if h := v.Size().Height - v.lanesTop(); v.contentH()-v.lanesTop() > h && h > 0 {
		total := v.contentH() - v.lanesTop()
		rect(right+tlRight-9, v.lanesTop()+v.yOff/total*h, 6, h*h/total, widgets.WithAlpha(col.dim, 160))
	}

	r.bookmarkFlags(bottom, text)

	// The cursor, above everything.
	if v.hasCur && v.cursor >= v.t0 && v.cursor <= v.t1 {
		rect(v.x(v.cursor)-1, 0, 2, bottom, col.err)
	}
	if v.focused {
		outline(v.labelW()-1, 0, pw+2, bottom, widgets.WithAlpha(col.focus, 160))
	}
	r.objs = append(objs, r.tipBG, r.tipText) // the tooltip over everything
	r.lanes.Refresh()
	r.over.Refresh()
	r.layoutTip()
}

// gapMarks underlines lane i's gaps in the window: a thin line along the
// lane's bottom over each gap at least tlMinGapW pixels wide, so that a
// mark always lies under a visible hole in the density (a bursty topic's
// many short gaps show as one zooms in, instead of a line the length of
// the lane); gaps within pixels already drawn are skipped, so a lane
// costs at most one mark per pixel.
func (r *timelineRenderer) gapMarks(i int, y float32, c color.Color, shownTopic bool) {
	v := r.v
	if i >= len(v.gaps) {
		return
	}
	if !shownTopic {
		c = widgets.WithAlpha(c, 90)
	}
	gs := v.gaps[i]
	right := v.labelW() + v.plotW()
	drawn := float32(-1)
	minGap := v.minMarkedGap(i)
	for k := sort.Search(len(gs), func(k int) bool { return gs[k].End >= v.t0 }); k < len(gs) && gs[k].Start <= v.t1; k++ {
		x0 := max(v.labelW(), v.x(gs[k].Start))
		x1 := min(right, v.x(gs[k].End))
		if x1-x0 < tlMinGapW || x1 <= drawn || gs[k].End-gs[k].Start < minGap {
			continue
		}
		x0 = max(x0, drawn)
		r.lanes.Rect(x0, y+v.laneH()-2, x1-x0, 2, c)
		drawn = x1
	}
}

// suspectTicks draws a tick in the loss's colour, the lane's height, at
// each suspect message of topic in the window, at most one per pixel.
func (r *timelineRenderer) suspectTicks(topic string, y float32, c color.Color) {
	v := r.v
	ts := v.suspects[topic]
	if len(ts) == 0 {
		return
	}
	right := v.labelW() + v.plotW()
	drawn := float32(-1)
	for k := sort.Search(len(ts), func(k int) bool { return ts[k] >= v.t0 }); k < len(ts) && ts[k] <= v.t1; k++ {
		x := v.x(ts[k])
		if x < v.labelW() || x >= right || x < drawn+1 {
			continue
		}
		r.lanes.Rect(x, y+1, 2, v.laneH()-2, c)
		drawn = x
	}
}

// minMarkedGap is the shortest gap marked under lane i. A bursty topic's
// median interval is the spacing within a burst, so every pause between
// bursts is a gap; only those longer than GapFactor × the mean interval
// are marked, the others show as empty columns.
func (v *View) minMarkedGap(i int) int64 {
	if i >= len(v.stats) || v.stats[i] == nil || v.stats[i].Messages < 2 {
		return 0
	}
	st := v.stats[i]
	return int64(stats.GapFactor) * st.Span() / int64(st.Messages-1)
}

// ticks are the axis ticks whose labels fit side by side.
func (v *View) ticks() []widgets.Tick {
	for n := int(v.plotW() / 50); n > 2; n-- {
		ts := widgets.AxisTicks(v.t0, v.t1, v.tl.Start, v.abs, n)
		longest := 0
		for _, t := range ts {
			longest = max(longest, len(t.Label))
		}
		if float32(len(ts))*(float32(longest)*6.5+18) <= v.plotW() {
			return ts
		}
	}
	return widgets.AxisTicks(v.t0, v.t1, v.tl.Start, v.abs, 2)
}

func ellipsize(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
