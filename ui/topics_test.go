package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/model"
)

func openSample(t *testing.T) *model.Document {
	t.Helper()
	d, err := model.OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func topicNames(p *topicPanel) string {
	var s []string
	for _, r := range p.view.Rows() {
		s = append(s, r.Topic)
	}
	return strings.Join(s, " ")
}

func TestTopicsTable(t *testing.T) {
	test.NewTempApp(t)
	p := newTopicPanel(openSample(t))
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1000, 420))
	assertMarkup(t, "topics_by_name.xml", w.Canvas())
	if got := topicNames(p); got != "/camera/image_raw /imu /odom /rosout /status /tf" {
		t.Fatalf("initial order %q", got)
	}

	test.Tap(findButton(t, w.Content(), "Messages"))
	if got := topicNames(p); got != "/imu /tf /odom /camera/image_raw /status /rosout" {
		t.Errorf("by messages %q", got)
	}
	assertMarkup(t, "topics_by_messages.xml", w.Canvas())
	test.Tap(findButton(t, w.Content(), "Messages"))
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
	assertMarkup(t, "topics_filtered.xml", w.Canvas())

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
