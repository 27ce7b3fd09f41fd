package fetch

import (
	"context"
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// pollEvery is how often the status line looks at the counters: often
// enough to follow a read, seldom enough to cost nothing.
const pollEvery = 250 * time.Millisecond

// Status is the line at the bottom of a remote recording's window.
type Status struct {
	// Root is the line to place in the window.
	Root fyne.CanvasObject
	text *widget.RichText
	// transfer reads the counters (bag.TransferOf of the recording).
	transfer func() bag.Transfer
	// mu guards line, the text shown, which Text reads from any
	// goroutine (a test's, while the poll updates it).
	mu   sync.Mutex
	line string
	// done is closed when the poll has returned (its context ended).
	done chan struct{}
}

// NewStatus makes the status line of a remote recording (nil when s is
// local) and keeps it up to date until ctx ends (the window closes). It
// polls the counters in a goroutine of its own, not through the link's
// Go, which would keep the window busy for --screenshot.
func NewStatus(ctx context.Context, s bag.Storage) *Status {
	t := bag.TransferOf(s)
	if !t.Remote {
		return nil
	}
	st := &Status{transfer: func() bag.Transfer { return bag.TransferOf(s) }, done: make(chan struct{})}
	st.text = widgets.DimText("", theme.SizeNameCaptionText, fyne.TextAlignLeading)
	st.Root = st.text
	st.Update(t, 0)
	go st.poll(ctx)
	return st
}

// poll refreshes the line while ctx lasts, when the counters change.
func (st *Status) poll(ctx context.Context) {
	defer close(st.done)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	prev, at := st.transfer(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			t := st.transfer()
			if t == prev {
				continue
			}
			rate := float64(t.Bytes-prev.Bytes) / now.Sub(at).Seconds()
			prev, at = t, now
			fyne.Do(func() {
				if ctx.Err() == nil {
					st.Update(t, rate)
				}
			})
		}
	}
}

// Update shows the counters t, and the rate in bytes a second they grew
// at since the last update (0 when idle). Call it on the UI goroutine.
func (st *Status) Update(t bag.Transfer, rate float64) {
	line := Line(t, rate)
	st.mu.Lock()
	defer st.mu.Unlock()
	st.line = line
	st.text.Segments[0].(*widget.TextSegment).Text = line
	st.text.Refresh()
}

// Wait returns once the poll has stopped, after the context NewStatus
// was given ended: a window closing waits for it, so that no update of
// the line runs after the window is gone (in a test, where fyne.Do runs
// on the poll's goroutine, one would race with the next test's widgets).
func (st *Status) Wait() { <-st.done }

// Hold runs fn while the line stays as it is: for a reader of the window
// off the UI goroutine (a test's, where fyne.Do runs on the caller's).
func (st *Status) Hold(fn func()) {
	st.mu.Lock()
	defer st.mu.Unlock()
	fn()
}

// Text is the line as shown; it may be called from any goroutine.
func (st *Status) Text() string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.line
}

// Line says what reading a remote recording fetched: "Remote: fetched
// 3.6 MB in 8 requests", with the rate while it grows.
func Line(t bag.Transfer, rate float64) string {
	s := fmt.Sprintf("Remote: fetched %s in %d %s", human.Size(t.Bytes), t.Requests, plural(t.Requests, "request"))
	if rate > 0 {
		s += fmt.Sprintf("  ·  receiving %s/s", human.Size(int64(rate)))
	}
	return s
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
