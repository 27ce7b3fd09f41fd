package timeline

import (
	"fmt"
	"image/color"
	"slices"
	"sort"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// The colours of the marks the views set (link.SetMarks): search hits
// gold, as text editors highlight matches; events violet; bookmarks
// green. They stay apart from the loss's red, the note's amber and the
// density's theme colour in both themes.
var (
	hitColor      = color.NRGBA{R: 0xf2, G: 0xa9, B: 0x00, A: 0xff}
	eventColor    = color.NRGBA{R: 0xa3, G: 0x4f, B: 0xe3, A: 0xff}
	bookmarkColor = color.NRGBA{R: 0x2e, G: 0xa8, B: 0x4a, A: 0xff}
)

// tlMarkGrab is how near a mark the mouse must be for the tooltip to
// describe it, in pixels.
const tlMarkGrab = 3

// setMarks are the marks of the kinds a view replaces as a whole: the
// Find bar's hits by topic, the events by topic and the bookmarks, each
// sorted by time.
type setMarks struct {
	hits      map[string][]int64
	hitCount  int
	events    map[string][]link.Mark
	bookmarks []link.Mark
}

// setMarks replaces the marks of one kind (link.SetMarks).
func (v *View) setMarks(kind link.MarkKind, marks []link.Mark) {
	m := &v.marks
	switch kind {
	case link.Hit:
		m.hits, m.hitCount = map[string][]int64{}, len(marks)
		for _, mk := range marks {
			m.hits[mk.Topic] = append(m.hits[mk.Topic], mk.T)
		}
		for _, ts := range m.hits {
			slices.Sort(ts)
		}
		v.revealHits()
	case link.Event:
		m.events = map[string][]link.Mark{}
		for _, mk := range marks {
			m.events[mk.Topic] = append(m.events[mk.Topic], mk)
		}
		for _, es := range m.events {
			sort.SliceStable(es, func(i, j int) bool { return es[i].T < es[j].T })
		}
	case link.Bookmark:
		m.bookmarks = slices.Clone(marks)
		sort.SliceStable(m.bookmarks, func(i, j int) bool { return m.bookmarks[i].T < m.bookmarks[j].T })
	default:
		v.addMarks(marks)
		return
	}
	v.Refresh()
}

// revealHits scrolls the topic lanes, when none with hits shows, to the
// first lane that has hits.
func (v *View) revealHits() {
	first := -1
	for i, lane := range v.tl.Topics {
		if len(v.marks.hits[lane.Topic]) == 0 {
			continue
		}
		if y := v.laneY(i); y >= v.lanesTop() && y+v.laneH() <= v.Size().Height {
			return // one shows
		}
		if first < 0 {
			first = i
		}
	}
	if first >= 0 {
		v.scrollLanes(v.laneY(first) - v.lanesTop())
	}
}

// Hits returns the search hits' times on topic's lane, sorted.
func (v *View) Hits(topic string) []int64 { return v.marks.hits[topic] }

// Bookmarks returns the bookmarks the timeline shows.
func (v *View) Bookmarks() []link.Mark { return v.marks.bookmarks }

// Events returns the events the timeline shows on topic's lane.
func (v *View) Events(topic string) []link.Mark { return v.marks.events[topic] }

// hitTicks draws a tick the lane's height at each hit of topic in the
// window, at most one per pixel, with a cap at the top that shows even
// over a dense lane.
func (r *timelineRenderer) hitTicks(topic string, y float32) {
	v := r.v
	ts := v.marks.hits[topic]
	if len(ts) == 0 {
		return
	}
	right := v.labelW() + v.plotW()
	// One tick per 2 pixels at most: after each, skip (by binary search)
	// to the first hit past them, so a lane of a million hits costs its
	// pixels, not its hits.
	for k := sort.Search(len(ts), func(k int) bool { return ts[k] >= v.t0 }); k < len(ts) && ts[k] <= v.t1; {
		x := v.x(ts[k])
		if x >= v.labelW() && x < right {
			r.lanes.Rect(x-1, y+1, 2, v.laneH()-2, widgets.WithAlpha(hitColor, 200))
			r.lanes.Rect(x-2, y, 4, 4, hitColor)
		}
		next := max(ts[k]+1, v.timeAt(x+2))
		k += sort.Search(len(ts)-k, func(j int) bool { return ts[k+j] >= next })
	}
}

// eventMarks draws each event of topic in the window: a bar along the
// top of its lane over its span (at least a tick) and a tick at its
// start.
func (r *timelineRenderer) eventMarks(topic string, y float32) {
	v := r.v
	es := v.marks.events[topic]
	right := v.labelW() + v.plotW()
	for _, e := range es {
		end := max(e.End, e.T)
		if end < v.t0 || e.T > v.t1 {
			continue
		}
		x0 := max(v.labelW(), v.x(e.T))
		x1 := min(right, max(v.x(end), x0+3))
		r.lanes.Rect(x0, y, x1-x0, 5, eventColor)
		if e.T >= v.t0 {
			r.lanes.Rect(x0, y, 2, v.laneH(), eventColor)
		}
	}
}

// bookmarkFlags draws each bookmark in the window: a flag with its name
// over the chunk lane and a thin line down the lanes to bottom.
func (r *timelineRenderer) bookmarkFlags(bottom float32, text func(s string, x, y float32, c color.Color, sz float32, bold bool)) {
	v := r.v
	bs := v.marks.bookmarks
	right := v.labelW() + v.plotW()
	for i, b := range bs {
		if b.T < v.t0 || b.T > v.t1 {
			continue
		}
		x := v.x(b.T)
		r.over.Rect(x, 0, 1.5, bottom, widgets.WithAlpha(bookmarkColor, 170))
		r.over.Rect(x, 0, 8, 7, bookmarkColor)
		// The name, where it fits before the next bookmark.
		next := right
		if i+1 < len(bs) && bs[i+1].T <= v.t1 {
			next = v.x(bs[i+1].T)
		}
		name, _, _ := strings.Cut(b.Text, "\n")
		if room := next - x - 12; room > 30 {
			text(fitText(name, room, tlScaleSize), x+10, -2, bookmarkColor, tlScaleSize, true)
		}
	}
}

// fitText shortens s with an ellipsis to fit w pixels at size sz.
func fitText(s string, w, sz float32) string {
	if fyne.MeasureText(s, sz, fyne.TextStyle{Bold: true}).Width <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if fyne.MeasureText(string(r)+"…", sz, fyne.TextStyle{Bold: true}).Width <= w {
			break
		}
	}
	return string(r) + "…"
}

// markText describes the bookmark, event or hit under p, or "".
func (v *View) markText(p fyne.Position) string {
	if p.X < v.labelW() || p.X > v.labelW()+v.plotW() {
		return ""
	}
	near := func(t int64) bool { return t >= v.t0 && t <= v.t1 && abs32(p.X-v.x(t)) <= tlMarkGrab }
	for _, b := range v.marks.bookmarks {
		if near(b.T) && (p.Y < v.chunkLaneH() || v.lane(p.Y) >= 0) {
			name, note, _ := strings.Cut(b.Text, "\n")
			s := fmt.Sprintf("Bookmark %q at %s", name, v.timeLabel(b.T))
			if note != "" {
				s += ": " + strings.ReplaceAll(note, "\n", " ")
			}
			return s + " (Ctrl+B adds one at the current time)"
		}
	}
	l := v.lane(p.Y)
	if l < 0 {
		return ""
	}
	topic := v.tl.Topics[l].Topic
	for _, e := range v.marks.events[topic] {
		if near(e.T) || e.End > e.T && v.timeAt(p.X) >= e.T && v.timeAt(p.X) <= e.End {
			s := fmt.Sprintf("Event %q at %s", e.Text, v.timeLabel(e.T))
			if e.End > e.T {
				s += fmt.Sprintf(", for %s s", widgets.RelSeconds(e.End-e.T, 3))
			}
			return s
		}
	}
	ts := v.marks.hits[topic]
	k := sort.Search(len(ts), func(k int) bool { return ts[k] >= v.timeAt(p.X-tlMarkGrab) })
	if k < len(ts) && near(ts[k]) {
		return fmt.Sprintf("%s: a search hit at %s (F3 and Shift+F3 step through the %d hits)", topic, v.timeLabel(ts[k]), v.marks.hitCount)
	}
	return ""
}

// MarkText is what the tooltip says over topic's lane at t (the chunk
// lane for ""), when a bookmark, event or hit is there; else "".
func (v *View) MarkText(t int64, topic string) string {
	y := v.chunkLaneH() / 2
	for i, lane := range v.tl.Topics {
		if lane.Topic == topic {
			y = v.laneY(i) + 2
		}
	}
	return v.markText(fyne.NewPos(v.x(t), y))
}
