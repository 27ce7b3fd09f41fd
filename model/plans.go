package model

import (
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// planFor compiles (once, through cache) the decoding plan of a
// connection's messages from its definition, in the definition's language
// (ROS 1 .msg, ROS 2 .msg or IDL) and the messages' encoding (ROS 1 or
// CDR). Other encodings (json, protobuf, ...) give an error wrapping
// rosmsg.ErrUnsupportedEncoding: their messages are shown as bytes.
func planFor(cache *rosmsg.Cache, c *bag.Connection) (*rosmsg.Plan, error) {
	return cache.GetSchema(c.SchemaEncoding, c.Encoding, c.Type, c.Definition)
}

// PlanFor is planFor for the views and commands.
func PlanFor(cache *rosmsg.Cache, c *bag.Connection) (*rosmsg.Plan, error) {
	return planFor(cache, c)
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

// TimeRange is timeRange for the views and commands.
func TimeRange(s bag.Storage) (start, end bag.Time) { return timeRange(s) }
