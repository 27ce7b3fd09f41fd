package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestTopicBytesAtOpen builds a window's views on a healthy bag, whose
// bytes come from the check that runs as it opens, and on a damaged one,
// whose topics count them on their own: both show what MessageBytes counts.
func TestTopicBytesAtOpen(t *testing.T) {
	for _, p := range []string{"../assets/sample.bag", "../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"} {
		t.Run(p, func(t *testing.T) {
			test.NewTempApp(t)
			link.Background = uitest.SyncRun
			t.Cleanup(func() { link.Background = func(f func()) { go f() } })
			d := uitest.OpenDoc(t, p)
			perConn, err := stats.MessageBytes(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := model.NewTopicView(d.Topics)
			want.SetBytes(perConn)
			l := link.NewHub(d, uitest.SyncRun)
			t.Cleanup(l.Close)
			w := test.NewTempWindow(t, nil)
			w.SetContent(newViews(d, w, &docViews{link: l}, bagWindowSize.Height, 130))
			w.Resize(fyne.NewSize(1200, 700))
			markup := uitest.Shown(w)
			for _, row := range want.Rows() {
				if !row.BytesKnown || !strings.Contains(markup, ">"+human.Size(int64(row.Bytes))+"<") {
					t.Errorf("%s: %s not shown", row.Topic, human.Size(int64(row.Bytes)))
				}
			}
		})
	}
}

// TestScanBannerLinksToFindings taps the scan banner's "Show findings" and
// checks that the Findings tab is shown.
func TestScanBannerLinksToFindings(t *testing.T) {
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath("../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	test.Tap(uitest.FindButton(t, w.Content(), "Show findings"))
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	if tabs == nil || tabs.Selected().Text != "Findings" {
		t.Fatalf("selected tab: %v", tabs.Selected())
	}
}

// TestFindingShowsRecord follows a finding to its record: the Records tab
// comes up with the record holding the finding's offset selected.
func TestFindingShowsRecord(t *testing.T) {
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath("../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	var tabs *container.AppTabs
	var list *widget.List
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	selectTabNamed(tabs, "Findings")
	for _, o := range test.LaidOutObjects(tabs.Selected().Content) {
		if l, ok := o.(*widget.List); ok && l.Visible() {
			list = l
		}
	}
	if list == nil || list.Length() == 0 {
		t.Fatal("no findings listed")
	}
	list.Select(0) // the bag header: index_pos 0
	if got := uitest.Shown(w); strings.Contains(got, "bag header record at byte 13 ") {
		t.Fatal("the Records tab shows before the button is tapped")
	}
	test.Tap(uitest.FindButton(t, w.Content(), "Show in Records"))
	if tabs.Selected().Text != "Records" {
		t.Fatalf("selected tab %q", tabs.Selected().Text)
	}
	if got := uitest.Shown(w); !strings.Contains(got, "bag header record at byte 13 (0xd): 4,104 bytes") {
		t.Fatalf("the bag header record is not selected; the window shows:\n%.3000s", got)
	}
}

// hideLister is a storage whose format lists no records.
type hideLister struct{ bag.Storage }

// TestNeitherFormat shows a storage that is neither a ROS 1 bag nor a
// RecordLister: the Records and Chunk tabs say they are not available.
func TestNeitherFormat(t *testing.T) {
	d := uitest.OpenShared(t, "ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap")
	hidden := *d
	hidden.Storage = hideLister{d.Storage}
	test.NewTempApp(t)
	old := link.Background
	link.Background = uitest.SyncRun
	t.Cleanup(func() { link.Background = old })
	l := link.NewHub(&hidden, uitest.SyncRun)
	t.Cleanup(l.Close)
	w := test.NewTempWindow(t, nil)
	w.SetContent(newViews(&hidden, w, &docViews{link: l}, bagWindowSize.Height, 130))
	w.Resize(bagWindowSize)
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	for _, tab := range []string{"Records", "Chunk"} {
		selectTabNamed(tabs, tab)
		if got := uitest.Shown(w); !strings.Contains(got, "The "+tab+" view is not available for MCAP files yet") {
			t.Errorf("the %s tab does not say it is not available:\n%.3000s", tab, got)
		}
	}
	if l.Actions().ShowChunk != nil || l.Actions().ShowMessageRecord != nil {
		t.Error("links lead to views that are not there")
	}
}

// TestSensorAndLogTabs: a window has a Sensor tab when its bag has image,
// laser scan or point cloud topics and a Log tab when it has log topics,
// both after Message, and TF and 3D tabs, last, when it has transforms
// (and the 3D tab for clouds and scans too); the
// Message view's Show in Sensor
// (l.SelectTab("Sensor")) brings the Sensor tab forward.
func TestSensorAndLogTabs(t *testing.T) {
	for _, tt := range []struct {
		name, path string
		want       []string // the tabs' titles, without the Topics count
	}{
		{"sample", "", []string{"Topics", "Message", "Sensor", "Log", "Plots", "Chunk", "Records", "Findings", "TF", "3D"}},
		{"robot", "../testdata/robot.bag", []string{"Topics", "Message", "Sensor", "Log", "Plots", "Chunk", "Records", "Findings", "TF", "3D"}},
		{"scan, no log", "../testdata/lz4-multichunk.bag", []string{"Topics", "Message", "Sensor", "Plots", "Chunk", "Records", "Findings", "TF", "3D"}},
		{"neither", "../testdata/single-message.bag", []string{"Topics", "Message", "Plots", "Chunk", "Records", "Findings"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			kw := openKeysWindow(t, newTestController(t), tt.path)
			var got []string
			for _, it := range kw.tabs.Items {
				got = append(got, strings.Fields(it.Text)[0])
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("tabs %v, want %v", got, tt.want)
			}
			l := kw.v.link
			if !slices.Contains(tt.want, "Sensor") {
				if l.SelectTab("Sensor") {
					t.Error("selecting Sensor succeeded without a Sensor tab")
				}
				return
			}
			if !l.SelectTab("Sensor") || kw.tabs.Selected().Text != "Sensor" {
				t.Fatalf("selecting Sensor left %q selected", kw.tabs.Selected().Text)
			}
		})
	}
}
