package ros1

import (
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestMessagesMatchReference reads every message of every real bag and
// compares topic, time, length and payload hash with the reference reader.
//
// make test compares the fixtures, every shared bag whose name says it is
// damaged, and one in refSample of the other shared bags (in path order,
// the same every run); -long (make test-long) every one:
//
//	go test -race -run '^TestMessagesMatchReference$' ./bag/ros1/ -long
func TestMessagesMatchReference(t *testing.T) {
	requireRef(t)
	const refSample = 3
	bags := sampledROS1Bags(t, refSample, "the shared bags not named as damaged")
	for _, p := range bags {
		t.Run(shortName(p), func(t *testing.T) {
			t.Parallel()
			b, err := Open(p)
			if err != nil {
				if errors.Is(err, ErrUnindexed) || errors.Is(err, ErrNotBag) {
					return // covered by TestBrokenBags
				}
				t.Fatalf("Open: %v", err)
			}
			defer b.Close()
			var got []string
			it := b.Messages(MessageFilter{})
			prev := Time{}
			for it.Next() {
				m := it.Message()
				if m.Time.Before(prev) {
					t.Fatalf("message at %v comes after %v: not in time order", m.Time, prev)
				}
				prev = m.Time
				h := sha1.Sum(m.Data)
				got = append(got, fmt.Sprintf("%s %d %d %d %s", m.Conn.Topic, m.Time.Sec, m.Time.NSec, len(m.Data), hex.EncodeToString(h[:])))
			}
			if err := it.Err(); err != nil {
				t.Fatalf("Messages: %v", err)
			}
			want := strings.Split(strings.TrimSpace(string(runRef(t, "testdata/ref_messages.py", p))), "\n")
			if len(want) == 1 && want[0] == "" {
				want = nil
			}
			if len(got) != len(want) {
				t.Fatalf("got %d messages, reference reads %d", len(got), len(want))
			}
			// The reference merges per-connection indexes that it builds in
			// chunk order, so on bags whose chunks are not in time order its
			// output is not in time order either; bagscope's is. Compare
			// in time order, ties as multisets.
			sortByTime(want)
			sortTies(got)
			sortTies(want)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("message %d:\n got %s\nwant %s", i, got[i], want[i])
				}
			}
		})
	}
}

// sortByTime stably sorts lines by their time words.
func sortByTime(lines []string) {
	slices.SortStableFunc(lines, func(a, b string) int {
		fa, fb := strings.Fields(a), strings.Fields(b)
		var sa, na, sb, nb uint64
		fmt.Sscan(fa[len(fa)-4], &sa)
		fmt.Sscan(fa[len(fa)-3], &na)
		fmt.Sscan(fb[len(fb)-4], &sb)
		fmt.Sscan(fb[len(fb)-3], &nb)
		return cmp.Compare(sa<<32|na, sb<<32|nb)
	})
}

// sortTies sorts each run of lines with the same time so that tie order does
// not matter (the line's 2nd and 3rd words are secs and nsecs).
func sortTies(lines []string) {
	key := func(s string) string {
		f := strings.Fields(s)
		return f[len(f)-4] + " " + f[len(f)-3]
	}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && key(lines[j]) == key(lines[i]) {
			j++
		}
		slices.Sort(lines[i:j])
		i = j
	}
}
