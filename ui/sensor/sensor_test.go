package sensor

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	msensor "github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// newTestSensorPanel opens a bag (the sample when path is "") and shows
// its Sensor tab in a test window.
func newTestSensorPanel(t *testing.T, path string) (*sensorPanel, *link.Hub, *model.MessageIndex, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	var d *model.Document
	var err error
	if path == "" {
		d, err = model.OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	} else {
		d, err = model.Open(context.Background(), path, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	p := newSensorPanel(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1000, 700))
	var x *model.MessageIndex
	l.WithIndex(func(i *model.MessageIndex) { x = i })
	if x == nil {
		t.Fatal("the message index was not built")
	}
	return p, l, x, w
}

// decodeStored decodes the message at ref through the storage seam.
func decodeStored(t *testing.T, d *model.Document, ref msgref.Ref) (string, *rosmsg.Node) {
	t.Helper()
	r := model.NewMessageReader(d.Storage, nil)
	m, err := r.Read(ref)
	if err != nil {
		t.Fatal(err)
	}
	root, _, err := r.Decode(m)
	if err != nil {
		t.Fatal(err)
	}
	return m.Conn.Type, root
}

// TestSensorImageZoomPanReadout shows a camera frame fitted, reads the
// pixel under the pointer, zooms about the pointer (wheel and keys), pans
// by dragging and draws 1:1 pixels exactly.
func TestSensorImageZoomPanReadout(t *testing.T) {
	p, l, x, w := newTestSensorPanel(t, "")
	ref := x.Topic("/camera/image_raw").At(3)
	l.SelectMessage(ref)
	if p.cur == nil || p.cur.err != nil || p.cur.frame == nil {
		t.Fatalf("the image was not shown: %+v", p.cur)
	}
	typ, root := decodeStored(t, l.Doc(), ref)
	want, err := msensor.DecodeImage(typ, root)
	if err != nil {
		t.Fatal(err)
	}
	v := p.img
	size := v.Size()
	if size.Width < 500 || size.Height < 300 {
		t.Fatalf("the image view is only %v", size)
	}
	// Fitted: the 64×48 frame fills the view's width or height.
	fit := min(size.Width/64, size.Height/48)
	if math.Abs(float64(v.Zoom()-fit)) > 1e-3 {
		t.Errorf("fitted zoom %v, want %v", v.Zoom(), fit)
	}
	at := func(ix, iy float32) fyne.Position {
		return fyne.NewPos(v.origin.X+(ix+0.5)*v.zoom, v.origin.Y+(iy+0.5)*v.zoom)
	}

	for _, tt := range []struct{ x, y int }{{0, 0}, {10, 5}, {63, 47}, {31, 24}} {
		t.Run(fmt.Sprintf("readout %d,%d", tt.x, tt.y), func(t *testing.T) {
			uitest.Hover(v, at(float32(tt.x), float32(tt.y)))
			val, _ := want.Pixel(tt.x, tt.y)
			if got, exp := p.readout.Text, fmt.Sprintf("x %d  y %d  ·  %s", tt.x, tt.y, val); got != exp {
				t.Errorf("read-out %q, want %q", got, exp)
			}
		})
	}
	v.MouseOut()
	if p.readout.Text != imageHint {
		t.Errorf("read-out %q after the pointer left", p.readout.Text)
	}

	// The wheel zooms about the pointer: the pixel under it stays.
	pt := at(20, 10)
	before, _, _ := v.Pixel(pt)
	z0 := v.Zoom()
	v.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: pt}, Scrolled: fyne.Delta{DY: 10}})
	if got := v.Zoom(); math.Abs(float64(got/z0)-math.Pow(wheelStep, 10.0/wheelNotch)) > 1e-3 || got <= z0 {
		t.Errorf("one wheel step zooms %v → %v", z0, got)
	}
	if px, py, ok := v.Pixel(pt); !ok || px != before || py != 10 {
		t.Errorf("after zooming the pointer is over pixel %d,%d, want %d,10", px, py, before)
	}
	// The test driver's scroll (at the canvas origin) zooms out.
	z1 := v.Zoom()
	test.Scroll(w.Canvas(), fyne.NewPos(size.Width/2, size.Height/2+100), 0, -10)
	if v.Zoom() >= z1 {
		t.Errorf("scrolling down did not zoom out: %v → %v", z1, v.Zoom())
	}

	// Drag pans by the drag's distance.
	o := v.origin
	test.Drag(w.Canvas(), fyne.NewPos(size.Width/2, size.Height/2+100), 30, -20)
	if d := v.origin.Subtract(o); math.Abs(float64(d.X-30)) > 1e-3 || math.Abs(float64(d.Y+20)) > 1e-3 {
		t.Errorf("a drag of 30,-20 moved the image by %v", d)
	}

	// Keys: 1 shows 1:1, - and + zoom, 0 fits again.
	for _, tt := range []struct {
		key  rune
		want float32
	}{{'1', 1}, {'+', 1.25}, {'-', 1}, {'-', 0.8}, {'0', fit}, {'1', 1}} {
		v.TypedRune(tt.key)
		if math.Abs(float64(v.Zoom()-tt.want)) > 1e-3 {
			t.Errorf("after %q zoom %v, want %v", tt.key, v.Zoom(), tt.want)
		}
	}
	// At 1:1 the window draws the frame's pixels exactly.
	if v.Zoom() != 1 {
		t.Fatal("not at 1:1")
	}
	shot := uitest.Capture(w.Canvas()) // not dropping the window as stale (uitest.Capture)
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(v)
	x0, y0 := int(math.Round(float64(abs.X+v.origin.X))), int(math.Round(float64(abs.Y+v.origin.Y)))
	// The painter places the widget to within a pixel: look for the one
	// offset at which every sampled pixel matches.
	matched := false
	for _, off := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}, {-1, 1}} {
		all, n := true, 0
		for y := 0; y < 48 && all; y += 3 {
			for x := 0; x < 64; x += 3 {
				got := color.NRGBAModel.Convert(shot.At(x0+off[0]+x, y0+off[1]+y)).(color.NRGBA)
				if got != color.NRGBAModel.Convert(want.Img.At(x, y)).(color.NRGBA) {
					all = false
					break
				}
				n++
			}
		}
		if all && n > 300 {
			matched = true
			break
		}
	}
	if !matched {
		t.Error("at 1:1 the window does not draw the frame's pixels exactly")
	}
	// The next frame of the same size keeps the zoom.
	l.SelectMessage(x.Topic("/camera/image_raw").At(4))
	if v.Zoom() != 1 {
		t.Errorf("the next frame changed the zoom to %v", v.Zoom())
	}
}

// TestSensorLaserScan draws a LaserScan of robot.bag from above: its points
// are those the model decodes, fitted inside the view; the wheel zooms
// about the pointer, a drag pans, 0 fits and the read-out is in metres.
func TestSensorLaserScan(t *testing.T) {
	p, l, x, w := newTestSensorPanel(t, "../../testdata/robot.bag")
	ref := x.Topic("/scan").At(10)
	l.SelectMessage(ref)
	if p.cur == nil || p.cur.err != nil || p.cur.scan == nil {
		t.Fatalf("the scan was not shown: %+v", p.cur)
	}
	_, root := decodeStored(t, l.Doc(), ref)
	want, err := msensor.DecodeLaserScan(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Points) == 0 {
		t.Fatal("robot.bag's scan has no point")
	}
	v := p.pts
	set := v.set
	if len(set.X) != len(want.Points) {
		t.Fatalf("%d points drawn, the scan has %d", len(set.X), len(want.Points))
	}
	size := v.Size()
	for i, pt := range want.Points {
		if set.X[i] != float32(pt.X) || set.Y[i] != float32(pt.Y) {
			t.Fatalf("point %d drawn at %v,%v, want %v,%v", i, set.X[i], set.Y[i], pt.X, pt.Y)
		}
		vx, vy := v.toView(pt.X, pt.Y)
		if vx < 0 || vy < 0 || vx > float64(size.Width) || vy > float64(size.Height) {
			t.Errorf("fitted point %d at %v,%v is outside the %v view", i, vx, vy, size)
		}
	}
	if !strings.Contains(p.note.Text, human.Count(uint64(len(want.Points)))+" of ") {
		t.Errorf("note %q does not count the points drawn", p.note.Text)
	}

	// The wheel keeps the point under the pointer.
	pos := fyne.NewPos(size.Width*0.3, size.Height*0.6)
	mx, my := v.Metres(pos)
	v.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: pos}, Scrolled: fyne.Delta{DY: 20}})
	if gx, gy := v.Metres(pos); math.Abs(gx-mx) > 1e-9 || math.Abs(gy-my) > 1e-9 {
		t.Errorf("zooming moved the point under the pointer from %v,%v to %v,%v", mx, my, gx, gy)
	}
	// A drag right and down moves the view's content with it: the
	// point that was under pos is now 40 right and 10 down of it.
	test.Drag(w.Canvas(), fyne.NewPos(size.Width/2, size.Height/2+80), 40, 10)
	if gx, gy := v.Metres(pos.Add(fyne.NewPos(40, 10))); math.Abs(gx-mx) > 1e-9 || math.Abs(gy-my) > 1e-9 {
		t.Errorf("after the drag %v,%v is at %v,%v", mx, my, gx, gy)
	}
	// The read-out says where the pointer is, in metres.
	uitest.Hover(v, pos)
	hx, hy := v.Metres(pos)
	if exp := fmt.Sprintf("x %.3f m  y %.3f m", hx, hy); !strings.HasPrefix(p.readout.Text, exp) || !strings.Contains(p.readout.Text, "range") {
		t.Errorf("read-out %q, want %q and a range", p.readout.Text, exp)
	}
	// Over a point, the read-out names its beam.
	pt := want.Points[len(want.Points)/3]
	vx, vy := v.toView(pt.X, pt.Y)
	uitest.Hover(v, fyne.NewPos(float32(vx)+1, float32(vy)))
	if exp := fmt.Sprintf("beam %d: %.3f m", pt.Index, pt.Range); !strings.Contains(p.readout.Text, exp) {
		t.Errorf("read-out over beam %d: %q, want %q", pt.Index, p.readout.Text, exp)
	}
	// Coloured by range: the nearest point gets the map's first colour,
	// the farthest its last; the legend gives the span.
	hasIntensity := false
	near, far := 0, 0
	for i, pt := range want.Points {
		hasIntensity = hasIntensity || !math.IsNaN(pt.Intensity)
		if pt.Range < want.Points[near].Range {
			near = i
		}
		if pt.Range > want.Points[far].Range {
			far = i
		}
	}
	if got := slices.Contains(p.fieldSel.Options, scanIntensity); got != hasIntensity {
		t.Errorf("intensity offered %v, the scan has intensities %v", got, hasIntensity)
	}
	p.fieldSel.SetSelected(scanRange)
	if c := p.pts.set.C; c == nil || c[near] != p.cmap.At(0) || c[far] != p.cmap.At(1) {
		t.Errorf("coloured by range: nearest %v, farthest %v", c[near], c[far])
	}
	if !strings.HasPrefix(p.legendTxt.Text, "range  "+formatValue(want.Points[near].Range)) {
		t.Errorf("legend %q", p.legendTxt.Text)
	}
	l.SelectMessage(x.Topic("/scan").At(12))
	if p.pts.set.C == nil || p.fieldSel.Selected != scanRange {
		t.Error("the next scan lost the colouring")
	}
	p.fieldSel.SetSelected(scanPlain)
	if p.pts.set.C != nil {
		t.Error("one colour still colours by range")
	}
	// 0 fits again; the next scan keeps a zoom the user chose.
	v.TypedRune('0')
	if !v.fit {
		t.Error("0 did not fit")
	}
	v.TypedRune('+')
	ppm := v.ppm
	l.SelectMessage(x.Topic("/scan").At(11))
	if v.ppm != ppm || v.fit {
		t.Errorf("the next scan changed the zoom from %v to %v", ppm, v.ppm)
	}
}

// TestSensorFollowsCursor shows, for the chosen topic, its message at or
// before the time cursor.
func TestSensorFollowsCursor(t *testing.T) {
	p, l, x, _ := newTestSensorPanel(t, "../../testdata/robot.bag")
	tm := x.Topic("/scan")
	// Shown (its tab selected) with nothing chosen, the tab picks the
	// first sensor topic.
	p.content.Hide()
	l.CatchUp(false) // another tab selected
	p.content.Show()
	l.CatchUp(false) // as selecting the tab does
	if p.topic != "/scan" || p.topicSel.Selected != "/scan" || !p.has || p.ref != tm.At(0) {
		t.Fatalf("shown with nothing chosen: topic %q, message %+v", p.topic, p.ref)
	}
	p.topicSel.SetSelected("/scan")
	if !p.has || p.ref != tm.At(0) {
		t.Fatalf("choosing the topic without a cursor shows %+v, want its first message", p.ref)
	}
	for _, tt := range []struct {
		name string
		t    int64
		want int
	}{
		{"before the first", tm.At(0).T - 1, 0},
		{"on a message", tm.At(7).T, 7},
		{"between two", tm.At(7).T + (tm.At(8).T-tm.At(7).T)/2, 7},
		{"after the last", tm.At(tm.Len()-1).T + 1e9, tm.Len() - 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l.SetCursor(tt.t)
			if p.ref != tm.At(tt.want) || p.cur == nil || p.cur.ref != tm.At(tt.want) {
				t.Errorf("cursor at %d shows %+v, want message %d", tt.t, p.ref, tt.want)
			}
		})
	}
	// Hidden (another tab selected), the panel reads nothing; shown
	// again, it catches up with the cursor.
	p.content.Hide()
	l.CatchUp(false) // another tab selected
	shownRef := p.cur.ref
	l.SetCursor(tm.At(3).T)
	if p.cur.ref != shownRef || p.pending == nil {
		t.Errorf("the hidden panel read %+v (pending %v)", p.cur.ref, p.pending)
	}
	p.content.Show()
	l.CatchUp(false) // as selecting the tab does
	if p.cur.ref != tm.At(3) || p.pending != nil {
		t.Errorf("shown again it shows %+v, want message 3", p.cur.ref)
	}
	// The arrows step through the topic, selecting the message everywhere.
	l.SelectMessage(tm.At(5))
	if p.position.Text != fmt.Sprintf("6 / %d", tm.Len()) || p.prev.Disabled() || p.next.Disabled() {
		t.Errorf("at message 5: position %q, prev disabled %v, next disabled %v", p.position.Text, p.prev.Disabled(), p.next.Disabled())
	}
	test.Tap(p.next)
	if m, _ := l.Message(); m != tm.At(6) || p.cur.ref != tm.At(6) {
		t.Errorf("next selected %+v, shows %+v; want message 6", m, p.cur.ref)
	}
	test.Tap(p.prev)
	test.Tap(p.prev)
	if m, _ := l.Message(); m != tm.At(4) {
		t.Errorf("prev twice selected %+v, want message 4", m)
	}
	l.SelectMessage(tm.At(tm.Len() - 1))
	if !p.next.Disabled() || p.prev.Disabled() {
		t.Error("at the last message next is enabled")
	}
	// Selecting a message of another topic leaves the view as it is.
	shown := p.ref
	l.SelectMessage(x.Topic("/odom").At(3))
	if p.cur.ref.Conn != shown.Conn {
		t.Errorf("an Odometry message replaced the scan: %+v", p.cur.ref)
	}
}

// TestCloudColouring colours a hand-made cloud by its field through the
// colour map: the lowest value gets the map's first colour, the highest
// its last.
func TestCloudColouring(t *testing.T) {
	c := &msensor.Cloud{X: []float32{0, 1, 2}, Y: []float32{0, 0, 0}, C: []float32{-1, 0, 3}, ColorField: "z", Lo: -1, Hi: 3}
	s := cloudPoints(c, msensor.TurboMap)
	for i, want := range []color.NRGBA{msensor.TurboMap.At(0), msensor.TurboMap.At(0.25), msensor.TurboMap.At(1)} {
		if s.C[i] != want {
			t.Errorf("point %d coloured %v, want %v", i, s.C[i], want)
		}
	}
	packed := cloudPoints(&msensor.Cloud{X: []float32{1, 2}, Y: []float32{1, 2}, C: []float32{0, 0}, ColorField: "rgb", RGB: []uint32{0x00ff8000, 0xff102030}}, msensor.TurboMap)
	if want := []color.NRGBA{{0xff, 0x80, 0, 255}, {0x10, 0x20, 0x30, 255}}; !slices.Equal(packed.C, want) {
		t.Errorf("packed rgb drawn %v, want %v", packed.C, want)
	}
	if s := cloudPoints(&msensor.Cloud{X: []float32{1}, Y: []float32{1}}, msensor.TurboMap); s.C != nil {
		t.Error("a cloud without a colour field got colours")
	}
}

// TestNiceStep picks grid steps of 1, 2 or 5 × 10^k.
func TestNiceStep(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0.7, 1}, {1, 1}, {1.2, 2}, {3, 5}, {7, 10}, {0.013, 0.02}, {450, 500}, {0, 1}, {math.Inf(1), 1},
	} {
		if got := niceStep(tt.in); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("niceStep(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		m    float64
		want string
	}{{2, "2 m"}, {0.5, "50 cm"}, {1000, "1 km"}, {0.005, "5 mm"}} {
		if got := formatMetres(tt.m); got != tt.want {
			t.Errorf("formatMetres(%v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}

// TestSensorDepthColourMap draws depth.bag's 16UC1 frame through a colour
// map over its automatic range, then over a range typed in, in grey, and
// back to the automatic range; the read-out gives millimetres.
func TestSensorDepthColourMap(t *testing.T) {
	p, l, x, _ := newTestSensorPanel(t, "../../testdata/depth.bag")
	ref := x.Topic("/depth/image_raw").At(1)
	l.SelectMessage(ref)
	typ, root := decodeStored(t, l.Doc(), ref)
	f, err := msensor.DecodeImage(typ, root)
	if err != nil {
		t.Fatal(err)
	}
	if !p.scalarUI.Visible() || p.cur == nil || p.cur.frame == nil {
		t.Fatal("no colour map controls for a 16UC1 frame")
	}
	same := func(name string, lo, hi float64, cm *msensor.ColorMap) {
		t.Helper()
		exp := f.Render(lo, hi, cm)
		got := p.img.pic
		if got == nil || got.Rect.Dx() != f.W {
			t.Fatalf("%s: picture %v", name, got)
		}
		n := 0
		for y := 0; y < f.H; y += 5 {
			for x := 0; x < f.W; x += 5 {
				g := got.NRGBAAt(x, y)
				e := color.NRGBAModel.Convert(exp.At(x, y)).(color.NRGBA)
				if g != e {
					t.Fatalf("%s: pixel %d,%d drawn %v, want %v", name, x, y, g, e)
				}
				n++
			}
		}
	}
	if p.loEntry.Text != formatValue(f.Lo) || p.hiEntry.Text != formatValue(f.Hi) || f.Lo == 0 {
		t.Errorf("range shown %s..%s, the frame's %v..%v (0 is no reading)", p.loEntry.Text, p.hiEntry.Text, f.Lo, f.Hi)
	}
	same("auto turbo", f.Lo, f.Hi, msensor.TurboMap)

	p.loEntry.SetText("1000")
	p.hiEntry.SetText("2000")
	p.loEntry.OnSubmitted(p.loEntry.Text)
	if p.auto {
		t.Error("a typed range left the automatic range on")
	}
	same("typed range", 1000, 2000, msensor.TurboMap)

	p.cmapSel.SetSelected("Grey")
	same("grey", 1000, 2000, msensor.GreyMap)

	p.hiEntry.SetText("500")
	p.hiEntry.OnSubmitted(p.hiEntry.Text)
	if !strings.Contains(p.note.Text, "range needs") {
		t.Errorf("an empty range was taken: note %q", p.note.Text)
	}
	same("still the last good range", 1000, 2000, msensor.GreyMap)

	p.autoBtn.OnTapped()
	same("auto again", f.Lo, f.Hi, msensor.GreyMap)

	// The next frame keeps the map; its own range when automatic.
	l.SelectMessage(x.Topic("/depth/image_raw").At(2))
	if p.cmap != msensor.GreyMap || !p.auto {
		t.Errorf("the next frame changed the settings: %s, auto %v", p.cmap.Name, p.auto)
	}

	// The read-out: millimetres, and no reading in the invalid corner.
	v := p.img
	for _, tt := range []struct {
		x, y int
		want string
	}{{0, 0, "0 (no reading)"}, {50, 60, ""}} {
		pos := fyne.NewPos(v.origin.X+(float32(tt.x)+0.5)*v.zoom, v.origin.Y+(float32(tt.y)+0.5)*v.zoom)
		uitest.Hover(v, pos)
		want := tt.want
		if want == "" {
			want, _ = p.cur.frame.Pixel(tt.x, tt.y)
		}
		if exp := fmt.Sprintf("x %d  y %d  ·  %s", tt.x, tt.y, want); p.readout.Text != exp {
			t.Errorf("read-out %q, want %q", p.readout.Text, exp)
		}
	}
}

// TestSensorCloudField colours a real PointCloud2 by z, then by the uint8
// field g chosen in the panel, each as the model decodes it.
func TestSensorCloudField(t *testing.T) {
	path := uitest.SharedBags(t, "eric-wieser__ros_numpy/test/test.bag")
	p, l, x, _ := newTestSensorPanel(t, path)
	ref := x.Topic("/pointcloud").At(0)
	l.SelectMessage(ref)
	_, root := decodeStored(t, l.Doc(), ref)
	for _, tt := range []struct{ field, choose string }{{"z", ""}, {"g", "g"}, {"x", "x"}} {
		t.Run(tt.field, func(t *testing.T) {
			if tt.choose != "" {
				p.fieldSel.SetSelected(tt.choose)
			}
			want, err := msensor.DecodeCloud(root, tt.field, 0)
			if err != nil {
				t.Fatal(err)
			}
			c := p.cur.cloud
			if c == nil || c.ColorField != tt.field || !slices.Equal(c.C, want.C) {
				t.Fatalf("coloured by %q with %d values, want %q", c.ColorField, len(c.C), tt.field)
			}
			exp := cloudPoints(want, p.cmap)
			if !slices.Equal(p.pts.set.C, exp.C) || len(p.pts.set.X) != 100 {
				t.Errorf("the view draws %d points in other colours", len(p.pts.set.X))
			}
			if !slices.Equal(p.fieldSel.Options, []string{"x", "y", "z", "r", "g", "b"}) {
				t.Errorf("fields offered: %v", p.fieldSel.Options)
			}
			if !strings.HasPrefix(p.legendTxt.Text, tt.field+" ") {
				t.Errorf("legend %q", p.legendTxt.Text)
			}
		})
	}
}
