package plots

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// newTestPlots opens path and shows its Plots tab alone in a test window,
// with background work running inline.
func newTestPlots(t *testing.T, path string) (*View, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	return newTestPlotsDoc(t, uitest.OpenDoc(t, path))
}

// newTestPlotsDoc is newTestPlots on an open document (in a temporary app
// the caller made).
func newTestPlotsDoc(t *testing.T, d *model.Document) (*View, fyne.Window) {
	t.Helper()
	l := link.NewHub(d, func(f func()) { f() })
	t.Cleanup(l.Close)
	var tab string
	l.SetTabs(func(name string) bool { tab = name; return true })
	g := New(l)
	w := test.NewTempWindow(t, g.content)
	w.Resize(fyne.NewSize(1200, 700))
	t.Cleanup(func() {
		if tab != "" && tab != "Plots" {
			t.Errorf("selected tab %q", tab)
		}
	})
	return g, w
}

// legendTexts is the text of the labels in p's legend, one per line.
func legendTexts(p *plotPanel) string {
	var out []string
	for _, o := range test.LaidOutObjects(p.legend) {
		switch l := o.(type) {
		case *widgets.ClipLabel:
			out = append(out, l.Text)
			if l.Tip() != "" {
				out = append(out, l.Tip())
			}
		case *widget.Label:
			out = append(out, l.Text)
		case *widget.RichText:
			out = append(out, l.String())
		case *widgets.ClipRich:
			out = append(out, l.String())
		}
	}
	return strings.Join(out, "\n")
}

const plotBag = "../../testdata/lz4-multichunk.bag"

func TestPlotAddSeries(t *testing.T) {
	tests := []struct {
		name    string
		paths   []string
		points  []int  // points of each series that was added
		wantErr string // in the panel's error line
	}{
		{"one field", []string{"/imu.linear_acceleration.x"}, []int{150}, ""},
		{"two topics in one plot", []string{"/imu.angular_velocity.z", "/odom.twist.twist.linear.x"}, []int{150, 30}, ""},
		{"array element", []string{"/scan.ranges[10]"}, []int{15}, ""},
		{"latency", []string{"/imu.@latency"}, []int{150}, ""},
		{"leading slash optional", []string{"imu.linear_acceleration.y"}, []int{150}, ""},
		{"unknown topic", []string{"/nope.x"}, nil, "unknown topic"},
		{"unknown field", []string{"/imu.linear_acceleration.w"}, nil, "unknown field"},
		{"topic without field", []string{"/imu"}, nil, "names topic /imu but no field"},
		{"twice", []string{"/imu.linear_acceleration.x", "/imu.linear_acceleration.x"}, []int{150}, "already in this plot"},
		{"empty: no error", []string{" "}, nil, ""},
		{"empty after an error clears it", []string{"/nope.x", ""}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, w := newTestPlots(t, plotBag)
			for _, path := range tc.paths {
				g.l.Actions().AddSeries(path)
			}
			p := g.panels[0]
			if len(p.series) != len(tc.points) {
				t.Fatalf("%d series, want %d", len(p.series), len(tc.points))
			}
			for i, s := range p.series {
				if s.ms == nil || s.ms.Len() != tc.points[i] {
					t.Errorf("series %s: %v, want %d points", s.path, s.ms, tc.points[i])
				}
			}
			if got := p.errText.Text; !strings.Contains(got, tc.wantErr) || (tc.wantErr == "") != !p.errText.Visible() {
				t.Errorf("error line %q (shown %v), want %q", got, p.errText.Visible(), tc.wantErr)
			}
			names := legendTexts(p)
			for _, s := range p.series {
				if !strings.Contains(names, s.name()) {
					t.Errorf("legend does not show %s: %s", s.name(), names)
				}
			}
			if len(p.series) == 0 && !strings.Contains(uitest.Shown(w), "Nothing plotted yet") {
				t.Error("no empty state")
			}
		})
	}
}

// TestPlotTypeWithSuggestions types a path prefix: suggestions show under
// the entry as it is typed, typing goes on into the entry while they show,
// Down and Enter take one; then the Add button adds it.
func TestPlotTypeWithSuggestions(t *testing.T) {
	g, w := newTestPlots(t, plotBag)
	p := g.panels[0]
	w.Canvas().Focus(g.entry)
	test.Type(g.entry, "/odom.twist.twist.l")
	if _, open := g.entry.Suggestions(); !open {
		t.Fatal("no suggestions while typing")
	}
	// The list has the focus now; typing still reaches the entry.
	test.Type(w.Canvas().Focused(), "in")
	if g.entry.Text != "/odom.twist.twist.lin" {
		t.Fatalf("entry text %q after typing into the open list", g.entry.Text)
	}
	menu := uitest.Shown(w)
	for _, want := range []string{"/odom.twist.twist.linear.x", "/odom.twist.twist.linear.z"} {
		if !strings.Contains(menu, want) {
			t.Fatalf("suggestions lack %s:\n%s", want, menu)
		}
	}
	if strings.Contains(menu, "/odom.pose.pose.position.x") || strings.Contains(menu, "angular") {
		t.Error("suggestions do not follow the typed prefix")
	}
	focused := w.Canvas().Focused()
	focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if opts, open := g.entry.Suggestions(); g.entry.Text != opts[0] || open {
		t.Fatalf("after Down, Enter: text %q (first suggestion %q), list shown %v", g.entry.Text, opts[0], open)
	}
	if w.Canvas().Focused() != g.entry {
		t.Error("the entry did not get the focus back")
	}
	test.Type(g.entry, "x")
	focused = w.Canvas().Focused()
	focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if _, open := g.entry.Suggestions(); open {
		t.Error("Escape left the suggestions open")
	}
	g.entry.SetText("/odom.twist.twist.linear.x")
	test.Tap(g.addBtn)
	if len(p.series) != 1 || p.series[0].ms == nil || p.series[0].ms.Len() != 30 {
		t.Fatalf("series after Add: %+v", p.series)
	}
	if g.entry.Text != "" {
		t.Errorf("entry keeps %q after adding", g.entry.Text)
	}
}

// TestPlotZoomPanFit zooms with the wheel, pans, zooms to a box and fits,
// and checks that every panel and the link's range follow.
func TestPlotZoomPanFit(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	g.PlotPaths([]string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x"})
	if len(g.panels) != 2 {
		t.Fatalf("%d panels, want 2", len(g.panels))
	}
	a, b := g.panels[0].canvas, g.panels[1].canvas
	if !a.view.Frame.Valid() {
		t.Fatal("the plot was not laid out")
	}
	full := g.win
	if full != g.full() {
		t.Fatalf("initial window %v is not the data's extent %v", full, g.full())
	}
	f := a.view.Frame
	mid := fyne.NewPos(float32(f.Data.X0+f.Data.Dx()/2), float32(f.Data.Y0+f.Data.Dy()/2))
	sameEverywhere := func(step string) {
		t.Helper()
		r0, r1, ok := g.l.Range()
		if a.view.Window != g.win || b.view.Window != g.win || !ok || r0 != g.win.T0 || r1 != g.win.T1 {
			t.Fatalf("%s: panels %v and %v, group %v, link range %d..%d %v", step, a.view.Window, b.view.Window, g.win, r0, r1, ok)
		}
	}

	holdKeys(t, fyne.KeyModifierControl)
	a.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: mid}, Scrolled: fyne.Delta{DY: 40}})
	holdKeys(t, 0)
	if d := g.win.Duration(); d >= full.Duration()*3/4 {
		t.Fatalf("wheel: window %d ns of %d", d, full.Duration())
	}
	sameEverywhere("wheel")

	before := g.win
	b.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: mid}, Dragged: fyne.Delta{DX: 100}})
	b.DragEnd()
	if g.win.T0 >= before.T0 || g.win.Duration() != before.Duration() {
		t.Fatalf("drag right: %v -> %v, want an earlier window of the same span", before, g.win)
	}
	sameEverywhere("pan")

	fb := a.view.Frame
	a.MouseDown(&desktop.MouseEvent{Modifier: fyne.KeyModifierShift})
	a.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: mid.AddXY(50, 30)}, Dragged: fyne.Delta{DX: 50, DY: 30}})
	if !a.box || !a.r.boxRect.Visible() {
		t.Fatal("shift+drag draws no box")
	}
	a.DragEnd()
	want := plot.Window{T0: fb.Time(float64(mid.X)), T1: fb.Time(float64(mid.X) + 50)}
	if g.win != want || !a.view.Y.Fixed || a.view.Y.Max != fb.Value(float64(mid.Y)) || b.view.Y.Fixed {
		t.Fatalf("box zoom: window %v, want %v; value ranges %+v and %+v", g.win, want, a.view.Y, b.view.Y)
	}
	sameEverywhere("box")

	a.DoubleTapped(&fyne.PointEvent{Position: mid})
	if g.win != g.full() || a.view.Y.Fixed {
		t.Fatalf("double tap: window %v, want %v; value range %+v", g.win, g.full(), a.view.Y)
	}
	if _, _, ok := g.l.Range(); ok {
		t.Error("fit leaves a range on the link")
	}

	// The link's range (from the timeline) sets the window of every panel.
	g.l.SetRange(full.T0+1e9, full.T0+2e9, true)
	if a.view.Window != (plot.Window{T0: full.T0 + 1e9, T1: full.T0 + 2e9}) || b.view.Window != a.view.Window {
		t.Fatalf("link range: panels show %v and %v", a.view.Window, b.view.Window)
	}
	g.l.SetCursor(full.T0 + 15e8)
	if !a.hasCursor || !b.hasCursor || !a.r.cursor.Visible() {
		t.Error("the link's cursor is not drawn")
	}
}

// TestPlotClickSelectsMessage taps a point and expects its message to be
// selected on the link; a tap away from points moves the cursor only.
func TestPlotClickSelectsMessage(t *testing.T) {
	tests := []struct {
		name string
		base string // time base label
	}{
		{"receive time", timeBases[0].label},
		{"header stamp", timeBases[2].label},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := newTestPlots(t, plotBag)
			p := g.panels[0]
			g.baseSel.SetSelected(tc.base)
			g.l.Actions().AddSeries("/odom.pose.pose.position.x")
			s := p.series[0]
			c := p.canvas
			c.Refresh()
			const i = 7
			f := c.view.Frame
			pos := fyne.NewPos(float32(f.X(s.ms.Time(i))), float32(f.Y(s.ms.V[i]))+2)
			c.Tapped(&fyne.PointEvent{Position: pos})
			msg, ok := g.l.Message()
			if !ok {
				t.Fatalf("tap on point %d selected no message (error %q)", i, p.errText.Text)
			}
			want, err := s.ms.Locate(context.Background(), g.l.Doc().Storage, i)
			if err != nil {
				t.Fatal(err)
			}
			if msg.Loc != want {
				t.Errorf("selected %+v, want %+v", msg.Loc, want)
			}
			x := g.l.Index()
			if x == nil {
				x, _ = model.BuildMessageIndex(context.Background(), g.l.Doc().Storage, nil)
			}
			if k := x.Topic("/odom").IndexOf(msg); k < 0 {
				t.Errorf("selected message %+v is not in the index (wrong receive time?)", msg)
			}

			// Above every point: the cursor moves to the time under the tap.
			top := fyne.NewPos(pos.X, float32(f.Data.Y0)+1)
			c.Tapped(&fyne.PointEvent{Position: top})
			cur, _ := g.l.Cursor()
			if cur != f.Time(float64(top.X)) {
				t.Errorf("cursor at %d, want %d", cur, f.Time(float64(top.X)))
			}
			// The message follows the time: the latest of its topic at
			// or before it.
			odom := x.Topic("/odom")
			if m2, _ := g.l.Message(); m2 != odom.At(odom.Search(cur+1)-1) {
				t.Errorf("after a tap away from points the message is at %d, want the latest /odom message at or before %d", m2.T, cur)
			}
		})
	}
}

// TestPlotLegendAndCrosshair hides, shows and removes series and reads the
// crosshair.
func TestPlotLegendAndCrosshair(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	g.PlotPaths([]string{"/imu.linear_acceleration.x,/odom.twist.twist.linear.x"})
	p := g.panels[0]
	c := p.canvas
	f := c.view.Frame
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(f.Data.X0+f.Data.Dx()/2), 50)}})
	for _, want := range []string{" s    /imu.linear_acceleration.x = ", "/odom.twist.twist.linear.x = "} {
		if !strings.Contains(c.readout(), want) {
			t.Errorf("crosshair readout %q lacks %q", c.readout(), want)
		}
	}
	if !c.r.readout.Visible() || len(c.r.readout.Objects) != 6 {
		t.Errorf("crosshair box: shown %v with %d objects, want a background, 3 lines and 2 colour swatches", c.r.readout.Visible(), len(c.r.readout.Objects))
	}
	// Readable: the theme's text size, in the foreground colour (a series'
	// colour, say blue, on the dark box did not read).
	th := c.Theme()
	fg := th.Color(theme.ColorNameForeground, fyne.CurrentApp().Settings().ThemeVariant())
	for _, o := range c.r.readout.Objects {
		if tx, ok := o.(*canvas.Text); ok && (tx.TextSize < th.Size(theme.SizeNameText) || tx.Color != fg) {
			t.Errorf("crosshair text %q is %v px in %v, want %v px in the foreground %v", tx.Text, tx.TextSize, tx.Color, th.Size(theme.SizeNameText), fg)
		}
	}
	c.MouseOut()
	if c.readout() != "" || c.r.cross.Visible() || c.r.readout.Visible() {
		t.Error("crosshair stays after the mouse left")
	}

	var swatches []*swatchToggle
	var removes []*iconTap
	for _, o := range test.LaidOutObjects(p.legend) {
		switch o := o.(type) {
		case *swatchToggle:
			swatches = append(swatches, o)
		case *iconTap:
			removes = append(removes, o)
		}
	}
	if len(swatches) != 2 || len(removes) != 2 {
		t.Fatalf("%d legend swatches and %d ×, want 2 of each", len(swatches), len(removes))
	}
	test.Tap(swatches[0])
	if !p.series[0].hidden || len(c.visible()) != 1 || swatches[0].rect.FillColor != color.Transparent {
		t.Fatal("clicking the swatch does not hide the series, or the swatch stays filled")
	}
	test.Tap(swatches[0])
	if p.series[0].hidden || swatches[0].rect.FillColor != p.series[0].color {
		t.Fatal("clicking the swatch again does not show the series again")
	}
	test.Tap(removes[0])
	if len(p.series) != 1 || p.series[0].ref.Topic != "/odom" || strings.Contains(legendTexts(p), "/imu.linear_acceleration.x") {
		t.Fatalf("after removing the first series: %+v", p.series)
	}
}

// TestPlotTimeBase switches to header.stamp: a type without a header says
// so in its legend row.
func TestPlotTimeBase(t *testing.T) {
	g, w := newTestPlots(t, plotBag)
	g.PlotPaths([]string{"/imu.linear_acceleration.x,/chatter.@latency"})
	p := g.panels[0]
	if !strings.Contains(p.errText.Text, "unknown field") {
		t.Errorf("latency of a type without a header: %q", p.errText.Text)
	}
	g.add(p, "/odom.header.seq")
	g.baseSel.SetSelected(timeBases[3].label)
	if p.base() != series.HeaderStamp || !p.canvas.absolute {
		t.Fatal("time base not switched")
	}
	for _, s := range p.series {
		if s.ms == nil || s.err != nil {
			t.Errorf("%s on header.stamp: %v", s.path, s.err)
		}
	}
	if !strings.Contains(uitest.Shown(w), "UTC") {
		t.Error("the time axis is not in UTC")
	}
}

// TestPlotExport writes the visible range as CSV, PNG and SVG.
func TestPlotExport(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	g.PlotPaths([]string{"/imu.linear_acceleration.x,/odom.twist.twist.linear.x"})
	p := g.panels[0]
	imu, odom := p.series[0].ms, p.series[1].ms
	// Show from the 10th IMU sample to the 5th odometry sample.
	g.l.SetRange(imu.Time(10), odom.Time(5), true)
	wantRows := 1
	for _, s := range []*series.Series{imu, odom} {
		for i := range s.Len() {
			if tm := s.Time(i); tm >= imu.Time(10) && tm <= odom.Time(5) {
				wantRows++
			}
		}
	}
	tests := []struct {
		kind  exportKind
		check func(t *testing.T, out []byte)
	}{
		{exportCSV, func(t *testing.T, out []byte) {
			lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if lines[0] != "time_s,time_ns,time_utc,/imu.linear_acceleration.x,/odom.twist.twist.linear.x" {
				t.Errorf("header %q", lines[0])
			}
			if len(lines) != wantRows {
				t.Errorf("%d lines, want %d (the visible range only)", len(lines), wantRows)
			}
		}},
		{exportPNG, func(t *testing.T, out []byte) {
			img, err := png.Decode(bytes.NewReader(out))
			if err != nil || img.Bounds().Dx() != exportW {
				t.Errorf("PNG: %v, %v", err, img)
			}
		}},
		{exportSVG, func(t *testing.T, out []byte) {
			if !bytes.Contains(out, []byte("<svg")) || !bytes.Contains(out, []byte("linear_acceleration")) {
				t.Errorf("SVG: %.200s", out)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			var buf bytes.Buffer
			if err := p.export(tc.kind, &buf); err != nil {
				t.Fatal(err)
			}
			tc.check(t, buf.Bytes())
		})
	}
	if name := p.exportName(exportCSV); name != "lz4-multichunk_imu.linear_acceleration.x.csv" {
		t.Errorf("suggested name %q", name)
	}
	p.series[0].hidden, p.series[1].hidden = true, true
	if err := p.export(exportCSV, &bytes.Buffer{}); err == nil {
		t.Error("exporting a plot with every series hidden does not fail")
	}
}

// TestPlotsShots writes the Plots view of the sample bag, in the default dark and light themes, to
// $BAGSCOPE_SHOTS/plots-*.png when that variable is set, to look at it by
// eye.
func TestPlotsShots(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	for _, v := range []struct {
		name string
		th   fyne.Theme
	}{{"dark", uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantDark}}, {"light", uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantLight}}} {
		t.Run(v.name, func(t *testing.T) {
			uitest.NewApp(t).Settings().SetTheme(v.th)
			l := link.NewHub(uitest.OpenSample(t), uitest.SyncRun)
			defer l.Close()
			g := New(l)
			g.PlotPaths([]string{"/imu.linear_acceleration.x,/imu.angular_velocity.z", "/odom.twist.twist.linear.x"})
			cv := software.NewCanvas()
			cv.SetContent(g.content)
			cv.Resize(fyne.NewSize(1280, 560))
			g.l.SetCursor(g.origin + 7e9)
			c := g.panels[0].canvas
			c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(c.Size().Width*0.3, 60)}})
			img := uitest.Capture(cv)
			if err := widgets.WritePNG(filepath.Join(dir, "plots-"+v.name+".png"), img); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestExamplePaths(t *testing.T) {
	tests := []struct {
		path string
		want []string
	}{
		{"../../assets/sample.bag", []string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x", "/tf.transforms[0].transform.translation.x", "/imu.@latency"}},
		{"../../testdata/lz4-multichunk.bag", []string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x", "/tf.transforms[0].transform.translation.x", "/imu.@latency"}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			g, _ := newTestPlots(t, tc.path)
			if !reflect.DeepEqual(g.examples, tc.want) {
				t.Errorf("got %q, want %q", g.examples, tc.want)
			}
		})
	}
}

// TestPlotProgressAndCancel holds the extraction back to see its progress,
// cancels it and checks that the late result is dropped.
func TestPlotProgressAndCancel(t *testing.T) {
	g, w := newTestPlots(t, plotBag)
	var queued []func()
	g.l.(*link.Hub).SetAsync(func(f func()) { queued = append(queued, f) })
	g.l.Actions().AddSeries("/imu.linear_acceleration.x")
	p := g.panels[0]
	if len(p.series) != 1 || !p.series[0].loading() || !p.progRow.Visible() || !g.l.(*link.Hub).Busy() {
		t.Fatalf("while extracting: series %+v, progress shown %v, busy %v", p.series, p.progRow.Visible(), g.l.(*link.Hub).Busy())
	}
	if !strings.Contains(legendTexts(p)+uitest.Shown(w), "extracting") {
		t.Error("the legend does not say the series is being extracted")
	}
	test.Tap(uitest.FindButton(t, p.content, "Cancel"))
	if len(p.series) != 0 || p.progRow.Visible() {
		t.Fatalf("after Cancel: series %+v, progress shown %v", p.series, p.progRow.Visible())
	}
	for _, f := range queued {
		f()
	}
	if len(p.series) != 0 || g.l.(*link.Hub).Busy() {
		t.Errorf("the cancelled extraction came back: %+v, busy %v", p.series, g.l.(*link.Hub).Busy())
	}
}

// TestPlotPanels adds and removes plot panels through the shared
// toolbar, which acts on the selected panel; the last one stays.
func TestPlotPanels(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	if !g.removeBtn.Disabled() {
		t.Error("the only panel can be removed")
	}
	test.Tap(uitest.FindButton(t, g.content, "Add plot"))
	if len(g.panels) != 2 || len(g.stack.Objects) != 2 || g.current != g.panels[1] {
		t.Fatalf("%d panels after Add plot", len(g.panels))
	}
	if !g.panels[1].selMark.Visible() || g.panels[0].selMark.Visible() {
		t.Error("the new panel is not the one framed")
	}
	g.l.Actions().AddSeries("/odom.twist.twist.linear.x")
	if len(g.panels[1].series) != 1 {
		t.Error("addSeries does not add to the selected panel")
	}
	// A press on the first plot selects it; Remove plot removes it.
	g.panels[0].canvas.MouseDown(&desktop.MouseEvent{})
	if g.current != g.panels[0] {
		t.Fatal("pressing on a plot does not select it")
	}
	second := g.panels[1]
	test.Tap(g.removeBtn)
	if len(g.panels) != 1 || len(g.stack.Objects) != 1 || g.panels[0] != second || g.current != second {
		t.Fatalf("%d panels after removing the selected one", len(g.panels))
	}
	if !g.removeBtn.Disabled() {
		t.Error("the last panel can be removed")
	}
}

// TestPlotPanelsShareHeight stacks panels in windows of several sizes: they
// share the height evenly, never get less than plotMinHeight, and scroll
// when they do not fit.
func TestPlotPanelsShareHeight(t *testing.T) {
	tests := []struct {
		name   string
		size   fyne.Size
		panels int
		scroll bool
	}{
		{"two in 1280x800", fyne.NewSize(1280, 800), 2, false},
		{"three in 1024x640", fyne.NewSize(1024, 640), 3, true},
		{"four in 2560x1440", fyne.NewSize(2560, 1440), 4, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, w := newTestPlots(t, plotBag)
			for len(g.panels) < tc.panels {
				g.addPanel()
			}
			w.Resize(tc.size)
			view := g.scroll.Size().Height
			h0 := g.panels[0].box.Size().Height
			for i, p := range g.panels {
				if h := p.box.Size().Height; h != h0 || h < plotMinHeight {
					t.Errorf("panel %d is %v high, panel 0 %v (least %d)", i, h, h0, plotMinHeight)
				}
			}
			total := float32(tc.panels)*h0 + float32(tc.panels-1)*theme.Padding()
			if scrolls := total > view+1; scrolls != tc.scroll {
				t.Errorf("panels take %v in a view of %v: scrolls %v, want %v", total, view, scrolls, tc.scroll)
			}
			if !tc.scroll && total < view-1 {
				t.Errorf("panels take %v of %v: space left over", total, view)
			}
		})
	}
}

// TestPlotSeriesShareTimes checks that fields of one topic keep one compact
// time column, and fields of another topic their own.
func TestPlotSeriesShareTimes(t *testing.T) {
	g, _ := newTestPlots(t, plotBag)
	g.PlotPaths([]string{"/imu.linear_acceleration.x,/imu.angular_velocity.z,/odom.twist.twist.linear.x"})
	p := g.panels[0]
	if len(p.series) != 3 {
		t.Fatalf("%d series, want 3", len(p.series))
	}
	a, b, c := p.series[0].ms, p.series[1].ms, p.series[2].ms
	if a == nil || b == nil || c == nil || a.C == nil || c.C == nil {
		t.Fatal("series not extracted with compact times")
	}
	if a.C != b.C {
		t.Error("two fields of /imu keep two time columns")
	}
	if a.C == c.C {
		t.Error("/odom shares /imu's time column")
	}
}
