package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
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
			perConn, err := model.MessageBytes(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := model.NewTopicView(d.Topics)
			want.SetBytes(perConn)
			l := link.NewHub(d, uitest.SyncRun)
			t.Cleanup(l.Close)
			w := test.NewTempWindow(t, nil)
			w.SetContent(newViews(d, w, &docViews{link: l}))
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
