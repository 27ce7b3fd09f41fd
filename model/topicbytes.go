package model

import (
	"context"

	"github.com/bagscope/bagscope/bag"
)

// StageBytes is the progress stage of MessageBytes.
const StageBytes = "counting bytes"

// MessageBytes adds up the payload sizes of every message per connection.
// It reads every chunk, so it runs in the background; progress counts
// messages out of the bag's total. The counts so far are returned with the
// error that stopped the read.
func MessageBytes(ctx context.Context, b bag.Storage, progress ProgressFunc) (map[uint32]uint64, error) {
	var total int64
	if sum, _ := b.Summary(); sum != nil {
		total = int64(sum.Messages)
	}
	out := map[uint32]uint64{}
	it := b.Messages(bag.MessageFilter{})
	defer it.Close()
	var n int64
	for it.Next() {
		m := it.Message()
		out[m.Conn.ID] += uint64(len(m.Data))
		n++
		if n&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			if progress != nil {
				progress(n, total, StageBytes)
			}
		}
	}
	if progress != nil {
		progress(total, total, StageBytes)
	}
	return out, it.Err()
}
