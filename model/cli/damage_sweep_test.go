package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
)

// The damage sweep makes damaged copies of real recordings in every format
// (bytes overwritten, a page or block zeroed, files cut at many offsets, a
// split set's file missing, metadata.yaml removed, a database header
// zeroed) and checks each against its intact original, as issue 22 asks:
//
//   - no message read unmarked differs from one recorded (where no
//     checksum covers the bytes, one such message per overwrite is
//     tolerated: an overwrite inside one message's data is invisible);
//   - the lost messages the report gives contain the truth (the original's
//     messages not read back), and are exact or bounded where the
//     recording keeps evidence (metadata.yaml, statistics, indexes);
//   - info, cat, check and verify exit 1 when anything was lost, 0 when
//     nothing was, and agree on the loss;
//   - a missing file of a split set is named.
//
// The whole sweep damages each source at sweepOffsetsLong offsets of
// each kind (overwritten, zeroed, cut). make test runs a fixed sample of
// them: one in sweepSource.sampleEvery offsets of each kind, for each source, so
// every format and every kind of damage is still covered (see
// bag/sweeptest). Run it whole with -long (make test-long):
//
//	go test -race -run '^TestDamageSweep$' ./model/cli/ -long

// sweepKey identifies a message by its content.
type sweepKey struct {
	topic string
	t     int64
	crc   uint32
	n     int
}

// sweepSource is an intact recording: a file, or a folder copied whole.
type sweepSource struct {
	name string
	// path is a recording file, or a folder (a rosbag2 bag).
	path string
	// target is the file inside a folder to damage ("" for a file).
	target string
	// unverified says no checksum covers the file's messages: an overwrite
	// may change one message unseen.
	unverified bool
	// claims says the recording keeps a count of its messages (so a loss
	// must be bounded).
	claims bool
	// missing names a file of the folder to remove (a split set).
	missing string
	// sampleEvery says how sparse the sample of offsets make test damages
	// the source at is: one in so many of each kind (-long: every one).
	sampleEvery int
}

// sweepOffsetsLong is how many offsets of each kind of damage the whole
// sweep damages a source at.
const sweepOffsetsLong = 40

// sweepLong reports whether the sweep runs whole: with -long (make
// test-long), or BAGSCOPE_LONG_TESTS set as before.
func sweepLong() bool { return sweeptest.Long() || os.Getenv("BAGSCOPE_LONG_TESTS") != "" }

// sweepSources lists the recordings the sweep damages, making the
// multi-chunk MCAP from a real ROS 1 bag with the MCAP writer.
func sweepSources(t *testing.T) []sweepSource {
	t.Helper()
	rb := func(p string) string { return filepath.Join(sharedBags, p) }
	dir := t.TempDir()
	chunked := filepath.Join(dir, "tilt_laser_chunked.mcap")
	src, err := bag.OpenFile(rb("facontidavide__PlotJuggler/datasamples/tilt_laser.bag"))
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	f, err := os.Create(chunked)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcap.Write(f, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 64 << 10}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src.Close()
	// make test damages each source at two offsets of each kind, the bz2
	// bag at one: under -race each of its variants costs ~9 s of bz2
	// decompression (every command reads it whole).
	const two, one = sweepOffsetsLong / 2, sweepOffsetsLong
	return []sweepSource{
		{name: "ros1 none", path: rb("facontidavide__PlotJuggler/datasamples/tilt_laser.bag"), unverified: true, claims: true, sampleEvery: two},
		{name: "ros1 bz2", path: rb("cra-ros-pkg__robot_localization/test/test2.bag"), claims: true, sampleEvery: one},
		{name: "ros1 lz4", path: rb("embarktrucks__embag/@7695f345/test/test.bag"), unverified: true, claims: true, sampleEvery: two},
		{name: "mcap zstd chunks", path: chunked, claims: true, sampleEvery: two},
		{name: "mcap none crc0", path: rb("geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap/test_bag_mcap.mcap"), unverified: true, claims: true, sampleEvery: two},
		{name: "db3 folder", path: rb("facontidavide__PlotJuggler/datasamples/rosbag2_test"), target: "rosbag2_test_0.db3", unverified: true, claims: true, sampleEvery: two},
		{name: "db3 split set", path: rb("ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag"), target: "wbag_2.db3", unverified: true, claims: true, missing: "wbag_2.db3", sampleEvery: two},
		{name: "mcap split set", path: rb("ros2__rosbag2/rosbag2_py/test/resources/mcap/wbag"), target: "wbag_2.mcap", claims: true, missing: "wbag_2.mcap", sampleEvery: two},
	}
}

// sweepRead reads every message of a recording: their keys (the suspect
// ones apart) and the report of what was lost.
func sweepRead(t *testing.T, path string) (good, suspect []sweepKey, d *bag.Damage, err error) {
	t.Helper()
	s, err := model.OpenStorage(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer s.Close()
	it := s.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		k := sweepKey{m.Conn.Topic, m.Time.Nanos(), crc32.ChecksumIEEE(m.Data), len(m.Data)}
		if m.Suspect != "" {
			suspect = append(suspect, k)
		} else {
			good = append(good, k)
		}
	}
	if err := it.Err(); err != nil {
		it.Close()
		return nil, nil, nil, err
	}
	it.Close()
	// The report every command gives: from reading every message, with
	// what the doctor finds.
	d, _, err = bag.Survey(context.Background(), s, nil)
	return good, suspect, d, err
}

// sweepVariant is one damaged copy.
type sweepVariant struct {
	name string
	// overwrites counts the overwritten runs (each may change one message
	// unseen where no checksum covers it).
	overwrites int
	// make writes the damaged copy into dir and returns the path to open.
	make func(t *testing.T, dir string) string
	// from and to are the bytes overwritten or zeroed in the damaged
	// file (file), when the variant changes bytes in place.
	file     string
	from, to int64
}

// copyRecording copies a file or a folder's files into dir and returns the
// copy's path.
func copyRecording(t *testing.T, src, dir string) string {
	t.Helper()
	st, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() {
		p := filepath.Join(dir, filepath.Base(src))
		copyFile(t, src, p)
		return p
	}
	out := filepath.Join(dir, filepath.Base(src))
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		if e.Type().IsRegular() && !strings.HasSuffix(e.Name(), "-shm") && !strings.HasSuffix(e.Name(), "-wal") {
			copyFile(t, filepath.Join(src, e.Name()), filepath.Join(out, e.Name()))
		}
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sweepOffsets returns n offsets spread over [lo, size), seeded.
func sweepOffsets(size int64, n int, seed int64) []int64 {
	r := rand.New(rand.NewSource(seed))
	var out []int64
	for i := 0; i < n; i++ {
		lo := size * int64(i) / int64(n)
		hi := size * int64(i+1) / int64(n)
		out = append(out, lo+r.Int63n(max(hi-lo, 1)))
	}
	return out
}

// sweepVariants lists the damaged copies of a source: at every offset of
// each kind with -long, else at one in s.sampleEvery of each kind (the
// offsets and bytes are those of the whole sweep).
func sweepVariants(s sweepSource) []sweepVariant {
	n := sweepOffsetsLong
	keep := func(i int) bool { return sweepLong() || sweeptest.Keep(i, s.sampleEvery) }
	target := func(dir string) string {
		p := filepath.Join(dir, filepath.Base(s.path))
		if s.target != "" {
			p = filepath.Join(p, s.target)
		}
		return p
	}
	open := func(dir string) string { return filepath.Join(dir, filepath.Base(s.path)) }
	st, _ := os.Stat(filepath.Join(s.path, s.target))
	size := st.Size()
	edit := func(name string, overwrites int, fn func(b []byte) []byte) sweepVariant {
		return sweepVariant{name: name, overwrites: overwrites, make: func(t *testing.T, dir string) string {
			copyRecording(t, s.path, dir)
			p := target(dir)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, fn(b), 0o644); err != nil {
				t.Fatal(err)
			}
			return open(dir)
		}}
	}
	var out []sweepVariant
	// in marks a variant's bytes changed in place, in the file damaged.
	in := func(v sweepVariant, from, to int64) sweepVariant {
		v.file, v.from, v.to = filepath.Base(filepath.Join(s.path, s.target)), from, min(to, size)
		return v
	}
	for i, off := range sweepOffsets(size, n, 1) {
		if !keep(i) {
			continue
		}
		off := off
		out = append(out, in(edit(fmt.Sprintf("overwrite@%d", off), 1, func(b []byte) []byte {
			r := rand.New(rand.NewSource(int64(i) + 7))
			for j := off; j < min(off+4096, int64(len(b))); j++ {
				b[j] = byte(r.Intn(256))
			}
			return b
		}), off, off+4096))
	}
	for i, off := range sweepOffsets(size, n, 2) {
		if !keep(i) {
			continue
		}
		off := off / 4096 * 4096
		out = append(out, in(edit(fmt.Sprintf("zeroed@%d", off), 1, func(b []byte) []byte {
			clear(b[off:min(off+4096, int64(len(b)))])
			return b
		}), off, off+4096))
	}
	for i, off := range sweepOffsets(size, n, 3) {
		if !keep(i) {
			continue
		}
		off := off
		out = append(out, edit(fmt.Sprintf("cut@%d", off), 0, func(b []byte) []byte { return b[:off] }))
	}
	if strings.HasSuffix(s.target, ".db3") || strings.HasSuffix(s.path, ".db3") {
		out = append(out, in(edit("zeroed database header", 1, func(b []byte) []byte {
			clear(b[:100])
			return b
		}), 0, 100))
	}
	if s.target != "" {
		out = append(out, sweepVariant{name: "metadata.yaml removed, cut in half", make: func(t *testing.T, dir string) string {
			copyRecording(t, s.path, dir)
			os.Remove(filepath.Join(open(dir), "metadata.yaml"))
			p := target(dir)
			if err := os.Truncate(p, size/2); err != nil {
				t.Fatal(err)
			}
			return open(dir)
		}})
	}
	if s.missing != "" {
		out = append(out, sweepVariant{name: "missing " + s.missing, make: func(t *testing.T, dir string) string {
			copyRecording(t, s.path, dir)
			os.Remove(filepath.Join(open(dir), s.missing))
			return open(dir)
		}})
	}
	return out
}

// windowDamage is what the window's banner says a recording lost, once
// its read of every message (the Topics view's byte count) has ended.
func windowDamage(t *testing.T, path string) *bag.Damage {
	t.Helper()
	s, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, loss, err := stats.CountBytes(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return bag.ReadDamage(s, loss.Skipped, loss.Tally, loss.Complete)
}

// lostOf reads the "lost" object of a command's --json output.
func lostOf(t *testing.T, what, out string) *lossJSON {
	t.Helper()
	var v struct {
		Lost *lossJSON `json:"lost"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s: no JSON: %v: %.300s", what, err, out)
	}
	return v.Lost
}

// sweepRecordHeader is more than the bytes a message's record or row
// adds to its data (a ROS 1 record's header, an MCAP message record's,
// a .db3 row's).
const sweepRecordHeader = 256

// uncovered returns the runs of the bytes [from, to) changed in file
// that lie in no unreadable part of a range verify --json gives for that
// file (l; its ranges or its notes, from+readable..to).
func uncovered(l *lossJSON, file string, from, to int64) [][2]int64 {
	var spans [][2]int64
	if l != nil {
		for _, r := range append(append([]rangeLossJSON(nil), l.Ranges...), l.Notes...) {
			if filepath.Base(r.File) == file {
				spans = append(spans, [2]int64{r.From + max(r.Readable, 0), r.To})
			}
		}
	}
	var out [][2]int64
	for x := from; x < to; x++ {
		if slices.ContainsFunc(spans, func(s [2]int64) bool { return s[0] <= x && x < s[1] }) {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == x {
			out[n-1][1]++
		} else {
			out = append(out, [2]int64{x, x + 1})
		}
	}
	return out
}

// namedByFinding reports whether the range or note of file that starts
// nearest at or before off is a finding of the doctor (a range of no
// bytes at a record's start): the record it names holds off.
func namedByFinding(l *lossJSON, file string, off int64) bool {
	if l == nil {
		return false
	}
	best := rangeLossJSON{From: -1}
	for _, r := range append(append([]rangeLossJSON(nil), l.Ranges...), l.Notes...) {
		if filepath.Base(r.File) == file && r.From <= off && r.From >= best.From {
			if r.From > best.From || r.To == r.From {
				best = r
			}
		}
	}
	return best.From >= 0 && best.To == best.From
}

// inLostRange reports whether the bytes [from, to) of file lie in one of
// the ranges verify --json gives for it (l.Ranges), read or not.
func inLostRange(l *lossJSON, file string, from, to int64) bool {
	return l != nil && slices.ContainsFunc(l.Ranges, func(r rangeLossJSON) bool {
		return filepath.Base(r.File) == file && r.From <= from && to <= r.To
	})
}

// harmless reports whether the bytes [from, to) of the damaged file
// (damaged, the file changed in the copy) hold nothing recorded: a copy
// of the intact recording with only those bytes changed as they are in
// the damaged copy reads the same messages, none suspect, and nothing
// lost.
func harmless(t *testing.T, src sweepSource, damaged string, from, to int64, want map[sweepKey]int) bool {
	t.Helper()
	bad, err := os.ReadFile(damaged)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := copyRecording(t, src.path, dir)
	f := p
	if src.target != "" {
		f = filepath.Join(p, src.target)
	}
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	copy(b[from:to], bad[from:to])
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	good, sus, d, err := sweepRead(t, p)
	if err != nil || len(sus) > 0 || d.Lost() {
		return false
	}
	got := map[sweepKey]int{}
	for _, k := range good {
		got[k]++
	}
	return maps.Equal(got, want)
}

// TestDamageSweep: see the top of the file.
//
// It and its sources run in parallel with the other parallel tests (each
// source on its own copies, the commands in-process share nothing): the
// package's longest test uses both cores once the others are done, and
// the whole sweep (-long) takes its bz2 bag's time, not the sum.
func TestDamageSweep(t *testing.T) {
	t.Parallel()
	type tally struct{ variants, truthful, exact, bounded, unbounded, byTopic int }
	var (
		mu  sync.Mutex
		all tally
	)
	// After every source's subtest has ended.
	t.Cleanup(func() {
		t.Logf("in all: %d damaged variants, %d tell the truth; losses exact %d, bounded %d, at least N %d; %d say which topics lost how many", all.variants, all.truthful, all.exact, all.bounded, all.unbounded, all.byTopic)
	})
	for _, src := range sweepSources(t) {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			if !sweepLong() {
				sweeptest.Note(t, src.sampleEvery, fmt.Sprintf("the %d offsets of each kind of damage", sweepOffsetsLong))
			}
			orig, origSuspect, od, err := sweepRead(t, src.path)
			if err != nil {
				t.Fatal(err)
			}
			if len(origSuspect) > 0 || od.Lost() {
				t.Fatalf("the intact recording reads as damaged: %d suspect, %+v", len(origSuspect), od)
			}
			if _, stderr, code := run("verify", src.path); code != 0 {
				t.Fatalf("verify of the intact recording: exit %d: %s", code, stderr)
			}
			want := map[sweepKey]int{}
			// slack is how many of an overwrite's first bytes may go
			// unseen where no checksum covers them: one message's data
			// and its record's header.
			slack := int64(0)
			for _, k := range orig {
				want[k]++
				if src.unverified {
					slack = max(slack, int64(k.n)+sweepRecordHeader)
				}
			}
			var tl tally
			for _, v := range sweepVariants(src) {
				tl.variants++
				what := src.name + ": " + v.name
				p := v.make(t, t.TempDir())
				good, sus, d, err := sweepRead(t, p)
				if err != nil {
					// Not a recording any more: every command says so.
					for _, cmd := range []string{"info", "verify", "cat"} {
						if _, _, code := run(cmd, p); code != ExitUsage {
							t.Errorf("%s: %s exit %d for a copy that does not open (%v), want %d", what, cmd, code, err, ExitUsage)
						}
					}
					tl.truthful++
					continue
				}
				readAll := uint64(len(good) + len(sus))
				if d.Read != readAll {
					t.Errorf("%s: the report says %d messages read; %d were", what, d.Read, readAll)
				}
				left := map[sweepKey]int{}
				for k, n := range want {
					left[k] = n
				}
				garbage := 0
				recovered := 0
				for _, k := range good {
					if left[k] > 0 {
						left[k]--
						recovered++
					} else {
						garbage++
					}
				}
				for _, k := range sus {
					if left[k] > 0 {
						left[k]--
						recovered++
					}
				}
				truth := uint64(len(orig) - recovered)
				// Each topic's truth: its messages in the original not
				// read back.
				topicTruth := map[string]uint64{}
				for k, n := range left {
					topicTruth[k.topic] += uint64(n)
				}
				ok := true
				allowed := 0
				if src.unverified {
					allowed = v.overwrites
				}
				if garbage > allowed {
					t.Errorf("%s: %d messages read unmarked differ from every recorded one (%d tolerated)", what, garbage, allowed)
					ok = false
				}
				// A message changed unseen reads as one lost: the report
				// may not count it.
				unseen := uint64(min(garbage, allowed))
				c := d.Messages
				if truth-unseen < c.Min && truth < c.Min || c.Bounded && truth-unseen > c.Max {
					t.Errorf("%s: %d messages lost (%d of them changed unseen), the report says %v", what, truth, unseen, c)
					ok = false
				}
				if truth > unseen && !d.Lost() {
					t.Errorf("%s: %d messages lost and the report says nothing", what, truth)
					ok = false
				}
				// A range says no more than the whole loss: it lost at
				// least no more than the truth, at most no more than the
				// whole loss's bound.
				for _, r := range d.Ranges {
					if r.Messages.Min > truth || c.Bounded && r.Messages.Bounded && r.Messages.Max > c.Max {
						t.Errorf("%s: the range at %d of %s says %v lost; %d were, the whole loss is %v", what, r.Start, filepath.Base(r.File), r.Messages, truth, c)
						ok = false
					}
				}
				// Where the recording claims a count per topic, the loss
				// names the topics that lost messages, each with a count
				// that holds its truth.
				listed := map[string]bool{}
				for _, tp := range d.ByTopic {
					listed[tp.Topic] = true
					tt := topicTruth[tp.Topic]
					if tt-min(tt, unseen) < tp.Lost.Min && tt < tp.Lost.Min || tp.Lost.Bounded && tt-min(tt, unseen) > tp.Lost.Max {
						t.Errorf("%s: %s lost %d messages (%d may be changed unseen), the report says %v", what, tp.Topic, tt, unseen, tp.Lost)
						ok = false
					}
				}
				if len(d.ByTopic) > 0 {
					tl.byTopic++
					for topic, tt := range topicTruth {
						if tt > unseen && !listed[topic] {
							t.Errorf("%s: %s lost %d messages and the loss by topic does not name it: %v", what, topic, tt, d.ByTopic)
							ok = false
						}
					}
				}
				if src.claims && truth > 0 && !c.Bounded && !strings.Contains(v.name, "metadata.yaml removed") && !strings.HasPrefix(v.name, "cut") {
					t.Errorf("%s: the recording keeps counts, the loss is %v", what, c)
					ok = false
				}
				switch {
				case c.Exact():
					tl.exact++
				case c.Bounded:
					tl.bounded++
				default:
					tl.unbounded++
				}
				if strings.HasPrefix(v.name, "missing ") {
					named := false
					for _, r := range d.Ranges {
						if r.Unit == bag.UnitFile && filepath.Base(r.File) == src.missing {
							named = true
						}
					}
					if !named {
						t.Errorf("%s: the missing file is not named: %+v", what, d.Ranges)
						ok = false
					}
				}
				// Every command exits 1 on a loss, 0 without, and says the
				// same loss. The truth decides: 1 when messages recorded
				// were lost, 0 when none were, unless the report cannot
				// tell (a range that may hold messages, or messages read
				// from damaged units that may not be the ones recorded):
				// that is a loss too. A report that says nothing was lost
				// while something was is caught above.
				wantCode := 0
				uncertain := d.Suspect > 0 || !d.Messages.None()
				for _, r := range d.Ranges {
					uncertain = uncertain || !r.Messages.None()
				}
				switch {
				case truth > unseen:
					wantCode = 1
				case uncertain || d.MissingFiles > 0:
					wantCode = 1
				}
				if d.Lost() != (wantCode == 1) {
					t.Errorf("%s: %d messages lost, the report says lost %v: %+v", what, truth, d.Lost(), d)
					ok = false
				}
				var losses []string
				var verified *lossJSON
				for _, cmd := range []string{"info", "verify", "check"} {
					args := []string{cmd, "--json", p}
					if cmd == "info" {
						// info trusts an intact index (see below); asked,
						// it reads every message as verify does.
						args = []string{cmd, "--json", "--read-all", p}
					}
					out, stderr, code := run(args...)
					if code != wantCode {
						t.Errorf("%s: %s exit %d, want %d: %.400s", what, cmd, code, wantCode, stderr)
						ok = false
					}
					if l := lostOf(t, what+": "+cmd, out); l != nil {
						if cmd == "verify" {
							verified = l
						}
						losses = append(losses, fmt.Sprintf("%s %v", cmd, l.Messages()))
						// What was read, the same figure everywhere.
						if l.Read != readAll {
							t.Errorf("%s: %s --json says lost.read %d; %d messages were read", what, cmd, l.Read, readAll)
							ok = false
						}
					}
				}
				// Plain info trusts an index that opening found intact:
				// it exits as the others do, or 0 having said that its
				// counts are the index's.
				if out, stderr, code := run("info", "--json", p); code != wantCode {
					var v struct{ Counted string }
					json.Unmarshal([]byte(out), &v)
					if code != 0 || v.Counted != "index" {
						t.Errorf("%s: info exit %d (counts from %q), want %d: %.400s", what, code, v.Counted, wantCode, stderr)
						ok = false
					}
				}
				if _, _, code := run("cat", "--json", p); code != wantCode {
					t.Errorf("%s: cat exit %d, want %d", what, code, wantCode)
					ok = false
				}
				// The window's banner says the loss of its own read of
				// every message (stats.CountBytes), in the same figure.
				if w := windowDamage(t, p); w.Messages != d.Messages || w.Suspect != d.Suspect || w.Read != d.Read || fmt.Sprint(w.ByTopic) != fmt.Sprint(d.ByTopic) {
					t.Errorf("%s: the window says %v lost (%d suspect, %d read; by topic %v), the commands %v (%d suspect, %d read; by topic %v)", what, w.Messages, w.Suspect, w.Read, w.ByTopic, d.Messages, d.Suspect, d.Read, d.ByTopic)
					ok = false
				}
				// When the change cost anything, the bytes changed lie
				// where verify --json says nothing could be read from
				// (a range's or note's bytes past what it recovered
				// messages from), but for the first of them falling in
				// one message's data where no checksum covers it, those
				// in a record a finding names, those of a lost range
				// whose messages read came out suspect, and those that
				// hold nothing recorded (changed alone, they change
				// nothing read).
				if v.to > v.from && (truth > 0 || garbage > 0 || len(sus) > 0 || d.Lost()) {
					damaged := p
					if src.target != "" {
						damaged = filepath.Join(p, src.target)
					}
					for i, run := range uncovered(verified, v.file, v.from, v.to) {
						switch {
						case i == 0 && run[0] == v.from && run[1]-run[0] <= slack:
							// One message's data changed unseen.
						case namedByFinding(verified, v.file, run[0]):
							// In a record a finding names.
						case len(sus) > 0 && inLostRange(verified, v.file, run[0], run[1]):
							// Read from a lost range's unit whose
							// messages came out marked suspect (a
							// compressed chunk whose CRC fails: the
							// unmarked ones are checked above).
						case harmless(t, src, damaged, run[0], run[1], want):
							// Bytes that hold nothing recorded.
						default:
							t.Errorf("%s: bytes %d..%d of %s were changed (%d..%d); verify --json says they were read or held nothing, yet changed alone they change what is read", what, run[0], run[1], v.file, v.from, v.to)
							ok = false
						}
					}
				}
				if len(losses) == 3 {
					a, b, cc := strings.Fields(losses[0])[1:], strings.Fields(losses[1])[1:], strings.Fields(losses[2])[1:]
					if strings.Join(a, " ") != strings.Join(b, " ") || strings.Join(a, " ") != strings.Join(cc, " ") {
						t.Errorf("%s: the commands disagree on the loss: %v", what, losses)
						ok = false
					}
				}
				if ok {
					tl.truthful++
				}
			}
			t.Logf("%d damaged variants, %d tell the truth; losses exact %d, bounded %d, at least N %d; %d say which topics lost how many", tl.variants, tl.truthful, tl.exact, tl.bounded, tl.unbounded, tl.byTopic)
			mu.Lock()
			defer mu.Unlock()
			all.variants += tl.variants
			all.truthful += tl.truthful
			all.exact += tl.exact
			all.bounded += tl.bounded
			all.unbounded += tl.unbounded
			all.byTopic += tl.byTopic
		})
	}
}
