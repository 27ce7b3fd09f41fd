package ros1

import "sync"

// ChunkBudget caps the bytes of chunk data that all the chunk loaders of
// the process (the message iterators' workers, the doctor's) hold at once,
// compressed and decompressed, whatever the chunks declare and however many
// workers run. A loader that has nothing else in flight always gets its
// chunk, so reading never stalls; any other chunk waits until the budget
// has room for it.
var ChunkBudget = &ByteBudget{Cap: 256 << 20}

// ByteBudget counts bytes held against a cap. It is safe for concurrent use.
type ByteBudget struct {
	Cap  int64
	mu   sync.Mutex
	used int64
	peak int64
}

// TryAcquire takes n bytes if the budget has room for them.
func (b *ByteBudget) TryAcquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used > 0 && b.used+n > b.Cap {
		return false
	}
	b.take(n)
	return true
}

// Acquire takes n bytes even when that goes over the cap: for a loader
// with nothing else in flight, so that it makes progress.
func (b *ByteBudget) Acquire(n int64) {
	b.mu.Lock()
	b.take(n)
	b.mu.Unlock()
}

func (b *ByteBudget) take(n int64) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

// Release gives n bytes back.
func (b *ByteBudget) Release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// Used returns the bytes held now, and the most held at once so far.
func (b *ByteBudget) Used() (now, peak int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used, b.peak
}

// chunkWeight is what loading chunk ch may hold at most: its compressed
// bytes and what they may inflate to (the declared size, within
// InflateLimit), with room for the output buffer's growth.
func chunkWeight(ch *Chunk) int64 {
	if ch == nil {
		return 0
	}
	n := int64(min(ch.DataLen, MaxChunkSize))
	if ch.Compression == CompressionNone {
		return n
	}
	out := int64(min(int(ch.Size), InflateLimit(int(ch.DataLen))))
	if ch.Open {
		out = int64(InflateLimit(int(ch.DataLen)))
	}
	// The output buffer grows by doubling while the data inflates: half
	// as much again is held while the last half is copied.
	return n + out + out/2
}

// bigBuffer is the buffer capacity above which a loader drops its buffers
// when it hands its budget back, instead of keeping them for the next
// chunk: normal chunks (768 KB by default) stay reused, a rare huge one is
// not kept alive by an idle loader.
const bigBuffer = 16 << 20

// trim drops buf's buffers if they are big.
func (buf *ChunkBuffer) trim() {
	if cap(buf.raw) > bigBuffer {
		buf.raw = nil
	}
	if cap(buf.out) > bigBuffer {
		buf.out = nil
	}
}
