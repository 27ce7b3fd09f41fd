package model

// The formats every document and command can open: each registers itself
// with the storage seam.
import (
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	_ "github.com/bagscope/bagscope/bag/ros1"
	_ "github.com/bagscope/bagscope/bag/rosbag2" // bag folders
)
