package model

import "github.com/bagscope/bagscope/bag/ros1"

// Source is an opened recording as the model uses it. *ros1.Bag is one;
// readers for other formats (ROS 2 .db3, .mcap) plug in here later.
type Source interface {
	// Summary describes the recording: times, counts and topics.
	Summary() (*ros1.Summary, error)
	// Close releases the recording.
	Close() error
}

var _ Source = (*ros1.Bag)(nil)
