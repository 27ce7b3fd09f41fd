package bag_test

import (
	"fmt"
	"hash/crc32"
	"io/fs"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// TestStorageConcurrentUse checks Storage's promise of concurrent use on
// every shared ROS 1 bag, MCAP and .db3 file: on a freshly opened
// Storage, the methods that fill something lazily on their first call
// (Blocks, Summary, the first block's index) run at once with a read of
// every message and a read of one topic. Under -race an unsynchronised
// write and read fails the test (bag/mcap's Blocks beside a filtered read
// once did); without it, every answer must be what it is on a Storage of
// its own, asked one method at a time. Without -long, files of more than
// 5000 messages are left out (make test-long reads them).
func TestStorageConcurrentUse(t *testing.T) {
	var files []string
	err := filepath.WalkDir(sharedBags, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch filepath.Ext(p) {
		case ".bag", ".mcap", ".db3":
			if !d.IsDir() {
				files = append(files, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Skipf("no shared bags: %v", err)
	}
	sort.Strings(files)
	tried, long := 0, 0
	for _, p := range files {
		alone, err := bag.OpenFile(p)
		if err != nil {
			continue
		}
		if sum, _ := alone.Summary(); sum != nil && sum.Messages > 5000 && !sweeptest.Long() {
			// Three bags of tens of thousands of small messages take
			// most of the test's time under -race: make test-long
			// reads them.
			alone.Close()
			long++
			continue
		}
		want := askAll(alone, false)
		alone.Close()
		s, err := bag.OpenFile(p)
		if err != nil {
			t.Fatalf("%s: opened once, not twice: %v", p, err)
		}
		got := askAll(s, true)
		s.Close()
		tried++
		for k, w := range want {
			if g := got[k]; !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %s asked beside the others:\n%s\nalone:\n%s", p, k, g, w)
			}
		}
	}
	if tried < 50 {
		t.Fatalf("only %d shared files opened", tried)
	}
	if long > 0 {
		t.Logf("%d files of more than 5000 messages left to -long", long)
	}
}

// askAll asks s what the test compares, every question at once when
// together is set, else one after the other, and returns the answers by
// question.
func askAll(s bag.Storage, together bool) map[string]string {
	conns := s.Connections()
	var topic []string
	if len(conns) > 0 {
		topic = []string{conns[len(conns)-1].Topic}
	}
	questions := map[string]func() string{
		"Blocks": func() string {
			var out string
			for _, b := range s.Blocks() {
				out += fmt.Sprintf("%d+%d %v..%v %v damaged=%v\n", b.Offset, b.Len, b.Start, b.End, b.Counts, b.Damaged)
			}
			return out
		},
		"Summary": func() string {
			sum, err := s.Summary()
			if sum == nil {
				return fmt.Sprint("error ", err)
			}
			return fmt.Sprintf("%d messages %v..%v %d chunks, error %v", sum.Messages, sum.Start, sum.End, sum.Chunks, err)
		},
		"every message": func() string { return digestRead(s, bag.MessageFilter{}) },
		"one topic":     func() string { return digestRead(s, bag.MessageFilter{Topics: topic}) },
	}
	out := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for k, q := range questions {
		if !together {
			out[k] = q()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			a := q()
			mu.Lock()
			out[k] = a
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// digestRead reads the messages f selects, each reduced to its time, topic
// and data's CRC, with the iterator's error.
func digestRead(s bag.Storage, f bag.MessageFilter) string {
	it := s.Messages(f)
	defer it.Close()
	h := crc32.NewIEEE()
	n := 0
	for it.Next() {
		m := it.Message()
		fmt.Fprintf(h, "%d %s %x %q;", m.Time.Nanos(), m.Conn.Topic, crc32.ChecksumIEEE(m.Data), m.Suspect)
		n++
	}
	return fmt.Sprintf("%d messages, digest %08x, error %v", n, h.Sum32(), it.Err())
}
