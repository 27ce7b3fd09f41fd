package cli

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// sweepMessage is a message of an undamaged bag as cat --json prints it,
// with where its record ends in the file (for uncompressed chunks).
type sweepMessage struct {
	line string
	end  int64
}

// sweepFull reads an undamaged uncompressed bag: its cat --json lines and
// the file offset where each message's record ends.
func sweepFull(t *testing.T, path string) []sweepMessage {
	t.Helper()
	b, err := ros1.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ends []int64
	it := b.Messages(ros1.MessageFilter{})
	for it.Next() {
		m := it.Message()
		ch, err := b.ChunkAt(m.ChunkPos)
		if err != nil || ch.Compression != ros1.CompressionNone {
			t.Fatalf("%s: the sweep needs uncompressed chunks", path)
		}
		ends = append(ends, ch.DataOffset+int64(m.DataOffset)+int64(len(m.Data)))
	}
	out, _, code := run("cat", "--json", path)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != len(ends) {
		t.Fatalf("cat %s: exit %d, %d lines for %d messages", path, code, len(lines), len(ends))
	}
	msgs := make([]sweepMessage, len(ends))
	for i := range ends {
		msgs[i] = sweepMessage{lines[i], ends[i]}
	}
	return msgs
}

// sweepLines splits cat's stdout into lines, checking each is JSON.
func sweepLines(t *testing.T, what, out string) []string {
	t.Helper()
	if out == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("%s: cat --json printed a line that is not JSON: %.200s", what, l)
		}
	}
	return lines
}

// sweepStderr checks that every line a command printed on stderr names a
// byte offset.
func sweepStderr(t *testing.T, what, stderr string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l != "" && !offsetLine.MatchString(l) {
			t.Fatalf("%s: a stderr line names no offset: %s", what, l)
		}
	}
}

// sweepCommands runs cat, verify and check on one damaged file and checks
// the rules every damaged input must keep: no panic (a panic fails the
// test), valid JSON, every stderr line with an offset, exit statuses that
// say loss (cat and verify exit 0 only when they read every message of
// the undamaged bag), check not clean on a cut file. It returns the
// lines cat printed.
func sweepCommands(t *testing.T, what, p string, full int, withChecks, cut bool) []string {
	t.Helper()
	out, stderr, code := run("cat", "--json", p)
	got := sweepLines(t, what, out)
	sweepStderr(t, what+": cat", stderr)
	if code != 0 && code != 1 && !(code == 2 && len(got) == 0) {
		t.Fatalf("%s: cat exit %d (2 only for a file that does not open)", what, code)
	}
	if code == 0 && len(got) != full {
		t.Fatalf("%s: cat printed %d of %d messages and exited 0: silent loss", what, len(got), full)
	}
	if !withChecks {
		return got
	}
	out, stderr, code = run("verify", "--json", p)
	var v verifyJSON
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s: verify --json printed no JSON: %v: %q", what, err, out)
	}
	sweepStderr(t, what+": verify", stderr)
	if code == 0 && (v.Messages != uint64(full) || !v.OK) {
		t.Fatalf("%s: verify read %d of %d messages and exited 0", what, v.Messages, full)
	}
	out, stderr, code = run("check", "--json", p)
	var c checkJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%s: check --json printed no JSON: %v: %q", what, err, out)
	}
	// A cut that lost messages is never clean; one that lost only what
	// follows the last message (the index) lost nothing: exit 0.
	if code == 0 && cut && len(got) != full {
		t.Fatalf("%s: check is clean on a cut file that lost %d of %d messages", what, full-len(got), full)
	}
	if code == 2 && (len(c.Findings) == 0 || c.Error == "") {
		t.Fatalf("%s: check exit 2 without an error finding: %s", what, out)
	}
	if code == 2 && !strings.Contains(stderr, "offset") {
		t.Fatalf("%s: check's error names no offset: %q", what, stderr)
	}
	return got
}

// sweepCutSample: make test runs one in so many of the sweep's cases.
const sweepCutSample = 3

// TestSweepCutAndCorrupt cuts small bags at every offset and flips bytes
// at random in larger ones, running the commands on each copy (the rules
// are in sweepCommands). A cut copy of an uncompressed bag must give back
// exactly the messages whose records end before the cut: the uncut
// prefix. Memory stays bounded.
//
// make test runs one in sweepCutSample of each fixture's cuts and of each
// format's flips (the same cases as the whole sweep, see bag/sweeptest);
// make test-long runs every one:
//
//	go test -race -run '^TestSweepCutAndCorrupt$' ./model/cli/ -long
func TestSweepCutAndCorrupt(t *testing.T) {
	sweeptest.Note(t, sweepCutSample, "each fixture's cuts and each format's flips")
	dir := t.TempDir()
	p := filepath.Join(dir, "damaged.bag")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cases := 0
	for _, tc := range []struct {
		name   string
		stride int // cut every stride bytes; verify and check every 7th cut
	}{
		{"single-message.bag", 1},
		{"two-conns-one-topic.bag", 1},
		{"none-multichunk.bag", 211},
	} {
		src := filepath.Join(testdata, tc.name)
		full := sweepFull(t, src)
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut < len(data); cut += tc.stride {
			if !sweeptest.Keep(cut/tc.stride, sweepCutSample) {
				continue
			}
			what := fmt.Sprintf("%s cut at %d", tc.name, cut)
			if err := os.WriteFile(p, data[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			got := sweepCommands(t, what, p, len(full), tc.stride > 1 || cut%7 == 0, true)
			cases++
			// The salvage is the uncut prefix: every message whose record
			// ends before the cut, no other.
			var want []string
			for _, m := range full {
				if m.end <= int64(cut) {
					want = append(want, m.line)
				}
			}
			g := slices.Clone(got)
			slices.Sort(g)
			slices.Sort(want)
			if !slices.Equal(g, want) {
				t.Fatalf("%s: read %d messages, the uncut prefix holds %d", what, len(got), len(want))
			}
		}
	}
	// Random flips of 1 to 4 bytes in the compressed fixtures.
	rng := rand.New(rand.NewSource(16))
	for _, name := range []string{"bz2-multichunk.bag", "lz4-multichunk.bag", "none-multichunk.bag"} {
		src := filepath.Join(testdata, name)
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		out, _, _ := run("cat", "--json", src)
		fullN := strings.Count(out, "\n")
		for i := 0; i < 40; i++ {
			c := slices.Clone(data)
			var at []int
			for range 1 + rng.Intn(4) {
				k := rng.Intn(len(c))
				c[k] ^= byte(1 + rng.Intn(255))
				at = append(at, k)
			}
			if !sweeptest.Keep(i, sweepCutSample) {
				continue
			}
			what := fmt.Sprintf("%s flipped at %v", name, at)
			if err := os.WriteFile(p, c, 0o644); err != nil {
				t.Fatal(err)
			}
			got := sweepCommands(t, what, p, fullN, true, false)
			cases++
			if i%4 != 0 {
				continue
			}
			// fix keeps what cat reads.
			fixed := filepath.Join(dir, fmt.Sprintf("fixed%d.bag", cases))
			_, stderr, code := run("fix", p, fixed)
			sweepStderr(t, what+": fix", stderr)
			if (code == 1 || code == 2) && len(got) > 0 {
				t.Fatalf("%s: fix recovered nothing, cat read %d messages: %s", what, len(got), stderr)
			}
			if code == 1 || code == 2 {
				continue
			}
			out, _, _ := run("cat", "--json", fixed)
			// The copy leaves out what cat marks suspect.
			var trusted []string
			for _, l := range got {
				if !strings.Contains(l, `"suspect": `) {
					trusted = append(trusted, l)
				}
			}
			if out != strings.Join(trusted, "\n")+strings.Repeat("\n", min(1, len(trusted))) {
				t.Fatalf("%s: the repaired copy holds %d messages, cat read %d unmarked", what, strings.Count(out, "\n"), len(trusted))
			}
			os.Remove(fixed)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / uint64(cases); per > 64<<20 {
		t.Errorf("%d bytes allocated per damaged copy on average", per)
	}
	t.Logf("%d damaged copies", cases)
}
