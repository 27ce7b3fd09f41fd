package message

import "github.com/bagscope/bagscope/ui/link"

// The Message view shows an image message's picture small, above its
// tree (message.go, decoded by sensor.MessageImage, which reads ROS 1 and
// ROS 2 image types). The Sensor tab (sensor.go) draws the same message at
// full size with zoom, pan, a pixel read-out and, for 16-bit and float
// images, a colour map and range. These are the seams between the two.

// showInSensorTab shows the Sensor tab, which already follows the
// selected image message; false when the window has no such tab (a bag
// without image, laser scan or point cloud topics). The Message view's
// picture can call it, for example from a tap or an "Open in Sensor"
// button.
func showInSensorTab(l link.Link) bool { return l.SelectTab("Sensor") }
