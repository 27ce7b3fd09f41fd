package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/message"
)

// TestMessageShownOnOpen opens a recording: without a click the Message
// tab shows the message at the current time (the start: the first
// message), never "No message selected", without moving the time.
func TestMessageShownOnOpen(t *testing.T) {
	dv, _, w := newTestViews(t)
	l := dv.link
	x := l.Index()
	m, ok := l.Message()
	if !ok {
		t.Fatal("no message is selected after opening")
	}
	first := x.Topics[0].At(0)
	for _, tm := range x.Topics {
		if tm.Len() > 0 && tm.At(0).T < first.T {
			first = tm.At(0)
		}
	}
	if m.T != first.T {
		t.Errorf("the message on open is at %d, want the first message's time %d", m.T, first.T)
	}
	if _, moved := l.Cursor(); moved {
		t.Error("opening moved the current time")
	}
	l.SelectTab("Message")
	shown := uitest.Shown(w)
	if strings.Contains(shown, "No message selected") || !strings.Contains(shown, l.TopicName(m)) {
		t.Errorf("the Message tab shows %.300q, want %s's message", shown, l.TopicName(m))
	}

	// A selected message stays when a topic is ticked (stepping keeps to
	// its topic).
	l.SetTopics([]string{"/rosout"})
	if got, _ := l.Message(); got != m {
		t.Errorf("ticking /rosout changed the selected message to %+v", got)
	}
}

// TestTickingATopicShowsItsMessage ticks a topic while no message is
// selected: its message at the current time shows (its first when it has
// none before), never "No message selected".
func TestTickingATopicShowsItsMessage(t *testing.T) {
	uitest.NewApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	w := test.NewTempWindow(t, message.New(l))
	w.Resize(fyne.NewSize(1000, 600))
	if !strings.Contains(uitest.Shown(w), "No message selected") {
		t.Fatal("a bare Message view shows a message before anything is selected")
	}
	var x *model.MessageIndex
	l.WithIndex(func(i *model.MessageIndex) { x = i })
	rosout := x.Topic("/rosout")
	l.SetTopics([]string{"/rosout"}) // /rosout has no message at the start
	if m, _ := l.Message(); m != rosout.At(0) {
		t.Fatalf("ticking /rosout selects %+v, want its first message %+v", m, rosout.At(0))
	}
	if shown := uitest.Shown(w); !strings.Contains(shown, "/rosout") || strings.Contains(shown, "No message selected") {
		t.Errorf("the Message view shows %.300q after ticking /rosout", shown)
	}
}
