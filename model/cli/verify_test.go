package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

// TestVerifyCountsMatchInfo checks that verify reads as many messages per
// topic as info counts from the index (or, for a bag both scan, from what
// the scan found), on every bag info can open.
func TestVerifyCountsMatchInfo(t *testing.T) {
	for _, p := range allBags(t) {
		t.Run(name(p), func(t *testing.T) {
			t.Parallel()
			out, _, code := run("info", "--json", p)
			if code != 0 {
				return // not an openable bag: covered by the info tests
			}
			var info infoJSON
			if err := json.Unmarshal([]byte(out), &info); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := run("verify", "--json", p)
			if !info.Indexed && !strings.Contains(stderr, "read by scanning: offset") {
				// Like info, verify scans an unindexed bag, and says why
				// with the offset where it found out.
				t.Errorf("unindexed bag: stderr %q does not say it was scanned", stderr)
			}
			var v verifyJSON
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatal(err)
			}
			// A scanned bag may have lost bytes (an open chunk's cut tail):
			// verify then says so and exits 1, the counts still agreeing.
			// A bag whose index was never written lost nothing (its
			// missing index is a note): exit 0.
			lost := len(v.Lost.Ranges) > 0 || v.Lost.Messages().Min > 0 || v.Lost.Suspect > 0
			if code != 0 && !(code == 1 && lost) {
				t.Fatalf("verify exit %d: %s", code, stderr)
			}
			if lost && (code != 1 || v.OK) {
				t.Fatalf("verify lost %+v but exit %d, ok %v", v.Lost, code, v.OK)
			}
			if v.Messages != info.Messages || v.IndexEntries != info.Messages || !v.OK && !lost {
				t.Fatalf("verify read %d messages, checked %d index entries (ok=%v); info counts %d", v.Messages, v.IndexEntries, v.OK, info.Messages)
			}
			want := map[string]uint64{}
			for _, tp := range info.Topics {
				if tp.Messages > 0 {
					want[tp.Topic] = tp.Messages
				}
			}
			got := map[string]uint64{}
			for _, tp := range v.Topics {
				got[tp.Topic] = tp.Messages
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("topic %s: verify %d messages, info %d", k, got[k], n)
				}
			}
		})
	}
}

// TestVerifySameContent checks that bags holding the same messages with
// different compression give the same counts, bytes and CRCs.
func TestVerifySameContent(t *testing.T) {
	groups := [][]string{
		{testdata + "/none-multichunk.bag", testdata + "/lz4-multichunk.bag", testdata + "/bz2-multichunk.bag"},
	}
	js := sharedBags + "/cruise-automation__rosbag.js/fixtures/"
	if _, err := os.Stat(js + "example.bag"); err == nil {
		groups = append(groups, []string{js + "example.bag", js + "example-lz4.bag", js + "example-bz2.bag"})
	}
	for _, g := range groups {
		var first string
		for _, p := range g {
			out, stderr, code := run("verify", p)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", p, code, stderr)
			}
			out = strings.SplitN(out, "\n", 2)[1] // without the path line
			if first == "" {
				first = out
				continue
			}
			if out != first {
				t.Errorf("%s differs from %s:\n%s\nvs\n%s", p, g[0], out, first)
			}
		}
	}
	// A topic selection gives that topic's line unchanged.
	out, _, code := run("verify", "--topic", "/imu", "--topic", "/tf", g0(groups))
	if code != 0 {
		t.Fatalf("verify --topic: exit %d", code)
	}
	full, _, _ := run("verify", g0(groups))
	for _, topic := range []string{"/imu", "/tf"} {
		if line := lineOf(full, topic); line == "" || lineOf(out, topic) != line {
			t.Errorf("--topic %s: %q, whole bag: %q", topic, lineOf(out, topic), line)
		}
	}
	if lineOf(out, "/odom") != "" {
		t.Errorf("--topic /imu --topic /tf printed /odom:\n%s", out)
	}
	if _, stderr, code := run("verify", "--topic", "/nope", g0(groups)); code != 2 || !strings.Contains(stderr, "no topic /nope") {
		t.Errorf("unknown topic: exit %d, %q", code, stderr)
	}
}

func g0(groups [][]string) string { return groups[0][0] }

// lineOf returns the output line for a topic.
func lineOf(out, topic string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, topic+" ") {
			return strings.Join(strings.Fields(l), " ")
		}
	}
	return ""
}

// TestVerifyDamaged checks that damage is reported with its offset: a
// message whose time no longer matches its index entry, and a record whose
// header length runs past the chunk.
func TestVerifyDamaged(t *testing.T) {
	src := testdata + "/none-multichunk.bag"
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	ci := b.ChunkInfos[3]
	ch, err := b.ChunkHeader(ci)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := b.ChunkIndex(ci)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	msgOff := ch.DataOffset + int64(idx[0].Entries[0].Offset) // a message record, uncompressed chunk
	timeOff := msgOff + int64(bytes.Index(orig[msgOff:], []byte("time="))) + 5

	for _, c := range []struct {
		name string
		off  int64
		want string
	}{
		{"time changed", timeOff, `offset \d+ in chunk at \d+ \(index data record\): index entry 0 of connection \d+ .*points at a message with time`},
		{"header length", msgOff + 1, `offset \d+ in chunk at \d+`},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := bytes.Clone(orig)
			bad[c.off] ^= 0x40
			p := filepath.Join(t.TempDir(), "damaged.bag")
			if err := os.WriteFile(p, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := run("verify", p)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr %q", code, stderr)
			}
			if !regexp.MustCompile(c.want).MatchString(stderr) {
				t.Fatalf("stderr %q does not match %q", stderr, c.want)
			}
			out, _, code := run("verify", "--json", p)
			if c.name == "time changed" {
				var v verifyJSON
				if err := json.Unmarshal([]byte(out), &v); err != nil || v.OK || len(v.Problems) == 0 || code != 1 {
					t.Fatalf("--json: %v ok=%v problems=%v exit %d", err, v.OK, v.Problems, code)
				}
			}
		})
	}
}

// TestVerifyScansUnindexed checks that verify reads a killed recording (no
// index) by scanning, as the other commands do, and counts every message
// the scan salvages.
func TestVerifyScansUnindexed(t *testing.T) {
	var bags []string
	if p := "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag"; fileExists(p) {
		bags = append(bags, p)
	}
	if _, err := exec.LookPath(refPython); err == nil {
		dir, err := killedDir()
		if err != nil {
			t.Fatal(err)
		}
		bags = append(bags, dir+"/none-default.snap333.bag.active", dir+"/lz4-small.snap333.bag.active", dir+"/bz2-small.snap150.bag.active")
	}
	if len(bags) == 0 {
		requireRef(t) // skips, or fails in CI
	}
	for _, p := range bags {
		t.Run(filepath.Base(p), func(t *testing.T) {
			out, stderr, code := run("verify", "--json", p)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if !strings.Contains(stderr, "read by scanning") {
				t.Errorf("stderr %q does not say the bag was scanned", stderr)
			}
			var v verifyJSON
			if err := json.Unmarshal([]byte(out), &v); err != nil || !v.OK {
				t.Fatalf("%v: %s", err, out)
			}
			want := uint64(strings.Count(salvaged(t, p), "\n"))
			if v.Messages != want || v.Messages == 0 {
				t.Errorf("verify read %d messages, the scan salvages %d", v.Messages, want)
			}
		})
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// BenchmarkVerify measures the verify workload (every message, CRC-32C per
// topic, index check) on the fixtures and, when present, the benchmark bags
// in $BAGSCOPE_BENCH_DIR (default ../bench beside the checkout).
func BenchmarkVerify(b *testing.B) {
	dir := os.Getenv("BAGSCOPE_BENCH_DIR")
	if dir == "" {
		dir = "../../../bench"
	}
	bags := []string{testdata + "/none-multichunk.bag", testdata + "/lz4-multichunk.bag"}
	for _, n := range []string{"mixed.bag", "mixed_lz4.bag", "images.bag"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			bags = append(bags, filepath.Join(dir, n))
		}
	}
	for _, p := range bags {
		b.Run(filepath.Base(p), func(b *testing.B) {
			bg, err := ros1.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer bg.Close()
			b.ReportAllocs()
			var res *verifyResult
			for b.Loop() {
				if res, err = verify(ros1.NewStore(bg), bag.MessageFilter{}, nil); err != nil {
					b.Fatal(err)
				}
			}
			s := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(res.messages)/s, "msgs/s")
			b.ReportMetric(float64(res.bytes)/s/1e6, "payloadMB/s")
		})
	}
}

// TestVerifySaysEachLossOnce cuts real MCAP files (one 1 MiB chunk, as
// rosbag2 writes; many small chunks) at offsets spread over them: each lost
// range verify reports is said on one line of stderr, not again as an
// index problem of the chunk it lost.
func TestVerifySaysEachLossOnce(t *testing.T) {
	for _, src := range []string{
		sharedBags + "/rosbag-sharing-community__amber/tests/rosbag/soccer_goal/soccer_goal_12.mcap",
		sharedBags + "/ros2__rosbag2/rosbag2_py/test/resources/mcap/wbag/wbag_0.mcap",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Skipf("the shared recordings are needed: %v", err)
		}
		for _, frac := range []int{3, 5, 7} {
			cut := int64(len(b)) * int64(frac) / 10
			p := filepath.Join(t.TempDir(), filepath.Base(src))
			if err := os.WriteFile(p, b[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			what := name(src) + " cut at " + strconv.FormatInt(cut, 10)
			out, _, code := run("verify", "--json", p)
			l := lostOf(t, what, out)
			if code != 1 || l == nil || len(l.Ranges) == 0 {
				t.Fatalf("%s: exit %d, lost %+v", what, code, l)
			}
			_, stderr, _ := run("verify", p)
			for _, r := range l.Ranges {
				// The reason's start: an index problem of the lost chunk
				// would repeat it.
				key := r.Why[:min(len(r.Why), 60)]
				n := 0
				for _, line := range strings.Split(stderr, "\n") {
					// The scan's reason is said once as how the file was
					// read, apart from the ranges.
					if strings.Contains(line, key) && !strings.Contains(line, "read by scanning") {
						n++
					}
				}
				if n != 1 {
					t.Errorf("%s: the range at %d (%q) is said %d times:\n%s", what, r.From, key, n, stderr)
				}
			}
		}
	}
}
