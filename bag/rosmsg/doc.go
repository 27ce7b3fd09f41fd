// Package rosmsg parses ROS1 message definitions, computes their md5 sums,
// and decodes serialized messages.
//
// It follows the reference implementation (genmsg and genpy) closely:
// ParseDefinition reads a connection's message_definition text (the top
// type, then each dependency after a line of 80 '=' and "MSG: pkg/Type"),
// MD5 reproduces gentools.compute_md5, and Compile turns a (type,
// definition) pair into a Plan that decodes message bytes into a tree of
// Nodes carrying the byte range of every field, extracts single numeric
// fields without decoding the rest (CompilePath), lists plottable paths, and
// writes the JSON form used by "bagscope cat --json".
//
// The package works on bytes and definition text only; it never reads bag
// files. Malformed input never panics and never allocates from an unchecked
// count: every failure is an *Error naming the field path and byte offset.
package rosmsg
