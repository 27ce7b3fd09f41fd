package plots

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/widgets"
)

// TestFieldListSample checks the Fields list of the sample bag: the
// expected fields are there, each resolves, and the filter narrows it.
func TestFieldListSample(t *testing.T) {
	test.NewTempApp(t)
	g, _ := newTestPlotsDoc(t, uitest.OpenSample(t))
	f := g.fields
	all := f.paths()
	has := map[string]bool{}
	for _, p := range all {
		has[p] = true
		if _, err := series.ResolveField(g.l.Doc().Storage, &g.cache, p); err != nil {
			t.Errorf("listed %s does not resolve: %v", p, err)
		}
	}
	for _, want := range []string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x", "/imu.@latency", "/tf.transforms[0].transform.translation.x"} {
		if !has[want] {
			t.Errorf("the list lacks %s", want)
		}
	}
	for _, topic := range series.Topics(g.l.Doc().Storage) {
		if has[topic] {
			t.Errorf("the list offers the bare topic %s", topic)
		}
	}

	tests := []struct {
		filter string
		want   []string // all of them shown
		words  []string // every shown path has all of them
	}{
		{"", []string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x"}, nil},
		{"linear .x", []string{"/imu.linear_acceleration.x", "/odom.twist.twist.linear.x"}, []string{"linear", ".x"}},
		{"ODOM twist", []string{"/odom.twist.twist.linear.x"}, []string{"odom", "twist"}},
		{"@latency", []string{"/imu.@latency"}, []string{"@latency"}},
		{"no such field", nil, []string{"no such field"}},
	}
	for _, tc := range tests {
		t.Run(tc.filter, func(t *testing.T) {
			f.filter.SetText(tc.filter)
			shown := f.paths()
			if tc.filter == "" && len(shown) != len(all) {
				t.Errorf("no filter shows %d of %d", len(shown), len(all))
			}
			for _, w := range tc.want {
				if !strings.Contains("\n"+strings.Join(shown, "\n")+"\n", "\n"+w+"\n") {
					t.Errorf("filter %q hides %s", tc.filter, w)
				}
			}
			for _, p := range shown {
				for _, w := range tc.words {
					if !strings.Contains(strings.ToLower(p), w) {
						t.Errorf("filter %q shows %s", tc.filter, p)
					}
				}
			}
			if tc.want == nil && len(shown) != 0 {
				t.Errorf("filter %q shows %v", tc.filter, shown)
			}
		})
	}
}

// shownFieldRow filters the Fields list down to path and returns its row
// as the tree shows it.
func shownFieldRow(t *testing.T, g *View, path string) *fieldRow {
	t.Helper()
	g.fields.filter.SetText(strings.NewReplacer(".", " ", "/", "").Replace(path))
	for _, o := range test.LaidOutObjects(g.fields.tree) {
		if r, ok := o.(*fieldRow); ok && r.Visible() && r.path == path {
			return r
		}
	}
	t.Fatalf("the Fields list shows no row for %s", path)
	return nil
}

// TestFieldDrag drags a field row onto each kind of target, calling the
// row's Dragged and DragEnd as the driver would.
func TestFieldDrag(t *testing.T) {
	const path = "/odom.twist.twist.linear.x"
	tests := []struct {
		name   string
		target func(g *View) fyne.Position // evaluated mid-drag
		series []int                       // series per panel after the drop
		mark   int                         // panel highlighted before the drop, -1 none
		zone   bool                        // drop zone highlighted
	}{
		{"onto panel 2", func(g *View) fyne.Position { return uitest.Centre(g.panels[1].box) }, []int{0, 1}, 1, false},
		{"onto panel 1", func(g *View) fyne.Position { return uitest.Centre(g.panels[0].box) }, []int{1, 0}, 0, false},
		{"onto panel 2's legend corner", func(g *View) fyne.Position {
			b := g.panels[1].box
			return fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Add(fyne.NewPos(b.Size().Width-2, b.Size().Height-2))
		}, []int{0, 1}, 1, false},
		{"back onto the list", func(g *View) fyne.Position { return uitest.Centre(g.fields.tree) }, []int{0, 0}, -1, false},
		{"outside the window", func(g *View) fyne.Position { return fyne.NewPos(-20, 300) }, []int{0, 0}, -1, false},
		{"below the panels", func(g *View) fyne.Position { return uitest.Centre(g.dropZone) }, []int{0, 0, 1}, -1, true},
		{"onto Add plot", func(g *View) fyne.Position { return uitest.Centre(g.addBtn) }, []int{0, 0, 1}, -1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := newTestPlots(t, plotBag)
			g.addPanel()
			row := shownFieldRow(t, g, path)
			start := uitest.Centre(row)
			row.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: start}, Dragged: fyne.Delta{DX: 5}})
			if !g.dropZone.Visible() || g.dropZone.Size().Height == 0 {
				t.Fatal("no drop zone while dragging")
			}
			if g.fields.dragTip == nil || !g.fields.dragTip.Visible() || g.fields.dragText.Text != path {
				t.Fatal("no label follows the drag")
			}
			pos := tc.target(g)
			row.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: pos}, Dragged: fyne.Delta{DX: pos.X - start.X, DY: pos.Y - start.Y}})
			for i, p := range g.panels {
				if p.mark.Visible() != (i == tc.mark) {
					t.Errorf("panel %d highlighted %v, want %v", i+1, p.mark.Visible(), i == tc.mark)
				}
			}
			if hot := g.zoneMark.FillColor == dropFill(true); hot != tc.zone {
				t.Errorf("drop zone hot %v, want %v", hot, tc.zone)
			}
			if tip, size := g.fields.dragTip.Position(), g.fields.dragTip.MinSize(); pos.X >= 0 &&
				(tip.X+size.Width < pos.X-30 || tip.X > pos.X+30 || tip.Y+size.Height < pos.Y-30 || tip.Y > pos.Y+30) {
				t.Errorf("the label is at %v (%v), the pointer at %v", tip, size, pos)
			}
			row.DragEnd()

			if len(g.panels) != len(tc.series) {
				t.Fatalf("%d panels, want %d", len(g.panels), len(tc.series))
			}
			for i, p := range g.panels {
				if len(p.series) != tc.series[i] {
					t.Errorf("panel %d has %d series, want %d", i+1, len(p.series), tc.series[i])
				}
				for _, s := range p.series {
					if s.path != path || s.ms == nil || s.ms.Len() != 30 {
						t.Errorf("panel %d: series %s with %v", i+1, s.path, s.ms)
					}
				}
				if p.mark.Visible() {
					t.Errorf("panel %d still highlighted", i+1)
				}
			}
			if g.dropZone.Visible() || g.fields.dragTip.Visible() {
				t.Error("the drop zone or the label stays after the drop")
			}
		})
	}
}

func TestTipPosition(t *testing.T) {
	tip, c := fyne.NewSize(200, 30), fyne.NewSize(1000, 800)
	tests := []struct {
		name string
		pos  fyne.Position
		want fyne.Position
	}{
		{"room below right", fyne.NewPos(100, 100), fyne.NewPos(114, 110)},
		{"bottom edge", fyne.NewPos(100, 790), fyne.NewPos(114, 754)},
		{"right edge", fyne.NewPos(950, 100), fyne.NewPos(736, 110)},
		{"bottom right corner", fyne.NewPos(990, 795), fyne.NewPos(776, 759)},
	}
	for _, tc := range tests {
		if got := tipPosition(tc.pos, tip, c); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestFieldAddToSelected adds a field by double-click and by the +
// button with one panel or another selected as the user selects it
// (pressing on the plot, Add plot), and checks the hint under the list
// says where it goes.
func TestFieldAddToSelected(t *testing.T) {
	const path = "/imu.linear_acceleration.x"
	press := func(i int) func(g *View) {
		return func(g *View) {
			ev := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(50, 50)}, Button: desktop.MouseButtonPrimary}
			if p := g.panels[i]; p.xy != nil {
				p.xy.MouseDown(ev)
			} else {
				p.canvas.MouseDown(ev)
			}
		}
	}
	adds := []struct {
		name string
		add  func(r *fieldRow)
	}{
		{"double-click", func(r *fieldRow) { r.DoubleTapped(&fyne.PointEvent{}) }},
		{"plus button", func(r *fieldRow) { test.Tap(r.plus) }},
	}
	tests := []struct {
		name   string
		selec  func(g *View) // with three panels, the last selected
		series []int         // series per panel after the add
		sel    int           // the selected panel after the add
	}{
		{"first of three", press(0), []int{1, 0, 0}, 0},
		{"middle of three", press(1), []int{0, 1, 0}, 1},
		{"last, as made", func(*View) {}, []int{0, 0, 1}, 2},
		{"Add plot", func(g *View) { test.Tap(toolbarButton(t, g, "Add plot")) }, []int{0, 0, 0, 1}, 3},
		{"an XY plot: a new plot below", func(g *View) {
			g.add(g.panels[0], "/odom.pose.pose.position.x vs /odom.pose.pose.position.y")
			press(0)(g)
		}, []int{0, 0, 0, 1}, 3},
	}
	for _, ad := range adds {
		for _, tc := range tests {
			t.Run(ad.name+"/"+tc.name, func(t *testing.T) {
				g, _ := newTestPlots(t, plotBag)
				g.selectPanel(g.addPanel())
				g.selectPanel(g.addPanel())
				tc.selec(g)
				ad.add(shownFieldRow(t, g, path))
				if len(g.panels) != len(tc.series) {
					t.Fatalf("%d panels, want %d", len(g.panels), len(tc.series))
				}
				for i, p := range g.panels {
					n := 0
					for _, s := range p.series {
						if s.path == path {
							n++
						}
					}
					if n != tc.series[i] {
						t.Errorf("panel %d has %s %d times, want %d", i+1, path, n, tc.series[i])
					}
					if sel := p == g.current; sel != (i == tc.sel) || p.selMark.Visible() != sel {
						t.Errorf("panel %d selected %v, framed %v; want the selected panel %d", i+1, sel, p.selMark.Visible(), tc.sel+1)
					}
				}
			})
		}
	}

	g, _ := newTestPlots(t, plotBag)
	var hint string
	for _, o := range test.LaidOutObjects(g.fields.content) {
		if rt, ok := o.(*widget.RichText); ok && strings.Contains(rt.String(), "Double-click") {
			hint = rt.String()
		}
	}
	if hint != "Double-click or + adds it to the selected plot." {
		t.Errorf("the hint under the Fields list says %q", hint)
	}
}

// toolbarButton is the Plots toolbar's button labelled text.
func toolbarButton(t *testing.T, g *View, text string) *widget.Button {
	t.Helper()
	for _, o := range test.LaidOutObjects(g.content) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no %q button", text)
	return nil
}

// TestFieldDragShot writes the sample bag's Plots view in the middle of a
// drag onto the second plot to $BAGSCOPE_SHOTS/plots-drag.png.
func TestFieldDragShot(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	uitest.NewApp(t).Settings().SetTheme(uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantDark})
	g, w := newTestPlotsDoc(t, uitest.OpenSample(t))
	w.Resize(fyne.NewSize(1280, 560))
	g.PlotPaths([]string{"/imu.linear_acceleration.x", "/imu.angular_velocity.z"})
	row := shownFieldRow(t, g, "/odom.twist.twist.linear.x")
	start := uitest.Centre(row)
	row.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: start}})
	row.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: uitest.Centre(g.panels[1].box)}})
	if err := widgets.WritePNG(filepath.Join(dir, "plots-drag.png"), uitest.Capture(w.Canvas())); err != nil {
		t.Fatal(err)
	}
	row.DragEnd()
	g.fields.filter.SetText("")
	if err := widgets.WritePNG(filepath.Join(dir, "plots-dropped.png"), uitest.Capture(w.Canvas())); err != nil {
		t.Fatal(err)
	}
}
