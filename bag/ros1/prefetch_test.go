package ros1

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

const prefetchFixture = "../../testdata/lz4-multichunk.bag"

// readAll returns one line per message the filter selects.
func readAll(t *testing.T, b *Bag, f MessageFilter) []string {
	t.Helper()
	var out []string
	it := b.Messages(f)
	for it.Next() {
		m := it.Message()
		out = append(out, fmt.Sprintf("%d %v %d %d %x", m.Conn.ID, m.Time, m.ChunkPos, m.Offset, m.Data))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMessagesWorkersSameOrder checks that the worker pool changes nothing:
// one core (no workers) and several give the same messages in the same order.
func TestMessagesWorkersSameOrder(t *testing.T) {
	b, err := Open(prefetchFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, f := range []MessageFilter{{}, {Topics: []string{"/imu", "/odom"}}, {Start: Time{Sec: 1700000001, NSec: 0}, End: Time{Sec: 1700000002, NSec: 0}}} {
		prev := runtime.GOMAXPROCS(1)
		one := readAll(t, b, f)
		runtime.GOMAXPROCS(4)
		four := readAll(t, b, f)
		runtime.GOMAXPROCS(prev)
		if len(one) == 0 || fmt.Sprint(one) != fmt.Sprint(four) {
			t.Fatalf("filter %+v: %d messages with one core, %d with four, or they differ", f, len(one), len(four))
		}
	}
}

// TestMessagesCloseEarly checks that stopping early, by Close or by dropping
// the iterator, stops the workers.
func TestMessagesCloseEarly(t *testing.T) {
	b, err := Open(prefetchFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	base := runtime.NumGoroutine()
	// settled waits until the workers have ended: for the state, not for
	// a time (a loaded machine takes its time); the minute only bounds a
	// leak, so that it fails here and not at the test binary's timeout.
	settled := func(what string) {
		t.Helper()
		for end := time.Now().Add(time.Minute); runtime.NumGoroutine() > base && time.Now().Before(end); {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			t.Fatalf("%s: %d goroutines, %d before", what, n, base)
		}
	}
	it := b.Messages(MessageFilter{})
	for range 3 {
		if !it.Next() {
			t.Fatal(it.Err())
		}
	}
	it.Close()
	if it.Next() {
		t.Fatal("Next after Close returned true")
	}
	settled("after Close")
	func() {
		it := b.Messages(MessageFilter{})
		it.Next()
	}()
	settled("after dropping the iterator")
}

// TestOnChunk checks that the hook sees every chunk read, with its
// uncompressed data, and that its error stops the iteration.
func TestOnChunk(t *testing.T) {
	b, err := Open(prefetchFixture)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var mu sync.Mutex
	seen := map[int64]int{}
	it := b.Messages(MessageFilter{})
	it.OnChunk(func(lc *LoadedChunk) error {
		mu.Lock()
		defer mu.Unlock()
		if uint32(len(lc.Data)) != lc.Chunk.Size {
			t.Errorf("chunk at %d: %d bytes, header says %d", lc.Info.ChunkPos, len(lc.Data), lc.Chunk.Size)
		}
		idx, err := b.ChunkIndex(lc.Info)
		if err != nil {
			t.Error(err)
		}
		if errs := CheckChunkIndex(lc, idx, nil); len(errs) > 0 {
			t.Errorf("chunk at %d: %v", lc.Info.ChunkPos, errs)
		}
		seen[lc.Info.ChunkPos]++
		return nil
	})
	for it.Next() {
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	if len(seen) != len(b.ChunkInfos) {
		t.Fatalf("hook saw %d chunks, bag has %d", len(seen), len(b.ChunkInfos))
	}
	for pos, n := range seen {
		if n != 1 {
			t.Fatalf("chunk at %d seen %d times", pos, n)
		}
	}

	stop := errors.New("stop here")
	it = b.Messages(MessageFilter{})
	it.OnChunk(func(lc *LoadedChunk) error {
		if lc.Info == b.ChunkInfos[5] {
			return stop
		}
		return nil
	})
	for it.Next() {
	}
	if !errors.Is(it.Err(), stop) {
		t.Fatalf("Err() = %v, want the hook's error", it.Err())
	}
}
