package link

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/stats"
)

// Hub is the Link of one recording's window: it keeps the window's views
// in step. A view that changes the selected message, the time cursor, the
// time range or the selected topics tells the hub; the hub tells every
// other view. The window also uses what only it needs: Close, Busy,
// CatchUp, StepMessage, SetTabs and OnReadLoss.
//
// Everything but Go's work function runs on the UI goroutine.
type Hub struct {
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
	onReadLoss  func(stats.ReadLoss)
	pendingLoss *stats.ReadLoss
	onDistrust  []func()

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
	onMessage  []func(msgref.Ref)
	shown      []*shownFollower
	onCursor   []func(t int64)
	onRange    []func(t0, t1 int64, ok bool)
	onTopics   []func(topics []string)
	onChunk    []func(pos int64)

	index        *model.MessageIndex
	tfh          tfHistory // the transform history (tfhistory.go)
	indexWaiters []func(*model.MessageIndex)
	indexing     bool

	onMarks    []func([]Mark)
	onSetMarks []func(MarkKind, []Mark)

	// stateGroups are the groups of state lanes in the order first set,
	// stateLanes their lanes.
	stateGroups  []string
	stateLanes   map[string][]model.StateLane
	onStateLanes []func(string, []model.StateLane)

	actions Actions

	stats        *stats.Set
	statsWaiters []func(*stats.Set)
	computing    bool
}

var _ Link = (*Hub)(nil)

// NewHub returns the link of a window showing d. async runs background
// work (Background; tests run it at once).
func NewHub(d *model.Document, async func(func())) *Hub {
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{d: d, ctx: ctx, cancel: cancel, async: async, selectTab: func(string) bool { return false }}
}

// SetAsync changes how background work runs (tests queue it to run it by
// hand).
func (l *Hub) SetAsync(async func(func())) { l.async = async }

// Close stops the window's background work.
func (l *Hub) Close() { l.cancel() }

// Doc is the open recording.
func (l *Hub) Doc() *model.Document { return l.d }

// Context ends when the window closes.
func (l *Hub) Context() context.Context { return l.ctx }

// Actions are what the views offer each other.
func (l *Hub) Actions() *Actions { return &l.actions }

// SetTabs sets how SelectTab shows a tab: the window's tabs.
func (l *Hub) SetTabs(selectTab func(name string) bool) { l.selectTab = selectTab }

// SelectTab shows the tab whose title starts with name.
func (l *Hub) SelectTab(name string) bool { return l.selectTab(name) }

// Go runs work in the background and then done, if not nil, on the UI
// goroutine. While it runs the link counts as busy (--screenshot waits for
// idle). done is not called once the window has closed.
func (l *Hub) Go(work func(ctx context.Context), done func()) {
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
func (l *Hub) Busy() bool { return l.busy.Load() > 0 || BackgroundRunning.Load() > 0 }

// SelectMessage selects a message everywhere (a click on it in any
// view), and moves the current time to it. Selecting the selected message
// again does nothing (a view echoing the selection back must not move the
// time from a later time the message is shown at).
func (l *Hub) SelectMessage(m msgref.Ref) {
	if l.hasMsg && l.msg == m {
		return
	}
	l.followGen++ // a pending look-up for an earlier time loses
	l.showMessage(m)
	l.MoveCursor(m.T)
}

// showMessage tells the views about the selected message without moving
// the time.
func (l *Hub) showMessage(m msgref.Ref) {
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
func (l *Hub) Message() (msgref.Ref, bool) { return l.msg, l.hasMsg }

// OnMessage registers a view's reaction to a message selection.
func (l *Hub) OnMessage(f func(msgref.Ref)) { l.onMessage = append(l.onMessage, f) }

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
func (l *Hub) OnMessageShown(obj fyne.CanvasObject, f func(msgref.Ref)) {
	s := &shownFollower{obj: obj, f: f}
	l.shown = append(l.shown, s)
	l.OnMessage(func(msgref.Ref) { l.deliver(s, false) })
}

// OnShown registers f, called each time obj (a tab's content) is shown
// again after being hidden, for a view that follows more than the
// selected message (the Sensor tab follows its topic at the cursor).
func (l *Hub) OnShown(obj fyne.CanvasObject, f func()) {
	l.shown = append(l.shown, &shownFollower{obj: obj, onShow: f}) // not shown yet: its first showing counts
}

// deliver gives s the selected message if it has not had it and is shown
// (or force), or calls its onShow when it has just been shown.
func (l *Hub) deliver(s *shownFollower, force bool) {
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
func (l *Hub) StepMessage(delta int) {
	if l.actions.StepMessage == nil {
		return
	}
	l.CatchUp(true) // the Message view steps from its message
	l.actions.StepMessage(delta)
}

// CatchUp gives the selected message to the views registered with
// OnMessageShown that are shown now (a tab was selected), or to all of
// them with force (before an action that needs each view's message, such
// as stepping from it).
func (l *Hub) CatchUp(force bool) {
	for _, s := range l.shown {
		l.deliver(s, force)
	}
}

// SetCursor moves the current time (nanoseconds since the epoch) and
// selects the message shown at it: the latest at or before it on the
// followed topics (see FollowTopics). Every view that moves the time
// (a timeline or plot click, a chunk, playback) comes through here, so
// every view follows.
func (l *Hub) SetCursor(t int64) { l.SetTime(t, nil) }

// SetTime is SetCursor selecting the message among topics instead of the
// followed topics (a click on one topic's lane).
func (l *Hub) SetTime(t int64, topics []string) {
	l.MoveCursor(t)
	l.followGen++
	gen := l.followGen
	l.WithIndex(func(x *model.MessageIndex) {
		if gen != l.followGen {
			return
		}
		ts := topics
		if len(ts) == 0 {
			ts = l.FollowTopics()
		}
		if ref, ok := model.LatestAt(x, ts, t); ok {
			l.showMessage(ref)
		}
	})
}

// FollowTopics are the topics whose message the current time selects:
// the selected topics, else the selected message's own topic (the lane or
// the point clicked last), else every topic (nil).
func (l *Hub) FollowTopics() []string {
	if len(l.topics) > 0 {
		return l.topics
	}
	if l.hasMsg {
		return []string{l.TopicName(l.msg)}
	}
	return nil
}

// SelectChunkStart moves the time to the start of the chunk at pos and
// selects the chunk's first message there, so that the views following
// the message stay on that chunk (the latest message at its start on the
// followed topics may be in another chunk).
func (l *Hub) SelectChunkStart(pos, start int64) {
	l.MoveCursor(start)
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
func (l *Hub) FollowBusy() bool { return l.followBusy.Load() > 0 }

// MoveCursor moves the time cursor and tells the views, without
// selecting a message.
func (l *Hub) MoveCursor(t int64) {
	if l.hasCursor && l.cursor == t {
		return
	}
	l.cursor, l.hasCursor = t, true
	for _, f := range l.onCursor {
		f(t)
	}
}

// Cursor returns the current time.
func (l *Hub) Cursor() (int64, bool) { return l.cursor, l.hasCursor }

// OnCursor registers a view's reaction to the current time moving.
func (l *Hub) OnCursor(f func(t int64)) { l.onCursor = append(l.onCursor, f) }

// SetRange selects the time range t0..t1; ok false clears it.
func (l *Hub) SetRange(t0, t1 int64, ok bool) {
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
func (l *Hub) Range() (t0, t1 int64, ok bool) { return l.r0, l.r1, l.hasRange }

// OnRange registers a view's reaction to the range changing.
func (l *Hub) OnRange(f func(t0, t1 int64, ok bool)) { l.onRange = append(l.onRange, f) }

// SetTopics selects topics; none selected means all. A selected message
// on another topic stays (FollowTopics then follows its topic).
func (l *Hub) SetTopics(topics []string) {
	if slices.Equal(l.topics, topics) {
		return
	}
	l.topics = slices.Clone(topics)
	for _, f := range l.onTopics {
		f(l.topics)
	}
	// A topic ticked while no message is selected shows its message at
	// the current time, never "No message selected". A message already
	// selected stays (stepping from it then keeps to its topic).
	if len(l.topics) > 0 && !l.hasMsg {
		l.ShowFollowed()
	}
}

// ShowFollowed selects the message the current time shows on the followed
// topics (at the recording's start before the time has moved), without
// moving the time: the latest at or before it, else the first after it.
// The window calls it once its views are built, so that the Message view
// opens on a message rather than on "No message selected".
func (l *Hub) ShowFollowed() {
	t := l.d.Summary.Start.Nanos()
	if l.hasCursor {
		t = l.cursor
	}
	l.followGen++
	gen := l.followGen
	l.WithIndex(func(x *model.MessageIndex) {
		if gen != l.followGen {
			return
		}
		if ref, ok := model.LatestAt(x, l.FollowTopics(), t); ok {
			l.showMessage(ref)
		}
	})
}

// Topics returns the selected topics; empty means all.
func (l *Hub) Topics() []string { return l.topics }

// OnTopics registers a view's reaction to the topic selection.
func (l *Hub) OnTopics(f func(topics []string)) { l.onTopics = append(l.onTopics, f) }

// WithIndex calls f on the UI goroutine with the message index, building
// it in the background the first time it is asked for.
func (l *Hub) WithIndex(f func(*model.MessageIndex)) {
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
func (l *Hub) Index() *model.MessageIndex { return l.index }

// ReportReadLoss shows what a read of every message skipped, now or once
// the window's banner can show it.
func (l *Hub) ReportReadLoss(loss stats.ReadLoss) {
	l.LearnDamage(loss.Skipped)
	if l.onReadLoss == nil {
		l.pendingLoss = &loss
		return
	}
	l.onReadLoss(loss)
}

// LearnDamage tells the document's Distrust what a read skipped, and the
// views when it marks a unit it did not know.
func (l *Hub) LearnDamage(skipped []bag.ByteRange) {
	if !l.d.Distrust().Learn(skipped) {
		return
	}
	for _, f := range l.onDistrust {
		f()
	}
}

// OnDistrust registers a reaction to the document's Distrust marking more
// units (LearnDamage).
func (l *Hub) OnDistrust(f func()) { l.onDistrust = append(l.onDistrust, f) }

// OnReadLoss sets how the window shows what a read of every message
// skipped, and shows a loss reported before.
func (l *Hub) OnReadLoss(f func(stats.ReadLoss)) {
	l.onReadLoss = f
	if l.pendingLoss != nil {
		f(*l.pendingLoss)
	}
}

// TopicName is the topic of a message's connection.
func (l *Hub) TopicName(ref msgref.Ref) string {
	if c := l.d.Storage.Connection(ref.Conn); c != nil {
		return c.Topic
	}
	return fmt.Sprintf("connection %d", ref.Conn)
}

// ChunkShown tells the views that the chunk view shows the chunk at pos.
func (l *Hub) ChunkShown(pos int64) {
	for _, f := range l.onChunk {
		f(pos)
	}
}

// OnChunkShown registers a view's reaction to the chunk view showing the
// chunk whose record is at pos (the timeline outlines it).
func (l *Hub) OnChunkShown(f func(pos int64)) { l.onChunk = append(l.onChunk, f) }

// AddMarks puts marks on the timeline: it tells the views registered
// with OnMarks.
func (l *Hub) AddMarks(marks ...Mark) {
	for _, f := range l.onMarks {
		f(marks)
	}
}

// OnMarks registers a view's reaction to marks being added.
func (l *Hub) OnMarks(f func([]Mark)) { l.onMarks = append(l.onMarks, f) }

// SetMarks replaces the marks of one kind: it tells the views registered
// with OnSetMarks.
func (l *Hub) SetMarks(kind MarkKind, marks []Mark) {
	for _, f := range l.onSetMarks {
		f(kind, marks)
	}
}

// OnSetMarks registers a view's reaction to the marks of a kind being
// replaced.
func (l *Hub) OnSetMarks(f func(MarkKind, []Mark)) { l.onSetMarks = append(l.onSetMarks, f) }

// SetStateLanes replaces group's state lanes: it tells the views
// registered with OnStateLanes.
func (l *Hub) SetStateLanes(group string, lanes []model.StateLane) {
	if l.stateLanes == nil {
		l.stateLanes = map[string][]model.StateLane{}
	}
	if _, ok := l.stateLanes[group]; !ok {
		l.stateGroups = append(l.stateGroups, group)
	}
	l.stateLanes[group] = lanes
	for _, f := range l.onStateLanes {
		f(group, lanes)
	}
}

// OnStateLanes registers a view's reaction to a group's state lanes
// being set, and tells it of those set already.
func (l *Hub) OnStateLanes(f func(string, []model.StateLane)) {
	l.onStateLanes = append(l.onStateLanes, f)
	for _, g := range l.stateGroups {
		f(g, l.stateLanes[g])
	}
}
