package ros1

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/sweeptest"
)

// killedDir makes the killed recordings once per test binary.
var killedDir = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "bagscope-killed-")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(refPython, "../../testdata/make_killed.py", dir).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("make_killed.py: %v\n%s", err, out)
	}
	return dir, nil
})

func killed(t *testing.T) string {
	t.Helper()
	requireRef(t)
	dir, err := killedDir()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// messageLines reads every message of a scanned bag in the format of
// testdata/ref_messages.py.
func messageLines(t testing.TB, b *Bag) []string {
	t.Helper()
	var out []string
	it := b.Messages(MessageFilter{})
	for it.Next() {
		m := it.Message()
		h := sha1.Sum(m.Data)
		out = append(out, fmt.Sprintf("%s %d %d %d %s", m.Conn.Topic, m.Time.Sec, m.Time.NSec, len(m.Data), hex.EncodeToString(h[:])))
	}
	if err := it.Err(); err != nil {
		t.Fatalf("reading the scanned bag: %v", err)
	}
	return out
}

func scanBytes(data []byte) (*Bag, error) {
	return NewReaderOrScan(bytes.NewReader(data), int64(len(data)))
}

// isPrefix reports whether got is a prefix of want.
func isPrefix(got, want []string) (bool, int) {
	if len(got) > len(want) {
		return false, len(want)
	}
	for i := range got {
		if got[i] != want[i] {
			return false, i
		}
	}
	return true, -1
}

// TestScanKilledRecordings opens snapshots of recordings killed while
// writing, cut at many offsets, and checks that the messages read are
// exactly a prefix of what was written (the closed bag's messages), and
// never fewer than `rosbag reindex` recovers from the same bytes.
//
// make test scans one in killedCutSample of the cuts of each snapshot (the
// whole snapshot always) and compares about half of the reference
// comparisons (reindex) with the reference; -long (make test-long) every
// one:
//
//	go test -race -run '^TestScanKilledRecordings$' ./bag/ros1/ -long
func TestScanKilledRecordings(t *testing.T) {
	const killedCutSample = 3
	sweeptest.Note(t, killedCutSample, "each snapshot's cuts, and half its reindex comparisons")
	dir := killed(t)
	snaps, _ := filepath.Glob(filepath.Join(dir, "*.bag.active"))
	if len(snaps) < 18 {
		t.Fatalf("make_killed.py wrote %d snapshots", len(snaps))
	}
	for _, snap := range snaps {
		t.Run(filepath.Base(snap), func(t *testing.T) {
			t.Parallel()
			closedPath := strings.SplitN(snap, ".snap", 2)[0] + ".closed.bag"
			cb, err := Open(closedPath)
			if err != nil {
				t.Fatal(err)
			}
			written := messageLines(t, cb)
			cb.Close()
			data, err := os.ReadFile(snap)
			if err != nil {
				t.Fatal(err)
			}
			// The whole snapshot, then cuts at many offsets: every offset in
			// the first records, then a stride through the rest.
			cuts := []int{len(data)}
			for c := 4096; c < len(data); c += 1 + c/40 {
				cuts = append(cuts, c)
			}
			reindexChecked := 0
			refEvery := len(cuts)/6 + 1
			refs := (len(cuts) + refEvery - 1) / refEvery
			for i, cut := range cuts {
				// The cuts compared with the reference's reindex: every
				// refEvery-th, without -long every other one of those
				// when that leaves at least two.
				isRef := i%refEvery == 0 && (sweeptest.Long() || refs < 4 || (i/refEvery)%2 == 0)
				if i > 0 && !isRef && !sweeptest.Keep(i, killedCutSample) {
					continue
				}
				b, err := scanBytes(data[:cut])
				if err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				if b.Scan == nil {
					t.Fatalf("cut at %d: a killed recording opened as indexed", cut)
				}
				got := messageLines(t, b)
				if ok, at := isPrefix(got, written); !ok {
					t.Fatalf("cut at %d: message %d is not what was written", cut, at)
				}
				if i == 0 && b.Scan.Open == nil && len(got) == 0 {
					t.Fatalf("whole snapshot: nothing found")
				}
				// Compare with the reference's reindex on a sample of the cuts.
				if isRef {
					reindexChecked++
					cutFile := filepath.Join(t.TempDir(), "cut.bag")
					os.WriteFile(cutFile, data[:cut], 0o644)
					ref := strings.Fields(strings.TrimSpace(string(runRef(t, "testdata/ref_reindex.py", cutFile))))
					refN := len(ref) / 5
					if len(got) < refN {
						t.Fatalf("cut at %d: bagscope recovers %d messages, rosbag reindex %d", cut, len(got), refN)
					}
				}
			}
			if reindexChecked < 2 {
				t.Fatalf("only %d cuts compared with reindex", reindexChecked)
			}
		})
	}
}

// TestScanRecoversOpenUncompressedChunk is the case rosbag reindex gets
// wrong: a killed uncompressed recording whose messages all sit in the open
// chunk. The reference recovers none; bagscope every complete one.
func TestScanRecoversOpenUncompressedChunk(t *testing.T) {
	dir := killed(t)
	snap := filepath.Join(dir, "none-default.snap333.bag.active")
	b, err := OpenOrScan(snap)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Scan == nil || b.Scan.Open == nil || b.Scan.Open.Messages != 334 {
		t.Fatalf("scan report %+v", b.Scan)
	}
	if !errors.Is(b.Scan.Reason, ErrUnindexed) {
		t.Fatalf("reason %v", b.Scan.Reason)
	}
	if n := len(strings.TrimSpace(string(runRef(t, "testdata/ref_reindex.py", snap)))); n != 0 {
		t.Logf("note: rosbag reindex now recovers messages here too")
	}
	s, _ := b.Summary()
	if s.Indexed || s.Messages != 334 {
		t.Fatalf("summary: indexed %v, %d messages", s.Indexed, s.Messages)
	}
}

// TestScanSharedBroken checks the scan of the shared broken bags.
func TestScanSharedBroken(t *testing.T) {
	requireShared(t)
	tests := []struct {
		file     string
		messages uint64
		skipped  int64
	}{
		// Truncated at index_pos: the closed chunk and its index data are whole.
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", 14, 0},
		// Cut in the middle of the chunk: the complete records before the cut.
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", 3, 100},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := OpenOrScan(sharedBags + "/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s, _ := b.Summary()
			if s.Messages != tc.messages || b.Scan.UnreadableBytes() != tc.skipped {
				t.Fatalf("%d messages, %d bytes skipped (%v); want %d, %d", s.Messages, b.Scan.UnreadableBytes(), b.Scan.Skipped, tc.messages, tc.skipped)
			}
			if got := len(messageLines(t, b)); uint64(got) != tc.messages {
				t.Fatalf("read %d messages, summary says %d", got, tc.messages)
			}
		})
	}
}

// TestScanPaddingAndJunk inserts zero padding and garbage between records of
// an unindexed bag: the scan must report each gap with its offset and
// still find every message.
func TestScanPaddingAndJunk(t *testing.T) {
	good := twoChunkBag()
	b, _ := openBytes(good)
	want := messageLines(t, b)
	// Make it unindexed, then insert bytes before the second chunk.
	unindexed := bytes.Clone(good[:b.Header.IndexPos])
	copy(unindexed[13:], bagHeaderRec(0, 0, 0))
	second := b.ChunkInfos[1].ChunkPos
	tests := []struct {
		name   string
		insert []byte
		why    string
	}{
		{"zero padding", make([]byte, 49), "padding"},
		{"garbage", []byte("this is not a record at all, just junk bytes \xff\xfe"), "unreadable"},
		{"plausible length then junk", append(u32b(40), bytes.Repeat([]byte{'x'}, 60)...), "unreadable"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := append(append(bytes.Clone(unindexed[:second]), tc.insert...), unindexed[second:]...)
			sb, err := scanBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			got := messageLines(t, sb)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("got %d messages %v, want %v", len(got), got, want)
			}
			sk := sb.Scan.Skipped
			if len(sk) != 1 || sk[0].Start != second || sk[0].End != second+int64(len(tc.insert)) || !strings.Contains(sk[0].Why, tc.why) {
				t.Fatalf("skipped %v, want %d..%d (%s)", sk, second, second+int64(len(tc.insert)), tc.why)
			}
		})
	}
}

// TestScanDamagedKilledRecordings flips bytes inside chunks and record
// headers of killed recordings: bagscope still reads at least as many
// messages as rosbag reindex recovers from the same bytes, and every
// message whose bytes were not hit is one that was written.
func TestScanDamagedKilledRecordings(t *testing.T) {
	dir := killed(t)
	for _, name := range []string{"none-small.snap333.bag.active", "lz4-small.snap333.bag.active", "bz2-small.snap333.bag.active", "none-default.snap333.bag.active"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			snap := filepath.Join(dir, name)
			cb, err := Open(strings.SplitN(snap, ".snap", 2)[0] + ".closed.bag")
			if err != nil {
				t.Fatal(err)
			}
			written := map[string]bool{}
			for _, l := range messageLines(t, cb) {
				written[l] = true
			}
			cb.Close()
			data, err := os.ReadFile(snap)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := NewRawReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			// Spots: a chunk header's length field and compression, a record
			// header inside the first records, and the middle of the data.
			var spots []int64
			w := raw.Walk()
			for w.Next() && len(spots) < 12 {
				r := w.Record()
				if r.Op == OpChunk || r.Op == OpIndexData {
					spots = append(spots, r.Offset+1, r.HeaderOffset+6, r.DataOffset+int64(r.DataLen)/3)
				}
			}
			spots = append(spots, int64(len(data))/2, int64(len(data))*3/4)
			for _, at := range spots {
				c := bytes.Clone(data)
				c[at] ^= 0x5a
				b, err := scanBytes(c)
				if err != nil {
					t.Fatalf("flip at %d: %v", at, err)
				}
				// What bagscope recovers (what fix writes): every chunk that
				// can be read; a damaged one is reported, not read.
				b.DropUnreadableChunks()
				got := messageLines(t, b)
				foreign := 0
				for _, l := range got {
					if !written[l] {
						foreign++ // the flipped byte landed in this message's payload
					}
				}
				if foreign > 1 {
					t.Fatalf("flip at %d: %d messages that were never written", at, foreign)
				}
				cutFile := filepath.Join(t.TempDir(), "flipped.bag")
				os.WriteFile(cutFile, c, 0o644)
				refN := len(strings.Fields(string(runRef(t, "testdata/ref_reindex.py", cutFile)))) / 5
				if len(got) < refN {
					t.Fatalf("flip at %d: bagscope reads %d messages, rosbag reindex %d", at, len(got), refN)
				}
			}
		})
	}
}
