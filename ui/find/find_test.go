package find

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
)

const exampleBag = "../../../shared/bags/cruise-automation__rosbag.js/fixtures/example.bag"

// newTestBar opens path and builds its Find bar on a hub whose
// background work is queued, to be run by the returned function.
func newTestBar(t *testing.T, path string) (*Bar, *link.Hub, func()) {
	t.Helper()
	test.NewTempApp(t)
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var queued []func()
	l := link.NewHub(d, func(f func()) { queued = append(queued, f) })
	t.Cleanup(l.Close)
	run := func() {
		for len(queued) > 0 {
			f := queued[0]
			queued = queued[1:]
			f()
		}
	}
	return New(l, nil), l, run
}

// TestExpressionErrors: a mistake says its column and what the compiler
// suggests, as the entry is typed, and Find is disabled until it is
// mended.
func TestExpressionErrors(t *testing.T) {
	b, _, _ := newTestBar(t, exampleBag)
	cases := []struct {
		expr string
		want []string // in the status, in order
		ok   bool
	}{
		{"/rosout.levle >= 2", []string{"/rosout (rosgraph_msgs/Log): Column 9: ", "levle", "did you mean level"}, false},
		{"level >= WARNING", []string{"Column 10: ", "WARNING"}, false},
		{"level >= ", []string{"Column 9: ", "ends early"}, false},
		{"level = 4", []string{"Column 7: a single '='"}, false},
		{"/turtle1/pose.x > 5 && theta < 1", []string{"Enter searches 1 topic: /turtle1/pose"}, true},
		{"level >= WARN", []string{"Enter searches 1 topic: /rosout"}, true},
	}
	for _, tc := range cases {
		b.entry.SetText(tc.expr)
		got := b.Status()
		at := 0
		for _, w := range tc.want {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("%q says %q, want %q in it", tc.expr, got, w)
				break
			}
			at += i + len(w)
		}
		if b.findBtn.Disabled() == tc.ok {
			t.Errorf("%q: Find enabled %v, want %v", tc.expr, !b.findBtn.Disabled(), tc.ok)
		}
	}
}

// TestCancelKeepsHitsSoFar: a search cancelled before it reads anything
// ends as cancelled, with the bar ready for the next, whose hits then
// replace it.
func TestCancelKeepsHitsSoFar(t *testing.T) {
	b, l, run := newTestBar(t, exampleBag)
	var marks [][]link.Mark
	l.OnSetMarks(func(k link.MarkKind, m []link.Mark) {
		if k == link.Hit {
			marks = append(marks, m)
		}
	})
	b.Search("level >= INFO")
	if !b.Running() || b.cancelBtn.Hidden || !b.findBtn.Disabled() {
		t.Fatal("a running search shows no Cancel, or lets another start")
	}
	b.Cancel()
	run()
	if b.Running() || !strings.HasPrefix(b.Status(), "Cancelled: ") {
		t.Fatalf("after Cancel: running %v, %q", b.Running(), b.Status())
	}
	b.Search("level >= INFO")
	run()
	if len(b.Hits()) != 10 || len(marks) != 2 || len(marks[1]) != 10 || !strings.HasPrefix(b.Status(), "10 hits in 10 messages of /rosout") {
		t.Fatalf("%d hits, marks set %d times; %q", len(b.Hits()), len(marks), b.Status())
	}
}
