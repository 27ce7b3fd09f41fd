package message

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/widgets"
)

func TestMessageCopyTable(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/imu").At(3))
	clip := fyne.CurrentApp().Clipboard()
	tests := []struct {
		name string
		path string // the selected field, "" for none
		s    fyne.Shortcut
		want func() string
	}{
		{"value of a float", "linear_acceleration.z", &fyne.ShortcutCopy{}, func() string {
			return echo.FieldValue(p.ft.Node(treeID(t, p.ft, "linear_acceleration.z")))
		}},
		{"value of a string", "header.frame_id", &fyne.ShortcutCopy{}, func() string { return "imu_link" }},
		{"value of a time", "header.stamp", &fyne.ShortcutCopy{}, func() string {
			st := p.ft.Node(treeID(t, p.ft, "header.stamp")).Time()
			return fmt.Sprintf("%d.%09d", st.Sec, st.Nsec)
		}},
		{"value of a message", "header", &fyne.ShortcutCopy{}, func() string {
			h := p.ft.Node(treeID(t, p.ft, "header"))
			st := h.Field("stamp").Time()
			return fmt.Sprintf("seq: %d\nstamp: \n  secs: %d\n  nsecs: %9d\nframe_id: \"imu_link\"", h.Field("seq").Uint(), st.Sec, st.Nsec)
		}},
		{"value of a group row", "orientation_covariance[0:8]", &fyne.ShortcutCopy{}, func() string {
			return p.ft.GroupValue(treeID(t, p.ft, "orientation_covariance[0:8]"))
		}},
		{"path of a field", "angular_velocity.y", shortcutCopyPath, func() string { return "/imu.angular_velocity.y" }},
		{"path of a group row", "linear_acceleration_covariance[8:9]", shortcutCopyPath, func() string { return "/imu.linear_acceleration_covariance[8:9]" }},
		{"path with nothing selected", "", shortcutCopyPath, func() string { return "/imu" }},
		{"value with nothing selected is the message", "", &fyne.ShortcutCopy{}, func() string { return echo.Message(p.ft.Root()) }},
		{"YAML", "header", shortcutCopyYAML, func() string { return echo.Message(p.ft.Root()) }},
		{"JSON", "header", shortcutCopyJSON, func() string { return echo.JSON(p.ft.Root()) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p.tree.UnselectAll()
			p.sel = ""
			if tc.path != "" {
				p.tree.Select(treeID(t, p.ft, tc.path))
			}
			clip.SetContent("")
			p.tree.TypedShortcut(tc.s)
			if got, want := clip.Content(), tc.want(); got != want {
				t.Errorf("copies %q, want %q", got, want)
			}
			if !strings.HasPrefix(p.detail.Text, "Copied ") {
				t.Errorf("the status line says %q", p.detail.Text)
			}
		})
	}
}

// TestMessageRowMenu right-clicks rows and uses the menu.
func TestMessageRowMenu(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	var added []string
	l.Actions().AddSeries = func(s string) { added = append(added, s) }
	l.SelectMessage(x.Topic("/imu").At(3))
	clip := fyne.CurrentApp().Clipboard()

	tapItem := func(label string) { uitest.TapMenuItem(t, w, label) }
	rowOf := func(path string) *msgRow {
		id := treeID(t, p.ft, path)
		p.tree.ScrollTo(id)
		r := p.newRow(false).(*msgRow)
		p.updateRow(id, false, r)
		return r
	}

	tests := []struct {
		path, item string
		want       string // clipboard, or the added series for "Plot field"
	}{
		{"angular_velocity.x", "Copy value", ""},
		{"angular_velocity.x", "Copy path", "/imu.angular_velocity.x"},
		{"header.frame_id", "Copy value", "imu_link"},
		{"header", "Copy message as YAML", ""},
		{"header", "Copy message as JSON", ""},
		{"angular_velocity.x", "Plot field", "/imu.angular_velocity.x"},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.item, func(t *testing.T) {
			clip.SetContent("")
			r := rowOf(tc.path)
			r.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(40, 200)})
			if p.ft.Path(p.sel) != tc.path {
				t.Errorf("the right-clicked row %s is not selected (%q is)", tc.path, p.ft.Path(p.sel))
			}
			want := tc.want
			switch tc.item {
			case "Copy value":
				if want == "" {
					want = p.ft.CopyText(p.sel)
				}
			case "Copy message as YAML":
				want = echo.Message(p.ft.Root())
			case "Copy message as JSON":
				want = echo.JSON(p.ft.Root())
			}
			tapItem(tc.item)
			got := clip.Content()
			if tc.item == "Plot field" {
				got = strings.Join(added, ",")
			}
			if got != want {
				t.Errorf("%s gives %q, want %q", tc.item, got, want)
			}
		})
	}

	// An array of numbers: one element per row, and back.
	t.Run("per element", func(t *testing.T) {
		r := rowOf("orientation_covariance")
		r.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(40, 200)})
		tapItem("One element per row")
		id := treeID(t, p.ft, "orientation_covariance")
		if kids := p.tree.ChildUIDs(id); len(kids) != 9 || p.ft.Path(kids[4]) != "orientation_covariance[4]" {
			t.Fatalf("one per row lists %d rows", len(kids))
		}
		r = rowOf("orientation_covariance[4]")
		r.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(40, 200)})
		if p.sel != treeID(t, p.ft, "orientation_covariance[4]") {
			t.Fatal("the element is not selected")
		}
		w.Canvas().Overlays().Top().Hide()
		w.Canvas().Overlays().Remove(w.Canvas().Overlays().Top())
		r = rowOf("orientation_covariance")
		r.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(40, 200)})
		tapItem("Several numbers per row")
		if kids := p.tree.ChildUIDs(id); len(kids) != 2 || !model.IsGroup(kids[0]) {
			t.Fatalf("several per row lists %d rows", len(kids))
		}
	})
}

// TestMessageKeyedPath copies and plots a /tf value by its child frame.
func TestMessageKeyedPath(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	var added []string
	l.Actions().AddSeries = func(s string) { added = append(added, s) }
	l.SelectMessage(x.Topic("/tf").At(0))
	id := treeID(t, p.ft, "transforms[0].transform.translation.x")
	p.tree.Select(id)
	var item *fyne.MenuItem
	for _, it := range p.copyItems(id) {
		if strings.HasPrefix(it.Label, "Copy path by key") {
			item = it
		}
	}
	if item == nil {
		t.Fatal("no Copy path by key for a /tf value")
	}
	item.Action()
	want := "/tf.transforms[base_link].transform.translation.x"
	if got := fyne.CurrentApp().Clipboard().Content(); got != want {
		t.Errorf("Copy path by key copies %q, want %q", got, want)
	}
	test.Tap(p.plot)
	if strings.Join(added, ",") != want {
		t.Errorf("Plot field adds %v, want %s", added, want)
	}
	if _, err := series.ResolveField(l.Doc().Storage, &rosmsg.Cache{}, want); err != nil {
		t.Errorf("%s does not resolve: %v", want, err)
	}
}

// TestMessagePlotGroup plots a group row: its range, one series per
// element.
func TestMessagePlotGroup(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	var added []string
	l.Actions().AddSeries = func(s string) { added = append(added, s) }
	l.SelectMessage(x.Topic("/imu").At(0))
	p.tree.Select(treeID(t, p.ft, "orientation_covariance[0:8]"))
	if p.plot.Disabled() {
		t.Fatal("Plot field is disabled for a group of numbers")
	}
	test.Tap(p.plot)
	want := "/imu.orientation_covariance[0:8]"
	if strings.Join(added, ",") != want {
		t.Errorf("Plot field adds %v, want %s", added, want)
	}
	if _, err := series.ResolveField(l.Doc().Storage, &rosmsg.Cache{}, want); err != nil {
		t.Errorf("%s does not resolve: %v", want, err)
	}
}

// TestMessageTextView shows the message as rostopic echo prints it, and
// remembers the choice.
func TestMessageTextView(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/tf").At(1))
	if p.echoScroll.Visible() || !p.treeView.Visible() {
		t.Fatal("the panel starts with the text view")
	}
	test.Tap(p.textBtn)
	if !p.echoScroll.Visible() || p.treeView.Visible() {
		t.Fatal("Echo does not show the text view")
	}
	if got, want := p.echo.Text, echo.Message(p.ft.Root()); got != want {
		t.Errorf("the text view shows\n%s\nwant\n%s", got, want)
	}
	// It follows the message.
	l.SelectMessage(x.Topic("/tf").At(2))
	if got, want := p.echo.Text, echo.Message(p.ft.Root()); got != want {
		t.Errorf("after a step the text view shows\n%s\nwant\n%s", got, want)
	}
	// A new panel opens as the last was left.
	q := newMessageView(l)
	if !q.textMode {
		t.Error("a new Message view does not open in the text view")
	}
	test.Tap(q.treeBtn)
	if q.textMode || newMessageView(l).textMode {
		t.Error("Tree does not stay chosen")
	}
	// A Log's level is named as the tree names it, in a YAML comment.
	test.Tap(p.textBtn)
	l.SelectMessage(x.Topic("/rosout").At(0))
	var level *rosmsg.Node
	for i, c := range p.ft.Root().Children {
		if c.Name == "level" {
			level = &p.ft.Root().Children[i]
		}
	}
	if level == nil {
		t.Fatal("/rosout has no level")
	}
	names := p.ft.Enums().Names(p.ft.Root(), "level", level)
	if len(names) != 1 {
		t.Fatalf("the tree names level %v as %v", level, names)
	}
	if want := "\nlevel: " + echo.FieldValue(level) + "  # " + names[0] + "\n"; !strings.Contains(p.echo.Text, want) {
		t.Errorf("the text view does not name the level (%q):\n%s", want, p.echo.Text)
	}
}

func TestEchoForView(t *testing.T) {
	long := strings.Repeat("x", echoViewMaxLine+5)
	tests := []struct {
		name, in, want string
	}{
		{"short", "a: 1\nb: 2", "a: 1\nb: 2"},
		{"long line", "a: " + long[3:] + "\nb: 2", "a: " + long[3:echoViewMaxLine] + " … (5 more characters)\nb: 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := echoForView(tc.in); got != tc.want {
				t.Errorf("echoForView = %.100q…, want %.100q…", got, tc.want)
			}
		})
	}
	big := strings.Repeat("line: 1\n", echoViewMax/4)
	if got := echoForView(big); len(got) > echoViewMax+200 || !strings.HasSuffix(got, "copies all of it)") {
		t.Errorf("a long text is not cut with a note: %d bytes, ends %q", len(got), got[len(got)-40:])
	}
}

func TestFitText(t *testing.T) {
	size := float32(14)
	style := fyne.TextStyle{Monospace: true}
	char := fyne.MeasureText("0", size, style).Width
	tests := []struct {
		name  string
		s     string
		chars float32 // room, in characters
		want  string
	}{
		{"fits", "12345", 5, "12345"},
		{"cut", "1234567890", 6, "12345…"},
		{"no room", "1234567890", 0.5, ""},
		{"empty", "", 3, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fitText(tc.s, tc.chars*char+0.5, size, style); got != tc.want {
				t.Errorf("fitText(%q, %v chars) = %q, want %q", tc.s, tc.chars, got, tc.want)
			}
		})
	}
}

// TestMessageSplitRemembered moves the divider between the fields and the
// bytes and opens another view: it is where it was left.
func TestMessageSplitRemembered(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/imu").At(0))
	p.split.SetOffset(0.3)
	w.Resize(fyne.NewSize(1101, 621)) // lay out again, as a drag does
	q := newMessageView(l)
	if q.split.Offset != 0.3 {
		t.Errorf("a new view's divider is at %v, want 0.3", q.split.Offset)
	}
}

// TestMessageSparkline checks a long array of numbers has a sparkline in
// its row, and a short one has none.
func TestMessageSparkline(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/camera/image_raw").At(0))
	r := p.newRow(false).(*msgRow)
	p.updateRow(treeID(t, p.ft, "data"), true, r)
	if !r.spark.Visible() || r.spark.Buckets() != widgets.SparkBuckets {
		t.Errorf("the image data row has no sparkline (%d buckets)", r.spark.Buckets())
	}
	l.SelectMessage(x.Topic("/imu").At(0))
	p.updateRow(treeID(t, p.ft, "orientation_covariance"), true, r)
	if r.spark.Visible() {
		t.Error("a 9-element array has a sparkline")
	}
}

// TestMessageShots renders the Message view to PNGs in $BAGSCOPE_SHOTS
// (skipped without it): the tree, a long array, the text view and the
// row menu, at 1024×640 and 1280×800.
func TestMessageShots(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS is not set")
	}
	for _, size := range []fyne.Size{{Width: 1024, Height: 640}, {Width: 1280, Height: 800}} {
		p, l, x, w := newTestMessagePanel(t)
		w.Resize(size)
		name := func(s string) string {
			return filepath.Join(dir, fmt.Sprintf("%s-%.0f.png", s, size.Width))
		}
		save := func(file string) {
			f, err := os.Create(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := png.Encode(f, uitest.Capture(w.Canvas())); err != nil {
				t.Fatal(err)
			}
		}
		l.SelectMessage(x.Topic("/camera/image_raw").At(0))
		id := treeID(t, p.ft, "data")
		p.tree.OpenBranch(id)
		p.tree.Select(id)
		p.tree.ScrollTo(id)
		save(name("image-data"))
		l.SelectMessage(x.Topic("/imu").At(0))
		r := p.newRow(false).(*msgRow)
		p.updateRow(treeID(t, p.ft, "angular_velocity.x"), false, r)
		r.TappedSecondary(&fyne.PointEvent{AbsolutePosition: fyne.NewPos(120, 300)})
		save(name("menu"))
		w.Canvas().Overlays().Top().Hide()
		test.Tap(p.textBtn)
		save(name("echo"))
		test.Tap(p.treeBtn)
	}
}

// TestMessageTextViewBig shows a camera frame as text: its data cut to
// the first elements with the count left out, at once.
func TestMessageTextViewBig(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	p.setTextMode(true)
	l.SelectMessage(x.Topic("/camera/image_raw").At(0))
	data := p.ft.Root().Field("data")
	left := fmt.Sprintf(", … %s more]", human.Count(uint64(data.Len()-echoViewElems)))
	if !strings.Contains(p.echo.Text, left) {
		t.Errorf("the text view does not end the data with %q:\n%.400s", left, p.echo.Text)
	}
	if !strings.HasPrefix(p.echo.Text, "header: \n  seq: ") {
		t.Errorf("the text view starts %.60q", p.echo.Text)
	}
}

// TestMessageRowCutValue checks a value cut with an ellipsis has the
// whole value as its tooltip, and a value that fits has none; hovering
// tints the row.
func TestMessageRowCutValue(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/imu").At(0))
	r := p.newRow(false).(*msgRow)
	p.updateRow(treeID(t, p.ft, "header.stamp"), false, r)
	for _, tc := range []struct {
		name  string
		width float32
		cut   bool
	}{{"narrow", 200, true}, {"wide", 900, false}} {
		t.Run(tc.name, func(t *testing.T) {
			r.Resize(fyne.NewSize(tc.width, 28))
			test.WidgetRenderer(r).Layout(r.Size())
			shown := r.valT.Shown()
			if cut := strings.HasSuffix(shown, "…"); cut != tc.cut {
				t.Fatalf("at %v px the value shows %q", tc.width, shown)
			}
			want := ""
			if tc.cut {
				want = r.value
			}
			if r.ToolTip() != want {
				t.Errorf("tooltip %q, want %q", r.ToolTip(), want)
			}
		})
	}
	// A row too narrow for the name and the type cuts the type.
	p.updateRow(treeID(t, p.ft, "header"), true, r)
	r.Resize(fyne.NewSize(110, 28))
	test.WidgetRenderer(r).Layout(r.Size())
	if r.nameT.Text != "header" || !strings.HasSuffix(r.typT.Text, "…") || !strings.Contains(r.ToolTip(), "std_msgs/Header") {
		t.Errorf("a narrow header row shows %q, %q, tooltip %q", r.nameT.Text, r.typT.Text, r.ToolTip())
	}
	r.MouseIn(&desktop.MouseEvent{})
	if !r.hover.Visible() {
		t.Error("hovering does not tint the row")
	}
	r.MouseOut()
	if r.hover.Visible() {
		t.Error("the tint stays after the pointer left")
	}
}

// TestMessageStepKeepsView steps to the next message of a type: the
// selected field, closed branches and arrays listed one per row stay; a
// message of another type starts afresh.
func TestMessageStepKeepsView(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	imu := x.Topic("/imu")
	l.SelectMessage(imu.At(0))
	header := treeID(t, p.ft, "header")
	p.tree.CloseBranch(header)
	cov := treeID(t, p.ft, "orientation_covariance")
	p.togglePerElement(cov)
	p.tree.Select(treeID(t, p.ft, "linear_acceleration.z"))

	l.SelectMessage(imu.At(1))
	if got := p.ft.Path(p.sel); got != "linear_acceleration.z" {
		t.Errorf("after a step the selected field is %q", got)
	}
	n := p.ft.Node(p.sel)
	if s, e := p.hex.Highlight(); s != p.msg.DataOffset+int64(n.Start) || e != p.msg.DataOffset+int64(n.End) {
		t.Errorf("the highlight %d..%d is not the field's bytes in the new message", s, e)
	}
	if p.tree.IsBranchOpen(header) {
		t.Error("the closed header opened again")
	}
	if !p.ft.PerElement(cov) {
		t.Error("the covariance is listed in groups again")
	}

	l.SelectMessage(x.Topic("/tf").At(0))
	if p.sel != "" {
		t.Errorf("a /tf message keeps the selection %q", p.sel)
	}
	if !p.tree.IsBranchOpen(treeID(t, p.ft, "transforms")) {
		t.Error("a /tf message does not open its transforms")
	}
}

// TestPictureLayoutTurns puts the picture beside the fields in a wide,
// short pane and above them in a tall one.
func TestPictureLayoutTurns(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		name       string
		size       fyne.Size
		horizontal bool
	}{
		{"wide and short", fyne.NewSize(800, 300), true},
		{"tall", fyne.NewSize(500, 600), false},
		{"square", fyne.NewSize(500, 500), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := container.NewVSplit(widget.NewLabel("picture"), widget.NewLabel("fields"))
			c := container.New(pictureLayout{}, s)
			c.Resize(tc.size)
			if s.Horizontal != tc.horizontal {
				t.Errorf("at %v the split is horizontal %v, want %v", tc.size, s.Horizontal, tc.horizontal)
			}
			lead, trail := s.Leading.Position(), s.Trailing.Position()
			if tc.horizontal && !(trail.X > lead.X && trail.Y == lead.Y) || !tc.horizontal && !(trail.Y > lead.Y && trail.X == lead.X) {
				t.Errorf("the sides are at %v and %v", lead, trail)
			}
		})
	}
}

// TestMessageCopyButton copies through the Copy button's menu.
func TestMessageCopyButton(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/odom").At(0))
	p.tree.Select(treeID(t, p.ft, "twist.twist.angular.z"))
	for _, tc := range []struct{ item, want string }{
		{"Copy path", "/odom.twist.twist.angular.z"},
		{"Copy message as JSON", echo.JSON(p.ft.Root())},
	} {
		t.Run(tc.item, func(t *testing.T) {
			test.Tap(p.copyBtn)
			uitest.TapMenuItem(t, w, tc.item)
			if got := fyne.CurrentApp().Clipboard().Content(); got != tc.want {
				t.Errorf("%s copies %.80q, want %.80q", tc.item, got, tc.want)
			}
		})
	}
}

// TestMessageCopyKeys presses the Message view's copy keys (Help lists
// them as one row): with the tree focused they copy the selected field,
// its path, the message as YAML and as JSON; with the bytes focused the
// message keys still copy the message and Ctrl+C copies the bytes.
func TestMessageCopyKeys(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/odom").At(2))
	tree := p.tree
	w.Canvas().Focus(tree) // as a click on a row does
	p.tree.Select(treeID(t, p.ft, "pose.pose.position.x"))
	clip := fyne.CurrentApp().Clipboard()
	for _, tc := range []struct {
		s    fyne.Shortcut
		want string
	}{
		{&fyne.ShortcutCopy{}, p.ft.CopyText(p.sel)},
		{shortcutCopyPath, "/odom.pose.pose.position.x"},
		{shortcutCopyYAML, echo.Message(p.ft.Root())},
		{shortcutCopyJSON, echo.JSON(p.ft.Root())},
	} {
		clip.SetContent("")
		uitest.PressShortcut(w, tc.s)
		if got := clip.Content(); got != tc.want || got == "" {
			t.Errorf("%s copies %.80q, want %.80q", tc.s.ShortcutName(), got, tc.want)
		}
	}
	// With the bytes focused, the message keys still copy the message.
	w.Canvas().Focus(p.hex)
	clip.SetContent("")
	uitest.PressShortcut(w, shortcutCopyYAML)
	if got := clip.Content(); got != echo.Message(p.ft.Root()) {
		t.Errorf("Ctrl+Shift+Y in the bytes copies %.80q", got)
	}
	// With the bytes focused, Ctrl+C copies bytes.
	w.Canvas().Focus(p.hex)
	p.hex.SelectRange(p.msg.DataOffset, p.msg.DataOffset+2)
	uitest.PressShortcut(w, &fyne.ShortcutCopy{})
	if got := clip.Content(); len(got) != len("00 00") {
		t.Errorf("Ctrl+C in the bytes copies %q, want two bytes as hex", got)
	}
}
