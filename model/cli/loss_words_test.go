package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/human"
)

// TestLossWordsAgreeWithNumbers: for a zstd chunk damaged part way (a
// flipped bit that decompresses to nonsense, and 256 bytes overwritten
// that stop the decompression), verify's --json range says how many of
// the chunk's bytes the recovered messages were read from and how many
// yielded nothing, adding up to the chunk; verify's text says the same
// numbers ("recovered N messages from its first X, … Y unreadable from
// offset Z"), and fix's report (the words of the window's repair dialog)
// gives the range in the same words. Where the bytes lie is checked
// against the zstd decoder in bag/mcap's tests.
func TestLossWordsAgreeWithNumbers(t *testing.T) {
	intact, err := os.ReadFile(testdata + "/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), intact...)
	flipped[200000] ^= 0xff
	overwritten := append([]byte(nil), intact...)
	for i := 400000; i < 400256; i++ {
		overwritten[i] = 0xff
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{{"flipped bit", flipped}, {"overwritten run", overwritten}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "damaged.mcap")
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, code := run("verify", "--json", p)
			l := lostOf(t, "verify --json", out)
			if code != 1 || l == nil || len(l.Ranges) == 0 {
				t.Fatalf("exit %d, lost %+v", code, l)
			}
			r := l.Ranges[0]
			if r.Unit != "chunk" || r.Recovered == 0 || r.Readable <= 0 || r.Unreadable <= 0 || r.Readable+r.Unreadable != r.To-r.From {
				t.Fatalf("the chunk's range: from %d to %d, %d recovered from %d bytes, %d unreadable", r.From, r.To, r.Recovered, r.Readable, r.Unreadable)
			}
			words := []string{
				"recovered " + human.Plural(r.Recovered, "message") + " from its first " + human.Size(r.Readable),
				human.Size(r.Unreadable) + " unreadable from offset " + human.Count(uint64(r.From+r.Readable)),
			}
			_, stderr, _ := run("verify", p)
			_, fixed, _ := run("fix", p, filepath.Join(dir, "fixed.mcap"))
			for _, w := range words {
				if !strings.Contains(stderr, w) {
					t.Errorf("verify does not say %q:\n%s", w, stderr)
				}
				if !strings.Contains(fixed, w) {
					t.Errorf("fix does not say %q:\n%s", w, fixed)
				}
			}
			// The headline's bytes are the ranges' unreadable bytes.
			var sum int64
			for _, r := range append(l.Ranges, l.Notes...) {
				sum += r.Unreadable
			}
			if !strings.Contains(stderr, human.Size(sum)+" unreadable;") {
				t.Errorf("the headline does not say the %s unreadable:\n%s", human.Size(sum), stderr)
			}
		})
	}
}
