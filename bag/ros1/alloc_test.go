package ros1

import (
	"fmt"
	"testing"
)

// TestNoPerMessageAllocation checks that reading messages allocates per
// chunk, not per message: a bag with 100x more messages in the same number
// of chunks costs no more allocations.
func TestNoPerMessageAllocation(t *testing.T) {
	allocs := func(perChunk int) float64 {
		var chunks [][]testMsg
		for c := 0; c < 4; c++ {
			var msgs []testMsg
			for i := 0; i < perChunk; i++ {
				// Out of order inside the chunk, so the sort runs too.
				msgs = append(msgs, testMsg{uint32(i % 2), Time{Sec: uint32(100 + c), NSec: uint32((i * 7919) % 1000)}, fmt.Sprint(i)})
			}
			chunks = append(chunks, msgs)
		}
		b, err := openBytes(buildBag([]string{"/a", "/b"}, chunks))
		if err != nil {
			t.Fatal(err)
		}
		// Warm the chunk header cache and the cursor's buffers.
		it := b.Messages(MessageFilter{})
		for it.Next() {
		}
		return testing.AllocsPerRun(5, func() {
			it := b.Messages(MessageFilter{})
			n := 0
			for it.Next() {
				n++
			}
			if it.Err() != nil || n != 4*perChunk {
				t.Fatalf("read %d messages, err %v", n, it.Err())
			}
		})
	}
	few, many := allocs(10), allocs(1000)
	if many > few+8 {
		t.Fatalf("%v allocations for 40 messages, %v for 4000: allocation grows with messages", few, many)
	}
}
