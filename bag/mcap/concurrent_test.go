package mcap

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

// TestBlocksBesideIter checks the Reader's promise of concurrent use
// where it once failed: Blocks (which fills every chunk's counts on its
// first call) and a filtered read (which chooses its chunks from those
// counts) run at once on one freshly opened Reader, on every shared MCAP
// file and on a bench-like one (zstd, 1 MiB chunks, several channels).
// Under -race an unsynchronised write and read of the counts fails the
// test; without it, the read's messages and the blocks must be what each
// returns alone on a Reader of its own.
func TestBlocksBesideIter(t *testing.T) {
	files := map[string][]byte{}
	for _, p := range sharedMCAPs(t) {
		files[filepath.Base(p)] = readFile(t, p)
	}
	n := 60_000
	if raceEnabled {
		n = 30_000
	}
	files["bench-like"] = benchLike(t, n)
	tried := 0
	for name, data := range files {
		alone, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
		if err != nil || len(alone.Connections()) == 0 {
			continue
		}
		// One topic, so that the read chooses its chunks by their counts.
		f := bag.MessageFilter{Topics: []string{alone.Connections()[len(alone.Connections())-1].Topic}}
		want, wantSkipped := ourRecs(t, alone, f)
		wantBlocks := blockSummary(alone.Blocks())

		for round := range 3 {
			x, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
			if err != nil {
				t.Fatalf("%s: second open: %v", name, err)
			}
			var blocks []*bag.Block
			var got []rec
			var skipped []bag.ByteRange
			var readErr error
			var wg sync.WaitGroup
			start := make(chan struct{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				<-start
				blocks = x.Blocks()
			}()
			go func() {
				defer wg.Done()
				<-start
				got, skipped, readErr = readRecs(x, f)
			}()
			close(start)
			wg.Wait()
			tried++
			if readErr != nil {
				t.Fatalf("%s round %d: the read beside Blocks: %v", name, round, readErr)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(skipped, wantSkipped) {
				t.Errorf("%s round %d: the read beside Blocks gave %d messages (skipped %v), alone %d (skipped %v)",
					name, round, len(got), skipped, len(want), wantSkipped)
			}
			if gb := blockSummary(blocks); !reflect.DeepEqual(gb, wantBlocks) {
				t.Errorf("%s round %d: Blocks beside a read\n%v\nalone\n%v", name, round, gb, wantBlocks)
			}
		}
	}
	if tried == 0 {
		t.Fatal("no file was tried")
	}
}

// readRecs reads every message through Messages and checks their order;
// it returns the error (a goroutine other than the test's cannot fail it),
// which ourRecs fails the test with.
func readRecs(s bag.Storage, f bag.MessageFilter) ([]rec, []bag.ByteRange, error) {
	it := s.Messages(f)
	defer it.Close()
	var out []rec
	var last uint64
	for it.Next() {
		m := it.Message()
		ts := uint64(m.Time.Nanos())
		if ts < last {
			return nil, nil, fmt.Errorf("message %d at %d comes after one at %d", len(out), ts, last)
		}
		last = ts
		out = append(out, rec{Time: ts, Pub: uint64(m.PublishTime.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data), Suspect: m.Suspect != ""})
	}
	if err := it.Err(); err != nil {
		return nil, nil, err
	}
	return out, it.(*MessageIter).Skipped(), nil
}

// blockSummary is what a test compares of Blocks' answer.
func blockSummary(bs []*bag.Block) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = fmt.Sprintf("%d+%d %v..%v %v damaged=%v", b.Offset, b.Len, b.Start, b.End, b.Counts, b.Damaged)
	}
	return out
}

// benchLike writes n messages the way the bench files are written: zstd,
// 1 MiB chunks, five channels of varied sizes, a message index and summary.
func benchLike(t testing.TB, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := lib.NewWriter(&buf, &lib.WriterOptions{IncludeCRC: true, Chunked: true, ChunkSize: 1 << 20, Compression: lib.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&lib.Header{Profile: "ros2", Library: "bagscope-test"}))
	must(w.WriteSchema(&lib.Schema{ID: 1, Name: "std_msgs/msg/String", Encoding: "ros2msg", Data: []byte("string data")}))
	for c := 1; c <= 5; c++ {
		must(w.WriteChannel(&lib.Channel{ID: uint16(c), SchemaID: 1, Topic: fmt.Sprintf("/t%d", c), MessageEncoding: "cdr"}))
	}
	for i := range n {
		// The last channel writes one message in 50: most chunks hold
		// some, so the filtered read still opens many.
		ch := 1 + i%4
		if i%50 == 0 {
			ch = 5
		}
		data := genMessage(i)
		data = append(data, bytes.Repeat(data, 1+i%4)...)
		ts := uint64(1_700_000_000_000_000_000 + i*1_000_000)
		must(w.WriteMessage(&lib.Message{ChannelID: uint16(ch), Sequence: uint32(i), LogTime: ts, PublishTime: ts, Data: data}))
	}
	must(w.Close())
	return buf.Bytes()
}
