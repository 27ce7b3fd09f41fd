// Package link is what the views of a recording's window know of each
// other. A view is given a Link: the open document, the current time and
// the selected message, topics and time range (each with its listeners),
// the message index and topic statistics built once per window,
// background work that ends with the window, the tabs, the actions the
// views offer each other, and the marks they put on the timeline. Views
// never import each other; the window (package ui) builds the Hub that
// implements Link and hands it to every view.
//
// Everything but Go's work runs on Fyne's UI goroutine.
package link

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/model/tf"
)

// Link is the window as one of its views sees it. Setting a value equal
// to the current one does nothing, so a view may echo a change back (a
// list's OnSelected firing after the list was told to select) without
// loops.
type Link interface {
	// Doc is the open recording.
	Doc() *model.Document
	// Context ends when the window closes.
	Context() context.Context
	// Go runs work in the background and then done, if not nil, on the UI
	// goroutine, unless the window has closed.
	Go(work func(ctx context.Context), done func())

	// SelectMessage selects a message everywhere and moves the current
	// time to it; Message returns the selected message.
	SelectMessage(m msgref.Ref)
	Message() (msgref.Ref, bool)
	// OnMessage registers a reaction to a message selection.
	OnMessage(f func(msgref.Ref))
	// OnMessageShown registers the reaction of a view that reads the
	// selected message, made only while obj (its tab's content) is shown.
	OnMessageShown(obj fyne.CanvasObject, f func(msgref.Ref))
	// OnShown registers f, called each time obj is shown again after
	// being hidden (a view that follows more than the selected message).
	OnShown(obj fyne.CanvasObject, f func())

	// SetCursor moves the current time (nanoseconds since the epoch) and
	// selects the message shown at it on the followed topics; SetTime
	// selects it among topics instead.
	SetCursor(t int64)
	SetTime(t int64, topics []string)
	// Cursor returns the current time; OnCursor registers a reaction to
	// it moving.
	Cursor() (int64, bool)
	OnCursor(f func(t int64))
	// SelectChunkStart moves the time to the start of the chunk at file
	// offset pos and selects the chunk's first message.
	SelectChunkStart(pos, start int64)
	// MoveCursor moves the time without selecting a message (playback,
	// while the last frame's message is still being read).
	MoveCursor(t int64)
	// FollowTopics are the topics whose message the time selects.
	FollowTopics() []string
	// FollowBusy says whether work a message selection started is still
	// running.
	FollowBusy() bool

	// SetRange selects the time range t0..t1 (ok false clears it).
	SetRange(t0, t1 int64, ok bool)
	Range() (t0, t1 int64, ok bool)
	OnRange(f func(t0, t1 int64, ok bool))

	// SetTopics selects topics; none selected means all.
	SetTopics(topics []string)
	Topics() []string
	OnTopics(f func(topics []string))

	// WithIndex calls f with the message index, built in the background
	// the first time; Index returns it once built.
	WithIndex(f func(*model.MessageIndex))
	// TFHistory calls f with the transform history of /tf and /tf_static
	// (model/tf), read in the background the first time it is asked for.
	TFHistory(f func(*tf.History, error))
	// OnTFHistoryProgress calls f as the history's read goes (transform
	// messages read of the total); StopTFHistory stops the read (those
	// waiting get ErrTFHistoryStopped; the next TFHistory reads again);
	// TFHistoryReading says whether it runs.
	OnTFHistoryProgress(f func(done, total int64))
	StopTFHistory() bool
	TFHistoryReading() bool
	Index() *model.MessageIndex
	// WithStats calls f with the topics' statistics, computed from the
	// index the first time.
	WithStats(f func(*stats.Set))
	// TopicName is the topic of a message's connection.
	TopicName(ref msgref.Ref) string
	// ReportReadLoss shows what a read of every message skipped (the
	// window's banner).
	ReportReadLoss(loss stats.ReadLoss)
	// LearnDamage tells the document's Distrust (model.Document.Distrust)
	// the byte ranges a read skipped; when a unit not known before is now
	// damaged, every OnDistrust reaction runs (the Message view marks the
	// message it shows, the plots their points). ReportReadLoss calls it.
	LearnDamage(skipped []bag.ByteRange)
	OnDistrust(f func())

	// SelectTab shows the tab whose title starts with name.
	SelectTab(name string) bool
	// Actions are what the views offer each other.
	Actions() *Actions

	// ChunkShown tells that the Chunk view shows the chunk at file offset
	// pos; OnChunkShown registers a reaction (the timeline outlines it).
	ChunkShown(pos int64)
	OnChunkShown(f func(pos int64))
	// AddMarks puts marks on the timeline; OnMarks registers a reaction.
	AddMarks(marks ...Mark)
	OnMarks(f func([]Mark))
	// SetMarks replaces every mark of one kind (a new search's hits, the
	// bookmarks after an edit); OnSetMarks registers a reaction.
	SetMarks(kind MarkKind, marks []Mark)
	OnSetMarks(f func(kind MarkKind, marks []Mark))
	// SetStateLanes replaces the state lanes of group (the view's name:
	// "Diagnostics") on the timeline: lanes of intervals coloured by state
	// (model.StateLane), drawn below the topic lanes; nil removes them.
	// OnStateLanes registers a reaction, told at once of the groups set
	// before it.
	SetStateLanes(group string, lanes []model.StateLane)
	OnStateLanes(f func(group string, lanes []model.StateLane))
}
