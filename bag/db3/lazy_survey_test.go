package db3

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
)

// byteCounter counts the bytes read through it.
type byteCounter struct {
	r *bytes.Reader
	n atomic.Int64
}

func (c *byteCounter) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.n.Add(int64(n))
	return n, err
}

// folderOf writes data as the one file of a rosbag2 folder whose
// metadata.yaml describes the healthy file's rows, and returns the file's
// path.
func folderOf(t *testing.T, data []byte, meta string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "bag_0.db3")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOpenReadsWhatIsAsked: a folder's file opens from its index and
// metadata.yaml, reading a few pages of its own (not every page), and a
// read of one topic surveys nothing; a read of every message, Check, or
// a lone file's count (which reads every row anyway) surveys every page.
// The bytes are counted through the io.ReaderAt the store reads its
// pages from.
func TestOpenReadsWhatIsAsked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	size := int64(len(healthy))
	cases := []struct {
		name   string
		folder bool
		then   func(t *testing.T, s *Store)
		// survey: whether every page was read by the end.
		survey bool
	}{
		{"folder, opened", true, func(*testing.T, *Store) {}, false},
		{"folder, one topic read", true, func(t *testing.T, s *Store) {
			if _, err := readAll(t, s, bag.MessageFilter{Topics: []string{"/chatter"}}); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"folder, every message read", true, func(t *testing.T, s *Store) {
			if _, err := readAll(t, s, bag.MessageFilter{}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"folder, checked", true, func(t *testing.T, s *Store) {
			if _, err := s.Check(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"lone file, opened", false, func(*testing.T, *Store) {}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := folderOf(t, healthy, meta)
			if !tc.folder {
				path = filepath.Join(t.TempDir(), "bag_0.db3")
				if err := os.WriteFile(path, healthy, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := &byteCounter{r: bytes.NewReader(healthy)}
			s, err := Open(r, size, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			opened := r.n.Load()
			// A survey reads every b-tree page and the first bytes of
			// every overflow page: 1.2 MB of this 4.3 MB file.
			if tc.folder && opened > size/40 {
				t.Errorf("opening read %d of the file's %d bytes", opened, size)
			}
			t.Logf("opening read %d bytes", opened)
			tc.then(t, s)
			if got := s.surveyDone.Load(); got != tc.survey {
				t.Errorf("surveyed: %v, want %v", got, tc.survey)
			}
			if tc.survey && r.n.Load() < size/5 {
				t.Errorf("surveyed, but read %d of the file's %d bytes", r.n.Load(), size)
			}
			if s.FileInfo().Scanned != nil {
				t.Errorf("a healthy file was rescued: %v", s.FileInfo().Scanned.Reason)
			}
		})
	}
}

// leafPages returns the table leaf pages of the messages table holding
// rows of a topic, in the healthy file.
func leafPages(t *testing.T, healthy []byte, topic int64) []int {
	t.Helper()
	var out []int
	ps := db3test.PageSize
	for n := 2; n*ps <= len(healthy); n++ {
		pg := healthy[(n-1)*ps : n*ps]
		if pg[0] != pageTableLeaf {
			continue
		}
		p := newPager(bytes.NewReader(healthy), int64(len(healthy)), ps, 0)
		h, ok := parseBtreeHeader(pg, 0, ps)
		if !ok || h.cells < 4 {
			continue
		}
		holds := false
		for _, off := range cellPointers(pg, 0, h) {
			c, err := p.parseCell(pg, pageTableLeaf, off)
			if err != nil || c.PayloadOff+c.Local > len(pg) {
				continue
			}
			local := pg[c.PayloadOff : c.PayloadOff+c.Local]
			cols, err := parseRecordPrefix(local, c.PayloadSize)
			if err != nil || len(cols) != 4 {
				continue
			}
			if v, ok := intValue(local, cols[1]); ok && v == topic {
				holds = true
			}
		}
		if holds {
			out = append(out, n)
		}
	}
	return out
}

// TestPartialReadFindsLeafDamage: damage on a leaf page of a folder's
// file, which opens without a survey, is found by a read of one topic or
// of one message: the store is rescued, the loss is reported, and no
// message given unmarked differs from the intact original's row.
func TestPartialReadFindsLeafDamage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	truth := byID(oracle(t, p))
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	ps := db3test.PageSize
	leaves := leafPages(t, healthy, 1)
	if len(leaves) < 3 {
		t.Fatalf("%d leaf pages hold /chatter rows", len(leaves))
	}
	victim := leaves[len(leaves)/2]
	damages := []struct {
		name   string
		damage func(pg []byte)
	}{
		// Two cell pointers swapped: every row is still there, out of
		// key order; SQLite reads it without a word.
		{"cell pointers swapped", func(pg []byte) {
			h, _ := parseBtreeHeader(pg, 0, ps)
			a := pg[h.size : h.size+2]
			b := pg[h.size+2 : h.size+4]
			x, y := binary.BigEndian.Uint16(a), binary.BigEndian.Uint16(b)
			binary.BigEndian.PutUint16(a, y)
			binary.BigEndian.PutUint16(b, x)
		}},
		// The page's count of fragmented bytes changed: every row reads
		// as before, but the page's bytes no longer add up.
		{"fragment count changed", func(pg []byte) { pg[7] += 3 }},
		// A cell pointer moved into the middle of another cell: a row
		// made of another's bytes.
		{"cell pointer moved", func(pg []byte) {
			h, _ := parseBtreeHeader(pg, 0, ps)
			a := pg[h.size+4 : h.size+6]
			binary.BigEndian.PutUint16(a, binary.BigEndian.Uint16(a)+7)
		}},
	}
	reads := []struct {
		name string
		read func(t *testing.T, s *Store) []*bag.Message
	}{
		{"one topic", func(t *testing.T, s *Store) []*bag.Message {
			it := s.Messages(bag.MessageFilter{Topics: []string{"/chatter"}})
			defer it.Close()
			var out []*bag.Message
			for it.Next() {
				m := *it.Message()
				m.Data = bytes.Clone(m.Data)
				out = append(out, &m)
			}
			return out
		}},
		{"each message of the page by its location", func(t *testing.T, s *Store) []*bag.Message {
			var out []*bag.Message
			h, _ := parseBtreeHeader(healthy[(victim-1)*ps:victim*ps], 0, ps)
			pg := healthy[(victim-1)*ps : victim*ps]
			pr := newPager(bytes.NewReader(healthy), int64(len(healthy)), ps, 0)
			for _, off := range cellPointers(pg, 0, h) {
				c, err := pr.parseCell(pg, pageTableLeaf, off)
				if err != nil {
					t.Fatal(err)
				}
				m, err := s.ReadMessage(1, LocOf(c.RowID))
				if err == nil {
					out = append(out, m)
				}
			}
			_ = h
			return out
		}},
	}
	for _, d := range damages {
		for _, rd := range reads {
			t.Run(d.name+", "+rd.name, func(t *testing.T) {
				data := bytes.Clone(healthy)
				d.damage(data[(victim-1)*ps : victim*ps])
				path := folderOf(t, data, meta)
				s, err := Open(bytes.NewReader(data), int64(len(data)), path)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if s.FileInfo().Scanned != nil {
					t.Fatalf("rescued on open: a leaf page's damage should wait for a read")
				}
				msgs := rd.read(t, s)
				if len(msgs) == 0 {
					t.Fatal("nothing read")
				}
				sc := s.FileInfo().Scanned
				if sc == nil {
					t.Fatal("the read met the damaged page, and the file was not rescued")
				}
				if len(sc.Skipped) == 0 && sc.Suspect == 0 {
					t.Errorf("the rescue reports no loss and no suspect message")
				}
				suspect := 0
				for _, m := range msgs {
					want, ok := truth[RowID(m.Loc)]
					if m.Suspect != "" {
						suspect++
						continue
					}
					if !ok || want.ts != m.Time.Nanos() || int64(m.Conn.ID) != want.topic || !bytes.Equal(unzstd(t, want.data), m.Data) {
						t.Errorf("row %d is given as good and differs from the intact file's", RowID(m.Loc))
					}
				}
				if suspect == 0 {
					t.Errorf("no message of the damaged page %d is marked suspect", victim)
				}
			})
		}
	}
}
