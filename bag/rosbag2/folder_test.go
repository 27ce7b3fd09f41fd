package rosbag2_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/rosbag2"
)

const shared = "../../../shared/bags"

// TestMain keeps decompressed copies in a cache of its own and checks
// that nothing in ../shared was written, created or removed.
func TestMain(m *testing.M) {
	cache, err := os.MkdirTemp("", "rosbag2-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	before := snapshot()
	code := m.Run()
	after := snapshot()
	if before != after {
		fmt.Fprintln(os.Stderr, "FAIL: the tests changed ../shared/bags")
		code = 1
	}
	os.RemoveAll(cache)
	os.Exit(code)
}

func snapshot() string {
	var b strings.Builder
	filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}

func need(t *testing.T, p string) string {
	t.Helper()
	p = filepath.Join(shared, p)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared bag missing: %v", err)
	}
	return p
}

const (
	r2     = "ros2__rosbag2/"
	reidx  = r2 + "@a1dae364/rosbag2_tests/resources/reindex_test_bags/"
	target = reidx + "target_metadata/"
)

// folder is a shared rosbag2 folder and what it must open as.
type folder struct {
	dir      string
	messages uint64
	// metaRight says the metadata's counts are right, so every count
	// must equal it and no count disagreement may be reported.
	metaRight bool
	// warn lists what the warnings must say, in order of appearance.
	warn []string
}

var folders = []folder{
	{r2 + "rosbag2_py/test/resources/mcap/wbag", 6074, true, []string{"starts at", "lasts"}},
	{r2 + "rosbag2_py/test/resources/sqlite3/wbag", 6074, true, []string{"starts at", "lasts"}},
	{r2 + "rosbag2_py/test/resources/mcap/talker", 20, true, nil},
	{r2 + "rosbag2_py/test/resources/sqlite3/talker", 20, true, nil},
	{r2 + "rosbag2_tests/resources/mcap/cdr_test", 7, true, nil},
	{r2 + "rosbag2_tests/resources/sqlite3/cdr_test", 7, true, nil},
	{r2 + "rosbag2_tests/resources/mcap/wrong_rmw_test", 7, true, nil},
	{r2 + "rosbag2_tests/resources/sqlite3/wrong_rmw_test", 7, true, []string{"serialized as wrong_format", "serialized as wrong_format"}},
	{r2 + "rosbag2_tests/resources/mcap/bag_with_topics_and_service_events", 10, true, nil},
	{r2 + "rosbag2_tests/resources/sqlite3/bag_with_topics_and_service_events", 10, true, nil},
	{r2 + "rosbag2_transport/test/resources/mcap/test_bag_for_seek", 5, true, nil},
	{r2 + "rosbag2_transport/test/resources/sqlite3/test_bag_for_seek", 5, true, nil},
	{r2 + "ros2bag/test/resources/empty_bag", 0, true, nil},
	{r2 + "rosbag2_tests/resources/compressed_bag", 0, true, nil},
	{r2 + "@fd39d6ee/rosbag2_tests/resources/test", 7, true, nil},
	{"geocamxyz__rosbags-rs/tests/test_bags/test_bag_sqlite3", 188, true, nil},
	{"geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap", 188, true, nil},
	{"facontidavide__PlotJuggler/@7365c822/datasamples/rosbag2_test", 1071, true, nil},
	{"facontidavide__PlotJuggler/datasamples/rosbag2_test", 4695, true, nil},
	// No metadata.yaml: the counts are those of the reindex test's
	// target metadata.
	{reidx + "multiple_files", 3177, false, []string{"no metadata.yaml"}},
	{reidx + "file_compression", 775, false, []string{"no metadata.yaml"}},
	{reidx + "message_compression", 1127, false, []string{"no metadata.yaml"}},
	// Deliberately odd: metadata without its files.
	{target + "multiple_files", 0, false, []string{"3 file(s) that are not in the folder"}},
	{target + "file_compression", 0, false, []string{"4 file(s) that are not in the folder"}},
	{target + "message_compression", 0, false, []string{"4 file(s) that are not in the folder"}},
	{"rosbag-sharing-community__amber/tests/rosbag/soccer_goal", 2, false, []string{"12 file(s) that are not in the folder", "counts 251 messages; the files hold 2", "lasts", "251 messages on /camera/image_raw"}},
}

func TestSharedFolders(t *testing.T) {
	for _, f := range folders {
		t.Run(f.dir, func(t *testing.T) {
			dir := need(t, f.dir)
			s, err := bag.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			sum, err := s.Summary()
			if err != nil {
				t.Fatal(err)
			}
			if sum.Messages != f.messages {
				t.Fatalf("%d messages, want %d", sum.Messages, f.messages)
			}
			n := 0
			it := s.Messages(bag.MessageFilter{})
			var last bag.Time
			for it.Next() {
				if it.Message().Time.Before(last) {
					t.Fatalf("message %d out of time order", n)
				}
				last = it.Message().Time
				n++
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			it.Close()
			if uint64(n) != f.messages {
				t.Fatalf("read %d messages, summary %d", n, f.messages)
			}
			fi := s.FileInfo()
			if fi.Path != dir || !strings.HasPrefix(fi.Format, rosbag2.FolderName) {
				t.Fatalf("FileInfo says %s %s", fi.Path, fi.Format)
			}
			var ws []string
			for _, w := range fi.Warnings {
				ws = append(ws, w.Error())
			}
			if len(ws) != len(f.warn) {
				t.Fatalf("warnings:\n%s\nwant %d: %q", strings.Join(ws, "\n"), len(f.warn), f.warn)
			}
			for i, w := range f.warn {
				if !strings.Contains(ws[i], w) {
					t.Fatalf("warning %d is %q, want %q", i, ws[i], w)
				}
			}
			b := rosbag2.Of(s)
			if b == nil {
				t.Fatal("no rosbag2.Bag behind the storage")
			}
			if m := b.Metadata; m != nil && f.metaRight {
				if m.MessageCount != sum.Messages {
					t.Fatalf("metadata counts %d, files %d", m.MessageCount, sum.Messages)
				}
				byTopic := map[string]uint64{}
				for _, tp := range sum.Topics {
					byTopic[tp.Topic] = tp.Messages
				}
				for _, tp := range m.Topics {
					if byTopic[tp.Name] != tp.MessageCount {
						t.Fatalf("%s: metadata %d, files %d", tp.Name, tp.MessageCount, byTopic[tp.Name])
					}
				}
			}
			// The check names the disagreements too.
			rep, err := s.Check(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Messages != f.messages {
				t.Fatalf("check counts %d messages", rep.Messages)
			}
			for i, w := range f.warn {
				if i >= len(rep.Findings) || !strings.Contains(rep.Findings[i].Message, w) {
					t.Fatalf("finding %d does not say %q: %v", i, w, rep.Findings)
				}
			}
		})
	}
}

// TestOpenWays opens a folder through its metadata.yaml (the whole
// recording) and a storage file inside it: alone, in Open as in OpenFile,
// as the window and every command read the same path, with FolderOf
// naming the folder that is the whole recording.
func TestOpenWays(t *testing.T) {
	dir := need(t, r2+"rosbag2_py/test/resources/mcap/wbag")
	one := filepath.Join(dir, "wbag_3.mcap")
	for _, p := range []string{dir, filepath.Join(dir, "metadata.yaml")} {
		if bag.IsPlainFile(p) {
			t.Fatalf("%s: IsPlainFile", p)
		}
		if f := bag.FolderOf(p); f != "" {
			t.Fatalf("FolderOf(%s) = %q, want \"\"", p, f)
		}
		for _, open := range []func(string) (bag.Storage, error){bag.Open, bag.OpenFile} {
			s, err := open(p)
			if err != nil {
				t.Fatal(err)
			}
			sum, _ := s.Summary()
			n := len(s.FileInfo().Files)
			s.Close()
			if sum.Messages != 6074 || n != 5 {
				t.Fatalf("%s: %d messages in %d files", p, sum.Messages, n)
			}
		}
	}
	if !bag.IsPlainFile(one) {
		t.Fatalf("%s: not IsPlainFile", one)
	}
	if f := bag.FolderOf(one); f != dir {
		t.Fatalf("FolderOf(%s) = %q, want %q", one, f, dir)
	}
	for _, open := range []func(string) (bag.Storage, error){bag.Open, bag.OpenFile} {
		s, err := open(one)
		if err != nil {
			t.Fatal(err)
		}
		fi := s.FileInfo()
		s.Close()
		if len(fi.Files) != 0 || fi.Format != "MCAP" {
			t.Fatalf("%s alone: %s with %d files", one, fi.Format, len(fi.Files))
		}
	}
}

func copyFile(t *testing.T, dst, src string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// copyFolder copies the files of src whose names pass keep into a new
// folder.
func copyFolder(t *testing.T, src string, keep func(string) bool) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if keep(e.Name()) {
			copyFile(t, filepath.Join(dst, e.Name()), filepath.Join(src, e.Name()))
		}
	}
	return dst
}

func open(t *testing.T, dir string) (bag.Storage, *bag.Summary, []string) {
	t.Helper()
	s, err := bag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	sum, err := s.Summary()
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range s.FileInfo().Warnings {
		ws = append(ws, w.Error())
	}
	return s, sum, ws
}

func fileCount(t *testing.T, path string) uint64 {
	t.Helper()
	s, err := bag.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sum, err := s.Summary()
	if err != nil {
		t.Fatal(err)
	}
	return sum.Messages
}

func TestMissingFile(t *testing.T) {
	for _, kind := range []string{"mcap", "sqlite3"} {
		t.Run(kind, func(t *testing.T) {
			src := need(t, r2+"rosbag2_py/test/resources/"+kind+"/wbag")
			dir := copyFolder(t, src, func(n string) bool { return !strings.HasPrefix(n, "wbag_2.") })
			ext := map[string]string{"mcap": ".mcap", "sqlite3": ".db3"}[kind]
			lost := fileCount(t, filepath.Join(src, "wbag_2"+ext))
			s, sum, ws := open(t, dir)
			if sum.Messages != 6074-lost {
				t.Fatalf("%d messages, want %d", sum.Messages, 6074-lost)
			}
			all := strings.Join(ws, "\n")
			for _, w := range []string{"1 file(s) that are not in the folder: wbag_2" + ext, fmt.Sprintf("counts 6074 messages; the files hold %d", 6074-lost)} {
				if !strings.Contains(all, w) {
					t.Fatalf("warnings do not say %q:\n%s", w, all)
				}
			}
			if b := rosbag2.Of(s); len(b.Missing) != 1 || len(b.Files) != 4 {
				t.Fatalf("missing %v, files %v", b.Missing, b.Files)
			}
			if len(s.Blocks()) != 4 {
				t.Fatalf("%d blocks for 4 files", len(s.Blocks()))
			}
		})
	}
}

func TestNoMetadata(t *testing.T) {
	for _, kind := range []string{"mcap", "sqlite3"} {
		t.Run(kind, func(t *testing.T) {
			src := need(t, r2+"rosbag2_py/test/resources/"+kind+"/wbag")
			dir := copyFolder(t, src, func(n string) bool { return n != "metadata.yaml" })
			s, sum, ws := open(t, dir)
			if sum.Messages != 6074 || len(s.FileInfo().Files) != 5 {
				t.Fatalf("%d messages in %d files", sum.Messages, len(s.FileInfo().Files))
			}
			if len(ws) != 1 || !strings.Contains(ws[0], "no metadata.yaml") {
				t.Fatalf("warnings %q", ws)
			}
			if rosbag2.Of(s).Metadata != nil {
				t.Fatal("metadata without a metadata.yaml")
			}
		})
	}
}

// TestExtraFileAndWrongCount: a file the metadata does not list is read
// and named; a per-file count that disagrees is named.
func TestExtraFileAndWrongCount(t *testing.T) {
	src := need(t, "rosbag-sharing-community__amber/tests/rosbag/soccer_goal")
	dir := copyFolder(t, src, func(string) bool { return true })
	copyFile(t, filepath.Join(dir, "soccer_goal_13.mcap"), filepath.Join(dir, "soccer_goal_12.mcap"))
	_, sum, ws := open(t, dir)
	all := strings.Join(ws, "\n")
	if sum.Messages != 4 || !strings.Contains(all, "soccer_goal_13.mcap is in the folder but metadata.yaml does not list it") {
		t.Fatalf("%d messages; warnings:\n%s", sum.Messages, all)
	}
	// Metadata rewritten to say 5 messages in the last file.
	meta, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(meta), "nanoseconds: 33311111\n      message_count: 2", "nanoseconds: 33311111\n      message_count: 5", 1)
	if text == string(meta) {
		t.Fatal("metadata.yaml not as expected")
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, ws = open(t, dir)
	if all := strings.Join(ws, "\n"); !strings.Contains(all, "soccer_goal_12.mcap holds 5 messages; it holds 2") {
		t.Fatalf("warnings:\n%s", all)
	}
}

// TestReindexTargets puts each reindex test's target metadata, whose
// paths carry the old folder-name prefix, beside the files it describes:
// the folder must open with no disagreement.
func TestReindexTargets(t *testing.T) {
	for _, name := range []string{"multiple_files", "file_compression", "message_compression"} {
		t.Run(name, func(t *testing.T) {
			src := need(t, reidx+name)
			dir := copyFolder(t, src, func(string) bool { return true })
			copyFile(t, filepath.Join(dir, "metadata.yaml"), filepath.Join(need(t, target+name), "metadata.yaml"))
			s, sum, ws := open(t, dir)
			meta := rosbag2.Of(s).Metadata
			if meta == nil || sum.Messages != meta.MessageCount {
				t.Fatalf("%d messages, metadata %+v", sum.Messages, meta)
			}
			for _, w := range ws {
				if !strings.Contains(w, "starts at") && !strings.Contains(w, "lasts") {
					t.Errorf("warning: %s", w)
				}
			}
			if len(rosbag2.Of(s).Missing) != 0 {
				t.Fatalf("missing %v", rosbag2.Of(s).Missing)
			}
		})
	}
}

// TestCutZstdInFolder: a FILE-compressed folder whose last .zstd is cut
// opens with what decompressed, and says what was lost.
func TestCutZstdInFolder(t *testing.T) {
	src := need(t, reidx+"file_compression")
	dir := copyFolder(t, src, func(string) bool { return true })
	copyFile(t, filepath.Join(dir, "metadata.yaml"), filepath.Join(need(t, target+"file_compression"), "metadata.yaml"))
	last := filepath.Join(dir, "file_compression_2.db3.zstd")
	whole := fileCount(t, filepath.Join(src, "file_compression_2.db3.zstd"))
	data, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(last, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	s, sum, ws := open(t, dir)
	all := strings.Join(ws, "\n")
	if !strings.Contains(all, "file_compression_2.db3.zstd") || !strings.Contains(all, "breaks off") {
		t.Fatalf("warnings:\n%s", all)
	}
	if !strings.Contains(all, "counts 775 messages; the files hold") || sum.Messages >= 775 || sum.Messages < 775-whole {
		t.Fatalf("%d messages (the cut file held %d); warnings:\n%s", sum.Messages, whole, all)
	}
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Severity == bag.Error && strings.HasPrefix(f.Message, "file_compression_2.db3.zstd") && strings.Contains(f.Message, "breaks off") {
			found = true
		}
	}
	if !found {
		t.Fatalf("check findings: %v", rep.Findings)
	}
	// Nothing was written beside the files.
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "file_compression_0.db3.zstd file_compression_1.db3.zstd file_compression_2.db3.zstd file_compression_3.db3.zstd metadata.yaml" {
		t.Fatalf("folder holds %s", got)
	}
}

// TestMergeEqualsFiles: the split wbag's merged messages are its files'
// messages in time order, ties in file order.
func TestMergeEqualsFiles(t *testing.T) {
	for _, kind := range []string{"mcap", "sqlite3"} {
		t.Run(kind, func(t *testing.T) {
			dir := need(t, r2+"rosbag2_py/test/resources/"+kind+"/wbag")
			ext := map[string]string{"mcap": ".mcap", "sqlite3": ".db3"}[kind]
			type msg struct {
				time        uint64
				topic, data string
			}
			var want []msg
			for i := range 5 {
				s, err := bag.OpenFile(filepath.Join(dir, fmt.Sprintf("wbag_%d%s", i, ext)))
				if err != nil {
					t.Fatal(err)
				}
				it := s.Messages(bag.MessageFilter{})
				for it.Next() {
					m := it.Message()
					want = append(want, msg{m.Time.Key(), m.Conn.Topic, string(m.Data)})
				}
				it.Close()
				s.Close()
			}
			sort.SliceStable(want, func(i, j int) bool { return want[i].time < want[j].time })
			s, err := bag.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			it := s.Messages(bag.MessageFilter{})
			i := 0
			for it.Next() {
				m := it.Message()
				if i >= len(want) || (msg{m.Time.Key(), m.Conn.Topic, string(m.Data)}) != want[i] {
					t.Fatalf("message %d differs", i)
				}
				i++
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if i != len(want) || i != 6074 {
				t.Fatalf("%d messages, want %d", i, len(want))
			}
		})
	}
}

// TestEveryMetadataParses parses every metadata.yaml in ../shared/bags.
func TestEveryMetadataParses(t *testing.T) {
	n := 0
	filepath.WalkDir(shared, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != "metadata.yaml" {
			return nil
		}
		m, err := rosbag2.ReadMetadata(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if m.Version < 1 || m.Version > rosbag2.MaxMetadataVersion || len(m.FilePaths()) == 0 {
			t.Errorf("%s: version %d, files %v", p, m.Version, m.FilePaths())
		}
		n++
		return nil
	})
	if n == 0 {
		t.Skip("no metadata.yaml in ../shared/bags")
	}
}

// TestPresetCountsDB3 opens a one-file .db3 folder: the summary comes from
// metadata.yaml (no GROUP BY over the rows on open), and when the metadata
// is wrong, the file's Check counts the rows and says so.
func TestPresetCountsDB3(t *testing.T) {
	src := need(t, "ros2__rosbag2/rosbag2_tests/resources/sqlite3/cdr_test")
	dir := copyFolder(t, src, func(string) bool { return true })
	_, sum, ws := open(t, dir)
	if sum.Messages != 7 || len(ws) != 0 {
		t.Fatalf("%d messages; warnings: %v", sum.Messages, ws)
	}
	meta, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(meta), "message_count: 4", "message_count: 5", 1)
	text = strings.Replace(text, "message_count: 7", "message_count: 8", -1)
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	s, sum, _ := open(t, dir)
	if sum.Messages != 8 {
		t.Fatalf("summary says %d messages, want metadata.yaml's 8", sum.Messages)
	}
	rep, err := s.Check(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range rep.Findings {
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "metadata.yaml counts 5 messages on /array_topic; the file holds 4") || !strings.Contains(all, "metadata.yaml counts 8 messages; the file holds 7") {
		t.Fatalf("findings:\n%s", all)
	}
}
