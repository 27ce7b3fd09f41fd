package scene

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model/tf"
)

// rotateQ rotates v by the unit quaternion q (x, y, z, w).
func rotateQ(q [4]float64, v Vec) Vec {
	x, y, z, w := q[0], q[1], q[2], q[3]
	c := Vec{y*v[2] - z*v[1], z*v[0] - x*v[2], x*v[1] - y*v[0]}
	d := Vec{y*c[2] - z*c[1], z*c[0] - x*c[2], x*c[1] - y*c[0]}
	return Vec{v[0] + 2*(w*c[0]+d[0]), v[1] + 2*(w*c[1]+d[1]), v[2] + 2*(w*c[2]+d[2])}
}

// The ROS 2 twin of TestStampedMessagesPlacedAtTheirStamp: an MCAP the
// oracle writer wrote (make_stamped_mcap.mjs: CDR by
// rosmsg2-serialization), the poses placed where tf2's rule puts them,
// computed here from the messages the MCAP oracle (@mcap/core) decodes:
// the transform stamped at or before each pose's stamp, or, before any,
// the one at the current time (marked extrapolated).
func TestROS2StampedMessagesMatchOracle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stamped.mcap")
	oracletest.Run(t, "make_stamped_mcap.mjs", path)
	out := oracletest.Run(t, "mcap_cat.mjs", path)
	type stampT struct {
		Sec     int64 `json:"sec"`
		Nanosec int64 `json:"nanosec"`
	}
	type line struct {
		Topic string
		Time  struct{ Secs, Nsecs int64 }
		Msg   struct {
			Header struct {
				Stamp   stampT
				FrameID string `json:"frame_id"`
			}
			Pose struct {
				Position struct{ X, Y, Z float64 }
			}
			Transforms []struct {
				Header    struct{ Stamp stampT }
				Transform struct {
					Translation struct{ X, Y, Z float64 }
					Rotation    struct{ X, Y, Z, W float64 }
				}
			}
		}
	}
	var msgs []line
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, l)
	}
	if len(msgs) != 91+18+1 {
		t.Fatalf("the oracle read %d messages", len(msgs))
	}
	ns := func(s stampT) int64 { return s.Sec*1e9 + s.Nanosec }
	d, x := openIndexed(t, path)
	h, err := tf.BuildHistory(context.Background(), d.Storage, tf.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := int64(1700000000) * 1e9
	for _, sec := range []float64{2.2, 5.25, 9.9} {
		at := t0 + int64(sec*1e9)
		// The oracle's messages received by at: the latest pose of each
		// topic and every transform.
		latest := map[string]line{}
		type tr struct {
			stamp int64
			t     Vec
			q     [4]float64
		}
		var trs []tr
		for _, l := range msgs {
			if l.Time.Secs*1e9+l.Time.Nsecs > at {
				continue
			}
			if l.Topic == "/tf" {
				for _, e := range l.Msg.Transforms {
					r := e.Transform.Rotation
					p := e.Transform.Translation
					trs = append(trs, tr{ns(e.Header.Stamp), Vec{p.X, p.Y, p.Z}, [4]float64{r.X, r.Y, r.Z, r.W}})
				}
			} else {
				latest[l.Topic] = l
			}
		}
		lookup := func(stamp int64) (tr, bool) {
			var best tr
			found := false
			for _, r := range trs {
				if r.stamp <= stamp && (!found || r.stamp >= best.stamp) {
					best, found = r, true
				}
			}
			return best, found
		}
		tree, err := h.TreeAt(context.Background(), bag.TimeFromNanos(at))
		if err != nil {
			t.Fatal(err)
		}
		s := Load(context.Background(), Input{Reader: readerOf(d), Index: x, Tree: tree, History: h}, at, Options{Fixed: "odom", Topics: Topics(d)})
		got := placed(t, s)
		for _, topic := range []string{"/early", "/pose"} {
			l, ok := latest[topic]
			if !ok {
				t.Fatalf("at %g s: no %s", sec, topic)
			}
			r, found := lookup(ns(l.Msg.Header.Stamp))
			if !found {
				r, _ = lookup(at)
			}
			pp := l.Msg.Pose.Position
			want := r.t.Add(rotateQ(r.q, Vec{pp.X, pp.Y, pp.Z}))
			g := got[topic]
			if !near3(g.at, want, 1e-6) {
				t.Errorf("at %g s: %s at %v, the oracle's messages through tf2's rule %v", sec, topic, g.at, want)
			}
			if marked := strings.Contains(g.note, "extrapolated"); marked != !found {
				t.Errorf("at %g s: %s note %q, extrapolated %v", sec, topic, g.note, !found)
			}
		}
	}
}
