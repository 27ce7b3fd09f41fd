package cli

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
)

var killedDir = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "bagscope-killed-")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(refPython, testdata+"/make_killed.py", dir).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("make_killed.py: %v\n%s", err, out)
	}
	return dir, nil
})

// salvaged lists the messages bagscope reads from path, as ref_messages.py
// prints them.
func salvaged(t *testing.T, path string) string {
	t.Helper()
	b, err := ros1.OpenOrScan(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var sb strings.Builder
	it := b.Messages(ros1.MessageFilter{})
	for it.Next() {
		m := it.Message()
		h := sha1.Sum(m.Data)
		fmt.Fprintf(&sb, "%s %d %d %d %s\n", m.Conn.Topic, m.Time.Sec, m.Time.NSec, len(m.Data), hex.EncodeToString(h[:]))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return sb.String()
}

// damagedCopy flips a byte inside the second chunk's data of an indexed
// bag, so that chunk cannot be read.
func damagedCopy(t *testing.T, src string) string {
	t.Helper()
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := b.ChunkHeader(b.ChunkInfos[1])
	b.Close()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(src)
	data[ch.DataOffset+int64(ch.DataLen)/2] ^= 0xff
	data[ch.DataOffset+int64(ch.DataLen)/2+1] ^= 0x5a
	p := filepath.Join(t.TempDir(), "damaged.bag")
	os.WriteFile(p, data, 0o644)
	return p
}

// TestFixPassesReference repairs killed, cut and damaged bags and checks
// the copies with the reference: `rosbag info` and `rosbag check` accept
// them, and they read back message for message equal to what bagscope
// salvaged from the input.
func TestFixPassesReference(t *testing.T) {
	requireRef(t)
	dir, err := killedDir()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   string
		code int
		orig string // for damaged copies: the undamaged bag
	}{
		{"killed none open chunk", dir + "/none-default.snap333.bag.active", 0, ""},
		{"killed none many chunks", dir + "/none-small.snap599.bag.active", 0, ""},
		{"killed lz4", dir + "/lz4-small.snap333.bag.active", 0, ""},
		{"killed bz2", dir + "/bz2-small.snap150.bag.active", 0, ""},
		{"shared truncated", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", 3, ""},
		{"shared unindexed", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", 0, ""},
		{"indexed lz4", testdata + "/lz4-multichunk.bag", 0, ""},
		{"damaged bz2 chunk", "", 3, testdata + "/bz2-multichunk.bag"},
		{"damaged lz4 chunk", "", 3, testdata + "/lz4-multichunk.bag"},
	}
	tests[7].in = damagedCopy(t, testdata+"/bz2-multichunk.bag")
	tests[8].in = damagedCopy(t, testdata+"/lz4-multichunk.bag")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "fixed.bag")
			stdout, stderr, code := run("fix", tc.in, out)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			if tc.code == 3 && !strings.Contains(stdout, "lost") {
				t.Fatalf("partial repair does not say what was lost:\n%s", stdout)
			}
			for _, args := range [][]string{{"info", out}, {"check", out}} {
				cmd := exec.Command("/usr/bin/rosbag", args...)
				if b, err := cmd.CombinedOutput(); err != nil || strings.Contains(string(b), "ERROR") {
					t.Fatalf("rosbag %s: %v\n%s", args[0], err, b)
				}
			}
			ref, err := exec.Command(refPython, "../../bag/ros1/testdata/ref_messages.py", out).Output()
			if err != nil {
				t.Fatal(err)
			}
			if tc.orig == "" {
				if want := salvaged(t, tc.in); string(ref) != want {
					t.Fatalf("the copy reads back differently from what was salvaged:\n got %d lines\nwant %d lines", strings.Count(string(ref), "\n"), strings.Count(want, "\n"))
				}
				return
			}
			// A damaged chunk: the copy holds the other chunks' messages,
			// each one of the original's, and says how many were lost.
			if ours := salvaged(t, out); string(ref) != ours {
				t.Fatal("the reference and bagscope read the copy differently")
			}
			orig := map[string]int{}
			for _, l := range strings.Split(salvaged(t, tc.orig), "\n") {
				orig[l]++
			}
			kept := strings.Split(strings.TrimSpace(string(ref)), "\n")
			for _, l := range kept {
				if orig[l]--; orig[l] < 0 {
					t.Fatalf("the copy holds a message the original does not: %s", l)
				}
			}
			// What was not kept was lost or, read from the damaged
			// chunk, left out as suspect.
			lost, suspect := fixFigure(stdout, `lost: ([\d,]+) messages? lost`), fixFigure(stdout, `left out ([\d,]+) suspect`)
			if lost+suspect == 0 || len(kept)+lost+suspect != strings.Count(salvaged(t, tc.orig), "\n") {
				t.Fatalf("kept %d + lost %d + suspect %d != %d original messages\n%s", len(kept), lost, suspect, strings.Count(salvaged(t, tc.orig), "\n"), stdout)
			}
		})
	}
}

// TestFixRefuses checks that fix never writes over its input.
func TestFixRefuses(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.bag")
	data, _ := os.ReadFile(testdata + "/single-message.bag")
	os.WriteFile(in, data, 0o644)
	other := filepath.Join(t.TempDir(), "other.bag")
	os.WriteFile(other, []byte("keep me"), 0o644)
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"same path", []string{"fix", in, in}, 2, "refusing to write"},
		{"same file by another name", []string{"fix", in, filepath.Dir(in) + "/./in.bag"}, 2, "refusing to write"},
		{"existing output", []string{"fix", in, other}, 2, "--force"},
		{"one argument", []string{"fix", in}, 2, "usage"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.contains) {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
		})
	}
	if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
		t.Fatal("input changed")
	}
	if got, _ := os.ReadFile(other); string(got) != "keep me" {
		t.Fatal("existing output overwritten without --force")
	}
	if _, stderr, code := run("fix", "--force", in, other); code != 0 {
		t.Fatalf("--force: exit %d %s", code, stderr)
	}
}

// TestCommandsLeaveInputUntouched runs every command on a read-only copy
// of a bag and checks it is byte-identical afterwards.
func TestCommandsLeaveInputUntouched(t *testing.T) {
	for _, src := range []string{testdata + "/lz4-multichunk.bag", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		in := filepath.Join(t.TempDir(), filepath.Base(src))
		os.WriteFile(in, data, 0o444)
		for _, args := range [][]string{
			{"info", in}, {"info", "--json", in}, {"records", in}, {"cat", in}, {"cat", "--json", in},
			{"check", in}, {"verify", in}, {"fix", in, filepath.Join(t.TempDir(), "out.bag")},
		} {
			run(args...)
			if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
				t.Fatalf("%v changed its input", args)
			}
		}
	}
}

// fixFigure reads the number a pattern's first group matches in fix's
// report, 0 when it does not match.
func fixFigure(out, pattern string) int {
	m := regexp.MustCompile(pattern).FindStringSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	return n
}
