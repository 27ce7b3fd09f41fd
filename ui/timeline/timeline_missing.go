package timeline

import (
	"image/color"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/widgets"
)

// tlMissingMinW is the narrowest a missing file's gap is drawn, so that
// one with no span (a missing first or last file, overlapping
// neighbours: model.MissingSpan) or a short one zoomed out stays visible
// and under the mouse.
const tlMissingMinW = 8

// missingX is where the missing file g is drawn on the chunk lane: its
// span, at least tlMissingMinW wide around it, kept inside the plot.
func (v *View) missingX(g model.MissingSpan) (x0, x1 float32) {
	left, right := v.labelW(), v.labelW()+v.plotW()
	x0, x1 = v.x(g.T0), v.x(g.T1)
	if w := x1 - x0; w < tlMissingMinW {
		x0 -= (tlMissingMinW - w) / 2
		x1 = x0 + tlMissingMinW
	}
	if x0 < left {
		x0, x1 = left, x1+left-x0
	}
	if x1 > right {
		x0, x1 = x0-(x1-right), right
	}
	return max(x0, left), min(x1, right)
}

// missingAt are the missing files drawn under p on the chunk lane
// (several where their spans meet at one place: model.MissingText).
func (v *View) missingAt(p fyne.Position) []model.MissingSpan {
	if v.lane(p.Y) != -1 {
		return nil
	}
	var out []model.MissingSpan
	for _, g := range v.tl.Missing {
		if g.T1 < v.t0 || g.T0 > v.t1 {
			continue
		}
		if x0, x1 := v.missingX(g); p.X >= x0 && p.X <= x1 {
			out = append(out, g)
		}
	}
	return out
}

// missingGaps draws each missing file on the chunk lane, across its rows,
// as a hatched gap outlined in the loss's colour (a damaged chunk is
// filled with it; nothing was read here, so only stripes), with the
// file's name in it where the name fits.
func (r *timelineRenderer) missingGaps(h float32, col timelineColors, text func(s string, x, y float32, c color.Color, sz float32, bold bool)) {
	v := r.v
	for _, g := range v.tl.Missing {
		if g.T1 < v.t0 || g.T0 > v.t1 {
			continue
		}
		x0, x1 := v.missingX(g)
		w := x1 - x0
		r.over.Rect(x0, 1, w, h-2, col.laneBG) // hides chunks drawn under it
		for x := x0 + 3; x < x1-1; x += 5 {
			r.over.Rect(x, 2, 1.5, h-4, widgets.WithAlpha(col.err, 110))
		}
		r.over.Outline(x0, 1, w, h-2, 1.5, col.err)
		tw := fyne.MeasureText(g.Name, 11, fyne.TextStyle{Bold: true}).Width
		if tw+10 <= w && h >= 14 {
			tx, ty := x0+(w-tw)/2, (h-14)/2
			r.over.Rect(tx-3, ty+1, tw+6, 13, col.laneBG)
			text(g.Name, tx, ty-1, col.err, 11, true)
		}
	}
}
