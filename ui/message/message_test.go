package message

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// newTestMessagePanel opens the sample bag and shows its Message panel in a
// window; background work runs synchronously.
func newTestMessagePanel(t *testing.T) (*messagePanel, *link.Hub, *model.MessageIndex, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	d, err := model.OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	p := newMessageView(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 620))
	var x *model.MessageIndex
	l.WithIndex(func(i *model.MessageIndex) { x = i })
	if x == nil {
		t.Fatal("the message index was not built")
	}
	return p, l, x, w
}

// treeID returns the ID of the listed node with a field path, or fails.
func treeID(t *testing.T, ft *model.FieldTree, path string) string {
	t.Helper()
	var walk func(id string) string
	walk = func(id string) string {
		for _, c := range ft.Children(id) {
			if model.IsMore(c) {
				continue
			}
			p := ft.Path(c)
			if p == path {
				return c
			}
			if strings.HasPrefix(path, p) {
				if found := walk(c); found != "" {
					return found
				}
			}
		}
		return ""
	}
	id := walk("")
	if id == "" {
		t.Fatalf("no node %s in the tree", path)
	}
	return id
}

// decodeRef decodes a message independently of the panel: through the
// iterator's bytes and a plan of its own.
func decodeRef(t *testing.T, b *ros1.Bag, ref msgref.Ref) *rosmsg.Node {
	t.Helper()
	c := b.Connection(ref.Conn)
	it := b.Messages(ros1.MessageFilter{Conns: []uint32{ref.Conn}, Start: ros1.TimeFromNanos(ref.T), End: ros1.TimeFromNanos(ref.T)})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.ChunkPos != ref.ChunkPos || m.Offset != ref.Offset {
			continue
		}
		plan, err := rosmsg.Compile(c.Type, c.MessageDefinition)
		if err != nil {
			t.Fatal(err)
		}
		root, err := plan.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		return root
	}
	t.Fatalf("the iterator does not yield %+v", ref)
	return nil
}

func TestMessagePanelShowsSelectedMessage(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	if got := uitest.Shown(w); !strings.Contains(got, "No message selected") {
		t.Fatalf("before a selection the panel shows:\n%s", got)
	}
	imu := x.Topic("/imu")
	ref := imu.At(5)
	l.SelectMessage(ref)
	if p.msg == nil || p.ft == nil {
		t.Fatal("the message was not read and decoded")
	}
	want := decodeRef(t, l.Doc().Bag, ref)
	var names []string
	for _, id := range p.tree.ChildUIDs("") {
		names = append(names, model.FieldName(p.ft.Node(id)))
	}
	var wantNames []string
	for _, c := range want.Children {
		wantNames = append(wantNames, c.Name)
	}
	if strings.Join(names, " ") != strings.Join(wantNames, " ") {
		t.Fatalf("top-level fields %v, want %v", names, wantNames)
	}
	got := uitest.ShownLines(w)
	for _, s := range []string{"/imu  ·  sensor_msgs/Imu", "message 6 of 2,000 on /imu", "orientation_covariance", "geometry_msgs/Vector3"} {
		if !strings.Contains(got, s) {
			t.Errorf("the panel does not show %q", s)
		}
	}
	if uitest.HexSize(p.hex) != (p.msg.RecordEnd - p.msg.RecordStart) {
		t.Errorf("hex view shows %d bytes, the record has %d", uitest.HexSize(p.hex), (p.msg.RecordEnd - p.msg.RecordStart))
	}
}

func TestMessagePanelLinksFieldsAndBytes(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	ref := x.Topic("/imu").At(7)
	l.SelectMessage(ref)
	want := decodeRef(t, l.Doc().Bag, ref)
	base := p.msg.DataOffset

	// A field selected in the tree highlights exactly its bytes.
	for _, path := range []string{"linear_acceleration.x", "header.frame_id", "orientation_covariance[0:8]", "header"} {
		id := treeID(t, p.ft, path)
		p.tree.Select(id)
		var n *rosmsg.Node
		switch path {
		case "linear_acceleration.x":
			n = want.Field("linear_acceleration").Field("x")
		case "header.frame_id":
			n = want.Field("header").Field("frame_id")
		case "orientation_covariance[0:8]":
			cov := want.Field("orientation_covariance")
			s, _ := cov.ElemRange(0)
			_, e := cov.ElemRange(7)
			n = &rosmsg.Node{Start: s, End: e}
		case "header":
			n = want.Field("header")
		}
		s, e := p.hex.Highlight()
		if s != base+int64(n.Start) || e != base+int64(n.End) {
			t.Errorf("%s: highlight %d..%d, the field's bytes are %d..%d", path, s, e, base+int64(n.Start), base+int64(n.End))
		}
		if !strings.HasPrefix(p.detail.Text, "/imu."+path+"  ·  ") {
			t.Errorf("%s: detail %q", path, p.detail.Text)
		}
	}

	// A tapped byte selects the deepest field holding it, opening the
	// branches to it.
	z := want.Field("angular_velocity").Field("z")
	p.tree.UnselectAll()
	p.tree.CloseAllBranches()
	p.hex.ScrollToOffset(base + int64(z.Start))
	p.hex.Tapped(&fyne.PointEvent{Position: p.hex.CellPosition(base + int64(z.Start) + 3)})
	if got := p.ft.Path(p.sel); got != "angular_velocity.z" {
		t.Fatalf("tapping byte 3 of angular_velocity.z selects %q", got)
	}
	if av := treeID(t, p.ft, "angular_velocity"); !p.tree.IsBranchOpen(av) {
		t.Error("the branch of the tapped field is not open")
	}
	if s, e := p.hex.Highlight(); s != base+int64(z.Start) || e != base+int64(z.End) {
		t.Errorf("after the tap the highlight is %d..%d", s, e)
	}
	if p.hex.Cursor() != base+int64(z.Start)+3 {
		t.Errorf("cursor at %d, want the tapped byte", p.hex.Cursor())
	}
	// Keys move the cursor on: five bytes right is the next field.
	for range 5 {
		p.hex.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	if got := p.ft.Path(p.sel); got != "angular_velocity_covariance[0:8]" {
		t.Errorf("five bytes further selects %q", got)
	}
	p.hex.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	if p.hex.Cursor() != p.msg.RecordStart || p.sel != "" {
		t.Errorf("Home: cursor %d (record at %d), field %q", p.hex.Cursor(), p.msg.RecordStart, p.sel)
	}
}

func TestMessagePanelSteps(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	tf := x.Topic("/tf")
	l.SelectMessage(tf.At(0))
	if !p.prev.Disabled() || p.next.Disabled() {
		t.Fatalf("at the first message: prev disabled %v, next disabled %v", p.prev.Disabled(), p.next.Disabled())
	}
	// Messages of other topics come between; stepping stays on /tf.
	l.SetTopics([]string{"/imu"})
	for i := 1; i < 6; i++ {
		test.Tap(p.next)
		if got, _ := l.Message(); got != tf.At(i) {
			t.Fatalf("Next %d: %+v, want %+v", i, got, tf.At(i))
		}
		if !strings.Contains(p.where.Text, "message "+human.Count(uint64(i+1))+" of 600 on /tf") {
			t.Fatalf("Next %d: %s", i, p.where.Text)
		}
	}
	test.Tap(p.prev)
	if got, _ := l.Message(); got != tf.At(4) {
		t.Fatalf("Prev: %+v, want %+v", got, tf.At(4))
	}
	if c, _ := l.Cursor(); c != tf.At(4).T {
		t.Errorf("the cursor is at %d, not at the message", c)
	}
	l.SelectMessage(tf.At(tf.Len() - 1))
	if p.next.Disabled() == false {
		t.Error("Next is enabled at the last message")
	}
}

// TestMessagePanelFirstMessage: Next on the empty panel selects the
// first topic's first message; a topic ticked shows its first message at once (the
// panel is never empty while a topic is ticked).
func TestMessagePanelFirstMessage(t *testing.T) {
	_, l, x, w := newTestMessagePanel(t)
	test.Tap(uitest.FindButton(t, w.Content(), "Next"))
	if got, ok := l.Message(); !ok || got != x.Topics[0].At(0) {
		t.Fatalf("Next on the empty panel selects %+v, want the first topic's first message %+v", got, x.Topics[0].At(0))
	}
	_, l, x, w = newTestMessagePanel(t)
	l.SetTopics([]string{"/odom"})
	if got, _ := l.Message(); got != x.Topic("/odom").At(0) {
		t.Fatalf("ticking /odom on the empty panel selects %+v", got)
	}
	if strings.Contains(uitest.Shown(w), "No message selected") {
		t.Error("the panel is empty while /odom is ticked")
	}
}

func TestMessagePanelLongArrays(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	ref := x.Topic("/camera/image_raw").At(2)
	l.SelectMessage(ref)
	want := decodeRef(t, l.Doc().Bag, ref).Field("data")
	id := treeID(t, p.ft, "data")
	kids := p.tree.ChildUIDs(id)
	g := model.GroupSize(want.Kind)
	rows := (model.FieldTreeFirst + g - 1) / g
	if len(kids) != rows+1 || !model.IsMore(kids[len(kids)-1]) {
		t.Fatalf("the image data lists %d rows, want %d rows of %d bytes and a more row", len(kids), rows, g)
	}
	if v := echo.FieldValue(p.ft.Node(id)); !strings.HasPrefix(v, human.Count(uint64(want.Len()))+" bytes: ") {
		t.Errorf("data value %q", v)
	}
	// Tapping a byte past the listed elements lists it.
	s, _ := want.ElemRange(500)
	off := p.msg.DataOffset + int64(s)
	p.hex.ScrollToOffset(off)
	p.hex.Tapped(&fyne.PointEvent{Position: p.hex.CellPosition(off)})
	if got := p.ft.Path(p.sel); got != "data[496:512]" {
		t.Fatalf("tapping element 500 of the image selects %q", got)
	}
	if n := len(p.tree.ChildUIDs(id)); n > (model.FieldTreeMore+g-1)/g+1 {
		t.Errorf("%d rows listed to reach element 500", n)
	}
	// The "more" row lists more.
	more := p.tree.ChildUIDs(id)
	p.tree.Select(more[len(more)-1])
	if n := len(p.tree.ChildUIDs(id)); n != (2*model.FieldTreeMore+g-1)/g+1 {
		t.Errorf("after more, %d rows", n)
	}
	// One element per row on request.
	p.togglePerElement(id)
	if got := p.tree.ChildUIDs(id); model.IsGroup(got[0]) || p.ft.Path(got[500]) != "data[500]" {
		t.Errorf("one element per row lists %q first, %q as element 500", got[0], p.ft.Path(got[500]))
	}
}

func TestMessagePanelPlotField(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	var added []string
	l.Actions().AddSeries = func(s string) { added = append(added, s) }
	l.SelectMessage(x.Topic("/odom").At(3))
	p.tree.Select(treeID(t, p.ft, "header.frame_id"))
	if !p.plot.Disabled() {
		t.Error("Plot field is enabled for a string")
	}
	p.tree.Select(treeID(t, p.ft, "pose.pose.position.x"))
	if p.plot.Disabled() {
		t.Fatal("Plot field is disabled for a float64")
	}
	test.Tap(p.plot)
	if strings.Join(added, ",") != "/odom.pose.pose.position.x" {
		t.Errorf("added series %v", added)
	}
	// The path is one the plots resolve.
	if _, err := series.ResolveField(l.Doc().Storage, &rosmsg.Cache{}, added[0]); err != nil {
		t.Errorf("%s does not resolve: %v", added[0], err)
	}
}

// Show in Records asks the Records view (its action) for the selected
// message's record: its chunk and its offset in the chunk's data.
func TestMessagePanelRecordsLink(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	var asked []msgref.Ref
	l.Actions().ShowMessageRecord = func(chunkPos int64, off uint32) {
		asked = append(asked, msgref.Ref{ChunkPos: chunkPos, Offset: off})
	}
	ref := x.Topic("/status").At(3)
	l.SelectMessage(ref)
	test.Tap(p.records)
	if len(asked) != 1 || asked[0].ChunkPos != ref.ChunkPos || asked[0].Offset != ref.Offset {
		t.Fatalf("Show in Records asked for %+v, want chunk %d offset %d", asked, ref.ChunkPos, ref.Offset)
	}
	if got, _ := l.Message(); got != ref {
		t.Fatalf("showing the record changed the message to %+v", got)
	}
}

func TestMessagePanelMarkup(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	l.SelectMessage(x.Topic("/imu").At(5))
	p.tree.Select(treeID(t, p.ft, "linear_acceleration.z"))
	uitest.AssertMarkup(t, "message_imu.xml", w.Canvas())
	uitest.AssertHexLines(t, "message_imu_hex.txt", p.hex)
}

// The panel reads one message at a time: messages shown while a read is in
// flight wait for it, and only the newest of them is read next (playback
// shows a new message every frame).
func TestMessagePanelReadsOneAtATime(t *testing.T) {
	p, l, x, _ := newTestMessagePanel(t)
	var queue []func()
	l.SetAsync(func(f func()) { queue = append(queue, f) })
	imu := x.Topic("/imu")
	for i := range 3 {
		l.SelectMessage(imu.At(10 + i))
	}
	if len(queue) != 1 {
		t.Fatalf("%d reads started for 3 messages shown at once, want 1", len(queue))
	}
	queue[0]()
	if p.msg != nil {
		t.Errorf("the first message (%d) was shown after newer ones", p.msg.Ref.T)
	}
	if len(queue) != 2 {
		t.Fatalf("%d reads after the first ended, want the newest message's read next", len(queue))
	}
	queue[1]()
	if p.msg == nil || p.msg.Ref != imu.At(12) {
		t.Fatalf("the panel shows %+v, want the newest message", p.msg)
	}
	if !strings.Contains(p.where.Text, "message 13 of 2,000 on /imu") {
		t.Errorf("position %q", p.where.Text)
	}
	if len(queue) != 2 || p.reading {
		t.Errorf("%d reads, reading %v after the newest was shown", len(queue), p.reading)
	}
}

// TestMessagePanelNamesEnums selects each /rosout message: its level shows
// with the constant of rosgraph_msgs/Log that names it, "16 (FATAL)", in
// the tree and in the selected field's line.
func TestMessagePanelNamesEnums(t *testing.T) {
	p, l, x, w := newTestMessagePanel(t)
	names := map[int64]string{1: "DEBUG", 2: "INFO", 4: "WARN", 8: "ERROR", 16: "FATAL"} // rosgraph_msgs/Log's constants
	rosout := x.Topic("/rosout")
	for i := range rosout.Len() {
		l.SelectMessage(rosout.At(i))
		id := treeID(t, p.ft, "level")
		level := p.ft.Node(id).Int()
		want := fmt.Sprintf("%d (%s)", level, names[level])
		if got := uitest.ShownLines(w); !strings.Contains(got, want) {
			t.Errorf("message %d: the tree does not show level %q", i, want)
		}
		p.tree.Select(id)
		if !strings.Contains(p.detail.Text, want) {
			t.Errorf("message %d: the field line %q lacks %q", i, p.detail.Text, want)
		}
	}
}
