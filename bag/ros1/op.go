package ros1

import (
	"fmt"
	"strings"
)

// Op is a record's type, the value of its "op" header field.
type Op uint8

// The record ops of format 2.0.
const (
	OpMessageData Op = 0x02
	OpBagHeader   Op = 0x03
	OpIndexData   Op = 0x04
	OpChunk       Op = 0x05
	OpChunkInfo   Op = 0x06
	OpConnection  Op = 0x07
)

// String returns the op's name as the format documentation spells it.
func (o Op) String() string {
	switch o {
	case OpMessageData:
		return "message data"
	case OpBagHeader:
		return "bag header"
	case OpIndexData:
		return "index data"
	case OpChunk:
		return "chunk"
	case OpChunkInfo:
		return "chunk info"
	case OpConnection:
		return "connection"
	}
	return fmt.Sprintf("op 0x%02x", uint8(o))
}

// Name returns a short identifier for the op ("msg", "bag_header", ...),
// used in machine-readable output.
func (o Op) Name() string { return strings.ReplaceAll(o.String(), " ", "_") }

// Known reports whether o is one of the six ops of format 2.0.
func (o Op) Known() bool { return o >= OpMessageData && o <= OpConnection }
