package db3

import (
	"runtime"
	"sync"
)

// The walk of a page map checks the structure of every b-tree page it
// reads (pageProblem), which costs about as much as reading and parsing
// the page. The checks need nothing the walk learns later, and the walk
// reads their verdicts only once it is done, so they run on the other
// cores: the walk hands each page, copied, to pageCheckers, and build
// collects the verdicts after the last tree. The verdicts are by page, so
// they are the same whichever goroutine checks which page.

// checkBuffers bounds the pages waiting to be checked (and so the memory
// the checks hold: this many pages).
const checkBuffers = 64

// pageCheckWorkers is how many goroutines check pages: the cores but the
// walk's, at most 3 (a test sets 0 to compare with the walk's own checks).
var pageCheckWorkers = func() int { return min(runtime.GOMAXPROCS(0)-1, 3) }

// pageCheck is one page handed to the checkers.
type pageCheck struct {
	pg   []byte
	n    uint32
	hoff int
	h    btreeHeader
	keys keyRange
	root uint32
}

// pageVerdict is a page that fails its checks.
type pageVerdict struct {
	n, root uint32
	why     string
}

// pageCheckers checks pages on goroutines of their own.
type pageCheckers struct {
	p    *pager
	jobs chan pageCheck
	free chan []byte
	wg   sync.WaitGroup
	mu   sync.Mutex
	bad  []pageVerdict
	// passed, when not nil, gets the pages that pass (see pageBits).
	passed pageBits
}

// newPageCheckers starts the checkers, or returns nil when there is one
// core: the walk then checks each page itself.
func newPageCheckers(p *pager) *pageCheckers {
	workers := pageCheckWorkers()
	if workers < 1 {
		return nil
	}
	c := &pageCheckers{p: p, jobs: make(chan pageCheck, checkBuffers), free: make(chan []byte, checkBuffers)}
	for range checkBuffers {
		c.free <- make([]byte, 0, p.pageSize)
	}
	c.wg.Add(workers)
	for range workers {
		go c.run()
	}
	return c
}

func (c *pageCheckers) run() {
	defer c.wg.Done()
	for j := range c.jobs {
		if why := c.p.pageProblem(j.pg, j.n, j.hoff, j.h, j.keys); why != "" {
			c.mu.Lock()
			c.bad = append(c.bad, pageVerdict{n: j.n, root: j.root, why: why})
			c.mu.Unlock()
		} else {
			c.passed.add(j.n)
		}
		c.free <- j.pg[:0]
	}
}

// check hands a copy of page n (its bytes pg) to the checkers.
func (c *pageCheckers) check(pg []byte, n uint32, hoff int, h btreeHeader, keys keyRange, root uint32) {
	buf := append(<-c.free, pg...)
	c.jobs <- pageCheck{pg: buf, n: n, hoff: hoff, h: h, keys: keys, root: root}
}

// wait stops the checkers and returns the pages that failed.
func (c *pageCheckers) wait() []pageVerdict {
	close(c.jobs)
	c.wg.Wait()
	return c.bad
}
