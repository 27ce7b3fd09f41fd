package mcap

import (
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// A chunk's messages per channel are counted from its message index
// records, which lie after the chunk: reading them costs a request per
// chunk on a remote file (248 requests and 32 MB for a plot of 10 s of a
// 1M-message file). The summary's chunk index gives each channel's record
// offset and the section's length, and rosbag2 and the mcap writers lay
// the records end to end, so each record's length, and so its entry count
// ((length - 15) / 16), follows from the offsets alone. Those counts
// stand only when they agree with the Statistics record for every channel;
// else the records are read, as for a local file.

// messageIndexHeader is a message index record's bytes before its entries:
// opcode, record length, channel id, entries' byte length.
const messageIndexHeader = 1 + 8 + 2 + 4

// layoutCounts returns a chunk's entry count per channel from the offsets
// of its message index records, or nil when they are not laid end to end
// within message_index_length.
func layoutCounts(c *chunk) map[uint16]uint64 {
	if c.MsgIdxLen == 0 || len(c.MsgIdx) == 0 || c.scanned {
		return nil
	}
	type rec struct {
		id  uint16
		off uint64
	}
	recs := make([]rec, 0, len(c.MsgIdx))
	for id, off := range c.MsgIdx {
		recs = append(recs, rec{id, off})
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].off < recs[j].off })
	start := uint64(c.Offset + c.Length)
	end := start + c.MsgIdxLen
	if recs[0].off != start {
		return nil
	}
	counts := make(map[uint16]uint64, len(recs))
	for i, r := range recs {
		next := end
		if i+1 < len(recs) {
			next = recs[i+1].off
		}
		if r.off < start || next > end || next < r.off+messageIndexHeader || (next-r.off-messageIndexHeader)%16 != 0 {
			return nil
		}
		counts[r.id] = (next - r.off - messageIndexHeader) / 16
	}
	return counts
}

// summaryCounts fills every chunk's counts from the layout of its message
// index records when the reads are remote and the counts add up to the
// Statistics record's, channel by channel; it reports whether it did.
func (x *Reader) summaryCounts() bool {
	if !bag.IsRemote(x.r) || x.stats == nil || x.info.Scanned != nil {
		return false
	}
	all := make([]map[uint16]uint64, len(x.chunks))
	sum := map[uint16]uint64{}
	for i, c := range x.chunks {
		if c.counts != nil || c.scanned {
			return false
		}
		if c.USize == 0 && c.MsgIdxLen == 0 {
			all[i] = map[uint16]uint64{}
			continue
		}
		if all[i] = layoutCounts(c); all[i] == nil {
			return false
		}
		for id, n := range all[i] {
			sum[id] += n
		}
	}
	var total uint64
	for id, n := range x.stats.ChannelCounts {
		if sum[id] != n {
			return false
		}
		total += n
	}
	for id, n := range sum {
		if n != x.stats.ChannelCounts[id] {
			return false
		}
	}
	if total != x.stats.MessageCount || len(x.loose) > 0 {
		return false
	}
	for i, c := range x.chunks {
		c.counts = all[i]
	}
	return true
}
