package topics

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

func topicNames(p *Panel) string {
	var s []string
	for _, r := range p.view.Rows() {
		s = append(s, r.Topic)
	}
	return strings.Join(s, " ")
}

func TestTopicsTable(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	p := New(d, link.NewHub(d, func(f func()) { f() }), false)
	w := test.NewTempWindow(t, p.Content)
	w.Resize(fyne.NewSize(1000, 420))
	uitest.AssertMarkup(t, "topics_by_name.xml", w.Canvas())
	if got := topicNames(p); got != "/camera/image_raw /imu /odom /rosout /status /tf" {
		t.Fatalf("initial order %q", got)
	}

	test.Tap(uitest.FindButton(t, w.Content(), "Messages"))
	if got := topicNames(p); got != "/imu /tf /odom /camera/image_raw /status /rosout" {
		t.Errorf("by messages %q", got)
	}
	uitest.AssertMarkup(t, "topics_by_messages.xml", w.Canvas())
	test.Tap(uitest.FindButton(t, w.Content(), "Messages"))
	if got := topicNames(p); got != "/rosout /status /camera/image_raw /odom /tf /imu" {
		t.Errorf("by messages ascending %q", got)
	}

	test.Type(p.filter, "SENSOR")
	if got := topicNames(p); got != "/camera/image_raw /imu" {
		t.Errorf("filtered %q", got)
	}
	if got := p.count.String(); got != "2 of 6 topics" {
		t.Errorf("count %q", got)
	}
	uitest.AssertMarkup(t, "topics_filtered.xml", w.Canvas())

	p.filter.SetText("")
	test.Type(p.filter, "nothing-like-this")
	if p.table.Length != nil {
		if rows, _ := p.table.Length(); rows != 0 {
			t.Errorf("%d rows for a filter that matches nothing", rows)
		}
	}
	if !p.noMatch.Visible() || !strings.Contains(p.noMatch.Text, "nothing-like-this") {
		t.Errorf("no-match message hidden or wrong: %q", p.noMatch.Text)
	}
}

// TestTopicsSelectAndExpand taps rows to select topics for the other views,
// and expands a topic published by two connections.
func TestTopicsSelectAndExpand(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, "../../testdata/two-conns-one-topic.bag")
	l := link.NewHub(d, func(f func()) { f() })
	var got [][]string
	l.OnTopics(func(s []string) { got = append(got, s) })
	p := New(d, l, false)
	w := test.NewTempWindow(t, p.Content)
	w.Resize(fyne.NewSize(1100, 360))

	lines := p.view.Lines()
	if len(lines) == 0 || !lines[0].Topic.Expandable() {
		t.Fatalf("first topic should have several connections: %+v", lines)
	}
	topic := lines[0].Topic.Topic
	for _, l := range lines {
		if !l.Topic.BytesKnown {
			t.Errorf("%s: bytes not counted", l.Topic.Topic)
		}
	}

	p.tapped(widget.TableCellID{Row: 0, Col: int(model.ColMessages)})
	if len(got) != 1 || len(got[0]) != 1 || got[0][0] != topic {
		t.Fatalf("after a tap, topics = %v", got)
	}
	if !p.clear.Visible() || !strings.Contains(p.count.String(), "1 selected") {
		t.Errorf("count %q, clear shown %v", p.count.String(), p.clear.Visible())
	}
	p.tapped(widget.TableCellID{Row: 0, Col: int(model.ColTopic)})
	if len(l.Topics()) != 0 {
		t.Errorf("a second tap should unselect: %v", l.Topics())
	}

	n := len(p.view.Lines())
	p.view.ToggleExpanded(topic)
	p.table.Refresh()
	if got, want := len(p.view.Lines()), n+len(lines[0].Topic.Conns); got != want {
		t.Fatalf("expanded: %d lines, want %d", got, want)
	}
	if !strings.Contains(uitest.Shown(w), "connection ") {
		t.Errorf("expanded connections not shown:\n%s", uitest.Shown(w))
	}
}
