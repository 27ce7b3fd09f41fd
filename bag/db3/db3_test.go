package db3

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
)

const sharedBags = "../../../shared/bags"

// sameRows compares the store's rows with the oracle's: same rows in the
// same order, with data decompressed.
func sameRows(t *testing.T, got, want []row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d messages, sqlite3 reads %d", len(got), len(want))
	}
	for i := range want {
		w := want[i]
		w.data = unzstd(t, w.data)
		if g := got[i]; g.id != w.id || g.topic != w.topic || g.ts != w.ts || !bytes.Equal(g.data, w.data) {
			t.Fatalf("message %d: got row %d topic %d ts %d %d bytes, sqlite3 has row %d topic %d ts %d %d bytes", i, g.id, g.topic, g.ts, len(g.data), w.id, w.topic, w.ts, len(w.data))
		}
	}
}

func TestSharedBags(t *testing.T) {
	var paths []string
	filepath.Walk(sharedBags, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".db3") && fi.Mode().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skip("no .db3 files in " + sharedBags)
	}
	before := snapshot(t, sharedBags)
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			want := oracle(t, p)
			s := openFile(t, p)
			fi := s.FileInfo()
			if fi.Format != FormatName || !fi.Indexed || fi.Scanned != nil {
				t.Errorf("FileInfo %+v: want an indexed %s", fi, FormatName)
			}
			got, err := readAll(t, s, bag.MessageFilter{})
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, got, want)
			sum, err := s.Summary()
			if err != nil || sum.Messages != uint64(len(want)) {
				t.Errorf("Summary: %d messages, %v; want %d", sum.Messages, err, len(want))
			}
			for _, c := range s.Connections() {
				if c.Encoding != "cdr" || c.Type == "" {
					t.Errorf("connection %+v", c)
				}
			}
			for i, w := range want {
				if i%97 != 0 {
					continue
				}
				m, err := s.ReadMessage(uint32(w.topic), LocOf(w.id))
				if err != nil || !bytes.Equal(m.Data, unzstd(t, w.data)) || m.Time.Nanos() != w.ts {
					t.Fatalf("ReadMessage(%d): %v", w.id, err)
				}
			}
			rep, err := s.Check(context.Background(), nil)
			if err != nil || rep.Errors() > 0 || rep.Messages != uint64(len(want)) {
				t.Errorf("Check: %v, %d messages, findings %+v", err, rep.Messages, rep.Findings)
			}
			rl := bag.Underlying(s).(bag.RecordLister)
			n := 0
			if err := rl.Records(context.Background(), 0, func(r *bag.Record) bool {
				n++
				if r.Damaged {
					t.Errorf("record %+v damaged", r)
				}
				return true
			}); err != nil {
				t.Error(err)
			}
			if fi, _ := os.Stat(p); int64(n) != 1+fi.Size()/int64(bag.Underlying(s).(*Store).hdr.pageSize) {
				t.Errorf("%d records for %d bytes", n, fi.Size())
			}
		})
	}
	sameSnapshot(t, before, snapshot(t, sharedBags))
}

func TestDefinitionsAndQoS(t *testing.T) {
	p := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/talker/talker.db3")
	if _, err := os.Stat(p); err != nil {
		t.Skip(err)
	}
	s := openFile(t, p)
	st := bag.Underlying(s).(*Store)
	if st.SchemaVersion() != 4 || st.ROSDistro() == "" {
		t.Errorf("schema %d distro %q", st.SchemaVersion(), st.ROSDistro())
	}
	if p := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test/cdr_test_0.db3"); fileExists(p) {
		s := openFile(t, p)
		if md := bag.Underlying(s).(*Store).Metadata(); !strings.Contains(md, "storage_identifier: sqlite3") {
			t.Errorf("cdr_test metadata %q", md)
		}
	}
	found := false
	for _, c := range s.Connections() {
		if c.Topic == "/topic" {
			found = true
			if c.SchemaEncoding != "ros2msg" || !strings.Contains(c.Definition, "string data") || c.Metadata["offered_qos_profiles"] == "" {
				t.Errorf("/topic: %q %q %v", c.SchemaEncoding, c.Definition, c.Metadata)
			}
		}
	}
	if !found {
		t.Error("no /topic")
	}
}

func TestFilter(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.db3")
	makeBag(t, p, 500)
	want := oracle(t, p)
	s := openFile(t, p)
	start, end := want[100].ts, want[300].ts
	tests := []struct {
		name string
		f    bag.MessageFilter
		keep func(row) bool
	}{
		{"all", bag.MessageFilter{}, func(row) bool { return true }},
		{"topic", bag.MessageFilter{Topics: []string{"/image"}}, func(r row) bool { return r.topic == 2 }},
		{"conn", bag.MessageFilter{Conns: []uint32{1}}, func(r row) bool { return r.topic == 1 }},
		{"time", bag.MessageFilter{Start: bag.TimeFromNanos(start), End: bag.TimeFromNanos(end)}, func(r row) bool { return r.ts >= start && r.ts <= end }},
		{"none", bag.MessageFilter{Topics: []string{"/nothing"}}, func(row) bool { return false }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var w []row
			for _, r := range want {
				if tc.keep(r) {
					w = append(w, r)
				}
			}
			got, err := readAll(t, s, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, got, w)
		})
	}
}

func TestWAL(t *testing.T) {
	tests := []struct {
		name string
		opts []string
	}{
		{"committed", []string{"--wal"}},
		{"mid-transaction", []string{"--wal", "--uncommitted", "40"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "w.db3")
			makeBag(t, p, 300, tc.opts...)
			want := oracle(t, p) // reads a copy
			if len(want) != 300 {
				t.Fatalf("oracle reads %d rows", len(want))
			}
			before := snapshot(t, dir)
			s := openFile(t, p)
			got, err := readAll(t, s, bag.MessageFilter{})
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, got, want)
			if w := s.FileInfo().Warnings; len(w) == 0 || !strings.Contains(w[0].Error(), "WAL") {
				t.Errorf("warnings %v: want the hot WAL named", w)
			}
			rep, err := s.Check(context.Background(), nil)
			if err != nil || !hasFinding(rep, bag.Warning, "hot WAL") {
				t.Errorf("Check: %v %+v", err, rep)
			}
			st := bag.Underlying(s).(*Store)
			tmp := st.sq.tmpDir
			if tmp == "" {
				t.Fatal("no private copy")
			}
			s.Close()
			if _, err := os.Stat(tmp); !os.IsNotExist(err) {
				t.Errorf("private copy %s left after Close: %v", tmp, err)
			}
			sameSnapshot(t, before, snapshot(t, dir))
		})
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func hasFinding(rep *bag.CheckReport, sev bag.Severity, text string) bool {
	for _, f := range rep.Findings {
		if f.Severity == sev && strings.Contains(f.Message, text) {
			return true
		}
	}
	return false
}

func TestReadOnlyFolder(t *testing.T) {
	for _, opts := range [][]string{nil, {"--wal"}} {
		dir := t.TempDir()
		p := filepath.Join(dir, "ro.db3")
		makeBag(t, p, 100, opts...)
		want := oracle(t, p)
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		before := snapshot(t, dir)
		s, err := bag.OpenFile(p)
		if err != nil {
			t.Fatalf("%v: %v", opts, err)
		}
		got, err := readAll(t, s, bag.MessageFilter{})
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, got, want)
		if _, err := s.Check(context.Background(), nil); err != nil {
			t.Error(err)
		}
		s.Close()
		sameSnapshot(t, before, snapshot(t, dir))
	}
}

func TestInMemory(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.db3")
	makeBag(t, p, 50)
	want := oracle(t, p)
	data, _ := os.ReadFile(p)
	s, err := openBytes(data, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := readAll(t, s, bag.MessageFilter{})
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, got, want)
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.db3")
	makeBag(t, p, 200, "--unknown-topic", "--metadata", "7")
	s := openFile(t, p)
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		sev  bag.Severity
		text string
	}{
		{bag.Error, "topic_id 99"},
		{bag.Info, "/silent"},
		{bag.Warning, "metadata table counts 7"},
		{bag.Info, "out of timestamp order"},
	} {
		if !hasFinding(rep, want.sev, want.text) {
			t.Errorf("no %v finding %q in %+v", want.sev, want.text, rep.Findings)
		}
	}
	if _, err := s.Summary(); err == nil || !strings.Contains(err.Error(), "99") {
		t.Errorf("Summary error %v: want the unknown topic id", err)
	}
}

func TestDamaged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	want := byID(oracle(t, p))
	for _, tc := range db3test.Damaged(healthy) {
		t.Run(tc.Name, func(t *testing.T) {
			b, replaced := tc.Damage(healthy)
			dp := filepath.Join(t.TempDir(), "d.db3")
			if err := os.WriteFile(dp, b, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(dp)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			// Open, not bag.OpenFile: a zeroed header has no magic to sniff.
			s, err := Open(f, int64(len(b)), dp)
			if err != nil {
				if len(b) <= 4096 {
					return // nothing but (part of) page 1
				}
				t.Fatalf("open: %v", err)
			}
			defer s.Close()
			got, err := readAll(t, s, bag.MessageFilter{})
			if err != nil {
				t.Fatalf("messages: %v", err)
			}
			wrong := 0
			for _, g := range got {
				w, ok := want[g.id]
				if !ok || g.topic != w.topic || g.ts != w.ts || !bytes.Equal(g.data, w.data) {
					wrong++
				}
			}
			if wrong > replaced {
				t.Errorf("%d of %d rows differ from the healthy file's", wrong, len(got))
			}
			fi := s.FileInfo()
			if len(got) < len(want) {
				if fi.Scanned == nil || len(fi.Scanned.Skipped) == 0 {
					t.Errorf("%d of %d rows read and no loss reported: %+v", len(got), len(want), fi)
				}
				rep, err := s.Check(context.Background(), nil)
				if err != nil || rep.Errors() == 0 {
					t.Errorf("Check: %v, %d errors", err, rep.Errors())
				}
			}
			for i := 1; i < len(got); i++ {
				if got[i].ts < got[i-1].ts {
					t.Fatalf("message %d out of order", i)
				}
			}
			sc := fi.Scanned
			if sc != nil {
				t.Logf("%d of %d rows; lost %d; %d skipped ranges; %v", len(got), len(want), sc.LostMessages, len(sc.Skipped), sc.Notes)
			} else {
				t.Logf("%d of %d rows through SQLite", len(got), len(want))
			}
			if rl, ok := bag.Underlying(s).(bag.RecordLister); ok {
				rl.Records(context.Background(), 0, func(r *bag.Record) bool {
					rl.BlockRecords(r.Offset)
					return true
				})
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRecords(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.db3")
	makeBag(t, p, 300)
	s := openFile(t, p)
	rl := bag.Underlying(s).(*Store)
	kinds := map[string]int{}
	var leaf *bag.Record
	err := rl.Records(context.Background(), 0, func(r *bag.Record) bool {
		kinds[r.Kind]++
		if r.Kind == "table leaf" && strings.Contains(r.Summary, "of messages") && leaf == nil {
			leaf = r
		}
		for _, f := range r.Fields {
			if f.Start < 0 || f.End < f.Start || f.End > r.Len {
				t.Errorf("%s field %s range %d..%d outside %d bytes", r.Summary, f.Name, f.Start, f.End, r.Len)
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"header", "table leaf", "table interior", "index leaf", "overflow"} {
		if kinds[k] == 0 {
			t.Errorf("no %s record in %v", k, kinds)
		}
	}
	if leaf == nil {
		t.Fatal("no messages leaf")
	}
	recs, data, err := rl.BlockRecords(leaf.Offset)
	if err != nil || len(data) != 4096 || len(recs) == 0 {
		t.Fatalf("BlockRecords: %d records, %d bytes, %v", len(recs), len(data), err)
	}
	for _, r := range recs {
		if r.Kind != "row" || !strings.HasPrefix(r.Summary, "row ") || r.Offset+r.Len > int64(len(data)) {
			t.Errorf("cell %+v", r)
		}
		names := []string{}
		for _, f := range r.Fields {
			names = append(names, f.Name)
		}
		if !strings.Contains(strings.Join(names, ","), "timestamp (int)") {
			t.Errorf("cell fields %v", names)
		}
	}
	b, err := rl.ReadRange(0, 16)
	if err != nil || string(b) != Magic {
		t.Errorf("ReadRange: %q %v", b, err)
	}
	// From an offset inside the file: the first record holds it.
	var first *bag.Record
	rl.Records(context.Background(), 5000, func(r *bag.Record) bool { first = r; return false })
	if first == nil || first.Offset != 4096 {
		t.Errorf("Records from 5000 starts with %+v", first)
	}
}

func FuzzOpen(f *testing.F) {
	for _, p := range []string{
		"ros2__rosbag2/rosbag2_transport/test/resources/sqlite3/test_bag_for_seek/test_bag_for_seek_0.db3",
		"foxglove__mcap/testdata/db3/chatter.db3",
	} {
		if b, err := os.ReadFile(filepath.Join(sharedBags, p)); err == nil {
			f.Add(b)
			f.Add(b[:len(b)/2])
			z := bytes.Clone(b)
			clear(z[:100])
			f.Add(z)
		}
	}
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 {
			return
		}
		s, err := openBytes(data, "")
		if err != nil {
			return
		}
		defer s.Close()
		s.Summary()
		it := s.Messages(bag.MessageFilter{})
		for n := 0; it.Next() && n < 1000; n++ {
			s.ReadMessage(it.Message().Conn.ID, it.Message().Loc)
		}
		it.Close()
		s.Check(context.Background(), nil)
		s.Records(context.Background(), 0, func(r *bag.Record) bool {
			s.BlockRecords(r.Offset)
			return true
		})
	})
}

// FuzzRescue feeds the page reader alone (the rescue path) with any bytes.
func FuzzRescue(f *testing.F) {
	for _, p := range []string{
		"ros2__rosbag2/rosbag2_transport/test/resources/sqlite3/test_bag_for_seek/test_bag_for_seek_0.db3",
		"foxglove__mcap/testdata/db3/chatter.db3",
	} {
		if b, err := os.ReadFile(filepath.Join(sharedBags, p)); err == nil {
			f.Add(b)
			f.Add(b[:len(b)/2])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<20 || len(data) < HeaderSize {
			return
		}
		r := bytes.NewReader(data)
		s := &Store{r: r, size: int64(len(data)), hdr: parseHeader(data[:HeaderSize]), byID: map[uint32]*bag.Connection{}}
		if err := s.loadRescue(errors.New("fuzz")); err != nil {
			return
		}
		it := s.Messages(bag.MessageFilter{})
		for n := 0; it.Next() && n < 1000; n++ {
			s.ReadMessage(it.Message().Conn.ID, it.Message().Loc)
		}
		s.Check(context.Background(), nil)
		s.Records(context.Background(), 0, func(r *bag.Record) bool {
			s.BlockRecords(r.Offset)
			return true
		})
	})
}
