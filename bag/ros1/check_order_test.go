package ros1

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestCheckSaysTheSameEveryRun: the doctor's per-connection checks (the
// index data records missing after a chunk, the connections a chunk info
// leaves out, the connections with more undecodable messages than are
// listed) give several findings at one offset. Run after run they must be
// the same findings in the same order, by offset, then connection.
func TestCheckSaysTheSameEveryRun(t *testing.T) {
	topics := []string{"/a", "/b", "/c", "/d", "/e", "/f", "/g"}
	// msgs returns n messages on each of conns, interleaved; bad payloads
	// (one byte: no string length) do not decode as std_msgs/String.
	msgs := func(conns []uint32, n int, bad bool, t0 uint32) []testMsg {
		var out []testMsg
		for i := range n {
			for _, c := range conns {
				p := fmt.Sprintf("\x02\x00\x00\x00%c%c", 'a'+c, 'a'+i%26)
				if bad {
					p = "x"
				}
				out = append(out, testMsg{c, Time{Sec: t0 + uint32(i), NSec: c}, p})
			}
		}
		return out
	}
	// chunks returns n chunks of msgs(conns, per, bad): the doctor lists
	// 20 undecodable messages a chunk, so a connection passes the 20 it
	// lists in all only over several chunks.
	chunks := func(n int, conns []uint32, per int, bad bool, t0 uint32) [][]testMsg {
		var out [][]testMsg
		for i := range n {
			out = append(out, msgs(conns, per, bad, t0+uint32(i*per)))
		}
		return out
	}
	set := func(ids ...uint32) map[uint32]bool {
		m := map[uint32]bool{}
		for _, id := range ids {
			m[id] = true
		}
		return m
	}
	all := []uint32{0, 1, 2, 3, 4, 5, 6}
	cases := []struct {
		name    string
		data    []byte
		quick   bool
		want    []string // each must be found at one offset for several connections
		atLeast int
	}{
		{"index data and chunk info leave out connections", buildBagWith(topics, [][]testMsg{msgs(all, 3, false, 100), msgs(all, 3, false, 200)},
			bagFaults{noIndexData: set(1, 2, 3, 4, 5, 6), notListed: set(0, 2, 3, 4, 5, 6)}), true,
			[]string{"no index data record after the chunk for connection", "chunk info does not list connection"}, 6},
		{"undecodable messages on every connection", buildBagWith(topics, chunks(12, all, 3, true, 100), bagFaults{}), false,
			[]string{"do not decode as std_msgs/String; the first 20 are listed"}, 7},
		{"all three", buildBagWith(topics, append(chunks(8, all[:4], 3, true, 100), msgs(all, 2, false, 300)),
			bagFaults{noIndexData: set(0, 1, 5, 6), notListed: set(2, 3, 4, 5)}), false,
			[]string{"no index data record after the chunk for connection", "chunk info does not list connection", "do not decode as"}, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.quick {
				ctx = bag.WithQuickCheck(ctx)
			}
			var first []Finding
			for run := range 20 {
				rep, err := CheckContext(ctx, bytes.NewReader(tc.data), int64(len(tc.data)), nil)
				if err != nil {
					t.Fatal(err)
				}
				if run == 0 {
					first = rep.Findings
					for _, w := range tc.want {
						at := map[int64]int{}
						for _, f := range first {
							if strings.Contains(f.Message, w) {
								at[f.Offset]++
							}
						}
						if slices.Max(append(slices.Collect(maps.Values(at)), 0)) < tc.atLeast {
							t.Fatalf("want %d findings %q at one offset, got %v in:\n%s", tc.atLeast, w, at, findingsList(first))
						}
					}
					if !slices.IsSortedFunc(first, func(a, b Finding) int { return int(a.Offset - b.Offset) }) {
						t.Fatalf("findings not in offset order:\n%s", findingsList(first))
					}
					continue
				}
				if !slices.Equal(rep.Findings, first) {
					t.Fatalf("run %d says\n%s\nthe first run said\n%s", run, findingsList(rep.Findings), findingsList(first))
				}
			}
		})
	}
}

func findingsList(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %d %v: %s\n", f.Offset, f.Severity, f.Message)
	}
	return b.String()
}

// TestCheckIndexEntriesInAnyOrder: the doctor finds each index entry's
// message from where the entry before it was found; entries out of offset
// order are found too, and entries that point nowhere are reported the same
// in either order.
func TestCheckIndexEntriesInAnyOrder(t *testing.T) {
	topics := []string{"/a", "/b", "/c"}
	var chunk []testMsg
	for i := range 40 {
		chunk = append(chunk, testMsg{uint32(i % 3), Time{Sec: 100 + uint32(i)}, "\x01\x00\x00\x00x"})
	}
	errs := func(data []byte) []string {
		rep, err := CheckContext(bag.WithQuickCheck(context.Background()), bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range rep.Findings {
			if f.Severity == Error {
				out = append(out, f.Message)
			}
		}
		return out
	}
	inOrder := buildBagWith(topics, [][]testMsg{chunk, chunk[:7]}, bagFaults{})
	reversed := buildBagWith(topics, [][]testMsg{chunk, chunk[:7]}, bagFaults{reversed: true})
	if e := errs(inOrder); len(e) > 0 {
		t.Fatalf("in order: %q", e)
	}
	if e := errs(reversed); len(e) > 0 {
		t.Fatalf("reversed: %q", e)
	}
	// An entry's offset moved into the middle of a record: one error for
	// it, found the same way whichever order the entries are in.
	for _, data := range [][]byte{inOrder, reversed} {
		bad := slices.Clone(data)
		// The first index data record after the first chunk: its
		// second entry's offset, one byte on.
		i := bytes.Index(bad, []byte("op=\x04"))
		if i < 0 {
			t.Fatal("no index data record")
		}
		r := i - 8 // the record: header length, the op field's length, "op="
		d := r + 4 + int(binary.LittleEndian.Uint32(bad[r:])) + 4
		off := d + 12 + 8 // the second entry's offset
		binary.LittleEndian.PutUint32(bad[off:], binary.LittleEndian.Uint32(bad[off:])+1)
		e := errs(bad)
		if len(e) != 1 || !strings.Contains(e[0], "points at no message record") {
			t.Errorf("want one error for the entry that points nowhere, got %q", e)
		}
	}
}
