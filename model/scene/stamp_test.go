package scene

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/tf"
)

// refPlace is where make_stamped.py's reference says tf2 places a
// message: computed from the raw messages the reference reader reads.
type refPlace struct {
	X, Y, Z      float64
	Extrapolated bool
	Used         float64 // the stamp of the transform used, seconds from the start
}

// Each message is placed with the transform at its own header.stamp
// (base_link moves and turns, and the messages are stamped 0.5 s before
// they are received): the pose and the marker where the reference says
// tf2 puts them, from the raw messages the reference reader reads; a
// frame-locked marker with the transform at the current time; a message
// stamped before any transform with the one at the current time, marked
// extrapolated. Without the history (the tree at the current time) the
// stamped ones are elsewhere: the test tells the two apart.
func TestStampedMessagesPlacedAtTheirStamp(t *testing.T) {
	reftest.RequireRef(t)
	path := filepath.Join(t.TempDir(), "stamped.bag")
	if out, err := exec.Command(reftest.Python, "testdata/make_stamped.py", "write", path).CombinedOutput(); err != nil {
		t.Fatalf("make_stamped.py: %v\n%s", err, out)
	}
	d, x := openIndexed(t, path)
	h, err := tf.BuildHistory(context.Background(), d.Storage, tf.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := d.Summary.Start.Nanos() - 1e9 // the first message is /tf at 1 s
	for _, sec := range []float64{2.2, 5.25, 9.9} {
		out, err := exec.Command(reftest.Python, "testdata/make_stamped.py", "ref", path, strconv.FormatFloat(sec, 'f', -1, 64)).Output()
		if err != nil {
			t.Fatalf("make_stamped.py ref: %v", err)
		}
		var want map[string]refPlace
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		at := start + int64(sec*1e9)
		tree, err := h.TreeAt(context.Background(), bag.TimeFromNanos(at))
		if err != nil {
			t.Fatal(err)
		}
		topics := Topics(d)
		if len(topics) != 3 {
			t.Fatalf("topics %+v", topics)
		}
		opt := Options{Fixed: "odom", Topics: topics}
		s := Load(context.Background(), Input{Reader: readerOf(d), Index: x, Tree: tree, History: h}, at, opt)
		old := Load(context.Background(), Input{Reader: readerOf(d), Index: x, Tree: tree}, at, opt)
		got, was := placed(t, s), placed(t, old)
		for name, w := range want {
			g, ok := got[name]
			if !ok {
				t.Errorf("at %g s: %s not drawn; layers %+v", sec, name, s.Layers)
				continue
			}
			wv := Vec{w.X, w.Y, w.Z}
			if !near3(g.at, wv, 1e-6) {
				t.Errorf("at %g s: %s at %v, the reference (tf at %g s) %v", sec, name, g.at, w.Used, wv)
			}
			if marked := strings.Contains(g.note, "extrapolated"); marked != w.Extrapolated {
				t.Errorf("at %g s: %s note %q, reference extrapolated %v", sec, name, g.note, w.Extrapolated)
			}
			// Placed at the current time, as before, the stamped
			// messages are elsewhere.
			moved := !near3(was[name].at, wv, 0.1)
			if stamped := name == "/pose" || name == "stamped"; moved != stamped {
				t.Errorf("at %g s: %s placed with the tree at the time at %v: moved %v", sec, name, was[name].at, moved)
			}
		}
		if len(want) != 4 {
			t.Errorf("at %g s: the reference placed %d messages", sec, len(want))
		}
	}
	// One scene looks up at most maxStampTrees stamps; past them a
	// message is placed with the tree at the current time, and says so.
	at := start + 9e9
	tree, _ := h.TreeAt(context.Background(), bag.TimeFromNanos(at))
	now, _ := FramePose(tree, "odom", "base_link")
	pl := newPlacer(context.Background(), Input{Tree: tree, History: h}, "odom")
	for i := range maxStampTrees + 1 {
		stamp := bag.TimeFromNanos(start + 2e9 + int64(i)*1e7) // 2.00, 2.01, ... s
		p, note, err := pl.place("base_link", stamp)
		if err != nil {
			t.Fatal(err)
		}
		past := i == maxStampTrees
		if past != strings.Contains(note, "more than 256 stamps") || past != near3(p.T, now.T, 1e-9) {
			t.Fatalf("stamp %d: at %v, note %q", i, p.T, note)
		}
	}
}

type placement struct {
	at   Vec
	note string
}

// placed is where s drew each pose (by topic) and text marker (by text),
// with its layer's note.
func placed(t *testing.T, s *Scene) map[string]placement {
	t.Helper()
	out := map[string]placement{}
	li := 0
	for _, ly := range s.Layers {
		if ly.Problem != "" {
			t.Errorf("%s: %s", ly.Topic, ly.Problem)
		}
		switch ly.Topic {
		case "/markers":
			for _, l := range s.Labels {
				out[l.Text] = placement{l.At, ly.Note}
			}
		default:
			if ly.Count == 1 && li < len(s.Lines) {
				out[ly.Topic] = placement{s.Lines[li].A, ly.Note}
				li++
			}
		}
	}
	return out
}
