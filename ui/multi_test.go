package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/marks"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/plots"
	"github.com/bagscope/bagscope/ui/widgets"
)

// refPoint is one message of a topic as the reference reader reads it:
// its receive time and a field's value.
type refPoint struct {
	ns int64
	v  float64
}

// refs keeps what the reference reader and `info --json` said of each
// shared recording, read once per test binary: the added-recording tests
// ask the same of the same two bags (each read a few seconds under -race
// at load).
var refs struct {
	sync.Mutex
	fields map[string][]refPoint
	infos  map[string]infoJSON
}

// refField reads topic's field from file with the reference reader
// (python3-rosbag through testdata/field_ref.py), once per test binary.
func refField(t *testing.T, file, topic, field string) []refPoint {
	t.Helper()
	oracletest.RequireRef(t)
	key := file + "\x00" + topic + "\x00" + field
	refs.Lock()
	defer refs.Unlock()
	if pts, ok := refs.fields[key]; ok {
		return slices.Clone(pts)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(oracletest.Python, "testdata/field_ref.py", file, topic, field)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("field_ref.py %s %s: %v\n%s", file, topic, err, errb.String())
	}
	var pts []refPoint
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		ns, v, _ := strings.Cut(line, " ")
		n, err1 := strconv.ParseInt(ns, 10, 64)
		f, err2 := strconv.ParseFloat(v, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("field_ref.py: %q", line)
		}
		pts = append(pts, refPoint{n, f})
	}
	if refs.fields == nil {
		refs.fields = map[string][]refPoint{}
	}
	refs.fields[key] = pts
	return slices.Clone(pts)
}

// infoJSON is what `bagscope info --json FILE` says of the recording's
// start and topics.
type infoJSON struct {
	Start struct {
		NS int64 `json:"ns"`
	} `json:"start"`
	Topics []struct {
		Topic    string `json:"topic"`
		Messages uint64 `json:"messages"`
	} `json:"topics"`
}

// infoOf is `bagscope info --json file`, run once per test binary.
func infoOf(t *testing.T, file string) infoJSON {
	t.Helper()
	refs.Lock()
	defer refs.Unlock()
	if info, ok := refs.infos[file]; ok {
		return info
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"info", "--json", file}, &out, &errb); code != 0 {
		t.Fatalf("bagscope info --json %s: exit %d: %s", file, code, errb.String())
	}
	var info infoJSON
	if err := json.Unmarshal(out.Bytes(), &info); err != nil {
		t.Fatal(err)
	}
	if refs.infos == nil {
		refs.infos = map[string]infoJSON{}
	}
	refs.infos[file] = info
	return info
}

// openWithAdded opens a in a window and adds b to it, as File › Add
// Recording… does.
func openWithAdded(t *testing.T, a, b string) (*controller, *bagView) {
	t.Helper()
	c := newTestController(t)
	c.openPath(a, nil)
	var v *bagView
	for _, bv := range c.views {
		v = bv
	}
	if v == nil || v.doc == nil {
		t.Fatalf("%s did not open: %v", a, v.err)
	}
	t.Cleanup(func() { v.win.Close() })
	v.addPath(b, nil)
	if len(v.members) != 2 {
		t.Fatalf("after adding %s the window shows %d recordings", b, len(v.members))
	}
	return c, v
}

// TestAddRecordingFollowsTheTime adds a recording B to a window showing
// A: B's topics are listed under "B:" with the counts `info --json` gives
// of B alone, A's keep their names; B starts at A's start; moving the
// time to a B message's time plus the offset shows that message
// (compared with the reference reader's times), with its own time in the
// Message tab; aligning by a typed offset re-aligns the same opened
// files; File › Reload keeps B (keptOnReload); removing B, after the
// reload, shows A alone. One window serves every step: each opening of A
// with B decompresses both bz2 bags under -race (the reload test had its
// own window, 68 s at load 4-15, most of it opening).
func TestAddRecordingFollowsTheTime(t *testing.T) {
	a := uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test2.bag")
	b := uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test1.bag")
	_, v := openWithAdded(t, a, b)
	infoA, infoB := infoOf(t, a), infoOf(t, b)

	counts := map[string]uint64{}
	for _, tp := range v.doc.Topics {
		counts[tp.Topic] = tp.Messages
	}
	for _, tp := range infoB.Topics {
		if got, ok := counts["B:"+tp.Topic]; !ok || got != tp.Messages {
			t.Errorf("B:%s: %d messages (listed %v), info --json of B says %d", tp.Topic, got, ok, tp.Messages)
		}
	}
	for _, tp := range infoA.Topics {
		if counts[tp.Topic] != tp.Messages {
			t.Errorf("%s: %d messages, info --json of A says %d", tp.Topic, counts[tp.Topic], tp.Messages)
		}
	}
	if want := len(infoA.Topics) + len(infoB.Topics); len(v.doc.Topics) != want {
		t.Errorf("%d topics, want %d", len(v.doc.Topics), want)
	}
	if s := fmt.Sprintf("Topics (%d)", len(infoA.Topics)+len(infoB.Topics)); !strings.Contains(uitest.Shown(v.win), s) {
		t.Errorf("the window does not say %q", s)
	}
	var labels []string
	for _, it := range v.c.mainMenu(v.win).Items[0].Items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, "|"); !strings.Contains(got, "|Add Recording…|Align B (test1.bag)…|Remove B (test1.bag)|") {
		t.Errorf("File menu = %q", got)
	}
	off := v.members[1].Offset
	if off != infoA.Start.NS-infoB.Start.NS {
		t.Errorf("offset %d, want start to start %d", off, infoA.Start.NS-infoB.Start.NS)
	}

	ref := refField(t, b, "/imu/data", "linear_acceleration.x")
	imuB := v.members[1].Doc
	check := func(what string, off int64) {
		t.Helper()
		for _, i := range []int{0, 500, len(ref) - 1} {
			l := v.link
			at := ref[i].ns + off
			l.SetTime(at, []string{"B:/imu/data"})
			m, ok := l.Message()
			if !ok || m.T != at || l.TopicName(m) != "B:/imu/data" {
				t.Fatalf("%s: time at B's message %d (%d + %d): selected %s at %d", what, i, ref[i].ns, off, l.TopicName(m), m.T)
			}
			l.SelectTab("Message")
			shown := uitest.ShownLines(v.win)
			own := bag.TimeFromNanos(ref[i].ns)
			for _, s := range []string{
				fmt.Sprintf("message %s of %s on B:/imu/data", human.Count(uint64(i+1)), human.Count(uint64(len(ref)))),
				fmt.Sprintf("in B test1.bag: %s UTC (%d.%09d)", human.Time(own), own.Sec, own.NSec),
			} {
				if !strings.Contains(shown, s) {
					t.Errorf("%s: the Message tab does not say %q", what, s)
				}
			}
		}
	}
	check("start to start", off)

	// A typed offset: the same files, aligned again.
	newOff := off + 2_500_000_000
	cur, _ := v.link.Cursor()
	v.setOffset("B:", newOff)
	if v.members[1].Doc != imuB || v.members[1].Offset != newOff {
		t.Fatalf("aligning again reopened B or kept its offset (%d)", v.members[1].Offset)
	}
	if c, _ := v.link.Cursor(); c != cur {
		t.Errorf("aligning again moved the time from %d to %d", cur, c)
	}
	check("offset +2.5 s", newOff)

	// An event: the first /imu/data message of each.
	refA := refField(t, a, "/imu/data", "linear_acceleration.x")
	ev, err := model.EventOffset(v.members[0].Doc, "/imu/data", imuB, "/imu/data")
	if err != nil || ev != refA[0].ns-ref[0].ns {
		t.Fatalf("event offset %d (%v), the reference's first messages say %d", ev, err, refA[0].ns-ref[0].ns)
	}

	if !t.Run("kept on reload", func(t *testing.T) { keptOnReload(t, v, a, b) }) {
		return
	}

	v.removeMember("B:")
	if v.members != nil || len(v.doc.Topics) != len(infoA.Topics) || v.doc.Name != "test2.bag" {
		t.Errorf("after removing B: %d members, %d topics, %q", len(v.members), len(v.doc.Topics), v.doc.Name)
	}
}

// keptOnReload reloads v, a window showing A with B added, after
// aligning B by a typed offset (File › Reload, as adding a definition
// folder does): B is opened again under B: at the same offset, its
// topics listed with the counts `info --json` gives of B alone, and the
// time set to a B message's time plus the offset shows that message
// (the reference reader's times).
func keptOnReload(t *testing.T, v *bagView, a, b string) {
	off := v.members[1].Offset + 1_250_000_000
	v.setOffset("B:", off)
	oldB := v.members[1].Doc

	v.reload()
	if len(v.members) != 2 {
		t.Fatalf("after a reload the window shows %d recordings, want A and B", len(v.members))
	}
	if m := v.members[1]; m.Prefix != "B:" || m.Offset != off || m.Doc == oldB || m.Doc.Path != oldB.Path {
		t.Fatalf("after a reload B is %q at %d (%s, reopened %v), want B: at %d", m.Prefix, m.Offset, m.Doc.Path, m.Doc != oldB, off)
	}
	counts := map[string]uint64{}
	for _, tp := range v.doc.Topics {
		counts[tp.Topic] = tp.Messages
	}
	infoB := infoOf(t, b)
	for _, tp := range infoB.Topics {
		if got, ok := counts["B:"+tp.Topic]; !ok || got != tp.Messages {
			t.Errorf("after a reload B:%s: %d messages (listed %v), info --json of B says %d", tp.Topic, got, ok, tp.Messages)
		}
	}
	if want := len(infoOf(t, a).Topics) + len(infoB.Topics); len(v.doc.Topics) != want {
		t.Errorf("after a reload %d topics, want %d", len(v.doc.Topics), want)
	}
	ref := refField(t, b, "/imu/data", "linear_acceleration.x")
	at := ref[100].ns + off
	v.link.SetTime(at, []string{"B:/imu/data"})
	if m, ok := v.link.Message(); !ok || m.T != at || v.link.TopicName(m) != "B:/imu/data" {
		t.Errorf("after a reload the time at B's message 100 (%d + %d) selected %s at %d", ref[100].ns, off, v.link.TopicName(m), m.T)
	}
	var labels []string
	for _, it := range v.c.mainMenu(v.win).Items[0].Items {
		labels = append(labels, it.Label)
	}
	if got := strings.Join(labels, "|"); !strings.Contains(got, "|Align B (test1.bag)…|Remove B (test1.bag)|") {
		t.Errorf("after a reload the File menu = %q", got)
	}
}

// mcapLine is one line of the MCAP oracle (testdata/oracle/mcap_cat.mjs:
// @mcap/core, and @foxglove/rosmsg2-serialization for ROS 2 messages).
type mcapLine struct {
	Topic string
	Time  struct{ Secs, Nsecs int64 }
	Msg   json.RawMessage
}

// mcapLines reads topic's messages in an MCAP file with the MCAP oracle.
func mcapLines(t *testing.T, file, topic string) []mcapLine {
	t.Helper()
	out := oracletest.Run(t, "mcap_cat.mjs", file)
	var ms []mcapLine
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m mcapLine
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("mcap_cat.mjs: %q: %v", line, err)
		}
		if m.Topic == topic {
			ms = append(ms, m)
		}
	}
	return ms
}

// mcapTimes reads the receive times of topic's messages in an MCAP file
// with the MCAP oracle.
func mcapTimes(t *testing.T, file, topic string) []int64 {
	t.Helper()
	var ts []int64
	for _, m := range mcapLines(t, file, topic) {
		ts = append(ts, m.Time.Secs*1e9+m.Time.Nsecs)
	}
	return ts
}

// nearestDiff is b − a at b's times, a's value taken from its point
// nearest in time (the earlier on a tie, the first when all are later),
// b's times moved by off: the difference series computed from the
// reference's points.
func nearestDiff(a, b []refPoint, off int64) []refPoint {
	out := make([]refPoint, len(b))
	for k, pb := range b {
		tb := pb.ns + off
		// i: the last point of a at or before tb.
		i := sort.Search(len(a), func(i int) bool { return a[i].ns > tb }) - 1
		j := i
		switch {
		case i < 0:
			j = 0
		case i+1 < len(a) && a[i+1].ns-tb < tb-a[i].ns:
			j = i + 1
		}
		out[k] = refPoint{tb, pb.v - a[j].v}
	}
	return out
}

// TestDifferenceSeriesMatchesReference plots a field from each recording
// and their difference B − A, as the Plots tab offers it in a window of
// two recordings, and compares the difference with the one computed from
// both recordings read by the reference readers: for a bag and its
// converted MCAP (every difference 0; the MCAP's times from the MCAP
// oracle) and for two different recordings (python3-rosbag).
func TestDifferenceSeriesMatchesReference(t *testing.T) {
	a := uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test2.bag")
	conv := filepath.Join(t.TempDir(), "test2.mcap")
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"convert", a, conv}, &out, &errb); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, errb.String())
	}
	const field = "/imu/data.linear_acceleration.x"
	refA := refField(t, a, "/imu/data", "linear_acceleration.x")
	for _, tc := range []struct {
		name, b string
		same    bool
	}{
		{"a bag and its MCAP", conv, true},
		{"two recordings", uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test1.bag"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, v := openWithAdded(t, a, tc.b)
			g := v.views.plots
			g.AddFromEachRecording(nil, field)
			for _, name := range []string{field, "B:" + field} {
				if _, ok := g.Points(name); !ok {
					t.Fatalf("adding from each recording did not plot %s (plots %v)", name, g.Series())
				}
			}
			g.AddDifferences(nil, field)
			got, ok := g.Points(plots.DifferencePath("B:"+field, field))
			if !ok {
				t.Fatalf("no difference series (plots %v)", g.Series())
			}
			var refB []refPoint
			if tc.same {
				// convert keeps every message byte-equal: B's values are
				// the bag's, at the times the MCAP oracle reads.
				ts := mcapTimes(t, conv, "/imu/data")
				if len(ts) != len(refA) {
					t.Fatalf("the MCAP oracle reads %d /imu/data messages, the bag has %d", len(ts), len(refA))
				}
				for i, ns := range ts {
					refB = append(refB, refPoint{ns, refA[i].v})
				}
			} else {
				refB = refField(t, tc.b, "/imu/data", "linear_acceleration.x")
			}
			want := nearestDiff(refA, refB, v.members[1].Offset)
			if len(got.T) != len(want) {
				t.Fatalf("difference: %d points, the reference %d", len(got.T), len(want))
			}
			nonzero := 0
			for i, w := range want {
				if got.T[i] != w.ns || got.V[i] != w.v {
					t.Fatalf("difference point %d: %d %g, the reference %d %g", i, got.T[i], got.V[i], w.ns, w.v)
				}
				if w.v != 0 {
					nonzero++
				}
			}
			if tc.same && nonzero != 0 {
				t.Errorf("a bag and its MCAP differ at %d points", nonzero)
			}
			if !tc.same && nonzero == 0 {
				t.Errorf("two different recordings do not differ")
			}
		})
	}
}

// TestDropOnRecordingAsks drops a recording on a window that shows one:
// it asks, and "Add to this window" adds it under B:.
func TestDropOnRecordingAsks(t *testing.T) {
	a := uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test2.bag")
	b := uitest.SharedBags(t, "cra-ros-pkg__robot_localization/test/test1.bag")
	c := newTestController(t)
	c.openPath(a, nil)
	var v *bagView
	for _, bv := range c.views {
		v = bv
	}
	t.Cleanup(func() { v.win.Close() })
	c.dropped(v.win, []fyne.URI{storage.NewFileURI(b)})
	top := v.win.Canvas().Overlays().Top()
	if top == nil || len(c.views) != 1 {
		t.Fatalf("the drop opened %d windows and asked nothing", len(c.views))
	}
	test.Tap(uitest.FindButton(t, top, "Add to this window"))
	if len(v.members) != 2 || v.members[1].Prefix != "B:" || v.members[1].Doc.Name != "test1.bag" {
		t.Fatalf("after Add to this window: %d recordings", len(v.members))
	}
}

// slashlessBag writes, with the reference writer, a bag whose topics are
// /x, and rosout and y (no leading slash; y a number the Plots tab
// offers), in a temporary folder.
func slashlessBag(t *testing.T, name string, start int) string {
	t.Helper()
	oracletest.RequireRef(t)
	path := filepath.Join(t.TempDir(), name)
	script := `import sys, rosbag, rospy
from std_msgs.msg import Float64, String
with rosbag.Bag(sys.argv[1], 'w') as b:
    for i in range(20):
        t = rospy.Time(int(sys.argv[2]) + i)
        b.write('/x', Float64(i), t)
        b.write('rosout', String('line %d' % i), t)
        b.write('y', Float64(-i), t)
`
	if out, err := exec.Command(uitest.RefPython, "-c", script, path, strconv.Itoa(start)).CombinedOutput(); err != nil {
		t.Fatalf("writing %s with the reference rosbag: %v\n%s", name, err, out)
	}
	return path
}

// TestAddRecordingOrdersByRecording: a window of two recordings whose
// topics include one without a leading slash (rosout, which by name
// sorts after B:) lists A's topics, then B's, in the Topics tab (by
// name, and reversed: A's reversed, then B's), on the timeline's lanes,
// in the Plots tab's Fields list and in what Find searched.
func TestAddRecordingOrdersByRecording(t *testing.T) {
	a := slashlessBag(t, "a.bag", 1700000000)
	b := slashlessBag(t, "b.bag", 1700000100)
	_, v := openWithAdded(t, a, b)
	want := []string{"/x", "rosout", "y", "B:/x", "B:rosout", "B:y"}

	var lanes []string
	for _, l := range v.views.timeline.View().Timeline().Topics {
		lanes = append(lanes, l.Topic)
	}
	if !slices.Equal(lanes, want) {
		t.Errorf("lanes %q, want %q", lanes, want)
	}
	tv := v.views.topics.View()
	rows := func() []string {
		var out []string
		for _, r := range tv.Rows() {
			out = append(out, r.Topic)
		}
		return out
	}
	if got := rows(); !slices.Equal(got, want) {
		t.Errorf("Topics tab %q, want %q", got, want)
	}
	tv.SortBy(model.ColTopic) // again: reversed, A's still first
	rev := []string{"y", "rosout", "/x", "B:y", "B:rosout", "B:/x"}
	if got := rows(); !slices.Equal(got, rev) {
		t.Errorf("Topics tab by name reversed %q, want %q", got, rev)
	}

	// The Plots tab's Fields list and the Find bar's topics, as the
	// Topics tab by name.
	numbers := []string{"/x", "y", "B:/x", "B:y"} // rosout's strings are not plotted
	if got := v.views.plots.FieldTopics(); !slices.Equal(got, numbers) {
		t.Errorf("Plots' Fields %q, want %q", got, numbers)
	}
	bar := v.views.find
	bar.SearchFor("data == data")
	if got, w := bar.Status(), " of "+strings.Join(want, ", "); !strings.Contains(got, w) {
		t.Errorf("Find says %q, want the topics as %q", got, w)
	}
}

// TestAddRecordingAlignsAtBookmarks: File › Align B… offers a bookmark
// of each recording when both have some, and aligning at A's bookmark
// and B's second puts B's message at that bookmark's time (B's own, as
// the reference writer wrote it) at A's bookmark's time. B is a file, or
// a URL served by nginx (with a presigned-style signature), whose
// bookmarks live in the configuration folder by the URL as shown.
func TestAddRecordingAlignsAtBookmarks(t *testing.T) {
	for _, remoteB := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "URL"}[remoteB], func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			a := slashlessBag(t, "a.bag", 1700000000)
			b := slashlessBag(t, "b.bag", 1700000100)
			if remoteB {
				web := remotetest.Nginx(t, filepath.Dir(b))
				b = web.URL + "b.bag?X-Amz-Signature=c2VjcmV0&X-Amz-SignedHeaders=host"
			}
			alignAtBookmarks(t, a, b)
		})
	}
}

func alignAtBookmarks(t *testing.T, a, b string) {
	markAt := func(path string, secs ...int64) {
		bm, err := marks.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range secs {
			if err := bm.Add(marks.Bookmark{Time: bag.TimeFromNanos(s * 1e9), Name: fmt.Sprintf("mark %d", i+1)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	markAt(a, 1700000005)
	markAt(b, 1700000102, 1700000107)
	_, v := openWithAdded(t, a, b)

	v.showAlign("B:")
	top := v.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("File › Align B… shows no dialog")
	}
	var radio *widget.RadioGroup
	var selects []*widget.Select
	for _, o := range uitest.ShownObjects(top) {
		switch w := o.(type) {
		case *widget.RadioGroup:
			radio = w
		case *widget.Select:
			selects = append(selects, w)
		}
	}
	if radio == nil || !slices.Contains(radio.Options, alignMark) {
		t.Fatalf("the Align dialog offers no bookmark (%v)", radio)
	}
	radio.SetSelected(alignMark)
	if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
		// The dialog at 1024x640, to look at.
		v.win.Resize(fyne.NewSize(1024, 640))
		if err := widgets.WritePNG(filepath.Join(dir, "align-"+strings.ReplaceAll(t.Name(), "/", "-")+".png"), uitest.Capture(v.win.Canvas())); err != nil {
			t.Fatal(err)
		}
	}
	var markB *widget.Select
	for _, s := range selects {
		if len(s.Options) == 2 && strings.Contains(s.Options[1], "mark 2 at +7.000 s") {
			markB = s
		}
	}
	if markB == nil {
		t.Fatal("no choice of B's bookmarks (mark 2 at +7.000 s)")
	}
	markB.SetSelectedIndex(1)
	test.Tap(uitest.FindButton(t, top, "Align"))

	const want = (1700000005 - 1700000107) * int64(1e9)
	if got := v.members[1].Offset; got != want {
		t.Fatalf("aligned at the bookmarks: offset %d, want %d", got, want)
	}
	at := int64(1700000005e9)
	v.link.SetTime(at, []string{"B:/x"})
	if m, ok := v.link.Message(); !ok || m.T != at || v.link.TopicName(m) != "B:/x" {
		t.Errorf("at A's bookmark B:/x selected %s at %d, want B's message at its bookmark", v.link.TopicName(m), m.T)
	}
}

// mcapField reads topic's float field (a dotted path) from an MCAP file
// of ROS 2 messages with the MCAP oracle.
func mcapField(t *testing.T, file, topic, field string) []refPoint {
	t.Helper()
	var pts []refPoint
	for _, m := range mcapLines(t, file, topic) {
		var v any
		if err := json.Unmarshal(m.Msg, &v); err != nil {
			t.Fatalf("mcap_cat.mjs: %s's msg: %v", topic, err)
		}
		for _, k := range strings.Split(field, ".") {
			obj, _ := v.(map[string]any)
			v = obj[k]
		}
		f, ok := v.(float64)
		if !ok {
			t.Fatalf("mcap_cat.mjs: %s's %s is %v, not a number", topic, field, v)
		}
		pts = append(pts, refPoint{m.Time.Secs*1e9 + m.Time.Nsecs, f})
	}
	return pts
}

// TestDifferenceSeriesROS2 plots the difference B − A of a ROS 2 field
// for two ROS 2 MCAP recordings (ros2-mixed.mcap and a part of it that
// filter wrote, aligned start to start, so each B message meets another
// A one) and compares it with the one computed from both read by the
// MCAP oracle.
func TestDifferenceSeriesROS2(t *testing.T) {
	a := "../testdata/ros2-mixed.mcap"
	b := filepath.Join(t.TempDir(), "part.mcap")
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"filter", a, b, "--topics", "/imu", "--range", "3:6"}, &out, &errb); code != 0 {
		t.Fatalf("filter: exit %d: %s", code, errb.String())
	}
	const field = "/imu.linear_acceleration.x"
	_, v := openWithAdded(t, a, b)
	g := v.views.plots
	g.AddFromEachRecording(nil, field)
	g.AddDifferences(nil, field)
	got, ok := g.Points(plots.DifferencePath("B:"+field, field))
	if !ok {
		t.Fatalf("no difference series (plots %v)", g.Series())
	}
	refA := mcapField(t, a, "/imu", "linear_acceleration.x")
	refB := mcapField(t, b, "/imu", "linear_acceleration.x")
	if len(refB) == 0 || len(refB) >= len(refA) {
		t.Fatalf("the part has %d /imu messages of %d", len(refB), len(refA))
	}
	want := nearestDiff(refA, refB, v.members[1].Offset)
	if len(got.T) != len(want) {
		t.Fatalf("difference: %d points, the reference %d", len(got.T), len(want))
	}
	nonzero := 0
	for i, w := range want {
		if got.T[i] != w.ns || got.V[i] != w.v {
			t.Fatalf("difference point %d: %d %g, the reference %d %g", i, got.T[i], got.V[i], w.ns, w.v)
		}
		if w.v != 0 {
			nonzero++
		}
	}
	if nonzero == 0 {
		t.Error("a part moved to the start does not differ from the start")
	}
}
