package cli

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progressLine shows a slow command's progress on stderr, only when
// stderr is a terminal: one line, redrawn at most every 100 ms and erased
// when the work ends, so pipes and logs never see it.
type progressLine struct {
	w     io.Writer // nil when off
	what  string
	last  time.Time
	shown bool
}

// newProgress returns the progress line of a job named what ("checking").
func newProgress(stderr io.Writer, what string) *progressLine {
	p := &progressLine{what: what}
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.w = stderr
		}
	}
	return p
}

// on reports whether the line is shown at all (stderr is a terminal).
func (p *progressLine) on() bool { return p.w != nil }

// update shows done out of total (units as the job counts them).
func (p *progressLine) update(done, total int64) {
	if p.w == nil || total <= 0 || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "\r%s %3d%% ", p.what, min(100, done*100/total))
	p.shown = true
}

// end erases the line.
func (p *progressLine) end() {
	if p.shown {
		fmt.Fprintf(p.w, "\r%*s\r", len(p.what)+6, "")
		p.shown = false
	}
}
