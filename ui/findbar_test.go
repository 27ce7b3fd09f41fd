package ui

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// findCommand runs `bagscope find ARGS…` in-process and returns its
// standard output.
func findCommand(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(append([]string{"find"}, args...), &out, &errb); code != 0 {
		t.Fatalf("bagscope find %v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// TestFindBarMatchesFindCommand searches shared recordings in the
// window's Find bar and compares what it found with `bagscope find`
// (itself checked against genpy and the npm oracle in model/cli): the
// hits' CSV byte for byte, each listed row's topic and values with the
// command's text line, each topic lane's ticks with the command's hits
// of that topic, and F3's steps with the command's hits in time order,
// forwards, wrapping, and back with Shift+F3.
func TestFindBarMatchesFindCommand(t *testing.T) {
	const shared = "../../shared/bags/"
	cases := []struct {
		name, path, expr string
		topics           int // the topics with hits, at least
	}{
		{"/rosout levels over three connections", shared + "cruise-automation__rosbag.js/fixtures/example.bag", "level >= INFO", 1},
		{"a time window over many topics", shared + "cruise-automation__rosbag.js/fixtures/example.bag", "@t > 5 && @t < 5.03", 5},
		{"ROS 2 /imu values", shared + "facontidavide__PlotJuggler/datasamples/rosbag2_test/metadata.yaml", "/imu.angular_velocity.z > 0.02 || /imu.angular_velocity.z < -0.02", 1},
		{"ROS 2 strings on several topics", shared + "facontidavide__PlotJuggler/datasamples/rosbag2_test/metadata.yaml", `header.frame_id ~ "^[a-z_]*$" && @t < 2`, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestController(t)
			k := openKeysWindow(t, c, tc.path)
			defer k.w.Close()
			bar := k.v.views.find
			uitest.PressShortcut(k.w, shortcutFind)
			if !bar.Shown() || k.w.Canvas().Focused() != bar.Entry() {
				t.Fatalf("Ctrl+F: the bar shows %v, the keyboard is with %T", bar.Shown(), k.w.Canvas().Focused())
			}
			typeFocused(t, k.w, tc.expr)
			typeKey(k.w, "Return")
			if bar.Running() {
				t.Fatal("the search has not ended")
			}
			hits := bar.Hits()
			if len(hits) == 0 {
				t.Fatalf("no hits: %s", bar.Status())
			}

			// The CSV export is find --csv's, byte for byte.
			var got bytes.Buffer
			if err := bar.WriteCSV(&got); err != nil {
				t.Fatal(err)
			}
			want := findCommand(t, "--csv", tc.path, tc.expr)
			if got.String() != want {
				t.Fatalf("the bar's CSV differs from find --csv:\n%s\nwant:\n%s", head(got.String()), head(want))
			}
			rows, err := csv.NewReader(strings.NewReader(want)).ReadAll()
			if err != nil || len(rows)-1 != len(hits) {
				t.Fatalf("find --csv has %d rows (%v), the bar %d hits", len(rows)-1, err, len(hits))
			}

			// Each row of the list: the command's line, topic and values.
			text := strings.Split(strings.TrimSuffix(findCommand(t, tc.path, tc.expr), "\n"), "\n")
			for i, h := range hits {
				line := strings.Fields(text[i])
				row := strings.Fields(bar.RowText(i))
				// The command: topic, time, (+secs), values; the row:
				// +secs, "s", topic, values.
				if line[0] != row[2] || !slices.Equal(line[3:], row[3:]) {
					t.Fatalf("hit %d: the list shows %q, find prints %q", i, bar.RowText(i), text[i])
				}
				if h.Time.String() != line[1] {
					t.Fatalf("hit %d at %s, find prints %s", i, h.Time, line[1])
				}
			}

			// Each topic's lane ticks the command's hits of that topic.
			byTopic := map[string][]int64{}
			for _, r := range rows[1:] {
				ns, _ := strconv.ParseInt(r[2], 10, 64)
				byTopic[r[0]] = append(byTopic[r[0]], ns)
			}
			if len(byTopic) < tc.topics {
				t.Fatalf("hits on %d topics, want at least %d", len(byTopic), tc.topics)
			}
			tv := k.v.views.timeline.View()
			for topic, ns := range byTopic {
				slices.Sort(ns)
				if lane := tv.Hits(topic); !slices.Equal(lane, ns) {
					t.Errorf("%s's lane ticks %d hits, find finds %d", topic, len(lane), len(ns))
				}
			}

			// F3 steps the time through the hits in time order, every
			// view following (the first 20, then from the time moved
			// before the last); past the last it wraps; Shift+F3 goes
			// back.
			steps := []int{}
			for i := range min(len(hits), 20) {
				steps = append(steps, i)
			}
			steps = append(steps, len(hits)-1, 0)
			for i, j := range steps {
				if i == len(steps)-2 && j > 0 {
					k.v.link.MoveCursor(hits[j-1].Time.Nanos())
				}
				typeKey(k.w, "F3")
				want, _ := strconv.ParseInt(rows[1+j][2], 10, 64)
				if cur, _ := k.v.link.Cursor(); cur != want || bar.Current() != j {
					t.Fatalf("F3 #%d: the time is %d (hit %d), want hit %d at %d", i+1, cur, bar.Current(), j, want)
				}
				if m, _ := k.v.link.Message(); m.T != want || k.v.link.TopicName(m) != rows[1+j][0] {
					t.Fatalf("F3 #%d selects %s at %d, want %s at %d", i+1, k.v.link.TopicName(m), m.T, rows[1+j][0], want)
				}
			}
			shiftF3(k.w)
			if bar.Current() != len(hits)-1 {
				t.Fatalf("Shift+F3 from the first hit went to hit %d, want the last, %d", bar.Current(), len(hits)-1)
			}

			// Escape closes the bar; the hits stay on the timeline, and
			// Ctrl+G still steps.
			typeKey(k.w, "Escape")
			if bar.Shown() {
				t.Error("Escape left the bar open")
			}
			uitest.PressShortcut(k.w, shortcutFindNext)
			if bar.Current() != 0 {
				t.Errorf("Ctrl+G after the last hit went to %d, want 0", bar.Current())
			}
		})
	}
}

// typeKey types the key name as the keyboard does: to the focused
// widget, else to the window.
func typeKey(w fyne.Window, name fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: name}
	if f := w.Canvas().Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	if on := w.Canvas().OnTypedKey(); on != nil {
		on(ev)
	}
}

// shiftF3 types F3 with Shift held, into the focused widget.
func shiftF3(w fyne.Window) {
	k := w.Canvas().Focused().(desktop.Keyable)
	k.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	k.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF3})
	k.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
}

// head is the first lines of s, for a failure message.
func head(s string) string {
	lines := strings.SplitN(s, "\n", 6)
	return strings.Join(lines[:min(len(lines), 5)], "\n")
}
