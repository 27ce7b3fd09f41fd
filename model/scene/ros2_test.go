package scene

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/tf"
)

// TestROS2OdometryMatchesOracle draws testdata/ros2-mixed.mcap's /odom
// (nav_msgs/msg/Odometry, CDR) at 5 s and compares its trail, point by
// point, with the positions the MCAP oracle (@mcap/core with
// @foxglove/rosmsg2-serialization) decodes from the latest 300 messages
// at or before that time: in odom, the messages' own frame, and in laser,
// through tf's lookup (odom -> base_link -> laser).
func TestROS2OdometryMatchesOracle(t *testing.T) {
	const path = "../../testdata/ros2-mixed.mcap"
	out := oracletest.Run(t, "mcap_cat.mjs", path)
	d, x := openIndexed(t, path)
	at := d.Summary.Start.Nanos() + 5e9
	type odom struct {
		Topic string
		Time  struct{ Secs, Nsecs int64 }
		Msg   struct {
			Header struct {
				FrameID string `json:"frame_id"`
			}
			Pose struct {
				Pose struct{ Position struct{ X, Y, Z float64 } }
			}
		}
	}
	var want []Vec // oldest first
	frame := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		if !bytes.Contains(sc.Bytes(), []byte(`"/odom"`)) {
			continue
		}
		var o odom
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			t.Fatal(err)
		}
		if o.Topic != "/odom" || o.Time.Secs*1e9+o.Time.Nsecs > at {
			continue
		}
		p := o.Msg.Pose.Pose.Position
		want, frame = append(want, Vec{p.X, p.Y, p.Z}), o.Msg.Header.FrameID
	}
	if len(want) < TrailLength {
		t.Fatalf("the oracle gave %d odometry messages before 5 s", len(want))
	}
	want = want[len(want)-TrailLength:]
	tree, err := tf.Read(context.Background(), d.Storage, bag.TimeFromNanos(at), tf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var topics []Topic
	for _, tp := range Topics(d) {
		if tp.Name == "/odom" {
			topics = append(topics, tp)
		}
	}
	in := Input{Reader: readerOf(d), Index: x, Tree: tree}
	for _, fixed := range []string{frame, "laser"} {
		s := Load(context.Background(), in, at, Options{Fixed: fixed, Topics: topics})
		ly := s.Layers[0]
		if ly.Problem != "" || ly.Frame != frame || ly.Count != TrailLength || len(s.Lines) != TrailLength { // 299 segments and the arrow
			t.Fatalf("in %s: %+v, %d lines", fixed, ly, len(s.Lines))
		}
		look, err := tree.Lookup(fixed, frame)
		if err != nil {
			t.Fatal(err)
		}
		// The trail runs from the latest message back.
		for i, l := range s.Lines[:TrailLength-1] {
			w := apply(look, want[len(want)-1-i])
			if !near3(l.A, w, 1e-9) {
				t.Fatalf("in %s: trail point %d at %v, the oracle's message (through tf) %v", fixed, i, l.A, w)
			}
		}
	}
}

func readerOf(d *model.Document) *model.MessageReader { return model.NewMessageReader(d.Storage, nil) }
