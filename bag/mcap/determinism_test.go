package mcap

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	lib "github.com/foxglove/mcap/go/mcap"
)

// runs is how many times each determinism test repeats what it checks:
// a Go map's walk starts somewhere new each time, so an answer that
// hangs on map order differs within a few runs.
const runs = 20

// TestStatsClaimUndefinedChannel: a statistics record counting a channel
// the file does not define claims the total only, no topic at all, on
// every run (not the topics the walk of its map met before that channel).
func TestStatsClaimUndefinedChannel(t *testing.T) {
	data, want := genMCAP(t, variant{name: "zstd", compression: lib.CompressionZSTD, chunked: true}, 300, 1024)
	perTopic := map[string]uint64{}
	for _, m := range want {
		perTopic[m.Topic]++
	}
	cases := []struct {
		name       string
		move       []uint16 // channels whose count is given to an undefined one
		wantTopics map[string]uint64
	}{
		{"every channel defined", nil, perTopic},
		{"one channel undefined", []uint16{3}, nil},
		{"two channels undefined", []uint16{1, 3}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := openBytes(t, data)
			if x.stats == nil || len(x.stats.ChannelCounts) != genTopics {
				t.Fatalf("the generated file has statistics %+v", x.stats)
			}
			for i, id := range tc.move {
				x.stats.ChannelCounts[uint16(200+i)] = x.stats.ChannelCounts[id]
				delete(x.stats.ChannelCounts, id)
			}
			for run := range runs {
				c := x.statsClaim()
				if c == nil || c.Messages != uint64(len(want)) {
					t.Fatalf("run %d: claim %+v, want %d messages", run, c, len(want))
				}
				if tc.wantTopics == nil && c.Topics != nil || !maps.Equal(c.Topics, tc.wantTopics) {
					t.Fatalf("run %d: topics %#v, want %#v", run, c.Topics, tc.wantTopics)
				}
			}
		})
	}
}

// retagChannels rewrites the opcode of every channel record at the top
// level of an unchunked file's data section to a private one (0x80), so
// that the reader skips them and every channel's record is lost.
func retagChannels(t *testing.T, data []byte) int {
	t.Helper()
	n := 0
	for p := int64(magicLen); p+recHeaderLen <= int64(len(data)); {
		op := Op(data[p])
		if op == OpDataEnd || op == OpFooter {
			break
		}
		l := int64(binary.LittleEndian.Uint64(data[p+1:]))
		if op == OpChannel {
			data[p] = 0x80
			n++
		}
		p += recHeaderLen + l
	}
	return n
}

// TestLostChannelNotesInOrder: the notes about channels that have
// messages but lost their channel record come in channel order, the same
// on every open.
func TestLostChannelNotesInOrder(t *testing.T) {
	cases := []struct {
		name   string
		v      variant
		wantID []uint16
	}{
		{"unchunked without summary", variant{name: "unchunked-nosum", noSummary: true}, []uint16{1, 2, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, _ := genMCAP(t, tc.v, 60, 1024)
			if n := retagChannels(t, data); n != genTopics {
				t.Fatalf("retagged %d channel records, want %d", n, genTopics)
			}
			var want []string
			for _, id := range tc.wantID {
				want = append(want, fmt.Sprintf("channel %d has messages but its channel record was lost: shown as topic /unknown_channel_%d", id, id))
			}
			for run := range runs {
				x := openBytes(t, data)
				if x.info.Scanned == nil {
					t.Fatal("the file was not scanned")
				}
				var got []string
				for _, n := range x.info.Scanned.Notes {
					if strings.Contains(n, "its channel record was lost") {
						got = append(got, n)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("run %d notes:\n%s\nwant:\n%s", run, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		})
	}
}

// TestFirstBadMessageIndexNamed: when a chunk index names several
// message index records wrongly, the reader names the one at the lowest
// offset (then the lowest channel), on every read.
func TestFirstBadMessageIndexNamed(t *testing.T) {
	data, _ := genMCAP(t, variant{name: "zstd", compression: lib.CompressionZSTD, chunked: true}, 300, 1024)
	cases := []struct {
		name string
		// bad returns the wrong offset each channel's record is named at.
		bad func(ids []uint16, o map[uint16]uint64) map[uint16]uint64
	}{
		{"every offset one off", func(ids []uint16, o map[uint16]uint64) map[uint16]uint64 {
			out := map[uint16]uint64{}
			for _, id := range ids {
				out[id] = o[id] + 1
			}
			return out
		}},
		{"every channel at one wrong offset", func(ids []uint16, o map[uint16]uint64) map[uint16]uint64 {
			out := map[uint16]uint64{}
			for _, id := range ids {
				out[id] = o[ids[0]] + 1
			}
			return out
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := openBytes(t, data)
			i := slices.IndexFunc(x.chunks, func(c *chunk) bool { return len(c.MsgIdx) >= 3 })
			if i < 0 {
				t.Fatal("no chunk with three channels")
			}
			c := x.chunks[i]
			ids := slices.Sorted(maps.Keys(c.MsgIdx))
			bad := tc.bad(ids, c.MsgIdx)
			c.MsgIdx = bad
			first := slices.MinFunc(ids, func(a, b uint16) int {
				if bad[a] != bad[b] {
					return int(int64(bad[a]) - int64(bad[b]))
				}
				return int(a) - int(b)
			})
			want := fmt.Sprintf("message_index_offsets names %d for channel %d,", bad[first], first)
			for run := range runs {
				_, err := x.messageIndex(c)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("run %d: %v, want an error with %q", run, err, want)
				}
			}
		})
	}
}
