package human

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestLostRangeWordsAgreeWithNumbers: a range says what was recovered
// from which of its bytes, and which bytes yielded nothing from where; a
// range nothing was read from says its bytes unreadable as before.
func TestLostRangeWordsAgreeWithNumbers(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    bag.LostRange
		want string
	}{
		{"zstd chunk damaged part way", bag.LostRange{File: "x.mcap", ByteRange: bag.ByteRange{Start: 52, End: 344_700, Unit: bag.UnitChunk,
			Messages: bag.Exactly(829), Recovered: 2471, Readable: 279_294}},
			"chunk at 52: recovered 2,471 messages from its first 273 KiB, 829 messages lost, 64 KiB unreadable from offset 279,346"},
		{"cut chunk", bag.LostRange{File: "x.mcap", ByteRange: bag.ByteRange{Start: 1000, End: 5000, Unit: bag.UnitChunk,
			Messages: bag.Between(1, 3), Recovered: 40, Readable: 2000}, Past: 1000},
			"chunk at 1000: recovered 40 messages from its first 2.0 KiB, 1 to 3 messages lost, 1000 B unreadable from offset 3,000, 1000 B cut off"},
		{"nothing read", bag.LostRange{File: "x.bag", ByteRange: bag.ByteRange{Start: 4117, End: 6997, Unit: bag.UnitChunk, Messages: bag.AtLeast(1)}},
			"chunk at 4117: at least 1 message lost, 2.8 KiB unreadable"},
		{"every byte read, the records suspect", bag.LostRange{File: "x.mcap", ByteRange: bag.ByteRange{Start: 52, End: 800, Unit: bag.UnitChunk,
			Messages: bag.Exactly(0), Recovered: 9, Readable: 748}},
			"chunk at 52: recovered 9 messages, no message lost"},
		{"missing file", bag.LostRange{File: "/d/wbag_2.db3", Part: -1, ByteRange: bag.ByteRange{Unit: bag.UnitFile, Messages: bag.Exactly(1240)}},
			"file wbag_2.db3: 1,240 messages lost, the file is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := LostRange(tc.r); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
