package cli

import (
	"os/exec"
	"testing"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// refEcho prints a topic's first messages as `rostopic echo -b BAG TOPIC`
// does: str(msg) (genpy's strify_message), then "---".
const refEcho = `import rosbag, sys
with rosbag.Bag(sys.argv[1]) as b:
    for i, (t, m, ts) in enumerate(b.read_messages(topics=[sys.argv[2]])):
        if i >= int(sys.argv[3]):
            break
        print(m)
        print('---')
`

// TestCatTextMatchesRostopicEcho compares `cat --topics T -n N` with the
// reference's rostopic echo text, byte for byte, on a sample of types
// (nested messages, arrays, times, strings, covariance lists).
func TestCatTextMatchesRostopicEcho(t *testing.T) {
	requireRef(t)
	for _, tc := range []struct{ bag, topic string }{
		{testdata + "/robot.bag", "/odom"},
		{testdata + "/robot.bag", "/tf"},
		{testdata + "/robot.bag", "/joint_states"},
		{testdata + "/robot.bag", "/rosout"},
		{testdata + "/lz4-multichunk.bag", "/scan"},
		{testdata + "/std-all-types.bag", ""},
	} {
		topic := tc.topic
		if topic == "" {
			b, err := model.OpenStorage(tc.bag)
			if err != nil {
				t.Fatal(err)
			}
			topic = series.Topics(b)[0]
			b.Close()
		}
		ref, err := exec.Command(refPython, "-c", refEcho, tc.bag, topic, "3").Output()
		if err != nil {
			t.Fatalf("%s %s: reference: %v", tc.bag, topic, err)
		}
		out, stderr, code := run("cat", tc.bag, "--topics", topic, "-n", "3")
		if code != 0 || out != string(ref) {
			t.Errorf("%s %s: exit %d %s\n got:\n%s\nwant:\n%s", name(tc.bag), topic, code, stderr, out, ref)
		}
	}
}
