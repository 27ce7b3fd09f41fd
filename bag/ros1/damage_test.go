package ros1

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/sweeptest"
)

// readAllSkipping reads every message of data (opened or scanned) and
// returns them as lines, with the iterator's skipped ranges and lost count.
func readAllSkipping(t *testing.T, data []byte) ([]string, []ByteRange, uint64, *Bag) {
	t.Helper()
	b, err := NewReaderOrScan(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	it := b.Messages(MessageFilter{})
	var out []string
	for it.Next() {
		m := it.Message()
		out = append(out, fmt.Sprintf("%d %v %x", m.Conn.ID, m.Time, m.Data))
	}
	if err := it.Err(); err != nil {
		t.Fatalf("Err() = %v: damage must not end the read", err)
	}
	return out, it.Skipped(), it.LostMessages(), b
}

// TestDamagedCompressedChunkCostsOnlyItself damages one chunk of the bz2
// and lz4 fixtures: every other chunk's messages are read, the damaged
// chunk is reported with its offset, and its messages are counted lost.
func TestDamagedCompressedChunkCostsOnlyItself(t *testing.T) {
	for _, name := range []string{"bz2-multichunk.bag", "lz4-multichunk.bag"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("../../testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			good, _, _, b := readAllSkipping(t, data)
			ci := b.ChunkInfos[len(b.ChunkInfos)/2]
			ch, err := b.ChunkHeader(ci)
			if err != nil {
				t.Fatal(err)
			}
			bad := bytes.Clone(data)
			for i := ch.DataOffset + int64(ch.DataLen)/3; i < ch.DataOffset+int64(ch.DataLen)/3+16; i++ {
				bad[i] ^= 0x5a
			}
			got, sk, lost, _ := readAllSkipping(t, bad)
			want := int(ci.Messages())
			if len(got) < len(good)-want || len(got) >= len(good) {
				t.Errorf("read %d of %d messages; the damaged chunk holds %d", len(got), len(good), want)
			}
			if len(sk) != 1 || sk[0].Start != ch.Offset || sk[0].End != ch.End() {
				t.Errorf("skipped %v, want the chunk %d..%d", sk, ch.Offset, ch.End())
			}
			if lost != uint64(len(good)-len(got)) {
				t.Errorf("%d messages counted lost, %d missing", lost, len(good)-len(got))
			}
			// The messages read are the others, in the same order.
			j := 0
			for _, m := range good {
				if j < len(got) && got[j] == m {
					j++
				}
			}
			if j != len(got) {
				t.Errorf("the messages read are not a subsequence of the undamaged bag's")
			}
		})
	}
}

// TestDamagedRecordInUncompressedChunk breaks the header of one message in
// an uncompressed chunk: the chunk's other messages are found through its
// index data records; only that message is lost, with its byte range.
func TestDamagedRecordInUncompressedChunk(t *testing.T) {
	data, err := os.ReadFile("../../testdata/none-multichunk.bag")
	if err != nil {
		t.Fatal(err)
	}
	good, _, _, b := readAllSkipping(t, data)
	ci := b.ChunkInfos[5]
	idx, err := b.ChunkIndex(ci)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := b.ChunkHeader(ci)
	// The second message of the chunk's first connection.
	e := idx[0].Entries[1]
	at := ch.DataOffset + int64(e.Offset)
	bad := bytes.Clone(data)
	copy(bad[at:], u32b(0x7fffffff)) // its header length
	got, sk, lost, _ := readAllSkipping(t, bad)
	if len(got) != len(good)-1 || lost != 1 {
		t.Fatalf("read %d of %d messages, %d lost; want one lost", len(got), len(good), lost)
	}
	if len(sk) != 1 || sk[0].Start != at || sk[0].End <= at || sk[0].End > ch.End() {
		t.Fatalf("skipped %v, want one range from %d inside the chunk", sk, at)
	}
}

// TestChunkDataLenFFFFFFFF reads the bags whose chunk data length field
// reads 0xffffffff, contents intact: all five messages, nothing skipped,
// and check warns without an error.
func TestChunkDataLenFFFFFFFF(t *testing.T) {
	for _, name := range []string{"len-ffffffff-none.bag", "len-ffffffff-bz2.bag"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			got, sk, lost, b := readAllSkipping(t, data)
			if len(got) != 5 || len(sk) != 0 || lost != 0 {
				t.Fatalf("read %d messages, skipped %v, %d lost; want 5, nothing lost", len(got), sk, lost)
			}
			for i, m := range got {
				if !strings.Contains(m, fmt.Sprintf("%x", "hello "+strconv.Itoa(i))) {
					t.Errorf("message %d is %s", i, m)
				}
			}
			if b.Scan != nil {
				t.Errorf("read by scanning (%v); the index is intact", b.Scan.Reason)
			}
			if len(b.Warnings) != 1 || !strings.Contains(b.Warnings[0].Error(), "data length") {
				t.Errorf("warnings %v, want one about the data length", b.Warnings)
			}
			rep, err := Check(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, f := range rep.Findings {
				if f.Severity == Error {
					t.Errorf("check error: %s", f.Message)
				}
				warned = warned || f.Severity == Warning && strings.Contains(f.Message, "data length")
			}
			if !warned || rep.Messages != 5 {
				t.Errorf("check: %d messages, findings %v; want 5 and a warning", rep.Messages, rep.Findings)
			}
			// Scanning finds the same.
			sb, err := Scan(bytes.NewReader(data), int64(len(data)), nil)
			if err != nil {
				t.Fatal(err)
			}
			var n uint64
			for _, c := range sb.ConnectionCounts() {
				n += c
			}
			if n != 5 || len(sb.Scan.Skipped) != 0 {
				t.Errorf("scan: %d messages, skipped %v", n, sb.Scan.Skipped)
			}
		})
	}
}

// TestDecompressionBomb reads the bag of three bz2 chunks that each
// inflate to 1 GiB, in a child process with 8 workers, and checks that its
// heap stays within a few hundred MB through the message iterator, the
// doctor and the scan, and that each chunk is reported, not allocated.
//
// Under -race the child is this package's tests built without it
// (bombChildBinary), unless -long (make test-long): the race runtime's
// shadow memory for the 32 MiB outputs made the child 41 CPU-s (35 user,
// 6 system; the bz2 decoding 8 of them) against 1.6 CPU-s without, for the
// same peak heap (241-243 MB).
func TestDecompressionBomb(t *testing.T) {
	if os.Getenv("BAGSCOPE_BOMB_CHILD") == "1" {
		bombChild(t)
		return
	}
	cmd := exec.Command(bombChildBinary(t), "-test.run=^TestDecompressionBomb$", "-test.v")
	cmd.Env = append(os.Environ(), "BAGSCOPE_BOMB_CHILD=1", "GOMAXPROCS=8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "peak") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// bombChildBinary is the test binary TestDecompressionBomb runs as its
// child: this one, or, when this one is built with -race and -long is not
// given, this package's tests built without -race into a temporary folder.
func bombChildBinary(t *testing.T) string {
	t.Helper()
	if !raceEnabled || sweeptest.Long() {
		return os.Args[0]
	}
	bin := filepath.Join(t.TempDir(), "ros1-norace.test")
	if out, err := exec.Command("go", "test", "-c", "-race=false", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the child without -race: %v\n%s", err, out)
	}
	return bin
}

// peakHeap samples the heap in use every few milliseconds until stop.
func peakHeap(stop <-chan struct{}, peak *atomic.Uint64) {
	var ms runtime.MemStats
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse > peak.Load() {
			peak.Store(ms.HeapInuse)
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

func bombChild(t *testing.T) {
	data, err := os.ReadFile("testdata/bomb-bz2.bag")
	if err != nil {
		t.Fatal(err)
	}
	// The heap the data needs, not what the collector lets garbage reach:
	// with a soft limit it collects as the heap nears it.
	debug.SetMemoryLimit(256 << 20)
	const limit = 320 << 20
	measure := func(what string, fn func()) {
		runtime.GC()
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { peakHeap(stop, &peak); close(done) }()
		fn()
		close(stop)
		<-done
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s: peak heap in use %d MB, heap from the OS %d MB", what, peak.Load()>>20, ms.HeapSys>>20)
		if peak.Load() > limit || ms.HeapSys > limit+96<<20 {
			t.Errorf("%s: peak heap %d MB, heap from the OS %d MB; want under %d MB", what, peak.Load()>>20, ms.HeapSys>>20, limit>>20)
		}
	}
	measure("messages", func() {
		got, sk, lost, _ := readAllSkipping(t, data)
		if len(got) != 0 || len(sk) != 3 || lost != 3 {
			t.Errorf("read %d messages, skipped %v, %d lost; want 0, three chunks, 3", len(got), sk, lost)
		}
		for _, r := range sk {
			if !strings.Contains(r.Why, "bomb") {
				t.Errorf("skipped %v: not called a bomb", r)
			}
		}
	})
	measure("check", func() {
		rep, err := CheckContext(context.Background(), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range rep.Findings {
			if f.Severity == Error && strings.Contains(f.Message, "bomb") {
				n++
			}
		}
		if n != 3 {
			t.Errorf("%d errors name a bomb, want 3: %v", n, rep.Findings)
		}
	})
	measure("scan", func() {
		b, err := Scan(bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			t.Fatal(err)
		}
		it := b.Messages(MessageFilter{})
		for it.Next() {
		}
		if it.Err() != nil {
			t.Error(it.Err())
		}
	})
	if now, _ := ChunkBudget.Used(); now != 0 {
		t.Errorf("%d bytes of the chunk budget still held after every read ended", now)
	}
}
