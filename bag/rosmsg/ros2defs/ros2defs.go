// Package ros2defs embeds the standard ROS 2 message definitions (Jazzy) for
// recordings that do not carry their own.
package ros2defs

import (
	"embed"
	"io/fs"
)

//go:embed msgs
var msgs embed.FS

// FS holds the definitions as PKG/msg/TYPE.msg.
var FS, _ = fs.Sub(msgs, "msgs")

// Distro names the ROS 2 release the definitions come from.
const Distro = "jazzy"
