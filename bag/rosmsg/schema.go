package rosmsg

import (
	"fmt"
	"strings"
)

// Schema encodings (the language of a definition) and message encodings
// (the wire format), as MCAP and rosbag2 name them.
const (
	SchemaROS1Msg = "ros1msg" // ROS 1 .msg text, genmsg's full definition
	SchemaROS2Msg = "ros2msg" // ROS 2 .msg text, dependencies after "MSG: pkg/Type"
	SchemaROS2IDL = "ros2idl" // OMG IDL as rosidl generates it, sections after "IDL: pkg/msg/Type"
	EncodingROS1  = "ros1"    // ROS 1 serialization
	EncodingCDR   = "cdr"     // XCDR1 plain CDR with its 4-byte encapsulation header
)

// CompileSchema compiles the plan of type typ from a schema of the given
// encoding, for messages of the given encoding. Supported pairs are
// ros1msg+ros1 (the same as Compile) and ros2msg+cdr, ros2idl+cdr. Any other
// pair (json, protobuf, flatbuffer, ...) returns an *Error wrapping
// ErrUnsupportedEncoding: such messages are shown as bytes, not decoded.
func CompileSchema(schemaEncoding, messageEncoding, typ, text string) (*Plan, error) {
	switch {
	case schemaEncoding == SchemaROS1Msg && messageEncoding == EncodingROS1:
		return Compile(typ, text)
	case schemaEncoding == SchemaROS2Msg && messageEncoding == EncodingCDR:
		d, err := ParseROS2Definition(typ, text)
		if err != nil {
			return nil, err
		}
		return compileCDR(d, schemaEncoding)
	case schemaEncoding == SchemaROS2IDL && messageEncoding == EncodingCDR:
		d, err := ParseIDL(typ, text)
		if err != nil {
			return nil, err
		}
		return compileCDR(d, schemaEncoding)
	}
	return nil, &Error{Type: typ, Offset: -1, Err: ErrUnsupportedEncoding,
		Msg: fmt.Sprintf("schema encoding %q with message encoding %q", schemaEncoding, messageEncoding)}
}

// NormalizeROS2Type returns a ROS 2 type name in its three-part form:
// "pkg/Type" and "pkg::msg::Type" become "pkg/msg/Type"; "pkg/srv/X" and
// other three-part names are kept. A name without a package is returned as is.
func NormalizeROS2Type(name string) string {
	name = strings.TrimSpace(name)
	name = strings.TrimPrefix(name, "::")
	name = strings.ReplaceAll(name, "::", "/")
	if strings.Count(name, "/") == 1 {
		pkg, t, _ := strings.Cut(name, "/")
		return pkg + "/msg/" + t
	}
	return name
}
