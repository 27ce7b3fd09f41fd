package ui

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
)

// docLink keeps the views of one bag window in step. A view that changes
// the selected message, the time cursor, the time range or the selected
// topics tells the link; the link tells every other view. Setting a value
// equal to the current one does nothing, so a view may echo a change back
// (a list's OnSelected firing after the list was told to select) without
// loops.
//
// Everything but Go's work function runs on the UI goroutine.
type docLink struct {
	d   *model.Document
	ctx context.Context
	// cancel stops the window's background work when it closes.
	cancel context.CancelFunc

	// async runs background work; tests make it synchronous.
	async func(func())
	busy  atomic.Int64

	// selectTab shows the view whose tab title starts with name.
	selectTab func(name string) bool
	// onReadLoss shows what a background read of every message could
	// not use (the window's banner); a loss met before it is set waits
	// in pendingLoss.
	onReadLoss  func(model.ReadLoss)
	pendingLoss *model.ReadLoss

	msg       msgref.Ref
	hasMsg    bool
	cursor    int64
	hasCursor bool
	r0, r1    int64
	hasRange  bool
	topics    []string

	// followGen counts the time moves, so that a message looked up for
	// one that has since been overtaken is dropped.
	followGen int
	// notifying is set while the views react to a message selection:
	// background work they start then counts in followBusy, so that
	// playback skips a frame's message rather than queue decoding.
	notifying  bool
	followBusy atomic.Int64
	// player plays the recording back (playback.go); nil until the
	// timeline exists.
	player *player
	// timeline is the timeline pane; nil for a bag without messages.
	timeline *timelinePane

	onMessage []func(msgref.Ref)
	shown     []*shownFollower
	onCursor  []func(t int64)
	onRange   []func(t0, t1 int64, ok bool)
	onTopics  []func(topics []string)
	onChunk   []func(pos int64)

	index        *model.MessageIndex
	indexWaiters []func(*model.MessageIndex)
	indexing     bool

	// Actions that one view offers to the others; nil until that view
	// exists.
	//
	// addSeries plots a field path ("/imu.linear_acceleration.x").
	addSeries func(path string)
	// showChunk shows the chunk whose record is at pos in the chunk view.
	showChunk func(pos int64)
	// showRecord selects the record at a file offset in the Records view.
	showRecord func(off int64)
	// messageRecord selects a message data record (its chunk's record
	// offset, its offset in the chunk's data) in the Records view.
	messageRecord func(chunkPos int64, off uint32)
	// stepMessage selects the previous (-1) or next (+1) message of the
	// selected topics (Alt+Left, Alt+Right).
	stepMessage func(delta int)
	// saveRepaired shows the Findings tab and, when it has findings and
	// the format can be repaired, asks where to save a repaired copy.
	saveRepaired func()
	// plots is the Plots view, for plotPaths.
	plots *plotsView
}

func newDocLink(d *model.Document, async func(func())) *docLink {
	ctx, cancel := context.WithCancel(context.Background())
	return &docLink{d: d, ctx: ctx, cancel: cancel, async: async, selectTab: func(string) bool { return false }}
}

// close stops the window's background work.
func (l *docLink) close() { l.cancel() }

// Go runs work in the background and then done, if not nil, on the UI
// goroutine. While it runs the link counts as busy (--screenshot waits for
// idle). done is not called once the window has closed.
func (l *docLink) Go(work func(ctx context.Context), done func()) {
	l.busy.Add(1)
	follow := l.notifying
	if follow {
		l.followBusy.Add(1)
	}
	l.async(func() {
		work(l.ctx)
		finish := func() {
			defer l.busy.Add(-1)
			if follow {
				defer l.followBusy.Add(-1)
			}
			if done != nil && l.ctx.Err() == nil {
				done()
			}
		}
		fyne.Do(finish)
	})
}

// Busy says whether background work started through Go is still running.
func (l *docLink) Busy() bool { return l.busy.Load() > 0 || backgroundRunning.Load() > 0 }

// SelectMessage selects a message everywhere (a click on it in any
// view), and moves the current time to it. Selecting the selected message
// again does nothing (a view echoing the selection back must not move the
// time from a later time the message is shown at).
func (l *docLink) SelectMessage(m msgref.Ref) {
	if l.hasMsg && l.msg == m {
		return
	}
	l.followGen++ // a pending look-up for an earlier time loses
	l.showMessage(m)
	l.moveCursor(m.T)
}

// showMessage tells the views about the selected message without moving
// the time.
func (l *docLink) showMessage(m msgref.Ref) {
	if l.hasMsg && l.msg == m {
		return
	}
	l.msg, l.hasMsg = m, true
	was := l.notifying
	l.notifying = true
	for _, f := range l.onMessage {
		f(m)
	}
	l.notifying = was
}

// Message returns the selected message.
func (l *docLink) Message() (msgref.Ref, bool) { return l.msg, l.hasMsg }

// OnMessage registers a view's reaction to a message selection.
func (l *docLink) OnMessage(f func(msgref.Ref)) { l.onMessage = append(l.onMessage, f) }

// shownFollower is a view told of the selected message only while it is
// shown (see OnMessageShown).
type shownFollower struct {
	obj  fyne.CanvasObject
	f    func(msgref.Ref)
	last msgref.Ref
	has  bool
	// onShow, for a view registered with OnShown, is called when obj is
	// shown again after being hidden; visible is whether it was shown.
	onShow  func()
	visible bool
}

// OnMessageShown registers the reaction of a view that reads and decodes
// the selected message, made only while obj (its tab's content) is shown:
// a message selected while it is hidden is given to it when its tab is
// shown, so playing a bag decodes only what is on the screen.
func (l *docLink) OnMessageShown(obj fyne.CanvasObject, f func(msgref.Ref)) {
	s := &shownFollower{obj: obj, f: f}
	l.shown = append(l.shown, s)
	l.OnMessage(func(msgref.Ref) { l.deliver(s, false) })
}

// OnShown registers f, called each time obj (a tab's content) is shown
// again after being hidden, for a view that follows more than the
// selected message (the Sensor tab follows its topic at the cursor).
func (l *docLink) OnShown(obj fyne.CanvasObject, f func()) {
	l.shown = append(l.shown, &shownFollower{obj: obj, onShow: f}) // not shown yet: its first showing counts
}

// deliver gives s the selected message if it has not had it and is shown
// (or force), or calls its onShow when it has just been shown.
func (l *docLink) deliver(s *shownFollower, force bool) {
	if s.onShow != nil {
		was := s.visible
		if s.visible = s.obj.Visible(); s.visible && !was {
			s.onShow()
		}
		return
	}
	if !l.hasMsg || s.has && s.last == l.msg || !force && !s.obj.Visible() {
		return
	}
	s.last, s.has = l.msg, true
	s.f(l.msg)
}

// StepMessage selects the previous (-1) or next (+1) message of the
// followed topics, from the Message view (Alt+Left, Alt+Right).
func (l *docLink) StepMessage(delta int) {
	if l.stepMessage == nil {
		return
	}
	l.catchUp(true) // the Message view steps from its message
	l.stepMessage(delta)
}

// catchUp gives the selected message to the views registered with
// OnMessageShown that are shown now (a tab was selected), or to all of
// them with force (before an action that needs each view's message, such
// as stepping from it).
func (l *docLink) catchUp(force bool) {
	for _, s := range l.shown {
		l.deliver(s, force)
	}
}

// SetCursor moves the current time (nanoseconds since the epoch) and
// selects the message shown at it: the latest at or before it on the
// followed topics (see followTopics). Every view that moves the time
// (a timeline or plot click, a chunk, playback) comes through here, so
// every view follows.
func (l *docLink) SetCursor(t int64) { l.SetTime(t, nil) }

// SetTime is SetCursor selecting the message among topics instead of the
// followed topics (a click on one topic's lane).
func (l *docLink) SetTime(t int64, topics []string) {
	l.moveCursor(t)
	l.followGen++
	gen := l.followGen
	l.WithIndex(func(x *model.MessageIndex) {
		if gen != l.followGen {
			return
		}
		ts := topics
		if len(ts) == 0 {
			ts = l.followTopics()
		}
		if ref, ok := model.LatestAt(x, ts, t); ok {
			l.showMessage(ref)
		}
	})
}

// followTopics are the topics whose message the current time selects:
// the selected topics, else the selected message's own topic (the lane or
// the point clicked last), else every topic (nil).
func (l *docLink) followTopics() []string {
	if len(l.topics) > 0 {
		return l.topics
	}
	if l.hasMsg {
		return []string{topicName(l, l.msg)}
	}
	return nil
}

// selectChunkStart moves the time to the start of the chunk at pos and
// selects the chunk's first message there, so that the views following
// the message stay on that chunk (the latest message at its start on the
// followed topics may be in another chunk).
func (l *docLink) selectChunkStart(pos, start int64) {
	l.moveCursor(start)
	l.followGen++
	gen := l.followGen
	l.WithIndex(func(x *model.MessageIndex) {
		if gen != l.followGen {
			return
		}
		for _, tm := range x.Topics {
			for i := tm.Search(start); i < tm.Len() && tm.At(i).T == start; i++ {
				if r := tm.At(i); r.ChunkPos == pos {
					l.showMessage(r)
					return
				}
			}
		}
		l.SetCursor(start)
	})
}

// FollowBusy says whether background work a message selection started
// (reading, decoding) is still running.
func (l *docLink) FollowBusy() bool { return l.followBusy.Load() > 0 }

// moveCursor moves the time cursor and tells the views.
func (l *docLink) moveCursor(t int64) {
	if l.hasCursor && l.cursor == t {
		return
	}
	l.cursor, l.hasCursor = t, true
	for _, f := range l.onCursor {
		f(t)
	}
}

// Cursor returns the current time.
func (l *docLink) Cursor() (int64, bool) { return l.cursor, l.hasCursor }

// OnCursor registers a view's reaction to the current time moving.
func (l *docLink) OnCursor(f func(t int64)) { l.onCursor = append(l.onCursor, f) }

// SetRange selects the time range t0..t1; ok false clears it.
func (l *docLink) SetRange(t0, t1 int64, ok bool) {
	if t1 < t0 {
		t0, t1 = t1, t0
	}
	if !ok {
		t0, t1 = 0, 0
	}
	if l.hasRange == ok && l.r0 == t0 && l.r1 == t1 {
		return
	}
	l.r0, l.r1, l.hasRange = t0, t1, ok
	for _, f := range l.onRange {
		f(t0, t1, ok)
	}
}

// Range returns the selected time range.
func (l *docLink) Range() (t0, t1 int64, ok bool) { return l.r0, l.r1, l.hasRange }

// OnRange registers a view's reaction to the range changing.
func (l *docLink) OnRange(f func(t0, t1 int64, ok bool)) { l.onRange = append(l.onRange, f) }

// SetTopics selects topics; none selected means all. A selected message
// on another topic stays (followTopics then follows its topic).
func (l *docLink) SetTopics(topics []string) {
	if slices.Equal(l.topics, topics) {
		return
	}
	l.topics = slices.Clone(topics)
	for _, f := range l.onTopics {
		f(l.topics)
	}
}

// Topics returns the selected topics; empty means all.
func (l *docLink) Topics() []string { return l.topics }

// OnTopics registers a view's reaction to the topic selection.
func (l *docLink) OnTopics(f func(topics []string)) { l.onTopics = append(l.onTopics, f) }

// WithIndex calls f on the UI goroutine with the message index, building
// it in the background the first time it is asked for.
func (l *docLink) WithIndex(f func(*model.MessageIndex)) {
	if l.index != nil {
		f(l.index)
		return
	}
	l.indexWaiters = append(l.indexWaiters, f)
	if l.indexing {
		return
	}
	l.indexing = true
	var x *model.MessageIndex
	var mu sync.Mutex
	l.Go(func(ctx context.Context) {
		idx, err := model.BuildMessageIndex(ctx, l.d.Storage, nil)
		if err != nil {
			return // cancelled: the window closed
		}
		mu.Lock()
		x = idx
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		if x == nil {
			return
		}
		l.index = x
		waiters := l.indexWaiters
		l.indexWaiters = nil
		for _, w := range waiters {
			w(x)
		}
	})
}

// Index returns the message index when it has been built.
func (l *docLink) Index() *model.MessageIndex { return l.index }

// reportReadLoss shows what a read of every message skipped, now or once
// the window's banner can show it.
func (l *docLink) reportReadLoss(loss model.ReadLoss) {
	if l.onReadLoss == nil {
		l.pendingLoss = &loss
		return
	}
	l.onReadLoss(loss)
}
