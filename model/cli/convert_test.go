package cli

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// refConnHeaders prints each connection header of a bag as the reference
// reader has it, one sorted "topic key=value ..." line per connection.
const refConnHeaders = `
import sys, rosbag
out = set()
with rosbag.Bag(sys.argv[1]) as b:
    for c in b._connections.values():
        h = c.header
        out.add(c.topic + " " + " ".join("%s=%s" % (k, h[k]) for k in sorted(h) if k in ("callerid", "latching", "type", "md5sum", "message_definition")))
for line in sorted(out):
    print(line.replace("\n", "\\n"))
`

// TestConvertRoundTrip converts ROS 1 bags to MCAP (ros1 profile) and back:
// the reference reader must see exactly the original messages (topic,
// time, bytes) in the final bag and the same connection headers, and the
// MCAP must hold them all, as our reader and the npm oracle read it.
func TestConvertRoundTrip(t *testing.T) {
	requireRef(t)
	requireNodeOracles(t)
	bags, _ := filepath.Glob("../../testdata/*.bag")
	for _, p := range []string{"/cra-ros-pkg__robot_localization/test/test2.bag", "/UbiquityRobotics__fiducials/fiducial_slam/test/aruco_images.bag"} {
		bags = append(bags, sharedBags+p)
	}
	sorted := func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	for _, in := range bags {
		t.Run(name(in), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			mc, back := filepath.Join(dir, "x.mcap"), filepath.Join(dir, "x.bag")
			if out, stderr, code := run("convert", in, mc); code != 0 {
				t.Fatalf("convert to MCAP: exit %d: %s%s", code, out, stderr)
			}
			if out, stderr, code := run("convert", mc, back); code != 0 {
				t.Fatalf("convert back: exit %d: %s%s", code, out, stderr)
			}
			want, err := exec.Command(refPython, "../../bag/ros1/testdata/ref_messages.py", in).Output()
			if err != nil {
				t.Fatalf("reference on the input: %v", err)
			}
			got, err := exec.Command(refPython, "../../bag/ros1/testdata/ref_messages.py", back).Output()
			if err != nil {
				t.Fatalf("the reference cannot read the round trip: %v", err)
			}
			if sorted(string(got)) != sorted(string(want)) {
				t.Errorf("messages differ after the round trip:\n got %.300s\nwant %.300s", got, want)
			}
			if m := sorted(seamLines(t, mc)); m != sorted(string(want)) {
				t.Errorf("the MCAP's messages differ from the input's:\n got %.300s\nwant %.300s", m, want)
			}
			hIn, err1 := exec.Command(refPython, "-c", refConnHeaders, in).Output()
			hOut, err2 := exec.Command(refPython, "-c", refConnHeaders, back).Output()
			if err1 != nil || err2 != nil || string(hIn) != string(hOut) {
				t.Errorf("connection headers differ (%v, %v):\n got %.400s\nwant %.400s", err1, err2, hOut, hIn)
			}
			out, _, code, err := nodeOracle("mcap_cat.mjs", mc)
			if err != nil || code != 0 {
				t.Fatalf("the npm reader fails on the MCAP: exit %d, %v", code, err)
			}
			if n, w := strings.Count(out, "\n"), strings.Count(string(want), "\n"); n != w {
				t.Errorf("the npm reader reads %d messages, want %d", n, w)
			}
		})
	}
}

// seamLines lists the messages of a recording of any format as
// ref_messages.py prints them.
func seamLines(t *testing.T, path string) string {
	t.Helper()
	s, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var sb strings.Builder
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		h := sha1.Sum(m.Data)
		fmt.Fprintf(&sb, "%s %d %d %d %s\n", m.Conn.Topic, m.Time.Sec, m.Time.NSec, len(m.Data), hex.EncodeToString(h[:]))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}
