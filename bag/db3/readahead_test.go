package db3

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"testing"
)

// countingReader counts the reads made of it.
type countingReader struct {
	*bytes.Reader
	reads int
}

func (c *countingReader) ReadAt(b []byte, off int64) (int, error) {
	c.reads++
	return c.Reader.ReadAt(b, off)
}

// TestReadAhead reads pages through the windows in orders an iteration
// makes (in file order, back and forth among regions, at random, past the
// end, a last page cut short): every read gives what a direct read gives,
// the same count and error class, and reading in order costs a read per
// window, not per page.
func TestReadAhead(t *testing.T) {
	const ps = 4096
	data := make([]byte, 300*ps+1000) // the last page is cut
	rand.New(rand.NewSource(1)).Read(data)
	pages := len(data)/ps + 1
	rnd := rand.New(rand.NewSource(2))
	orders := map[string][]int{}
	for n := 1; n <= pages; n++ {
		orders["in order"] = append(orders["in order"], n)
	}
	for n := 1; n <= 100; n++ {
		orders["two regions"] = append(orders["two regions"], n, 200+n)
	}
	for n := pages; n >= 1; n-- {
		orders["backwards"] = append(orders["backwards"], n)
	}
	for range 500 {
		orders["random"] = append(orders["random"], 1+rnd.Intn(pages+3))
	}
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			cr := &countingReader{Reader: bytes.NewReader(data)}
			ra := &readAhead{r: cr, size: int64(len(data))}
			for _, n := range order {
				off := int64(n-1) * ps
				want := make([]byte, ps)
				wk, werr := bytes.NewReader(data).ReadAt(want, off)
				got := make([]byte, ps)
				gk, gerr := ra.readAt(got, off)
				if gk != wk || !bytes.Equal(got[:gk], want[:wk]) || (gerr == nil) != (werr == nil) || errors.Is(gerr, io.EOF) != errors.Is(werr, io.EOF) {
					t.Fatalf("page %d: %d bytes, %v; a direct read gives %d, %v", n, gk, gerr, wk, werr)
				}
			}
			if name == "in order" || name == "backwards" {
				// Windows start at multiples of their size, so a walk
				// from a tree's last child back costs what one forward
				// does.
				if max := len(data)/raWindow + 2; cr.reads > max {
					t.Errorf("%d reads for %d pages in order, want at most %d", cr.reads, pages, max)
				}
			}
		})
	}
}
