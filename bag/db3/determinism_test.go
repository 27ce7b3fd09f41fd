package db3

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
)

// runs is how many times each determinism test repeats what it checks:
// a Go map's walk starts somewhere new each time, so an answer that
// hangs on map order differs within a few runs.
const runs = 20

// twiceReached damages a healthy file of db3test.PageSize-byte pages: in
// the interior page with the most children (the messages table's root),
// the child pointer of a second cell is set to the lowest child leaf L,
// so that L is reached twice, and L and the unsound leaves after it count
// 3 fragmented bytes more than they hold. It returns the damaged bytes
// and L.
func twiceReached(t *testing.T, healthy []byte, unsound int) ([]byte, uint32) {
	t.Helper()
	const ps = db3test.PageSize
	b := bytes.Clone(healthy)
	root, most := 0, 0
	for n := 2; n*ps <= len(b); n++ {
		if pg := b[(n-1)*ps:]; pg[0] == 0x05 && int(binary.BigEndian.Uint16(pg[3:])) > most {
			root, most = n, int(binary.BigEndian.Uint16(pg[3:]))
		}
	}
	if most < unsound+3 {
		t.Fatalf("the widest table interior page has %d children, want %d", most, unsound+3)
	}
	pg := b[(root-1)*ps : root*ps]
	cellAt := func(i int) []byte { return pg[binary.BigEndian.Uint16(pg[12+2*i:]):] }
	children := make([]uint32, most)
	for i := range children {
		children[i] = binary.BigEndian.Uint32(cellAt(i))
	}
	low := slices.Index(children, slices.Min(children))
	l := children[low]
	other := (low + 1) % most
	binary.BigEndian.PutUint32(cellAt(other), l)
	bump := []uint32{l}
	for _, c := range children {
		if c > l && c != children[other] && len(bump) <= unsound {
			bump = append(bump, c)
		}
	}
	for _, n := range bump {
		if b[(n-1)*ps] != 0x0d {
			t.Fatalf("child %d of page %d is not a table leaf", n, root)
		}
		b[(int(n)-1)*ps+7] += 3
	}
	return b, l
}

// TestSurveyNamesTheSameFirstProblem: a page reached twice that also
// fails its checks is two problems at one offset; with enough other
// problems (each unsound page comes from a map), the survey must name the
// same one every run: by offset, then page, then words.
func TestSurveyNamesTheSameFirstProblem(t *testing.T) {
	dir := t.TempDir()
	healthy := filepath.Join(dir, "healthy.db3")
	makeBag(t, healthy, 4000, "--small")
	data, err := os.ReadFile(healthy)
	if err != nil {
		t.Fatal(err)
	}
	for _, unsound := range []int{14, 30} {
		t.Run(fmt.Sprintf("%d unsound leaves", unsound), func(t *testing.T) {
			b, l := twiceReached(t, data, unsound)
			path := filepath.Join(t.TempDir(), "damaged.db3")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			s := &Store{r: bytes.NewReader(b), size: int64(len(b)), path: path, hdr: parseHeader(b[:HeaderSize])}
			// The two problems at L's offset, in the order wanted.
			pm := newPageMap(s.r, s.size, s.hdr)
			pm.checkOnly = true
			pm.build(nil)
			var atL []string
			for _, d := range pm.damaged {
				if d.page == l && d.off == pm.p.offset(l) {
					atL = append(atL, d.why)
				}
			}
			if why := pm.unsound[l]; why != "" {
				atL = append(atL, why)
			}
			if len(atL) < 2 || len(pm.unsound) < unsound {
				t.Fatalf("want two problems at page %d and %d unsound pages, got %q and %d", l, unsound, atL, len(pm.unsound))
			}
			want := slices.Min(atL)
			for run := range runs {
				var fe *FormatError
				if err := s.survey(path); !errors.As(err, &fe) {
					t.Fatalf("run %d: survey says %v", run, err)
				}
				if fe.Page != l || fe.Offset != pm.p.offset(l) || !strings.HasPrefix(fe.Msg, want+" (and ") {
					t.Fatalf("run %d: survey names page %d at %d: %q, want page %d: %q", run, fe.Page, fe.Offset, fe.Msg, l, want)
				}
			}
		})
	}
}

// TestLostRunsTheSameEveryOpen: a page reached twice that also fails its
// checks loses its rows twice at one offset (as a page reached twice, and
// as an unsound page, which come from a map). With enough other lost
// pages, the lost ranges must be the same every open, those at one
// offset by their words.
func TestLostRunsTheSameEveryOpen(t *testing.T) {
	dir := t.TempDir()
	healthy := filepath.Join(dir, "healthy.db3")
	makeBag(t, healthy, 4000, "--small")
	data, err := os.ReadFile(healthy)
	if err != nil {
		t.Fatal(err)
	}
	for _, unsound := range []int{14, 30} {
		t.Run(fmt.Sprintf("%d unsound leaves", unsound), func(t *testing.T) {
			b, l := twiceReached(t, data, unsound)
			path := filepath.Join(t.TempDir(), "damaged.db3")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			var first []bag.LostRange
			for run := range runs {
				d, _, err := bag.Survey(context.Background(), openFile(t, path), nil)
				if err != nil {
					t.Fatal(err)
				}
				if run > 0 {
					if !reflect.DeepEqual(d.Ranges, first) {
						t.Fatalf("run %d lost ranges:\n%s\nthe first run's:\n%s", run, rangesList(d.Ranges), rangesList(first))
					}
					continue
				}
				first = d.Ranges
				ties := 0
				for i := 1; i < len(first); i++ {
					if first[i].Start == first[i-1].Start {
						ties++
						if first[i].Why < first[i-1].Why {
							t.Fatalf("ranges at %d not by their words:\n%s", first[i].Start, rangesList(first))
						}
					}
				}
				off := int64(l-1) * db3test.PageSize
				if ties == 0 || len(first) < unsound || first[0].Start != off {
					t.Fatalf("want two ranges at page %d (offset %d) first, and %d more, got:\n%s", l, off, unsound, rangesList(first))
				}
			}
		})
	}
}

func rangesList(rs []bag.LostRange) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %d-%d %v: %s\n", r.Start, r.End, r.Messages, r.Why)
	}
	return b.String()
}
