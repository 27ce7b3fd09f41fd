package mcap

import (
	"encoding/binary"
	"hash/crc32"
	"runtime"
	"sync"

	"github.com/bagscope/bagscope/bag"
)

// checkPipe decompresses the doctor's chunks on one goroutine per core,
// ahead of the doctor, which takes them in file order. When the check
// carries a message visitor (bag.WithMessageVisitor), each chunk's messages
// are handed to it by the goroutine that decompressed the chunk, while its
// records are in that core's cache: a check that decodes every payload
// then decompresses each chunk once.
type checkPipe struct {
	x     *Reader
	visit func(m *bag.Message)
	// wanted, when not nil, says by channel ID which channels' messages
	// visit wants (bag.WithVisitedConns); the others are not handed on.
	wanted []bool
	jobs   chan *checkJob

	mu       sync.Mutex
	cond     *sync.Cond
	inFlight int64 // bytes of the chunks submitted and not yet released
	budget   int64
	jobsIn   int // chunks submitted and not yet released
	maxJobs  int

	raws, dsts chan []byte // buffers for reuse
	msgBufs    chan []msgAt
}

// checkJob is one chunk record to load.
type checkJob struct {
	off    int64
	n      uint64 // the record's declared content length
	raw    []byte // the record, header included
	usize  int64  // the buffer lent for its decompressed records; 0: none
	weight int64
	done   chan struct{}
	load   chunkLoad
	dst    []byte // the buffer lent for the decompressed records
	err    error  // reading the record failed
	crc    uint32 // CRC-32 of the whole record as read (for the data section's)
	// plain says that the chunk loaded whole and its records are all
	// message records, walked to the end: msgs then lists them in order,
	// so the doctor need not walk the records again (on its own core,
	// where they are no longer in the cache).
	// Being all message records, each ends where the next starts.
	plain bool
	msgs  []msgAt
	// listed says msgs was made by the worker; else the doctor lists a
	// plain chunk's messages itself when it needs them (listMessages).
	listed bool
	// vouch is what the walk found of a plain chunk, when it holds
	// nothing the doctor notes of the chunk alone (see chunkVouch): the
	// doctor then checks the chunk from it, and its message index records
	// against its digests.
	vouch *chunkVouch
}

// checkBudget is the most bytes of chunks the doctor's pipe holds at once
// (raw, decompressed and their list of messages), unless three of the
// largest chunk seen need more: about seven 1 MiB chunks of small
// messages, enough to keep two cores busy (and more, less deep), and a
// bound on the memory whatever the file's size and the number of cores.
const checkBudget = 16 << 20

func newCheckPipe(x *Reader, visit func(m *bag.Message)) *checkPipe {
	workers := runtime.GOMAXPROCS(0)
	// One chunk per worker and one more in flight: the doctor's own work
	// on a chunk (its vouch, its index records) is light against a
	// worker's, so a deeper queue only cycled more buffers through the
	// cache (two per worker cost find 5-10% more CPU, issue 24).
	p := &checkPipe{x: x, visit: visit, jobs: make(chan *checkJob, 2*workers), budget: checkBudget, maxJobs: workers + 1,
		raws: make(chan []byte, 2*workers+2), dsts: make(chan []byte, 2*workers+2), msgBufs: make(chan []msgAt, 2*workers+2)}
	p.cond = sync.NewCond(&p.mu)
	for range workers {
		go p.worker()
	}
	return p
}

// close ends the workers once the jobs submitted are done.
func (p *checkPipe) close() { close(p.jobs) }

// submit queues the chunk record at off, of n bytes of content, declaring
// usize bytes decompressed (0 when unknown), for a worker to read and
// load, waiting while the chunks in flight hold the budget.
func (p *checkPipe) submit(off int64, n, usize uint64, compressed bool) *checkJob {
	j := &checkJob{off: off, n: n, done: make(chan struct{})}
	// A chunk weighs its record, its decompressed records if compressed
	// (as much as the record, at the least, when the size declared is
	// unknown or absurd) and its list of messages (16 bytes a message
	// record of 31 bytes or more).
	raw := recHeaderLen + int64(n)
	records := raw
	if compressed {
		j.usize = raw
		if usize > 0 && usize <= preallocLimit {
			j.usize = int64(usize)
		}
		records = j.usize
	}
	j.weight = raw + j.usize + records/2
	p.acquire(j.weight)
	p.jobs <- j
	return j
}

// wait returns the job's chunk once loaded.
func (j *checkJob) wait() *checkJob {
	<-j.done
	return j
}

// release returns a job's buffers and budget once the doctor is done with
// its chunk.
func (p *checkPipe) release(j *checkJob) {
	p.put(p.raws, j.raw)
	p.put(p.dsts, j.dst)
	if j.msgs != nil {
		select {
		case p.msgBufs <- j.msgs[:0]:
		default:
		}
	}
	j.raw, j.dst, j.load.data, j.msgs, j.vouch = nil, nil, nil, nil, nil
	p.mu.Lock()
	p.inFlight -= j.weight
	p.jobsIn--
	p.mu.Unlock()
	p.cond.Broadcast()
}

// acquire waits until one more chunk of w bytes fits the budget (bytes,
// checkBudget or three of the largest chunk, and chunks in flight, one per
// worker and one more); a chunk larger than the whole budget goes alone.
func (p *checkPipe) acquire(w int64) {
	p.mu.Lock()
	p.budget = max(p.budget, 3*w)
	for p.jobsIn >= p.maxJobs || p.inFlight > 0 && p.inFlight+w > p.budget {
		p.cond.Wait()
	}
	p.inFlight += w
	p.jobsIn++
	p.mu.Unlock()
}

func (p *checkPipe) get(pool chan []byte, n int) []byte {
	select {
	case b := <-pool:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n, n+n/4+4096)
}

func (p *checkPipe) put(pool chan []byte, b []byte) {
	if cap(b) == 0 {
		return
	}
	select {
	case pool <- b[:0]:
	default:
	}
}

func (p *checkPipe) worker() {
	d := getDecoders()
	defer putDecoders(d)
	var m bag.Message
	for j := range p.jobs {
		p.work(j, d, &m)
		close(j.done)
	}
}

func (p *checkPipe) work(j *checkJob, d *decoders, m *bag.Message) {
	x := p.x
	j.raw = p.get(p.raws, int(recHeaderLen+int64(j.n)))
	if n, err := x.r.ReadAt(j.raw, j.off); n < len(j.raw) {
		j.err = err
		return
	}
	j.crc = crc32.ChecksumIEEE(j.raw)
	j.dst = p.get(p.dsts, int(j.usize))[:0]
	j.load = d.loadChunk(j.raw, j.off, j.n, j.dst)
	if j.load.hdr.Compression != "" {
		if j.load.data != nil {
			j.dst = j.load.data[:0]
		}
		// The doctor reads a compressed chunk's records from its
		// decompressed copy alone (the compressed ones serve only a
		// read's damage report, locate), so the record's buffer goes back
		// to the pool now: the next chunk's read takes it instead of a
		// new one. With about as many records buffers as workers, a
		// check or find touches ~3 MB less memory, whose first touch (the
		// kernel zeroing each page) cost ~5% of find's CPU (issue 24).
		j.load.recs = nil
		p.put(p.raws, j.raw)
		j.raw = nil
	}
	if j.load.data == nil {
		return
	}
	// One walk of the records while they are in this core's cache: the
	// messages listed for the doctor (when the chunk loaded whole) and
	// handed to the visitor.
	plain := j.load.err == nil
	var vb *vouchBuilder
	if plain && !x.fullCheck && uint64(len(j.load.data)) <= 1<<32-1 {
		vb = startVouch(j.off, j.n, &j.load)
	}
	// The messages are listed for the doctor only where no vouch is
	// made: a vouch the doctor takes stands for them, and the few chunks
	// whose vouch fails or is not taken are listed by the doctor
	// (listMessages), so a read that vouches does not write 16 bytes a
	// message it almost never needs (issue 24: find's pass).
	listing := plain && vb == nil
	if listing {
		select {
		case j.msgs = <-p.msgBufs:
		default:
			j.msgs = make([]msgAt, 0, len(j.load.data)/256) // grows for smaller records
		}
	}
	_, werr := walkRecords(j.load.data, func(op Op, off int, content []byte) bool {
		if vb != nil {
			vb.record(op, off, content)
		}
		if op != OpMessage {
			plain = false
			return true
		}
		ch := binary.LittleEndian.Uint16(content)
		if listing && plain {
			j.msgs = append(j.msgs, msgAt{uint32(off), ch, binary.LittleEndian.Uint64(content[6:])})
		}
		if p.visit == nil || int(ch) >= len(x.connTab) || x.connTab[ch] == nil || p.wanted != nil && !p.wanted[ch] {
			return true
		}
		m.Conn = x.connTab[ch]
		m.Time = bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[6:]))
		m.PublishTime = bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[14:]))
		m.Data = content[messageHeaderLen:len(content):len(content)]
		m.Loc = bag.Loc{Block: j.off, Offset: uint32(off)}
		m.DataOffset = int64(off + recHeaderLen + messageHeaderLen)
		p.visit(m)
		return true
	})
	j.plain = plain && werr == nil && uint64(len(j.load.data)) <= 1<<32-1
	j.listed = listing
	if j.plain && vb != nil {
		if j.vouch = vb.done(); j.vouch != nil {
			j.vouch.crc = j.crc
		}
	}
}

// listMessages lists the message records of a plain chunk's records data
// (every record a message, walked whole: checkJob.plain) into buf, as the
// pipe's workers list them.
func listMessages(data []byte, buf []msgAt) []msgAt {
	walkRecords(data, func(op Op, off int, content []byte) bool {
		buf = append(buf, msgAt{uint32(off), binary.LittleEndian.Uint16(content), binary.LittleEndian.Uint64(content[6:])})
		return true
	})
	return buf
}
