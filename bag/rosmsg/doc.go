// Package rosmsg parses ROS 1 and ROS 2 message definitions, computes ROS 1
// md5 sums, and decodes serialized messages: ROS 1 serialization and ROS 2
// CDR.
//
// ROS 1 follows the reference implementation (genmsg and genpy) closely:
// ParseDefinition reads a connection's message_definition text (the top
// type, then each dependency after a line of 80 '=' and "MSG: pkg/Type"),
// MD5 reproduces gentools.compute_md5, and Compile turns a (type,
// definition) pair into a Plan that decodes message bytes into a tree of
// Nodes carrying the byte range of every field, extracts single numeric
// fields without decoding the rest (CompilePath), lists plottable paths, and
// writes the JSON form used by "bagscope cat --json".
//
// ROS 2 uses the same Plan, Node, Path and JSON machinery. CompileSchema
// takes an MCAP-style (schema encoding, message encoding) pair: "ros1msg" +
// "ros1" is Compile; "ros2msg" (ParseROS2Definition: .msg text with bounded
// strings and sequences, defaults, constants, "pkg/msg/Type" names, service
// events built from their .srv text) and "ros2idl" (ParseIDL: the OMG IDL
// rosidl generates) compile plans for "cdr" data: XCDR1 plain CDR, little-
// or big-endian by its 4-byte encapsulation header, primitives aligned to
// their size from the byte after the header. Node byte ranges of CDR
// messages are offsets into the whole message, header included, and start
// after alignment padding. Other encodings (json, protobuf, flatbuffer) are
// refused with ErrUnsupportedEncoding. CDR plans have no md5 sum.
//
// The package works on bytes and definition text only; it never reads bag
// files. Malformed input never panics and never allocates from an unchecked
// count: every failure is an *Error naming the field path and byte offset.
package rosmsg
