package catalog

// WriteRows writes rows already read (Collect's) as a catalogue of one
// shard at dir: the window's library queries a folder it has read so,
// without reading its recordings again.
func WriteRows(dir string, recs []Recording, topics []Topic) error {
	_, err := write(dir, 0, 1, recs, topics)
	return err
}
