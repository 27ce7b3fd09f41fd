// Package tf is the transform tree of a recording: the frames its /tf and
// /tf_static topics (tf/tfMessage, tf2_msgs/TFMessage and their ROS 2
// forms) describe, at one time, with what each frame's history says about
// it (static or dynamic, publisher, rate, last update and age), the
// problems tf users meet (frames that go stale, change parent, form
// several roots or loops, or carry stamps in the future), and lookups of
// one frame in another as tf2's lookupTransform gives them.
//
// Times follow tf2: a transform is placed at its header.stamp, and a
// lookup at time T takes, on each dynamic edge, the latest transform whose
// stamp is at or before T; static transforms hold at every time. Frame
// names lose a leading "/" as tf2 strips it. Messages that a recorder
// repeats in every file of a split recording (transient-local /tf_static,
// rosbag2#2385) are counted once.
//
// Reading keeps O(frames) memory: one latest transform per frame, however
// long the recording.
package tf
