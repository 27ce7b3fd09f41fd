package mcap

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

func TestGeneratedVariants(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, want := genMCAP(t, v, 200, 2048)
			r := openBytes(t, data)
			got, skipped := ourRecs(t, r, bag.MessageFilter{})
			if len(skipped) > 0 {
				t.Errorf("skipped %v", skipped)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("read %d messages, wrote %d", len(got), len(want))
			}
			if lib := libRecs(t, data); !reflect.DeepEqual(lib, want) {
				t.Fatalf("library reads %d messages, wrote %d", len(lib), len(want))
			}
			if sc := r.FileInfo().Scanned; sc != nil && len(sc.Skipped) > 0 {
				t.Errorf("scan skipped %v", sc.Skipped)
			}
			s, _ := r.Summary()
			if s.Messages != uint64(len(want)) || len(s.Topics) != genTopics {
				t.Errorf("summary: %d messages, %d topics", s.Messages, len(s.Topics))
			}
			if v.noSummary == r.FileInfo().Indexed && v.chunked {
				t.Errorf("indexed = %v", r.FileInfo().Indexed)
			}
			// A filter: one topic, a time range.
			f := bag.MessageFilter{Topics: []string{"/imu"}, Start: bag.TimeFromUnixNanos(want[50].Time), End: bag.TimeFromUnixNanos(want[150].Time)}
			got, _ = ourRecs(t, r, f)
			var wantF []rec
			for _, m := range want[50:151] {
				if m.Topic == "/imu" {
					wantF = append(wantF, m)
				}
			}
			if !reflect.DeepEqual(got, wantF) {
				t.Errorf("filtered: read %d, want %d", len(got), len(wantF))
			}
		})
	}
}

// isPrefix reports whether got is want[:len(got)].
func isPrefix(got, want []rec) bool {
	return len(got) <= len(want) && reflect.DeepEqual(got, want[:len(got)]) || len(got) == 0
}

func TestCutFiles(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, want := genMCAP(t, v, 40, 1024)
			step := 1
			if testing.Short() {
				step = 17
			}
			if raceEnabled {
				step = 97
			}
			for cut := 0; cut < len(data); cut += step {
				part := data[:cut]
				r, err := NewReader(bytesReader(part), int64(len(part)), "")
				if err != nil {
					if cut >= 8 {
						t.Fatalf("cut at %d: %v", cut, err)
					}
					continue
				}
				got, _ := ourRecs(t, r, bag.MessageFilter{})
				if !isPrefix(got, want) {
					t.Fatalf("cut at %d of %d: %d messages are not a prefix of what was written", cut, len(data), len(got))
				}
				r.Blocks()
				r.Summary()
			}
		})
	}
}

func TestFlippedChunk(t *testing.T) {
	for _, v := range variants() {
		if !v.chunked {
			continue
		}
		t.Run(v.name, func(t *testing.T) {
			data, want := genMCAP(t, v, 300, 2048)
			healthy := openBytes(t, data)
			blocks := healthy.Blocks()
			if len(blocks) < 3 {
				t.Fatalf("only %d chunks", len(blocks))
			}
			for bi := range blocks {
				b := blocks[bi]
				ents, err := healthy.BlockIndex(b)
				if err != nil {
					t.Fatal(err)
				}
				inChunk := map[uint64]bool{}
				for _, e := range ents {
					inChunk[uint64(e.Time.Nanos())] = true
				}
				bad := append([]byte(nil), data...)
				bad[b.Offset+b.Len*2/3] ^= 0x5a
				bad[b.Offset+b.Len*2/3+1] ^= 0xa5
				r := openBytes(t, bad)
				got, skipped := ourRecs(t, r, bag.MessageFilter{})
				if len(skipped) != 1 || skipped[0].Start != b.Offset {
					t.Fatalf("chunk %d at %d: skipped %v", bi, b.Offset, skipped)
				}
				// Every other chunk's messages, and a prefix of this one's.
				var others, mine []rec
				for _, m := range want {
					if inChunk[m.Time] {
						mine = append(mine, m)
					} else {
						others = append(others, m)
					}
				}
				if v.noSummary {
					// The channel records were in the damaged chunk.
					others, mine, got = noTopics(others), noTopics(mine), noTopics(got)
				}
				var gotOthers, gotMine []rec
				for _, m := range got {
					// A suspect message comes from the damaged chunk, its
					// time maybe garbage.
					if inChunk[m.Time] || m.Suspect {
						gotMine = append(gotMine, m)
					} else {
						gotOthers = append(gotOthers, m)
					}
				}
				if !reflect.DeepEqual(gotOthers, others) {
					t.Fatalf("chunk %d damaged: %d of the other chunks' %d messages read", bi, len(gotOthers), len(others))
				}
				// Of the damaged chunk's messages, those read unmarked are
				// its own; those that may differ are marked suspect.
				var trusted []rec
				for _, m := range gotMine {
					if !m.Suspect {
						trusted = append(trusted, m)
					}
				}
				if len(trusted) != len(gotMine) && len(trusted) > 0 {
					t.Fatalf("chunk %d damaged: %d of its %d messages read are suspect: a chunk's are all or none", bi, len(gotMine)-len(trusted), len(gotMine))
				}
				if !isPrefix(trusted, mine) {
					t.Fatalf("chunk %d damaged: its %d messages read unmarked are not a prefix of its %d", bi, len(trusted), len(mine))
				}

			}
		})
	}
}

var _ = fmt.Sprint

func noTopics(r []rec) []rec {
	out := make([]rec, len(r))
	for i, m := range r {
		m.Topic = ""
		out[i] = m
	}
	return out
}
