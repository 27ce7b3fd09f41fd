package series

import (
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// planFor returns the decoding plan of connection c's messages from cache.
func planFor(cache *rosmsg.Cache, c *bag.Connection) (*rosmsg.Plan, error) {
	return cache.GetSchema(c.SchemaEncoding, c.Encoding, c.Type, c.Definition)
}

// timeRange returns the recording's first and last message times, from its
// summary.
func timeRange(s bag.Storage) (start, end bag.Time) {
	sum, _ := s.Summary()
	if sum == nil {
		return
	}
	return sum.Start, sum.End
}
