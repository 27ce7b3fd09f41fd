// Package ros1 reads ROS 1 bag files (format version 2.0).
//
// A Bag is opened from an io.ReaderAt and a size. Opening reads the bag
// header and the index section only (connection and chunk-info records), so
// it costs the same for a small and a huge file. Chunks are read and
// decompressed on demand. Every error carries the byte offset and record op
// where it happened and unwraps to one of the sentinel errors below.
package ros1
