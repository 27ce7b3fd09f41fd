// Package assets holds the files bagscope embeds in its binary: the
// application icon and a small sample bag to explore without a file of
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
