package mcap

import (
	"slices"

	"github.com/bagscope/bagscope/bag"
)

// minMessageRecord is the fewest bytes a message record takes: its
// record header and the message's fixed fields.
const minMessageRecord = recHeaderLen + messageHeaderLen

// chunkLoss bounds the messages a damaged chunk lost of those sel
// selects, given the entries read and where the walk of its records
// stopped (walked, in its uncompressed records): exactly, from its message
// index records when they can be read; otherwise from its declared
// uncompressed size, which the records after walked fill (each message
// taking minMessageRecord bytes at least); not at all when it says none.
// read counts the messages read per channel (uncounted: they were read but
// not counted per channel).
// It also names the topics of the lost messages when the index does.
func (x *Reader) chunkLoss(c *chunk, read map[uint16]int, uncounted bool, sel func(uint16) bool, l chunkLoad, walked int) (bag.Count, []string) {
	if idx, err := x.messageIndex(c); err == nil && !c.scanned && !uncounted {
		want := map[uint16]int{}
		for _, e := range idx {
			if ch := uint16(e.Conn); sel(ch) {
				want[ch]++
			}
		}
		for ch, n := range read {
			want[ch] -= n
		}
		var lost uint64
		var topics []string
		for ch, n := range want {
			if n <= 0 {
				continue
			}
			lost += uint64(n)
			if conn := x.conn(ch); conn != nil && !slices.Contains(topics, conn.Topic) {
				topics = append(topics, conn.Topic)
			}
		}
		slices.Sort(topics)
		return bag.Exactly(lost), topics
	}
	return cutBound(l, walked, true), nil
}

// cutBound bounds the messages in a chunk's records after walked, from its
// declared uncompressed size; all says that every message counts (no
// filter), so that a message record begun at walked is one at least.
func cutBound(l chunkLoad, walked int, all bool) bag.Count {
	usize := l.hdr.USize
	if usize == 0 || uint64(walked) > usize {
		return bag.Count{}
	}
	rest := usize - uint64(walked)
	if rest == 0 {
		return bag.Exactly(0)
	}
	lo := uint64(0)
	if walked+recHeaderLen <= len(l.data) {
		// The header of the record the damage cut is there: it is one
		// record, and only what follows it is unknown.
		op := Op(l.data[walked])
		n := uint64(recHeaderLen) + le64(l.data[walked+1:])
		if n <= rest {
			after := rest - n
			one := uint64(0)
			if op == OpMessage {
				one = 1
				if all {
					lo = 1
				}
			}
			return bag.Between(lo, one+(after+minMessageRecord-1)/minMessageRecord)
		}
	}
	if all && walked < len(l.data) && Op(l.data[walked]) == OpMessage {
		lo = 1
	}
	return bag.Between(lo, (rest+minMessageRecord-1)/minMessageRecord)
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// chunkCRCAt is the offset of a chunk record's uncompressed_crc field:
// after its op, length and three u64 fields.
const chunkCRCAt = recHeaderLen + 24

// Unverified lists the chunks no checksum covers: uncompressed, with an
// uncompressed_crc of 0 (rosbag2's writer often leaves it so), and the
// message records outside chunks.
func (x *Reader) Unverified() []bag.ByteRange {
	var out []bag.ByteRange
	var b [4]byte
	for _, c := range x.chunks {
		if c.Compression != "" {
			continue
		}
		if _, err := x.r.ReadAt(b[:], c.Offset+chunkCRCAt); err != nil {
			continue
		}
		if b[0]|b[1]|b[2]|b[3] == 0 {
			out = append(out, bag.ByteRange{Start: c.Offset, End: c.Offset + c.Length, Why: "uncompressed chunk with uncompressed_crc 0: no checksum covers its records"})
		}
	}
	if len(x.loose) > 0 {
		first, last := x.loose[0], x.loose[len(x.loose)-1]
		out = append(out, bag.ByteRange{Start: first.Offset, End: last.Offset + last.Len, Why: "message records outside chunks: no checksum of their own (only a data_section_crc, where the writer set one, covers the whole data section)"})
	}
	return out
}
