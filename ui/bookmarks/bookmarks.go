// Package bookmarks puts a recording's marks on its window's timeline:
// the events it carries (foxglove_msgs/Event and foxglove.Event topics,
// read by model/marks) and the user's bookmarks, kept in a sidecar file
// beside the recording, never inside it. A bookmark is added at the
// current time with a name and a note (Ctrl+B); both lists save as CSV
// as `bagscope marks --csv` writes them.
package bookmarks

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/marks"
	"github.com/bagscope/bagscope/ui/link"
)

// Marks are a window's bookmarks and events.
type Marks struct {
	l     link.Link
	win   fyne.Window
	start bag.Time

	// bm are the bookmarks; nil until read, and for a recording held
	// in memory (they then live as long as the window).
	bm *marks.Bookmarks
	// loadErr is why the sidecar could not be read.
	loadErr error
	events  []marks.Event
	dropped int

	// OnChange is told when the bookmarks or events change.
	OnChange func()
}

// New reads the bookmarks of l's recording from its sidecar and its
// events in the background, and puts them on the timeline.
func New(l link.Link, w fyne.Window) *Marks {
	m := &Marks{l: l, win: w}
	d := l.Doc()
	m.start, _ = model.TimeRange(d.Storage)
	if d.Path != "" {
		m.bm, m.loadErr = marks.Load(d.Path)
	} else {
		m.bm = &marks.Bookmarks{}
	}
	if m.bm == nil {
		m.bm = &marks.Bookmarks{}
	}
	m.showBookmarks()
	if len(marks.EventTopics(d.Storage)) > 0 {
		var (
			mu      sync.Mutex
			evs     []marks.Event
			dropped int
		)
		l.Go(func(ctx context.Context) {
			e, n, _ := marks.ReadEvents(ctx, d.Storage)
			mu.Lock()
			evs, dropped = e, n
			mu.Unlock()
		}, func() {
			mu.Lock()
			defer mu.Unlock()
			m.events, m.dropped = evs, dropped
			m.showEvents()
		})
	}
	return m
}

// Bookmarks returns the bookmarks, by time.
func (m *Marks) Bookmarks() []marks.Bookmark { return m.bm.List }

// Events returns the recording's events, by time.
func (m *Marks) Events() []marks.Event { return m.events }

// Sidecar is the file the bookmarks are kept in, or "" (a recording held
// in memory).
func (m *Marks) Sidecar() string { return m.bm.Path }

// LoadError is why the sidecar could not be read, or nil.
func (m *Marks) LoadError() error { return m.loadErr }

// showBookmarks puts the bookmarks on the timeline.
func (m *Marks) showBookmarks() {
	ms := make([]link.Mark, len(m.bm.List))
	for i, b := range m.bm.List {
		text := b.Name
		if b.Note != "" {
			text += "\n" + b.Note
		}
		ms[i] = link.Mark{Kind: link.Bookmark, T: b.Time.Nanos(), Topic: b.Topic, Text: text}
	}
	m.l.SetMarks(link.Bookmark, ms)
	if m.OnChange != nil {
		m.OnChange()
	}
}

// showEvents puts the events on their topics' lanes.
func (m *Marks) showEvents() {
	ms := make([]link.Mark, len(m.events))
	for i, e := range m.events {
		ms[i] = link.Mark{Kind: link.Event, Topic: e.Topic, T: e.Start.Nanos(), End: e.End.Nanos(), Text: e.Label}
	}
	m.l.SetMarks(link.Event, ms)
	if m.OnChange != nil {
		m.OnChange()
	}
}

// Add adds a bookmark at t (nanoseconds) and saves the sidecar; the
// bookmark stays in the window even when the sidecar cannot be written
// (the error says so).
func (m *Marks) Add(t int64, name, note, topic string) error {
	b := marks.Bookmark{Time: bag.TimeFromNanos(t), Name: strings.TrimSpace(name), Note: strings.TrimSpace(note), Topic: topic}
	var err error
	if m.bm.Path != "" {
		err = m.bm.Add(b)
	} else {
		m.bm.List = append(m.bm.List, b)
		if b.Name == "" {
			m.bm.List[len(m.bm.List)-1].Name = "bookmark at " + b.Time.String()
		}
	}
	m.showBookmarks()
	return err
}

// AddDialog asks for a bookmark's name and note at the current time (the
// recording's start before the time has moved) and adds it.
func (m *Marks) AddDialog() {
	if m.win == nil {
		return
	}
	t, ok := m.l.Cursor()
	if !ok {
		t = m.start.Nanos()
	}
	topic := ""
	if ref, ok := m.l.Message(); ok && ref.T == t {
		topic = m.l.TopicName(ref)
	}
	name := widget.NewEntry()
	name.SetPlaceHolder("bookmark at " + human.RelTime(t-m.start.Nanos()))
	note := widget.NewMultiLineEntry()
	note.SetPlaceHolder("A note (optional)")
	note.SetMinRowsVisible(3)
	where := "Kept in " + m.bm.Path + ", beside the recording (never inside it)."
	if m.bm.Path == "" {
		where = "The recording is held in memory: the bookmark lasts as long as this window."
	}
	at := fmt.Sprintf("At %s (%s)", bag.TimeFromNanos(t), human.RelTime(t-m.start.Nanos()))
	if topic != "" {
		at += " on " + topic
	}
	info := widget.NewLabel(at + ". " + where)
	info.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{widget.NewFormItem("Name", name), widget.NewFormItem("Note", note), widget.NewFormItem("", info)}
	d := dialog.NewForm("Add Bookmark", "Add", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		if err := m.Add(t, name.Text, note.Text, topic); err != nil {
			dialog.ShowError(fmt.Errorf("the bookmark shows, but could not be saved: %w", err), m.win)
		}
	}, m.win)
	name.OnSubmitted = func(string) { d.Submit() } // Enter adds it
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
	m.win.Canvas().Focus(name)
}

// WriteBookmarksCSV writes the bookmarks as `bagscope marks --csv` does.
func (m *Marks) WriteBookmarksCSV(w io.Writer) error {
	return marks.WriteBookmarksCSV(w, m.bm.List, m.start)
}

// WriteEventsCSV writes the events as `bagscope marks --events --csv`
// does.
func (m *Marks) WriteEventsCSV(w io.Writer) error {
	return marks.WriteEventsCSV(w, m.events, m.start)
}
