package mcap

import "github.com/bagscope/bagscope/bag"

// statsClaim turns a well-formed statistics record into what the file
// claims to hold (bag.FileInfo.Claim): its message count, and its count
// per channel by topic. A record whose channel counts do not add up to
// its message count is not evidence (a damaged summary can hold one that
// parses): nil then, as without one. Every report narrows the loss by the
// claim, so a zeroed chunk whose message index records are gone too is
// still bounded (bag.Damage).
func (x *Reader) statsClaim() *bag.Claim {
	s := x.stats
	if s == nil {
		return nil
	}
	var sum uint64
	for _, n := range s.ChannelCounts {
		sum += n
	}
	if len(s.ChannelCounts) > 0 && sum != s.MessageCount || s.MessageCount > 0 && s.Start > s.End {
		return nil
	}
	c := &bag.Claim{Messages: s.MessageCount, By: "the statistics record"}
	if len(s.ChannelCounts) > 0 {
		c.Topics = map[string]uint64{}
		for id, n := range s.ChannelCounts {
			topic := x.conn(id)
			if topic == nil {
				// A channel the file does not define: the total only
				// (none of the topics, whichever the walk met first).
				c.Topics = nil
				return c
			}
			c.Topics[topic.Topic] += n
		}
	}
	return c
}
