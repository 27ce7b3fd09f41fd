package ui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/ui/cut"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// overlayText is the labels' text of the dialog on top of w.
func overlayText(w fyne.Window) string {
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range uitest.ShownObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// readBack is every message of the recording at path: topic, log time and
// payload, in the order the format reads them.
func readBack(t *testing.T, path string, f bag.MessageFilter) []string {
	t.Helper()
	s, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(f.Topics) > 0 {
		for _, c := range s.Connections() {
			if slices.Contains(f.Topics, c.Topic) {
				f.Conns = append(f.Conns, c.ID)
			}
		}
	}
	var out []string
	it := s.Messages(f)
	defer it.Close()
	for it.Next() {
		m := it.Message()
		out = append(out, fmt.Sprintf("%s %d %x", m.Conn.Topic, m.Time.Nanos(), m.Data))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out) // formats order messages of one time differently
	return out
}

// TestSaveCutReadsBackEqual saves the window's selected topics and range
// (File > Save Range/Topics As…, Ctrl+E) from each format to each, and
// reads every message back equal, byte for byte, to the selection of the
// original and to what `bagscope filter` writes with the same --topics
// and --range. The original is not written.
func TestSaveCutReadsBackEqual(t *testing.T) {
	const shared = "../../shared/bags/"
	cases := []struct {
		name, in string
		topics   []string
		from, to float64 // seconds from the start; 0, 0: no range
		ext      string
	}{
		{"ROS 1 to MCAP, two topics, a range", shared + "cruise-automation__rosbag.js/fixtures/example.bag", []string{"/turtle1/pose", "/rosout"}, 3, 9.5, ".mcap"},
		{"ROS 1 to ROS 1, every topic", "../testdata/robot.bag", nil, 0, 0, ".bag"},
		{"rosbag2 .db3 to .db3, a range", shared + "facontidavide__PlotJuggler/datasamples/rosbag2_test/metadata.yaml", nil, 10, 20, ".db3"},
		{"rosbag2 .db3 to MCAP, one topic", shared + "facontidavide__PlotJuggler/datasamples/rosbag2_test/metadata.yaml", []string{"/imu"}, 0, 0, ".mcap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, err := os.ReadFile(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			c := newTestController(t)
			k := openKeysWindow(t, c, tc.in)
			defer k.w.Close()
			l := k.v.link
			start := k.v.doc.Summary.Start.Nanos()
			l.SetTopics(tc.topics)
			args := []string{"filter"}
			if len(tc.topics) > 0 {
				args = append(args, "--topics", strings.Join(tc.topics, ","))
			}
			if tc.to > 0 {
				t0, t1 := start+int64(tc.from*1e9), start+int64(tc.to*1e9)
				l.SetRange(t0, t1, true)
				args = append(args, "--range", "@"+bag.TimeFromNanos(t0).String()+":@"+bag.TimeFromNanos(t1).String())
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "cut"+tc.ext)

			// The dialog, as the user saves it.
			uitest.PressShortcut(k.w, shortcutSaveCut)
			top := k.w.Canvas().Overlays().Top()
			entry, ok := k.w.Canvas().Focused().(*widget.Entry)
			if top == nil || !ok {
				t.Fatal("Ctrl+E showed no dialog with the path focused")
			}
			entry.SetText(out)
			var save *widget.Button
			for _, o := range uitest.ShownObjects(top) {
				if b, ok := o.(*widget.Button); ok && b.Text == "Save" {
					save = b
				}
			}
			test.Tap(save)
			if said := overlayText(k.w); !strings.Contains(said, "Wrote "+out) {
				t.Fatalf("after the cut the window says %q", said)
			}
			closeOverlays(k.w)

			want := filepath.Join(dir, "filter"+tc.ext)
			var so, se bytes.Buffer
			if code := cli.Run(append(args, tc.in, want), &so, &se); code != 0 {
				t.Fatalf("bagscope %v: exit %d: %s", args, code, se.String())
			}
			got := readBack(t, out, bag.MessageFilter{})
			if len(got) == 0 {
				t.Fatal("the cut is empty")
			}
			if w := readBack(t, want, bag.MessageFilter{}); !slices.Equal(got, w) {
				t.Errorf("the cut holds %d messages, bagscope filter's %d, or they differ", len(got), len(w))
			}
			sel := cut.Selection(l)
			if w := readBack(t, tc.in, sel); !slices.Equal(got, w) {
				t.Errorf("the cut holds %d messages, the selection of the original %d, or they differ", len(got), len(w))
			}
			if after, _ := os.ReadFile(tc.in); !bytes.Equal(before, after) {
				t.Fatal("the original was written")
			}
			// Never over the opened recording (a rosbag2 folder's files).
			over := tc.in
			if filepath.Base(over) == "metadata.yaml" {
				dbs, _ := filepath.Glob(filepath.Join(filepath.Dir(over), "*.db3"))
				over = dbs[0]
			}
			if _, err := cut.Write(context.Background(), l, over, sel, nil); err == nil || !strings.Contains(err.Error(), "refusing") {
				t.Errorf("saving over the recording: %v", err)
			}
			if after, _ := os.ReadFile(tc.in); !bytes.Equal(before, after) {
				t.Fatal("the original was written")
			}
		})
	}
}
