// Package db3 reads rosbag2's SQLite storage files (.db3) behind the
// bag.Storage seam; importing it registers the format with bag.
//
// A healthy file is read through SQLite (modernc.org/sqlite, pure Go) and
// never written: it is opened with immutable=1, so SQLite creates no -shm,
// -wal or -journal file beside it and works in a read-only folder. When the
// file is in WAL mode and a non-empty -wal file lies beside it (a recorder
// that crashed, or is still running), or when a hot rollback journal lies
// beside it, the file and its side file are copied to a private folder
// under the user's cache directory and the copy is opened, so the WAL's
// rows are read rather than silently dropped; the folder is removed on
// Close and FileInfo.Warnings says what was merged. A file held only in
// memory is written to such a folder first.
//
// Schema versions 1 to 4 of rosbag2's sqlite3 plugin are read: topics (with
// offered_qos_profiles from version 2 and type_description_hash from
// version 4), messages, the schema and metadata tables (version 3) and
// message_definitions (version 4). Message blobs compressed one by one
// (rosbag2's MESSAGE compression mode, zstd) are decompressed as they are
// read.
//
// A file SQLite refuses (cut short by a crash, damaged pages, a zeroed
// header) is rescued: its b-tree pages are read directly, every complete
// row of the topics and messages tables still in the file is kept, and
// what was lost is listed in bag.FileInfo.Scanned. Lengths read from the
// file (varints, payload sizes, overflow chains, page counts) are checked
// before anything is allocated.
//
// A message's bag.Loc is its row id: Block holds rowid>>32 (0 for any
// rowid below 2^32) and Offset the low 32 bits; see LocOf and RowID.
// A .db3 file has no chunks: Blocks returns nil.
//
// Store also implements bag.RecordLister: the database header and each
// page, in file order, with their fields and byte ranges.
package db3
