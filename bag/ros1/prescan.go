package ros1

import (
	"context"
	"io"

	"github.com/bagscope/bagscope/bag"
)

// The quick doctor after a read (bag.AddDoctorFindings) begins with what
// does not depend on the read: the bag's index read afresh and a scan of
// the file's records (chunk headers, the index data records after each
// chunk). On a bag that keeps vouches for its reads (VouchReads) that
// part starts on a goroutine of its own when a read over the whole time
// range starts (Store.Messages, Store.PreparedMessages), so that it runs
// beside the read, on what the read's workers leave of the cores, instead
// of after it; the doctor then takes it (checkVouched) and goes
// on with the chunks as before. It is made by the same functions from the
// same file, so the doctor says what it would have said. Remote bags are
// left as they were: their reads share a prefetch budget.

// structure is the doctor's reading of a bag's structure: its index
// (idx, or idxErr) and its scan (sb, or err when the file is not a bag
// of a version it reads).
type structure struct {
	idx    *Bag
	idxErr error
	sb     *Bag
	err    error
}

// readStructure reads the structure of the bag in r as the doctor does.
func readStructure(r io.ReaderAt, size int64) *structure {
	s := &structure{}
	if _, err := ReadVersion(r, size); err != nil {
		s.err = err
		return s
	}
	s.idx, s.idxErr = NewReader(r, size)
	if s.idxErr == nil {
		s.idx.prefetchLayout()
	}
	s.sb, s.err = Scan(r, size, s.idxErr)
	return s
}

// preScan is a structure being read on a goroutine of its own.
type preScan struct {
	done chan struct{}
	s    *structure
}

// startPreScan starts reading the structure of the bag in r.
func startPreScan(r io.ReaderAt, size int64) *preScan {
	p := &preScan{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.s = readStructure(r, size)
	}()
	return p
}

// wait returns the structure once read, or nil when ctx ends first.
func (p *preScan) wait(ctx context.Context) *structure {
	select {
	case <-p.done:
		return p.s
	case <-ctx.Done():
		return nil
	}
}

// preScanRead starts the doctor's reading of the structure beside a read
// of f, when the bag keeps vouches, is local, and f reads every time (the
// reads the commands run the doctor after: a read of a time range, such
// as find's of the messages around its hits, is not followed by it).
func (b *Bag) preScanRead(f bag.MessageFilter) {
	if !f.Start.IsZero() || !f.End.IsZero() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.vouch != nil && b.pre == nil && !b.preTaken && !bag.IsRemote(b.r) {
		b.pre = startPreScan(b.r, b.size)
	}
}

// takePreScan returns the structure read beside the reads, or nil; once
// taken, a later check reads its own and a later read starts none.
func (b *Bag) takePreScan() *preScan {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pre
	b.pre, b.preTaken = nil, true
	return p
}
