// Package rosbag2 opens rosbag2 bag folders as one recording; importing it
// registers the folder layout with bag, so bag.Open takes a bag folder, its
// metadata.yaml or any storage file inside it.
//
// A bag folder holds metadata.yaml and one or more storage files
// (<name>_<i>.db3 or .mcap, split by size or time; with ".zstd" added in
// FILE compression mode). The files are opened through the formats
// registered with bag (bag/db3, bag/mcap), never named here, and read as
// one recording through bag.Multi: merged connections, one timeline,
// every file's chunks. A .zstd file is decompressed into the user's cache
// folder (bag.DecompressedCopy). MESSAGE compression is undone for every
// format by bag.WithMessageDecompression.
//
// metadata.yaml versions 1 to 9 are parsed (ParseMetadata). The recording
// is always what the files hold: a folder without metadata.yaml is read
// from its files, and where the metadata disagrees with them (files
// missing or not listed, counts, topics, types, serialization formats,
// storage, compression) each disagreement is a warning in the recording's
// FileInfo and a finding of its Check.
package rosbag2
