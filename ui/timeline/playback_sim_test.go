package timeline

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/widgets"
)

// refClock is the reference's /clock samples of a bag: log and sim times.
type refClock struct{ log, sim []int64 }

// at is the sim time at log time t, running evenly between samples (the
// pace playback keeps).
func (c refClock) at(t int64) float64 {
	i := sort.Search(len(c.log), func(i int) bool { return c.log[i] > t }) - 1
	if i < 0 || i+1 >= len(c.log) {
		return math.NaN()
	}
	return float64(c.sim[i]) + float64(c.sim[i+1]-c.sim[i])*float64(t-c.log[i])/float64(c.log[i+1]-c.log[i])
}

// TestPlaybackBySimTime plays the reference's /clock bag (a simulation at
// half speed that pauses for a second) paced by its sim time: a second
// of wall time at 1× moves the sim time, as the reference reads the
// /clock messages, by a second (two of receive time), a pause of the
// simulation is skipped, and the transport shows the sim time.
func TestPlaybackBySimTime(t *testing.T) {
	uitest.NewApp(t)
	path := uitest.ClockBag(t)
	out, err := exec.Command(uitest.RefPython, uitest.ClockScript, "clock", path).Output()
	if err != nil {
		t.Fatalf("clock_points.py clock: %v", err)
	}
	var ref refClock
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		a, b, _ := strings.Cut(sc.Text(), " ")
		l, err1 := strconv.ParseInt(a, 10, 64)
		s, err2 := strconv.ParseInt(b, 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		ref.log, ref.sim = append(ref.log, l), append(ref.sim, s)
	}
	dv, tv, w := newTestViewsIn(t, uitest.OpenDoc(t, path))
	l := dv.link
	p, advance := manualPlayer(dv)
	tr := dv.timeline.transport
	if tr.simBtn == nil {
		t.Fatal("no Sim button for a recording with /clock")
	}
	start := tv.tl.Start
	tapped := false
	p.SetSimTime(true, func(err error) {
		if err != nil {
			t.Fatal(err)
		}
		tapped = true
	})
	if !tapped || !p.SimTime() {
		t.Fatal("sim time not on")
	}

	// A second of wall time at 1×, in frames, from 2 s into the bag.
	from := start + int64(2*time.Second)
	l.SetCursor(from)
	p.Play()
	for i := 0; i < 30; i++ {
		advance(time.Second / 30)
	}
	c, _ := l.Cursor()
	moved := ref.at(c) - ref.at(from)
	if math.Abs(moved-1e9) > 1e6 {
		t.Errorf("a second at 1× moved the sim time by %.6f s (receive time by %.3f s), want 1 s", moved/1e9, float64(c-from)/1e9)
	}
	if math.Abs(float64(c-from)-2e9) > 2e6 {
		t.Errorf("a half-speed simulation: the receive time moved %.3f s, want 2 s", float64(c-from)/1e9)
	}
	if !strings.Contains(tr.time.Text, "sim +") {
		t.Errorf("the transport shows %q, without the sim time", tr.time.Text)
	}
	if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
		if err := widgets.WritePNG(filepath.Join(dir, "playback-sim.png"), uitest.Capture(w.Canvas())); err != nil {
			t.Fatal(err)
		}
	}

	// The simulation pauses from 5 s to 6 s of receive time: 10 ms of sim
	// time from inside the pause lands past it.
	l.SetCursor(start + int64(5500*time.Millisecond))
	advance(10 * time.Millisecond)
	c, _ = l.Cursor()
	if c < start+int64(6*time.Second) || c > start+int64(6100*time.Millisecond) {
		t.Errorf("from inside the pause, 10 ms of sim time landed at %.3f s", float64(c-start)/1e9)
	}

	// Off again: the receive time paces.
	p.SetSimTime(false, nil)
	c0, _ := l.Cursor()
	advance(100 * time.Millisecond)
	if c, _ := l.Cursor(); c-c0 != int64(100*time.Millisecond) {
		t.Errorf("by the receive time, 100 ms moved %d ns", c-c0)
	}
}

// TestPlaybackNoSimButton checks the Sim button is there only with /clock.
func TestPlaybackNoSimButton(t *testing.T) {
	dv, _, _ := newTestViews(t)
	if dv.timeline.transport.simBtn != nil {
		t.Error("a Sim button for the sample, which has no /clock")
	}
}
