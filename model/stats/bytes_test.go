package stats_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/stats"
)

// refBytesScript sums the payload bytes of every message per topic with the
// reference rosbag.
const refBytesScript = `
import json, sys, rosbag
out = {}
with rosbag.Bag(sys.argv[1]) as b:
    for topic, raw, t in b.read_messages(raw=True):
        out[topic] = out.get(topic, 0) + len(raw[1])
print(json.dumps(out))
`

// TestMessageBytesMatchesReference compares the per-topic payload bytes,
// counted by MessageBytes and by the check (CheckReport.Bytes), with what
// the reference rosbag reads, on real bags.
func TestMessageBytesMatchesReference(t *testing.T) {
	reftest.RequireRef(t)
	for _, p := range []string{
		"../../assets/sample.bag",
		sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag",
		"../../testdata/two-conns-one-topic.bag",
	} {
		t.Run(p, func(t *testing.T) {
			if _, err := os.Stat(p); err != nil {
				reftest.SkipOrFail(t, err)
			}
			out, err := exec.Command(reftest.Python, "-c", refBytesScript, p).Output()
			if err != nil {
				t.Fatalf("reference: %v", err)
			}
			var want map[string]uint64
			if err := json.Unmarshal(out, &want); err != nil {
				t.Fatal(err)
			}
			d, err := model.Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			perConn, err := stats.MessageBytes(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := model.CheckDocument(context.Background(), d, nil)
			if err != nil || rep.Errors() > 0 {
				t.Fatalf("check: %v, %d errors", err, rep.Errors())
			}
			for name, counted := range map[string]map[uint32]uint64{"MessageBytes": perConn, "check": rep.Bytes} {
				v := model.NewTopicView(d.Topics)
				v.SetBytes(counted)
				for _, row := range v.Rows() {
					if row.Bytes != want[row.Topic] {
						t.Errorf("%s: %s counts %d bytes, reference %d", row.Topic, name, row.Bytes, want[row.Topic])
					}
				}
			}
			for _, row := range model.NewTopicView(d.Topics).Rows() {
				delete(want, row.Topic)
			}
			if len(want) > 0 {
				t.Errorf("topics only the reference has: %v", want)
			}
		})
	}
}
