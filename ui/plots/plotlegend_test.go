package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// armBag is a 7-DoF arm's /joint_states (testdata/make_fixtures.py).
const armBag = "../../testdata/arm7.bag"

// holdKeys makes the plots see mods held (the test driver has no
// keyboard state) until the test ends or holdKeys is called again.
func holdKeys(t *testing.T, mods fyne.KeyModifier) {
	t.Helper()
	old := keyModifiers
	keyModifiers = func() fyne.KeyModifier { return mods }
	t.Cleanup(func() { keyModifiers = old })
}

// TestPaletteOnThemes checks every plot colour against the backgrounds a
// plot is drawn on, in the default dark and light themes (and white, the
// exports' background): at least 3:1 contrast, WCAG's bar for graphics,
// so no series disappears into either theme (the seventh colour was black
// on the dark theme).
func TestPaletteOnThemes(t *testing.T) {
	th := theme.DefaultTheme()
	for _, v := range []fyne.ThemeVariant{theme.VariantDark, theme.VariantLight} {
		for _, bg := range []fyne.ThemeColorName{theme.ColorNameInputBackground, theme.ColorNameBackground} {
			back := th.Color(bg, v)
			for i := range plot.PaletteSize {
				c := plot.PaletteColor(i)
				if r := contrast(c, back); r < 3 {
					t.Errorf("variant %d, %s %v: colour %d %v has contrast %.2f, want at least 3", v, bg, back, i, c, r)
				}
			}
		}
	}
	for i := range plot.PaletteSize {
		if r := contrast(plot.PaletteColor(i), color.White); r < 3 {
			t.Errorf("colour %d on white (exports): contrast %.2f", i, r)
		}
	}
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance is a colour's WCAG relative luminance.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// TestPlotSevenJoints plots position[*] of a 7-DoF arm: seven series
// (named by their joints), in joint order in the series and the legend, each in its own colour, one
// legend line each; a series typed while they were read stays after them.
// A field plotted again in another plot has the colour it has in the first;
// an XY plot added after them takes a colour no series uses.
func TestPlotSevenJoints(t *testing.T) {
	g, w := newTestPlots(t, armBag)
	w.Resize(fyne.NewSize(1024, 640))
	var queued []func()
	hub := g.l.(interface{ SetAsync(func(func())) })
	hub.SetAsync(func(f func()) { queued = append(queued, f) })
	g.l.Actions().AddSeries("/joint_states.position[*]")
	g.l.Actions().AddSeries("/joint_states.effort[2]")
	for len(queued) > 0 {
		f := queued[0]
		queued = queued[1:]
		f()
	}
	hub.SetAsync(func(f func()) { f() })
	p := g.panels[0]
	var names []string
	for _, s := range p.series {
		names = append(names, s.name())
	}
	var want []string
	for k := range 7 {
		want = append(want, fmt.Sprintf("/joint_states.position[panda_joint%d]", k+1))
	}
	want = append(want, "/joint_states.effort[2]")
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("series %v, want %v", names, want)
	}
	// The legend: the topic once, then one line per series in that order,
	// each as tall as a line of caption text.
	var lines []string
	for _, o := range p.legend.Objects {
		if r, ok := o.(*legendRow); ok {
			lines = append(lines, r.label.Text)
			if h := r.Size().Height; h > legendRowH {
				t.Errorf("legend line %q is %v px tall, want at most %d", r.label.Text, h, legendRowH)
			}
		}
	}
	var wantLines []string
	for _, n := range want {
		wantLines = append(wantLines, strings.TrimPrefix(n, "/joint_states."))
	}
	if strings.Join(lines, " ") != strings.Join(wantLines, " ") {
		t.Errorf("legend lines %q, want %q", lines, wantLines)
	}
	if !strings.Contains(uitest.Shown(w), "/joint_states") {
		t.Error("the legend does not name the topic")
	}
	seen := map[color.RGBA]string{}
	for _, s := range p.series {
		if o, ok := seen[s.color]; ok {
			t.Errorf("%s and %s share colour %v", s.name(), o, s.color)
		}
		seen[s.color] = s.name()
	}
	// Every line fits in the side legend at 1024x640 (no scrolling needed
	// for seven joints).
	if p.legendBox.Content.MinSize().Height > p.legendBox.Size().Height {
		t.Errorf("the legend needs %v px but has %v", p.legendBox.Content.MinSize().Height, p.legendBox.Size().Height)
	}

	// The same field in a second plot keeps its colour; an XY plot after
	// them takes a colour not in use.
	q := g.addPanel()
	g.add(q, "/joint_states.position[panda_joint4]")
	if q.series[0].color != p.series[3].color {
		t.Errorf("position[panda_joint4] is %v in the second plot and %v in the first", q.series[0].color, p.series[3].color)
	}
	g.l.Actions().AddSeries("/joint_states.position[0] vs /joint_states.position[1]")
	xy := g.current.series[len(g.current.series)-1]
	if !xy.isXY() {
		t.Fatalf("the XY path went to a plot of %v", g.current.series)
	}
	if o, ok := seen[xy.color]; ok {
		t.Errorf("the XY path has %s's colour %v", o, xy.color)
	}
	// A second plot of seven more series: with fourteen series on ten
	// colours, each plot's own are still all different.
	r := g.addPanel()
	g.add(r, "/joint_states.velocity[*]")
	mine := map[color.RGBA]string{}
	for _, s := range r.series {
		if o, ok := mine[s.color]; ok {
			t.Errorf("%s and %s share colour %v in one plot", s.name(), o, s.color)
		}
		mine[s.color] = s.name()
	}
	if len(r.series) != 7 {
		t.Errorf("%d velocity series, want 7", len(r.series))
	}
}

// TestPlotLegendPlaces moves the legend beside, below and away from the
// plots from the toolbar: the plot gets the room the legend leaves.
func TestPlotLegendPlaces(t *testing.T) {
	g, w := newTestPlots(t, armBag)
	w.Resize(fyne.NewSize(1024, 640))
	g.PlotPaths([]string{"/joint_states.position[*]"})
	p := g.panels[0]
	plotW := func() float32 { return p.canvas.Size().Width }
	plotH := func() float32 { return p.canvas.Size().Height }
	sideW, sideH := plotW(), plotH()
	if !p.legendBox.Visible() || p.legendBox.Size().Width < legendSideMin || p.legendBox.Position().X < sideW {
		t.Fatalf("side legend at %v size %v; plot %v wide", p.legendBox.Position(), p.legendBox.Size(), sideW)
	}
	g.legendSel.SetSelected(legendPlaces[legendBelow])
	if plotW() <= sideW || plotH() >= sideH || p.legendBox.Position().Y < plotH() {
		t.Errorf("legend below: plot %vx%v (was %vx%v), legend at %v", plotW(), plotH(), sideW, sideH, p.legendBox.Position())
	}
	if !strings.Contains(uitest.Shown(w), "position[panda_joint7]") {
		t.Error("the legend below does not show the last joint")
	}
	g.legendSel.SetSelected(legendPlaces[legendHidden])
	if plotW() <= sideW || plotH() < sideH {
		t.Errorf("no legend: plot %vx%v, want the whole panel", plotW(), plotH())
	}
	if strings.Contains(uitest.Shown(w), "position[panda_joint7]") {
		t.Error("the hidden legend still shows")
	}
	// A plot added later follows the choice.
	q := g.addPanel()
	g.add(q, "/joint_states.velocity[0]")
	if strings.Contains(uitest.Shown(w), "velocity[0]") {
		t.Error("a new plot shows a legend while legends are hidden")
	}
}

// TestPlotWheelScrolls turns the wheel over a plot: it scrolls the plots
// (and leaves the time window alone); with Ctrl held it zooms the time
// axis and leaves the scroll alone.
func TestPlotWheelScrolls(t *testing.T) {
	g, w := newTestPlots(t, armBag)
	w.Resize(fyne.NewSize(1024, 640))
	g.PlotPaths([]string{"/joint_states.position[0]", "/joint_states.position[1]", "/joint_states.position[2]", "/joint_states.position[3]"})
	c := g.panels[0].canvas
	before := g.win
	at := fyne.PointEvent{Position: fyne.NewPos(c.Size().Width/2, c.Size().Height/2)}
	holdKeys(t, 0)
	c.Scrolled(&fyne.ScrollEvent{PointEvent: at, Scrolled: fyne.Delta{DY: -60}})
	if g.scroll.Offset.Y <= 0 || g.win != before {
		t.Fatalf("wheel: scrolled to %v, window %v (was %v); want the plots scrolled, the window kept", g.scroll.Offset.Y, g.win, before)
	}
	off := g.scroll.Offset.Y
	holdKeys(t, fyne.KeyModifierControl)
	c.Scrolled(&fyne.ScrollEvent{PointEvent: at, Scrolled: fyne.Delta{DY: 40}})
	if g.scroll.Offset.Y != off || g.win.Duration() >= before.Duration() {
		t.Errorf("Ctrl+wheel: scrolled to %v (was %v), window %d ns (was %d); want a zoom only", g.scroll.Offset.Y, off, g.win.Duration(), before.Duration())
	}
}

// TestPlotCSVAbsoluteTimes exports the arm's joints: each row has the time
// from the bag's start, the receive time in nanoseconds and in ISO 8601,
// which the reference reader's receive times must equal.
func TestPlotCSVAbsoluteTimes(t *testing.T) {
	g, _ := newTestPlots(t, armBag)
	g.PlotPaths([]string{"/joint_states.position[*]"})
	var buf bytes.Buffer
	if err := g.panels[0].export(exportCSV, &buf); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	head := "time_s,time_ns,time_utc"
	for k := range 7 {
		head += fmt.Sprintf(",/joint_states.position[panda_joint%d]", k+1)
	}
	if rows[0] != head {
		t.Fatalf("header %q, want %q", rows[0], head)
	}
	out, err := exec.Command("/usr/bin/python3", "-c", `
import sys, rosbag
for _, _, t in rosbag.Bag(sys.argv[1]).read_messages(): print(t.to_nsec())`, armBag).Output()
	if err != nil {
		t.Skipf("the reference rosbag reader is not available: %v", err)
	}
	ref := strings.Fields(string(out))
	if len(rows)-1 != len(ref) {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(ref))
	}
	for i, r := range rows[1:] {
		f := strings.Split(r, ",")
		ns, _ := strconv.ParseInt(f[1], 10, 64)
		if f[1] != ref[i] {
			t.Fatalf("row %d: time_ns %s, want %s", i, f[1], ref[i])
		}
		utc, err := time.Parse(time.RFC3339Nano, f[2])
		if err != nil || utc.UnixNano() != ns || !strings.HasSuffix(f[2], "Z") {
			t.Fatalf("row %d: time_utc %q is not %d in ISO 8601 UTC (%v)", i, f[2], ns, err)
		}
		rel, _ := strconv.ParseFloat(f[0], 64)
		if math.Abs(rel-float64(ns-g.origin)/1e9) > 1e-9 {
			t.Fatalf("row %d: time_s %s, want %d ns from the start", i, f[0], ns-g.origin)
		}
	}
}

// TestPlotLegendShots writes the arm's joints with the legend below, in
// the light theme at 1024x640, to $BAGSCOPE_SHOTS/plots-arm-below.png
// when that variable is set, to look at it by eye.
func TestPlotLegendShots(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	uitest.NewApp(t).Settings().SetTheme(uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantLight})
	l := link.NewHub(uitest.OpenDoc(t, armBag), uitest.SyncRun)
	defer l.Close()
	g := New(l)
	g.PlotPaths([]string{"/joint_states.position[*]", "/joint_states.effort[*]"})
	g.legendSel.SetSelected(legendPlaces[legendBelow])
	cv := software.NewCanvas()
	cv.SetContent(g.content)
	cv.Resize(fyne.NewSize(1024, 500))
	if err := widgets.WritePNG(filepath.Join(dir, "plots-arm-below.png"), uitest.Capture(cv)); err != nil {
		t.Fatal(err)
	}
}
