package timeline

import (
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// frameInterval is the time between two playback frames: at most 30 a
// second, whatever the bag's rate.
const frameInterval = time.Second / 30

// TimeStep is how far Alt+Shift+Left/Right move the current time.
const TimeStep = int64(time.Second)

// Player plays a recording back: the clock (model.Playback) moves the
// link's current time once a frame, and every view follows it. Frames are
// ticked by a goroutine and run on the UI goroutine; a frame still queued
// when the next is due is not queued twice, so a slow frame skips frames
// instead of falling behind. While the message a frame selected is still
// being read or decoded, later frames move the time but select no new
// message (the newest wins once the reader is free).
type Player struct {
	l     link.Link
	clock *model.Playback
	// bagStart and bagEnd bound the clock without a range.
	bagStart, bagEnd int64

	last    time.Time
	queued  atomic.Bool
	stop    chan struct{}
	now     func() time.Time
	onState []func() // the transport's widgets, after play, pause, speed, loop

	// startTicker starts the frames; tests replace it to step by hand.
	startTicker func()
	// sim is the /clock index once read (playback_sim.go).
	sim *query.ClockIndex
}

func newPlayer(l link.Link, start, end int64) *Player {
	t := start
	if c, ok := l.Cursor(); ok {
		t = c
	}
	p := &Player{l: l, clock: model.NewPlayback(start, end, t), bagStart: start, bagEnd: end, now: time.Now}
	p.startTicker = p.tick
	l.OnCursor(func(t int64) {
		if t != p.clock.Time() {
			p.clock.SetTime(t) // a click elsewhere moves the clock
		}
	})
	l.OnRange(func(t0, t1 int64, ok bool) { p.setBounds(t0, t1, ok) })
	if t0, t1, ok := l.Range(); ok {
		p.setBounds(t0, t1, ok)
	}
	return p
}

// setBounds plays the selected range, or the whole bag without one.
func (p *Player) setBounds(t0, t1 int64, ok bool) {
	if !ok {
		t0, t1 = p.bagStart, p.bagEnd
	}
	p.clock.SetBounds(t0, t1)
}

func (p *Player) changed() {
	for _, f := range p.onState {
		f()
	}
}

// Toggle plays or pauses.
func (p *Player) Toggle() {
	if p.clock.Playing() {
		p.Pause()
	} else {
		p.Play()
	}
}

// Play starts playing from the current time (from the start of the range
// or the bag when the time is outside it or at its end).
func (p *Player) Play() {
	if p.clock.Playing() {
		return
	}
	if c, ok := p.l.Cursor(); ok && (c < p.clock.Start || c > p.clock.End) {
		p.clock.SetTime(p.clock.Start)
	}
	p.clock.Play()
	p.last = p.now()
	p.l.SetCursor(p.clock.Time())
	p.stop = make(chan struct{})
	p.startTicker()
	p.changed()
}

// Pause stops playing where it is.
func (p *Player) Pause() {
	if !p.clock.Playing() {
		return
	}
	p.clock.Pause()
	p.stopTicker()
	// The message at the time where it stopped, even if a frame skipped it.
	p.l.SetCursor(p.clock.Time())
	p.changed()
}

func (p *Player) stopTicker() {
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
}

// tick runs frames until paused or the window closes.
func (p *Player) tick() {
	stop, ctx := p.stop, p.l.Context()
	go func() {
		tk := time.NewTicker(frameInterval)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-tk.C:
				if p.queued.CompareAndSwap(false, true) {
					fyne.Do(func() {
						p.queued.Store(false)
						if ctx.Err() == nil {
							p.frame()
						}
					})
				}
			}
		}
	}()
}

// frame moves the clock by the wall time since the last frame and the
// views with it.
func (p *Player) frame() {
	if !p.clock.Playing() {
		return
	}
	now := p.now()
	elapsed := now.Sub(p.last)
	p.last = now
	var t int64
	if p.clock.Speed == model.AsFastAsPossible {
		x := p.l.Index()
		if x == nil || p.l.FollowBusy() {
			return // every message in turn: wait for the last one to show
		}
		next, ok := model.NextTime(x, p.l.FollowTopics(), p.clock.Time())
		t = p.clock.StepTo(next, ok)
	} else {
		t = p.clock.Advance(elapsed)
	}
	if p.l.FollowBusy() {
		p.l.MoveCursor(t)
	} else {
		p.l.SetCursor(t)
	}
	if !p.clock.Playing() { // the end
		p.stopTicker()
		p.l.SetCursor(t)
		p.changed()
	}
}

// SetSpeed changes the speed, playing or not.
func (p *Player) SetSpeed(s float64) {
	if p.clock.Speed == s {
		return
	}
	p.clock.Speed = s
	p.last = p.now()
	p.changed()
}

// SetLoop loops over the range (or the bag) or stops at its end.
func (p *Player) SetLoop(on bool) {
	if p.clock.Loop == on {
		return
	}
	p.clock.Loop = on
	p.changed()
}

// StepTime moves the current time by delta nanoseconds, inside the bag.
func (p *Player) StepTime(delta int64) {
	t := p.clock.Time()
	if c, ok := p.l.Cursor(); ok {
		t = c
	}
	p.l.SetCursor(min(max(t+delta, p.bagStart), p.bagEnd))
}

// transport is the playback controls in the timeline's toolbar: a second
// back, play or pause, a second forward, the speed, loop, and the current
// time.
type transport struct {
	p       *Player
	content fyne.CanvasObject
	play    *widgets.TipButton
	speed   *widget.Select
	loop    *widgets.TipButton
	time    *widgets.LineLabel // a raster: a new text every frame (see LineLabel)
	// simBtn paces playback by the sim time (only with /clock).
	simBtn *widgets.TipButton
	start  int64
}

// speedLabel is a speed as the speed menu lists it.
func speedLabel(s float64) string {
	if s == model.AsFastAsPossible {
		return "Max"
	}
	return model.SpeedText(s)
}

func newTransport(p *Player, start int64, status func(string)) *transport {
	tr := &transport{p: p, start: start}
	tr.play = widgets.NewTipButton("", theme.MediaPlayIcon(), "Play or pause (Space); plays the selected range, else the whole bag", status, p.Toggle)
	var opts []string
	for _, s := range model.Speeds {
		opts = append(opts, speedLabel(s))
	}
	tr.speed = widget.NewSelect(opts, func(s string) {
		for _, v := range model.Speeds {
			if speedLabel(v) == s {
				p.SetSpeed(v)
			}
		}
	})
	tr.speed.PlaceHolder = "10×" // as wide as the widest speed
	tr.speed.SetSelected(speedLabel(p.clock.Speed))
	tr.loop = widgets.NewTipButton("", theme.ViewRefreshIcon(), "Loop over the selected range, else the whole bag (Alt+L)", status, func() { p.SetLoop(!p.clock.Loop) })
	back := widgets.NewTipButton("", theme.MediaFastRewindIcon(), "Back 1 s (Alt+Shift+Left); Alt+Left steps to the previous message", status, func() { p.StepTime(-TimeStep) })
	fwd := widgets.NewTipButton("", theme.MediaFastForwardIcon(), "Forward 1 s (Alt+Shift+Right); Alt+Right steps to the next message", status, func() { p.StepTime(TimeStep) })
	tr.time = widgets.NewLineLabel("", fyne.TextStyle{Monospace: true})
	tr.time.MinText = human.RelTime(p.bagEnd-start) + " " // as wide as the latest time, one more digit spare
	for _, b := range []*widgets.TipButton{tr.play, tr.loop, back, fwd} {
		b.Importance = widget.LowImportance
	}
	p.onState = append(p.onState, tr.refresh)
	p.l.OnCursor(func(int64) { tr.showTime() })
	box := container.NewHBox(back, tr.play, fwd, tr.speed, tr.loop)
	if query.HasClock(p.l.Doc().Storage) {
		tr.simBtn = widgets.NewTipButton("Sim", nil, "Pace playback by the sim time of /clock and show it (the speed is then sim seconds per second)", status, func() {
			p.SetSimTime(!p.SimTime(), func(err error) {
				if err != nil {
					status("Cannot play by the sim time: " + err.Error())
				}
			})
		})
		tr.simBtn.Importance = widget.LowImportance
		box.Add(tr.simBtn)
		tr.time.MinText += " · sim " + human.RelTime(p.bagEnd-start)
	}
	box.Add(tr.time)
	tr.content = box
	tr.refresh()
	return tr
}

// refresh shows the player's state.
func (tr *transport) refresh() {
	c := tr.p.clock
	if c.Playing() {
		tr.play.SetIcon(theme.MediaPauseIcon())
	} else {
		tr.play.SetIcon(theme.MediaPlayIcon())
	}
	tr.speed.SetSelected(speedLabel(c.Speed))
	want := widget.LowImportance
	if c.Loop {
		want = widget.HighImportance
	}
	if tr.loop.Importance != want {
		tr.loop.Importance = want
		tr.loop.Refresh()
	}
	if tr.simBtn != nil {
		want := widget.LowImportance
		if tr.p.SimTime() {
			want = widget.HighImportance
		}
		if tr.simBtn.Importance != want {
			tr.simBtn.Importance = want
			tr.simBtn.Refresh()
		}
	}
	tr.showTime()
}

// showTime shows the current time, relative to the bag's start.
func (tr *transport) showTime() {
	t, ok := tr.p.l.Cursor()
	if !ok {
		t = tr.p.clock.Time()
	}
	text := human.RelTime(t - tr.start)
	if sim := tr.p.simText(t); sim != "" {
		text += " · " + sim
	}
	tr.time.SetText(text)
}
