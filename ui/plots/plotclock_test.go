package plots

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/widgets"
)

// clockBagRef writes the reference's /clock bag (uitest.ClockBag) and
// returns it with the reference's points of /x.data on the sim time base.
func clockBagRef(t *testing.T) (string, []int64, []float64) {
	t.Helper()
	path := uitest.ClockBag(t)
	out, err := exec.Command(uitest.RefPython, uitest.ClockScript, "points", path, "/x").Output()
	if err != nil {
		t.Fatalf("clock_points.py points: %v", err)
	}
	var ts []int64
	var vs []float64
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		a, b, _ := strings.Cut(sc.Text(), " ")
		tn, err1 := strconv.ParseInt(a, 10, 64)
		v, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		ts, vs = append(ts, tn), append(vs, v)
	}
	return path, ts, vs
}

// TestPlotClockTimeBase switches a plot to the sim time of /clock and
// checks its points against the reference, and that the cursor, a click
// off the points and a zoom cross between sim time and the receive time
// the rest of the window uses.
func TestPlotClockTimeBase(t *testing.T) {
	path, refT, refV := clockBagRef(t)
	g, w := newTestPlots(t, path)
	if !containsString(g.baseSel.Options, clockBaseLabel) {
		t.Fatalf("no sim time base offered: %q", g.baseSel.Options)
	}
	g.add(g.panels[0], "/x.data")
	p := g.panels[0]
	g.baseSel.SetSelected(clockBaseLabel)
	if p.base() != series.ClockTime || g.clock == nil {
		t.Fatalf("time base %v, clock %v", p.base(), g.clock)
	}
	s := p.series[0]
	if s.err != nil || s.ms == nil {
		t.Fatalf("no series: %v", s.err)
	}
	ms := s.shown()
	if ms.Len() != len(refT) {
		t.Fatalf("%d points, the reference has %d", ms.Len(), len(refT))
	}
	for i := range refT {
		if ms.Time(i) != refT[i] || ms.V[i] != refV[i] {
			t.Fatalf("point %d: (%d, %v), reference (%d, %v)", i, ms.Time(i), ms.V[i], refT[i], refV[i])
		}
	}
	if first, _ := g.clock.First(); g.origin != first || first > refT[0] {
		t.Errorf("origin %d is not the first sim time %d", g.origin, first)
	}
	if !strings.Contains(p.xLabel(), "sim time of /clock") {
		t.Errorf("axis label %q", p.xLabel())
	}
	// The window fits the sim times, not the receive times.
	if g.win.T0 > refT[0] || g.win.T1 < refT[len(refT)-1] || g.win.T0 < refT[0]-10e9 || g.win.T1 > refT[len(refT)-1]+10e9 {
		t.Errorf("window %+v does not fit the sim times %d..%d", g.win, refT[0], refT[len(refT)-1])
	}
	// The link's cursor is a receive time: the plot draws it at the sim
	// time then.
	recv := g.bagWin.T0 + 3_000_000_000
	g.l.SetCursor(recv)
	want, _ := g.clock.At(recv)
	if p.canvas.cursor != want {
		t.Errorf("cursor drawn at %d, want the sim time %d", p.canvas.cursor, want)
	}
	if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
		for _, size := range []fyne.Size{{Width: 1280, Height: 560}, {Width: 1024, Height: 420}} {
			cv := software.NewCanvas()
			cv.SetContent(g.content)
			cv.Resize(size)
			name := fmt.Sprintf("plots-clock-%.0f.png", size.Width)
			if err := widgets.WritePNG(filepath.Join(dir, name), uitest.Capture(cv)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A click off the points sends the receive time the sim time was
	// reached at.
	g.pick(p, nil, -1, want)
	if c, _ := g.l.Cursor(); c > recv || c < recv-20_000_000 {
		t.Errorf("a click at sim %d moved the cursor to %d, want %d or up to one /clock period before", want, c, recv)
	}
	// A zoom sets the link's range in receive time.
	zw := plot.Window{T0: refT[10], T1: refT[50]}
	g.setWindow(zw, true)
	r0, r1, ok := g.l.Range()
	if l0, _ := g.clock.LogAt(zw.T0); !ok || r0 != l0 {
		t.Errorf("range %d..%d (%v), want from %d", r0, r1, ok, l0)
	}
	if l1, _ := g.clock.LogAt(zw.T1); r1 != l1 {
		t.Errorf("range ends at %d, want %d", r1, l1)
	}
	// Back on the receive time, the points are the messages' receive times.
	g.baseSel.SetSelected(timeBases[0].label)
	if p.base() != series.ReceiveTime || p.series[0].shown().Len() != 200 {
		t.Errorf("receive time base: %v, %d points", p.base(), p.series[0].shown().Len())
	}
	if g.origin != g.bagWin.T0 {
		t.Errorf("origin %d, want the bag's start %d", g.origin, g.bagWin.T0)
	}
	_ = w
}

// TestPlotTimeBaseOffers checks the sim time base is offered only with a
// /clock topic, and the publish time always.
func TestPlotTimeBaseOffers(t *testing.T) {
	test.NewTempApp(t)
	g, _ := newTestPlotsDoc(t, uitest.OpenDoc(t, plotBag))
	if containsString(g.baseSel.Options, clockBaseLabel) {
		t.Error("sim time offered without /clock")
	}
	if !containsString(g.baseSel.Options, "Publish time (s)") {
		t.Errorf("no publish time: %q", g.baseSel.Options)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
