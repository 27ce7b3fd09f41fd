// Package bag is the storage seam: the one interface through which every
// view and command reads a recording, whatever its format.
//
// Each format lives in its own folder below this one and registers itself
// with RegisterFormat, the way image formats do: ROS 1 bags in bag/ros1,
// MCAP files in bag/mcap. Open sniffs a file's first bytes and hands it to
// the format that claims them; callers never name a format.
//
// The interface follows the vocabulary of rosbag2's storage plugins
// (../shared/seeds: open, metadata, read_next with a topic filter, seek by
// time, the index, write): a Storage gives the recording's summary, its
// connections (ROS 1 connections, MCAP channels with their schemas), its
// messages in time order with a filter, its blocks (chunks) with their
// per-message index, one message by location, and the doctor's check. What
// only some formats have (records in byte order, repair) are optional
// interfaces that a Storage may also implement.
package bag
