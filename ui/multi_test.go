package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// refPoint is one message of a topic as the reference reader reads it:
// its receive time and a field's value.
type refPoint struct {
	ns int64
	v  float64
}

// refField reads topic's field from file with the reference reader
// (python3-rosbag through testdata/field_ref.py).
func refField(t *testing.T, file, topic, field string) []refPoint {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("/usr/bin/python3 with python3-rosbag is needed")
		}
		t.Skip("no /usr/bin/python3 (python3-rosbag): the reference reader is missing (CI is unset)")
	}
	var out, errb bytes.Buffer
	cmd := exec.Command("/usr/bin/python3", "testdata/field_ref.py", file, topic, field)
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
	return pts
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

func infoOf(t *testing.T, file string) infoJSON {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"info", "--json", file}, &out, &errb); code != 0 {
		t.Fatalf("bagscope info --json %s: exit %d: %s", file, code, errb.String())
	}
	var info infoJSON
	if err := json.Unmarshal(out.Bytes(), &info); err != nil {
		t.Fatal(err)
	}
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
// files; removing B shows A alone.
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

	v.removeMember("B:")
	if v.members != nil || len(v.doc.Topics) != len(infoA.Topics) || v.doc.Name != "test2.bag" {
		t.Errorf("after removing B: %d members, %d topics, %q", len(v.members), len(v.doc.Topics), v.doc.Name)
	}
}
