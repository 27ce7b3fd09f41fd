package mcap

import (
	"context"
	"hash/crc32"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// visitRecs collects the messages VisitMessages hands over.
func visitRecs(t *testing.T, s bag.Storage, f bag.MessageFilter) []rec {
	t.Helper()
	var mu sync.Mutex
	var out []rec
	err := bag.VisitMessages(context.Background(), s, f, func(m *bag.Message) {
		r := rec{Time: uint64(m.Time.Nanos()), Pub: uint64(m.PublishTime.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)}
		mu.Lock()
		out = append(out, r)
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("VisitMessages: %v", err)
	}
	sortRecs(out)
	return out
}

// TestVisitMessages: the parallel visit hands over exactly the messages
// the iterator gives, for every way of writing a file, with filters, and
// for a file cut in the middle of a chunk.
func TestVisitMessages(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 700, 1024)
			for name, b := range map[string][]byte{"whole": data, "cut": data[:len(data)*2/3]} {
				r, err := NewReader(bytesReader(b), int64(len(b)), "")
				if err != nil {
					if name == "cut" {
						continue // nothing to read without the summary
					}
					t.Fatal(err)
				}
				const t0 = 1_700_000_000_000_000_000
				for _, f := range []bag.MessageFilter{{}, {Topics: []string{"/imu"}}, {Start: bag.TimeFromNanos(t0 + 200e6), End: bag.TimeFromNanos(t0 + 500e6)}} {
					want, _ := ourRecs(t, r, f)
					sortRecs(want)
					if len(want) == 0 {
						t.Fatalf("%s %+v: the iterator gives no message", name, f)
					}
					got := visitRecs(t, r, f)
					if len(got) != len(want) {
						t.Fatalf("%s %+v: %d messages visited, the iterator gives %d", name, f, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s %+v: message %d is %+v, the iterator's %+v", name, f, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestVisitMessagesCancel: a cancelled context ends the visit with its
// error.
func TestVisitMessagesCancel(t *testing.T) {
	data, _ := genMCAP(t, variants()[2], 700, 1024)
	r := openBytes(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	err := r.VisitMessages(ctx, bag.MessageFilter{}, func(*bag.Message) { n++ })
	if err != context.Canceled || n != 0 {
		t.Fatalf("%d messages, error %v; want none and context.Canceled", n, err)
	}
}
