package stats

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
func MessageBytes(ctx context.Context, b bag.Storage, progress func(done, total int64, stage string)) (map[uint32]uint64, error) {
	out, _, err := CountBytes(ctx, b, progress)
	return out, err
}

// ReadLoss is what a read of every message could not use: the byte ranges
// it skipped (damaged chunks or records) and the messages known lost.
type ReadLoss struct {
	Skipped      []bag.ByteRange
	LostMessages uint64
	// Tally counts the messages the read gave (Read), those of them read
	// from damaged units (Suspects), by connection; Complete is set when
	// the read went to the end (not cancelled), so Read is what the
	// recording yields.
	bag.Tally
	Complete bool
	// SuspectAt lists the receive times of the messages the timeline
	// marks, by topic (at most MaxSuspectTimes in all): the suspect ones,
	// and those read from a chunk that shows damage (bag.DamagedUnits).
	SuspectAt map[string][]int64
}

// MaxSuspectTimes bounds ReadLoss.SuspectAt: a recording read mostly from
// damaged units marks its first ones.
const MaxSuspectTimes = 100000

// Empty reports whether nothing was lost.
func (l ReadLoss) Empty() bool { return len(l.Skipped) == 0 && l.LostMessages == 0 }

// LossOf returns what an iterator skipped so far (for formats whose
// iterators report it).
func LossOf(it bag.MessageIter) ReadLoss {
	var l ReadLoss
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		l.Skipped = sk.Skipped()
	}
	if lm, ok := it.(interface{ LostMessages() uint64 }); ok {
		l.LostMessages = lm.LostMessages()
	}
	return l
}

// CountBytes is MessageBytes that also says what the read skipped.
func CountBytes(ctx context.Context, b bag.Storage, progress func(done, total int64, stage string)) (map[uint32]uint64, ReadLoss, error) {
	var total int64
	if sum, _ := b.Summary(); sum != nil {
		total = int64(sum.Messages)
	}
	out := map[uint32]uint64{}
	it := b.Messages(bag.MessageFilter{})
	defer it.Close()
	var n int64
	var marked uint64
	var tally bag.Tally
	var suspectAt map[string][]int64
	damaged := bag.DamagedUnits(b, nil)
	for it.Next() {
		m := it.Message()
		out[m.Conn.ID] += uint64(len(m.Data))
		n++
		tally.Add(m)
		if m.Suspect != "" || damaged(m.Loc) != "" {
			if marked < MaxSuspectTimes {
				if suspectAt == nil {
					suspectAt = map[string][]int64{}
				}
				suspectAt[m.Conn.Topic] = append(suspectAt[m.Conn.Topic], m.Time.Nanos())
			}
			marked++
		}
		if n&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return out, LossOf(it), err
			}
			if progress != nil {
				progress(n, total, StageBytes)
			}
		}
	}
	if progress != nil {
		progress(total, total, StageBytes)
	}
	loss := LossOf(it)
	loss.Tally, loss.Complete = tally, it.Err() == nil
	loss.SuspectAt = suspectAt
	if loss.Complete && len(loss.Skipped) > 0 {
		markFoundDamaged(ctx, b, damaged, &loss)
	}
	if !loss.Empty() && loss.LostMessages == 0 && total > n {
		// The index or summary counts the messages the read could not
		// reach.
		loss.LostMessages = uint64(total - n)
	}
	return out, loss, it.Err()
}

// markFoundDamaged adds to loss.SuspectAt the messages read from the
// chunks that the read found damaged and opening did not (known only once
// the read has ended: a chunk of an indexed file that does not decompress
// whole), reading those chunks' messages again. known is what opening
// knew (bag.DamagedUnits).
func markFoundDamaged(ctx context.Context, b bag.Storage, known func(bag.Loc) string, loss *ReadLoss) {
	found := bag.DamagedUnits(b, bag.DamageRead(b, loss.Skipped))
	marked := 0
	for _, ts := range loss.SuspectAt {
		marked += len(ts)
	}
	for _, blk := range b.Blocks() {
		at := bag.Loc{Block: blk.Offset}
		if known(at) != "" || found(at) == "" || ctx.Err() != nil {
			continue
		}
		it := b.Messages(bag.MessageFilter{Start: blk.Start, End: blk.End})
		for it.Next() && marked < MaxSuspectTimes {
			if m := it.Message(); m.Loc.Block == blk.Offset && m.Suspect == "" {
				if loss.SuspectAt == nil {
					loss.SuspectAt = map[string][]int64{}
				}
				loss.SuspectAt[m.Conn.Topic] = append(loss.SuspectAt[m.Conn.Topic], m.Time.Nanos())
				marked++
			}
		}
		it.Close()
	}
}
