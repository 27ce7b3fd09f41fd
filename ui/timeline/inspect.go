package timeline

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
)

// What the window reads of its timeline: the player its keys and menus
// drive, whether the lanes are shown, and what the timeline shows, for
// the window's tests (which move the time in every way a user can and
// check that every view, the timeline too, follows).

// LaneH is the height of a lane when the pane leaves it room.
const LaneH = tlLaneH

// Player is the pane's player.
func (tp *Pane) Player() *Player { return tp.player }

// View is the pane's lanes.
func (tp *Pane) View() *View { return tp.tv }

// Collapsed says whether the lanes are hidden (Ctrl+T), leaving the
// toolbar.
func (tp *Pane) Collapsed() bool { return tp.collapsed }

// LanesShown says whether the lanes and the axis are shown.
func (tp *Pane) LanesShown() bool { return tp.body.Visible() }

// Transport is what the transport shows: the speed menu's choice and
// whether looping is on.
func (tp *Pane) Transport() (speed string, loop bool) {
	return tp.transport.speed.Selected, tp.transport.loop.Importance == widget.HighImportance
}

// Speed is the playback speed (1 is real time).
func (p *Player) Speed() float64 { return p.clock.Speed }

// Loop says whether playback loops.
func (p *Player) Loop() bool { return p.clock.Loop }

// Playing says whether the player is playing.
func (p *Player) Playing() bool { return p.clock.Playing() }

// TickByHand makes the player read the time from now and tick only when
// the returned frame is called, instead of on its own ticker (tests,
// which move the clock themselves).
func (p *Player) TickByHand(now func() time.Time) (frame func()) {
	p.now = now
	p.startTicker = func() {}
	return p.frame
}

// Timeline is what the lanes draw: the recording's span, chunks and
// topics.
func (v *View) Timeline() *model.Timeline { return v.tl }

// Cursor is the current time the view draws, if any.
func (v *View) Cursor() (t int64, ok bool) { return v.cursor, v.hasCur }

// ShownChunk is the file offset of the chunk outlined as the Chunk view's.
func (v *View) ShownChunk() int64 { return v.shown }

// Axis is the time axis below the lanes (a tap on it moves the time).
func (v *View) Axis() fyne.CanvasObject { return v.axis }

// LanePos is the position, in the view, of x on lane i's middle row
// (lane 0 is the first topic's).
func (v *View) LanePos(i int, x float32) fyne.Position {
	return fyne.NewPos(x, v.laneY(i)+5)
}

// PlotX is the x of a fraction f of the lanes' width, right of the titles.
func (v *View) PlotX(f float32) float32 { return v.labelW() + v.plotW()*f }

// TimeAt is the time at x in the view.
func (v *View) TimeAt(x float32) int64 { return v.timeAt(x) }

// X is the x of time t in the view.
func (v *View) X(t int64) float32 { return v.x(t) }
