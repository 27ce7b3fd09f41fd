package bag_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	_ "github.com/bagscope/bagscope/bag/ros1"
)

const sharedBags = "../../shared/bags"

func wbagFiles(t *testing.T, storage, ext string) []string {
	t.Helper()
	var out []string
	for i := range 5 {
		p := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_py/test/resources", storage, "wbag", fmt.Sprintf("wbag_%d.%s", i, ext))
		if _, err := os.Stat(p); err != nil {
			t.Skipf("shared bag missing: %v", err)
		}
		out = append(out, p)
	}
	return out
}

// seen is a message as read, with what identifies it.
type seen struct {
	time  uint64
	topic string
	typ   string
	data  string
	file  int
}

func readAll(t *testing.T, s bag.Storage, f bag.MessageFilter) []seen {
	t.Helper()
	it := s.Messages(f)
	defer it.Close()
	var out []seen
	for it.Next() {
		m := it.Message()
		p, _ := bag.SplitPart(m.Loc.Block)
		out = append(out, seen{m.Time.Key(), m.Conn.Topic, m.Conn.Type, string(m.Data), p})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// checkMerge opens the files one by one and together, and checks the
// merged recording against the concatenation of the files in time order
// (ties in file order), message by message, through every way of reading.
func checkMerge(t *testing.T, paths []string) bag.Storage {
	t.Helper()
	var want []seen
	var wantCount uint64
	for i, p := range paths {
		s, err := bag.OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range readAll(t, s, bag.MessageFilter{}) {
			m.file = i
			want = append(want, m)
		}
		sum, err := s.Summary()
		if err != nil {
			t.Fatal(err)
		}
		wantCount += sum.Messages
		s.Close()
	}
	sort.SliceStable(want, func(i, j int) bool { return want[i].time < want[j].time })

	s, err := bag.OpenFiles(paths)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	got := readAll(t, s, bag.MessageFilter{})
	if len(got) != len(want) {
		t.Fatalf("merged %d messages, the files hold %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("message %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	sum, err := s.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Messages != wantCount || uint64(len(got)) != wantCount {
		t.Fatalf("summary counts %d, files %d, read %d", sum.Messages, wantCount, len(got))
	}
	if len(sum.Files) != len(paths) || len(s.FileInfo().Files) != len(paths) {
		t.Fatalf("summary lists %d files, FileInfo %d, want %d", len(sum.Files), len(s.FileInfo().Files), len(paths))
	}
	var byConn uint64
	for _, n := range sum.ConnMessages {
		byConn += n
	}
	if byConn != wantCount {
		t.Fatalf("per-connection counts add up to %d, want %d", byConn, wantCount)
	}

	// Connection IDs are unique and every message names one of them.
	ids := map[uint32]bool{}
	keys := map[string]bool{}
	for _, c := range s.Connections() {
		if ids[c.ID] {
			t.Fatalf("connection ID %d twice", c.ID)
		}
		ids[c.ID] = true
		k := c.Topic + "\x00" + c.Type + "\x00" + c.Encoding + "\x00" + c.CallerID
		if keys[k] {
			t.Fatalf("connection %s %s twice", c.Topic, c.Type)
		}
		keys[k] = true
		if s.Connection(c.ID) != c {
			t.Fatalf("Connection(%d) is not the listed connection", c.ID)
		}
	}

	// ReadMessage at each message's location gives it back.
	it := s.Messages(bag.MessageFilter{})
	n := 0
	for it.Next() {
		m := it.Message()
		r, err := s.ReadMessage(m.Conn.ID, m.Loc)
		if err != nil {
			t.Fatalf("message %d at %+v: %v", n, m.Loc, err)
		}
		if r.Conn != m.Conn || !bytes.Equal(r.Data, m.Data) || r.Time != m.Time || r.Loc != m.Loc {
			t.Fatalf("message %d: ReadMessage gives %s %v, iteration %s %v", n, r.Conn.Topic, r.Time, m.Conn.Topic, m.Time)
		}
		n++
	}
	it.Close()

	// The blocks cover every message, name their file, and their indexes
	// point at the messages.
	var inBlocks uint64
	files := map[int]bool{}
	for _, b := range s.Blocks() {
		files[b.File] = true
		if p, _ := bag.SplitPart(b.Offset); p != b.File {
			t.Fatalf("block at %d says file %d, its offset file %d", b.Offset, b.File, p)
		}
		idx, err := s.BlockIndex(b)
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(idx)) != b.Messages() {
			t.Fatalf("block %d of file %d: index lists %d messages, counts %d", b.Offset, b.File, len(idx), b.Messages())
		}
		for _, e := range idx {
			r, err := s.ReadMessage(e.Conn, e.Loc)
			if err != nil {
				t.Fatal(err)
			}
			if r.Conn.ID != e.Conn || r.Time != e.Time {
				t.Fatalf("index entry %+v reads %d %v", e, r.Conn.ID, r.Time)
			}
		}
		inBlocks += uint64(len(idx))
	}
	if inBlocks != wantCount || len(files) != len(paths) {
		t.Fatalf("blocks hold %d messages of %d files, want %d of %d", inBlocks, len(files), wantCount, len(paths))
	}

	// A filter by connection and by topic selects the same messages.
	c := s.Connections()[len(s.Connections())-1]
	byConnMsgs := readAll(t, s, bag.MessageFilter{Conns: []uint32{c.ID}})
	byTopic := readAll(t, s, bag.MessageFilter{Topics: []string{c.Topic}})
	var wantTopic []seen
	for _, m := range want {
		if m.topic == c.Topic {
			wantTopic = append(wantTopic, m)
		}
	}
	if len(byConnMsgs) != len(wantTopic) || len(byTopic) != len(wantTopic) {
		t.Fatalf("filter on %s: %d by connection, %d by topic, want %d", c.Topic, len(byConnMsgs), len(byTopic), len(wantTopic))
	}

	// The check covers each file and names it.
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Messages != wantCount {
		t.Fatalf("check counts %d messages, want %d", rep.Messages, wantCount)
	}
	for _, f := range rep.Findings {
		if f.Severity > bag.Info && !strings.Contains(f.Message, ": ") {
			t.Errorf("finding does not name its file: %s", f.Message)
		}
	}
	return s
}

func TestMultiSplitMCAP(t *testing.T) {
	paths := wbagFiles(t, "mcap", "mcap")
	s := checkMerge(t, paths)
	if got := len(s.Connections()); got != 8 {
		t.Fatalf("%d connections, want the 8 topics", got)
	}
	sum, _ := s.Summary()
	if sum.Messages != 6074 {
		t.Fatalf("%d messages, metadata.yaml says 6074", sum.Messages)
	}
	// Records are listed through the files, with the recording's offsets.
	rl, ok := bag.Underlying(s).(bag.RecordLister)
	if !ok {
		t.Fatal("no RecordLister")
	}
	for _, b := range s.Blocks() {
		recs, data, err := rl.BlockRecords(b.Offset)
		if err != nil || len(recs) == 0 || len(data) == 0 {
			t.Fatalf("block of file %d: %d records, %v", b.File, len(recs), err)
		}
	}
	var offs []int64
	if err := rl.Records(context.Background(), bag.JoinPart(3, 0), func(r *bag.Record) bool {
		offs = append(offs, r.Offset)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(offs) == 0 || offs[0] != bag.JoinPart(3, 0) {
		t.Fatalf("records from file 3 start at %v", offs[:min(len(offs), 1)])
	}
	if p, _ := bag.SplitPart(offs[len(offs)-1]); p != 4 {
		t.Fatalf("the records end in file %d, want 4", p)
	}
	head, err := rl.ReadRange(bag.JoinPart(2, 0), 8)
	if err != nil || string(head[1:5]) != "MCAP" {
		t.Fatalf("ReadRange of file 2: %q %v", head, err)
	}
}

func TestMultiSplitDB3(t *testing.T) {
	paths := wbagFiles(t, "sqlite3", "db3")
	s := checkMerge(t, paths)
	blocks := s.Blocks()
	if len(blocks) != 5 {
		t.Fatalf("%d blocks, want one per .db3 file", len(blocks))
	}
	for i, b := range blocks {
		if !b.WholeFile || b.File != i {
			t.Fatalf("block %d: %+v, want the whole file %d", i, b, i)
		}
	}
}

func TestPartOffsets(t *testing.T) {
	for _, p := range []int{0, 1, 2, 100, bag.MaxParts} {
		for _, v := range []int64{0, 1, 1<<47 - 1, -1, -(1 << 47), 123456789} {
			gp, gv := bag.SplitPart(bag.JoinPart(p, v))
			if gp != p || gv != v {
				t.Fatalf("JoinPart(%d, %d) splits to %d, %d", p, v, gp, gv)
			}
		}
	}
	if bag.JoinPart(0, 42) != 42 {
		t.Fatal("part 0 must keep its own offsets")
	}
}

func TestNaturalOrder(t *testing.T) {
	names := []string{"x_10.bag", "x_2.bag", "x_1.bag", "x_0.bag", "a.bag"}
	bag.SortNatural(names)
	if got := strings.Join(names, " "); got != "a.bag x_0.bag x_1.bag x_2.bag x_10.bag" {
		t.Fatal(got)
	}
}

// writeROS1Split writes a split ROS 1 recording with the rosbag Python
// module: name_i.bag for each i in idx, two topics, 10 messages per file.
func writeROS1Split(t *testing.T, dir string, idx ...int) {
	t.Helper()
	writeROS1(t, dir, 10, 768*1024, idx...)
}

// writeROS1 writes name_i.bag for each i in idx with n seconds of
// messages (a /chatter message each second, a /count one every other),
// in chunks of chunk bytes.
func writeROS1(t *testing.T, dir string, n, chunk int, idx ...int) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	script := `
import sys, rosbag, rospy
from std_msgs.msg import String, Int32
d, n, chunk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in [int(a) for a in sys.argv[4:]]:
    with rosbag.Bag('%s/name_%d.bag' % (d, i), 'w', chunk_threshold=chunk) as b:
        for k in range(n):
            t = rospy.Time(1000 + i * n + k)
            b.write('/chatter', String(data='file %d msg %d' % (i, k)), t)
            if k % 2 == 0:
                b.write('/count', Int32(data=i * 100 + k), t)
`
	args := []string{"-c", script, dir, fmt.Sprint(n), fmt.Sprint(chunk)}
	for _, i := range idx {
		args = append(args, fmt.Sprint(i))
	}
	out, err := exec.Command("/usr/bin/python3", args...).CombinedOutput()
	if err != nil {
		t.Skipf("rosbag writer: %v: %s", err, out)
	}
}

func TestROS1Split(t *testing.T) {
	dir := t.TempDir()
	writeROS1Split(t, dir, 0, 1, 2)
	paths, err := bag.RecordingFiles(dir)
	if err != nil || len(paths) != 3 {
		t.Fatalf("%v %v", paths, err)
	}
	checkMerge(t, paths)

	s, err := bag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum, err := s.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Messages != 45 || len(sum.Topics) != 2 || len(s.Connections()) != 2 {
		t.Fatalf("%d messages on %d topics, %d connections; want 45 on 2, 2", sum.Messages, len(sum.Topics), len(s.Connections()))
	}
	if sum.Start.Sec != 1000 || sum.End.Sec != 1029 {
		t.Fatalf("times %v..%v", sum.Start, sum.End)
	}
	fi := s.FileInfo()
	if fi.Path != dir || len(fi.Files) != 3 || len(fi.Warnings) != 0 || fi.Format != "ROS 1 bag, 3 files" {
		t.Fatalf("FileInfo %+v", fi)
	}
	got := readAll(t, s, bag.MessageFilter{Topics: []string{"/chatter"}})
	for i, m := range got {
		if want := fmt.Sprintf("file %d msg %d", i/10, i%10); !strings.HasSuffix(m.data, want) {
			t.Fatalf("chatter message %d is %q, want %q", i, m.data, want)
		}
	}
	// OpenFile on the folder reads it the same way (the CLI's path).
	s2, err := bag.OpenFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum2, _ := s2.Summary()
	s2.Close()
	if sum2.Messages != 45 {
		t.Fatalf("OpenFile(folder): %d messages", sum2.Messages)
	}
	// One file of the split opens alone.
	s3, err := bag.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	sum3, _ := s3.Summary()
	s3.Close()
	if sum3.Messages != 15 || !bag.IsPlainFile(paths[1]) {
		t.Fatalf("one file: %d messages", sum3.Messages)
	}
}

func TestROS1SplitMissingFile(t *testing.T) {
	dir := t.TempDir()
	writeROS1Split(t, dir, 0, 2)
	s, err := bag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ws := s.FileInfo().Warnings
	if len(ws) != 1 || !strings.Contains(ws[0].Error(), "name_1.bag") {
		t.Fatalf("warnings %v, want name_1.bag missing", ws)
	}
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 || !strings.Contains(rep.Findings[0].Message, "name_1.bag") {
		t.Fatalf("check findings %v", rep.Findings)
	}
	// A file that does not open is left out with a warning.
	if err := os.WriteFile(filepath.Join(dir, "name_1.bag"), []byte("#ROSBAG V2.0\nbroken"), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := bag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	sum, _ := s2.Summary()
	if sum.Messages < 30 {
		t.Fatalf("%d messages, want the 30 of the two good files", sum.Messages)
	}
}

func zstdCompress(t *testing.T, data []byte) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	return enc.EncodeAll(data, nil)
}

func TestZstdFile(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	gen := t.TempDir()
	writeROS1(t, gen, 300, 512, 0)
	src := filepath.Join(gen, "name_0.bag")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "name_0.bag.zstd")
	if err := os.WriteFile(path, zstdCompress(t, raw), 0o600); err != nil {
		t.Fatal(err)
	}
	plain, err := bag.OpenFile(src)
	if err != nil {
		t.Fatal(err)
	}
	want := readAll(t, plain, bag.MessageFilter{})
	plain.Close()

	var prog []int64
	s, err := bag.OpenWith(path, bag.OpenOptions{Progress: func(done, total int64, stage string) {
		if strings.HasPrefix(stage, bag.StageDecompress) {
			prog = append(prog, done)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, s, bag.MessageFilter{})
	fi := s.FileInfo()
	s.Close()
	if len(got) != len(want) || fi.Path != path || len(fi.Warnings) != 0 {
		t.Fatalf("%d messages of %d, path %s, warnings %v", len(got), len(want), fi.Path, fi.Warnings)
	}
	if len(prog) == 0 {
		t.Fatal("no progress while decompressing")
	}
	// Nothing beside the file; the copy is in the cache and is reused.
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files beside the .zstd", len(ents))
	}
	cp1, _, err := bag.DecompressedCopy(context.Background(), path, nil)
	if err != nil || !strings.HasPrefix(cp1, cache) {
		t.Fatalf("copy %s (%v) not in the cache %s", cp1, err, cache)
	}
	st1, _ := os.Stat(cp1)
	cp2, _, _ := bag.DecompressedCopy(context.Background(), path, nil)
	st2, _ := os.Stat(cp2)
	if cp1 != cp2 || !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatal("the copy was not reused")
	}

	// A zstd file named as a recording opens by its magic.
	hidden := filepath.Join(t.TempDir(), "hidden.bag")
	if err := os.WriteFile(hidden, zstdCompress(t, raw), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = bag.OpenFile(hidden)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, bag.MessageFilter{}); len(got) != len(want) {
		t.Fatalf("zstd named .bag: %d messages of %d", len(got), len(want))
	}
	s.Close()

	// A cut .zstd gives what decompressed, and says what was lost.
	comp := zstdCompressBlocks(t, raw)
	cut := filepath.Join(dir, "cut_0.bag.zstd")
	if err := os.WriteFile(cut, comp[:len(comp)/4], 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = bag.OpenFile(cut)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got = readAll(t, s, bag.MessageFilter{})
	fi = s.FileInfo()
	if len(got) == 0 || len(got) >= len(want) {
		t.Fatalf("cut file: %d messages of %d", len(got), len(want))
	}
	lost := false
	for _, w := range fi.Warnings {
		if strings.Contains(w.Error(), "breaks off") {
			lost = true
		}
	}
	if !lost || fi.Indexed {
		t.Fatalf("cut file: warnings %v, indexed %v", fi.Warnings, fi.Indexed)
	}
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() == 0 || !strings.Contains(rep.Findings[0].Message, "breaks off") {
		t.Fatalf("cut file: check %v", rep.Findings)
	}
}

// zstdCompressBlocks compresses data in small blocks, so a cut stream
// still holds whole blocks to decompress.
func zstdCompressBlocks(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<12), zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(data); off += 1024 {
		enc.Write(data[off:min(off+1024, len(data))])
		enc.Flush()
	}
	enc.Close()
	return buf.Bytes()
}

// TestDamageReadNamesItsFile: what a read of a split set skipped goes to
// the file it was skipped in, never to the first file (the third file
// of five with bytes inside a chunk zeroed, found by the read).
func TestDamageReadNamesItsFile(t *testing.T) {
	dir := t.TempDir()
	var parts []bag.Storage
	for i, p := range wbagFiles(t, "mcap", "mcap") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			clear(b[3000:3100])
		}
		cp := filepath.Join(dir, filepath.Base(p))
		if err := os.WriteFile(cp, b, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := bag.OpenFile(cp)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, s)
	}
	m := bag.NewMulti(parts, bag.MultiOptions{})
	defer m.Close()
	it := m.Messages(bag.MessageFilter{})
	for it.Next() {
	}
	skipped := it.(interface{ Skipped() []bag.ByteRange }).Skipped()
	it.Close()
	if len(skipped) == 0 {
		t.Fatal("the cut file's read skipped nothing")
	}
	d := bag.DamageRead(m, skipped)
	read := 0
	for _, r := range d.Ranges {
		if r.Part != 2 || filepath.Base(r.File) != "wbag_2.mcap" || strings.HasPrefix(r.Why, "wbag_2.mcap: ") {
			t.Errorf("range %+v: want wbag_2.mcap's (part 2), its reason without the file's name", r)
		}
		if r.Start != r.End {
			read++
		}
	}
	if read == 0 {
		t.Errorf("no lost range with bytes: %+v", d.Ranges)
	}
}
