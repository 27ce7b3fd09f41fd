// Package assets holds the files bagscope embeds in its binary: the
// application icon and two small samples, a ROS 1 bag and a ROS 2 MCAP, to explore without a file of
// one's own. It does not import Fyne, so model and headless code can use it.
package assets

import _ "embed"

// Icon is the application icon, a 256x256 PNG.
//
//go:embed icon.png
var Icon []byte

// SampleBag is a small lz4-compressed ROS1 bag with a few common topics
// (/imu, /odom, /tf, /camera/image_raw, /rosout, /status).
//
//go:embed sample.bag
var SampleBag []byte

// SampleName is the file name shown for SampleBag.
const SampleName = "sample.bag"

// Sample2MCAP is a small ROS 2 recording as rosbag2 wrote it: the
// talker demo's /topic (std_msgs/msg/String) and /rosout
// (rcl_interfaces/msg/Log), 20 messages in one zstd chunk. It is
// rosbag2's own test file rosbag2_py/test/resources/mcap/talker/talker.mcap
// (Apache-2.0), byte for byte.
//
//go:embed talker.mcap
var Sample2MCAP []byte

// Sample2Name is the file name shown for Sample2MCAP.
const Sample2Name = "talker.mcap"
