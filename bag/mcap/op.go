package mcap

import "fmt"

// Op is a record's op code.
type Op uint8

// The record ops of MCAP version 0. Ops 0x80 to 0xFF are private to
// applications and are skipped.
const (
	OpHeader          Op = 0x01
	OpFooter          Op = 0x02
	OpSchema          Op = 0x03
	OpChannel         Op = 0x04
	OpMessage         Op = 0x05
	OpChunk           Op = 0x06
	OpMessageIndex    Op = 0x07
	OpChunkIndex      Op = 0x08
	OpAttachment      Op = 0x09
	OpAttachmentIndex Op = 0x0A
	OpStatistics      Op = 0x0B
	OpMetadata        Op = 0x0C
	OpMetadataIndex   Op = 0x0D
	OpSummaryOffset   Op = 0x0E
	OpDataEnd         Op = 0x0F
)

var opNames = [...]string{
	OpHeader: "header", OpFooter: "footer", OpSchema: "schema", OpChannel: "channel",
	OpMessage: "message", OpChunk: "chunk", OpMessageIndex: "message index",
	OpChunkIndex: "chunk index", OpAttachment: "attachment",
	OpAttachmentIndex: "attachment index", OpStatistics: "statistics",
	OpMetadata: "metadata", OpMetadataIndex: "metadata index",
	OpSummaryOffset: "summary offset", OpDataEnd: "data end",
}

// String names the op as the specification does, in lower case.
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	if o >= 0x80 {
		return fmt.Sprintf("private 0x%02x", uint8(o))
	}
	return fmt.Sprintf("unknown 0x%02x", uint8(o))
}

// Known reports whether the op is one the specification defines.
func (o Op) Known() bool { return o >= OpHeader && o <= OpDataEnd }

// Magic is the 8 bytes at both ends of an MCAP file.
const Magic = "\x89MCAP0\r\n"

// Lengths of fixed parts of the format.
const (
	magicLen     = 8
	recHeaderLen = 9             // op u8 + length u64
	footerLen    = 9 + 8 + 8 + 4 // footer record
	tailLen      = footerLen + magicLen
)

// Limits on lengths read from the file: above them a length is reported as
// ErrTooLarge instead of being allocated.
const (
	// MaxChunkSize caps a chunk's uncompressed size.
	MaxChunkSize = 1 << 30
	// MaxRecordSize caps a record read whole into memory.
	MaxRecordSize = 1 << 30
)
