package plots

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os/exec"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/human"
)

// referenceFigures computes, with the reference rosbag reader in Python,
// figures of plotBag that derived series and XY paths must reproduce:
// /odom's pose x and y by receive time, its backward-difference
// derivative, its trapezoidal integral, and /imu's linear_acceleration.x
// paired with the /odom twist sample nearest in time (earlier on a tie).
func referenceFigures(t *testing.T) (ref struct {
	T, X, Y, Deriv, Integ []float64
	ImuT, ImuX, OdomNear  []float64
}) {
	t.Helper()
	const script = `
import json, sys, rosbag
b = rosbag.Bag(sys.argv[1])
odom = [(t.to_nsec(), m.pose.pose.position.x, m.pose.pose.position.y, m.twist.twist.linear.x) for _, m, t in b.read_messages(topics=['/odom'])]
imu = [(t.to_nsec(), m.linear_acceleration.x) for _, m, t in b.read_messages(topics=['/imu'])]
T = [o[0] for o in odom]; X = [o[1] for o in odom]; Y = [o[2] for o in odom]
deriv = [(X[i] - X[i-1]) / ((T[i] - T[i-1]) / 1e9) for i in range(1, len(T))]
integ, s = [0.0], 0.0
for i in range(1, len(T)):
    s += (X[i] + X[i-1]) / 2 * ((T[i] - T[i-1]) / 1e9)
    integ.append(s)
near = []
for ti, _ in imu:
    best = min(range(len(T)), key=lambda k: (abs(T[k] - ti), T[k]))
    near.append(odom[best][3])
print(json.dumps({"T": T, "X": X, "Y": Y, "Deriv": deriv, "Integ": integ,
    "ImuT": [i[0] for i in imu], "ImuX": [i[1] for i in imu], "OdomNear": near}))
`
	out, err := exec.Command("/usr/bin/python3", "-c", script, plotBag).Output()
	if err != nil {
		t.Skipf("the reference rosbag reader is not available: %v", err)
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestPlotDerivedSeries types derived series and compares their points with
// the reference's figures; a time base change recomputes them.
func TestPlotDerivedSeries(t *testing.T) {
	ref := referenceFigures(t)
	tests := []struct {
		typed string
		name  string
		want  []float64
		times []float64
	}{
		{"deriv(/odom.pose.pose.position.x)", "deriv(/odom.pose.pose.position.x)", ref.Deriv, ref.T[1:]},
		{"integral( odom.pose.pose.position.x )", "integ(/odom.pose.pose.position.x)", ref.Integ, ref.T},
		{"diff(/odom.pose.pose.position.x, /odom.pose.pose.position.y)", "diff(/odom.pose.pose.position.x, /odom.pose.pose.position.y)", func() []float64 {
			out := make([]float64, len(ref.X))
			for i := range out {
				out[i] = ref.X[i] - ref.Y[i]
			}
			return out
		}(), ref.T},
		{"scale(/odom.pose.pose.position.x, 100, -1)", "scale(/odom.pose.pose.position.x, 100, -1)", func() []float64 {
			out := make([]float64, len(ref.X))
			for i := range out {
				out[i] = 100*ref.X[i] - 1
			}
			return out
		}(), ref.T},
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			g, _ := newTestPlots(t, plotBag)
			g.entry.SetText(tc.typed)
			test.Tap(g.addBtn)
			p := g.panels[0]
			if len(p.series) != 1 || p.series[0].err != nil || !p.series[0].ready() {
				t.Fatalf("series %+v (error line %q)", p.series, p.errText.Text)
			}
			s := p.series[0]
			d := s.data()
			if s.name() != tc.name || len(d.V) != len(tc.want) {
				t.Fatalf("%q with %d points, want %q with %d", s.name(), len(d.V), tc.name, len(tc.want))
			}
			for i := range tc.want {
				if !closeTo(d.V[i], tc.want[i]) || float64(d.T[i]) != tc.times[i] {
					t.Fatalf("point %d: %d %v, want %v %v", i, d.T[i], d.V[i], tc.times[i], tc.want[i])
				}
			}
			if !strings.Contains(legendTexts(p), tc.name) || g.entry.Text != "" {
				t.Errorf("legend %q, entry %q", legendTexts(p), g.entry.Text)
			}
			// On the header.stamp time base the fields are extracted
			// again and the derived series computed from them.
			before := d.T[0]
			g.baseSel.SetSelected(timeBases[2].label)
			if !s.ready() || s.data().T[0] == before {
				t.Errorf("not recomputed on the stamp time base: ready %v, first time %d", s.ready(), s.data().T[0])
			}
			var buf bytes.Buffer
			head := tc.name
			if strings.Contains(head, ",") {
				head = `"` + head + `"`
			}
			if err := p.export(exportCSV, &buf); err != nil || !strings.HasPrefix(buf.String(), "time_s,time_ns,time_utc,"+head+"\n") {
				t.Errorf("CSV export: %v %.80q", err, buf.String())
			}
		})
	}
}

func TestPlotDerivedErrors(t *testing.T) {
	tests := []struct{ typed, want string }{
		{"deriv(/odom.pose.pose.position.w)", "unknown field"},
		{"foo(/odom.pose.pose.position.x)", "unknown function"},
		{"avg(/odom.pose.pose.position.x)", "wrong arguments"},
		{"deriv(/scan.ranges[*])", "must name one value"},
		{"/nope.x vs /odom.pose.pose.position.y", "unknown topic"},
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			g, _ := newTestPlots(t, plotBag)
			g.l.Actions().AddSeries(tc.typed)
			p := g.panels[0]
			msg := p.errText.Text
			for _, s := range p.series {
				if s.err != nil {
					msg += s.err.Error()
				}
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want %q", msg, tc.want)
			}
		})
	}
}

// TestPlotXY makes XY plots of one topic and of two topics, checks the
// points against the reference, the cursor's mark, picking, equal axes,
// and the exports; a time series typed next goes to a new panel.
func TestPlotXY(t *testing.T) {
	ref := referenceFigures(t)
	g, _ := newTestPlots(t, plotBag)
	g.l.Actions().AddSeries("/odom.pose.pose.position.x vs /odom.pose.pose.position.y")
	p := g.panels[0]
	if p.xy == nil || len(p.series) != 1 || !p.series[0].ready() {
		t.Fatalf("no XY plot: %+v (error %q)", p.series, p.errText.Text)
	}
	path := p.series[0].xyData()
	if len(path.T) != len(ref.T) {
		t.Fatalf("%d points, want %d", len(path.T), len(ref.T))
	}
	for i := range ref.T {
		if float64(path.T[i]) != ref.T[i] || path.X[i] != ref.X[i] || path.Y[i] != ref.Y[i] {
			t.Fatalf("point %d: %d (%v, %v), want %v (%v, %v)", i, path.T[i], path.X[i], path.Y[i], ref.T[i], ref.X[i], ref.Y[i])
		}
	}
	if !p.xy.view.Equal || !g.equal.Checked || g.equal.Disabled() {
		t.Error("a position's x and y do not get equal axes")
	}
	c := p.xy
	c.Resize(fyne.NewSize(600, 400))
	c.Refresh()
	f := c.view.Frame
	if ux, uy := (f.B.X1-f.B.X0)/f.Data.Dx(), (f.B.Y1-f.B.Y0)/f.Data.Dy(); math.Abs(ux-uy) > 1e-9*ux {
		t.Errorf("equal axes: %v and %v units per pixel", ux, uy)
	}
	// The cursor's point is marked; a tap on a point selects its message.
	g.l.SetCursor(path.T[12])
	if len(c.r.marks.Objects) != 1 {
		t.Errorf("%d marks at the cursor", len(c.r.marks.Objects))
	}
	const i = 20
	c.Tapped(&fyne.PointEvent{Position: fyne.NewPos(float32(f.X(path.X[i])), float32(f.Y(path.Y[i])))})
	if msg, ok := g.l.Message(); !ok || msg.T != path.T[i] {
		t.Errorf("tap on point %d selected %+v %v", i, msg, ok)
	}
	// Hovering near a point reads out its time and coordinates.
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(f.X(path.X[i]))+3, float32(f.Y(path.Y[i])))}})
	if got, want := c.readoutText(), human.RelTimeN(path.T[i]-g.origin, 6); !strings.HasPrefix(got, want) || !strings.Contains(got, valueText(path.X[i])) {
		t.Errorf("read-out %q, want the time %s and x %s", got, want, valueText(path.X[i]))
	}
	test.Tap(g.equal)
	if p.xy.view.Equal {
		t.Error("unticking Equal axes leaves them equal")
	}
	var csv, img bytes.Buffer
	if err := p.export(exportCSV, &csv); err != nil || !strings.HasPrefix(csv.String(), "time_s,time_ns,time_utc,/odom.pose.pose.position.x,/odom.pose.pose.position.y\n") ||
		strings.Count(csv.String(), "\n") != len(ref.T)+1 {
		t.Errorf("CSV: %v %.120q", err, csv.String())
	}
	if err := p.export(exportPNG, &img); err != nil {
		t.Fatal(err)
	}
	if pic, err := png.Decode(&img); err != nil || pic.Bounds().Dx() != exportW {
		t.Errorf("PNG: %v", err)
	}
	if name := p.exportName(exportSVG); name != "lz4-multichunk_odom.pose.pose.position.x_vs_odom.pose.pose.position.y.svg" {
		t.Errorf("export name %q", name)
	}

	// Two topics, joined on the nearest time; not equal axes.
	g.l.Actions().AddSeries("/imu.linear_acceleration.x vs /odom.twist.twist.linear.x")
	if len(g.panels) != 1 || len(p.series) != 2 {
		t.Fatalf("the second path went to %d panels, %d paths", len(g.panels), len(p.series))
	}
	two := p.series[1].xyData()
	if len(two.T) != len(ref.ImuT) {
		t.Fatalf("%d points, want %d", len(two.T), len(ref.ImuT))
	}
	for i := range ref.ImuT {
		if float64(two.T[i]) != ref.ImuT[i] || two.X[i] != ref.ImuX[i] || two.Y[i] != ref.OdomNear[i] {
			t.Fatalf("point %d: %d (%v, %v), want %v (%v, %v)", i, two.T[i], two.X[i], two.Y[i], ref.ImuT[i], ref.ImuX[i], ref.OdomNear[i])
		}
	}
	// A time series does not go into an XY plot.
	g.l.Actions().AddSeries("/imu.linear_acceleration.x")
	if len(g.panels) != 2 || g.panels[1].xy != nil || len(g.panels[1].series) != 1 || g.current != g.panels[1] {
		t.Fatalf("a time series after an XY plot: %d panels", len(g.panels))
	}
	if !g.equal.Disabled() {
		t.Error("Equal axes is offered for a plot of time series")
	}
	// The CSV of every plot has the XY paths' and the time series'
	// columns, merged on their times.
	var all bytes.Buffer
	if err := g.exportAllCSV(&all); err != nil {
		t.Fatal(err)
	}
	head := strings.SplitN(all.String(), "\n", 2)[0]
	if head != "time_s,time_ns,time_utc,/odom.pose.pose.position.x,/odom.pose.pose.position.y,/imu.linear_acceleration.x,/odom.twist.twist.linear.x (nearest in time)" {
		t.Errorf("CSV of every plot: header %q", head)
	}
	if rows := strings.Count(all.String(), "\n") - 1; rows != len(ref.ImuT)+len(ref.T) {
		t.Errorf("CSV of every plot: %d rows, want %d (the /imu and /odom times)", rows, len(ref.ImuT)+len(ref.T))
	}
	// Zooming the shared time window draws only the XY points in it.
	g.l.SetRange(path.T[5], path.T[9], true)
	p.xy.Refresh()
	if n := len(p.series[0].decXY.T); n == 0 || n > 5 {
		t.Errorf("%d points drawn in a window of 5", n)
	}
}

// TestPlotCompletionInExpressions completes the path being typed inside a
// function or after " vs ".
func TestPlotCompletionInExpressions(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	tests := []struct {
		typed string
		want  string // among the suggestions
	}{
		{"deriv(/odom.twist.twist.lin", "deriv(/odom.twist.twist.linear.x"},
		{"/odom.pose.pose.position.x vs /odom.pose.pose.position.", "/odom.pose.pose.position.x vs /odom.pose.pose.position.y"},
		{"diff(/imu.linear_acceleration.x, /imu.linear_acceleration.", "diff(/imu.linear_acceleration.x, /imu.linear_acceleration.z"},
	}
	for _, tc := range tests {
		t.Run(tc.typed, func(t *testing.T) {
			got := g.complete(tc.typed)
			found := false
			for _, s := range got {
				found = found || s == tc.want
				if !strings.HasPrefix(s, tc.typed[:strings.LastIndexAny(tc.typed, "(, ")+1]) {
					t.Errorf("suggestion %q drops what was typed", s)
				}
			}
			if !found {
				t.Errorf("no %q among %q", tc.want, got)
			}
		})
	}
}

// TestPlotXYGestures zooms an XY plot with Ctrl+wheel about the pointer,
// pans it and fits it again with a double click.
func TestPlotXYGestures(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	g.l.Actions().AddSeries("/odom.pose.pose.position.x vs /odom.pose.pose.position.y")
	c := g.panels[0].xy
	c.Resize(fyne.NewSize(600, 400))
	c.Refresh()
	f := c.view.Frame
	at := fyne.NewPos(200, 150)
	vx, vy := f.ValueX(200), f.ValueY(150)
	c.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: at}, Scrolled: fyne.Delta{DY: 10}})
	if c.view.Fixed || c.view.Frame.B != f.B {
		t.Fatalf("the wheel without Ctrl zoomed the XY plot: %+v then %+v", f.B, c.view.Frame.B)
	}
	holdKeys(t, fyne.KeyModifierControl)
	c.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: at}, Scrolled: fyne.Delta{DY: 10}})
	f2 := c.view.Frame
	if !c.view.Fixed || f2.B.X1-f2.B.X0 >= f.B.X1-f.B.X0 {
		t.Fatalf("the wheel did not zoom in: %+v then %+v", f.B, f2.B)
	}
	if math.Abs(f2.X(vx)-200) > 0.5 || math.Abs(f2.Y(vy)-150) > 0.5 {
		t.Errorf("the point under the pointer moved to (%v, %v)", f2.X(vx), f2.Y(vy))
	}
	c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(230, 170)}, Dragged: fyne.Delta{DX: 30, DY: 20}})
	c.DragEnd()
	f3 := c.view.Frame
	if math.Abs(f3.X(vx)-230) > 0.5 || math.Abs(f3.Y(vy)-170) > 0.5 {
		t.Errorf("after a drag of (30, 20) the point is at (%v, %v), want (230, 170)", f3.X(vx), f3.Y(vy))
	}
	c.DoubleTapped(&fyne.PointEvent{})
	if c.view.Fixed || c.view.Frame.B != f.B {
		t.Errorf("double click: bounds %+v, want %+v", c.view.Frame.B, f.B)
	}
}
