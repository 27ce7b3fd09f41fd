package ros1

// ChunkSuspect says why the messages of the chunk record at pos are not to
// be trusted, in the words an iteration over them marks each one with
// (Message.Suspect): the chunk had to be resynced, or its data does not
// decompress whole. "" for a sound chunk, and for one no chunk info names.
// data is the chunk's uncompressed data when the caller has read it whole
// (ReadChunkData without error): its records are walked, not read again;
// nil reads the chunk. A reader of single messages (a window's message
// view) asks once per chunk, so the message it shows carries the mark the
// iteration gives it.
func (b *Bag) ChunkSuspect(pos int64, data []byte) (string, error) {
	var ci *ChunkInfo
	for _, c := range b.ChunkInfos {
		if c.ChunkPos == pos {
			ci = c
			break
		}
	}
	if ci == nil {
		return "", nil
	}
	// The load an iteration over every message does, for this chunk only.
	q := &query{b: b, end: ^uint64(0)}
	q.sel.all = true
	c := &chunkCursor{q: q, ci: ci}
	if data == nil {
		if err := c.load(); err != nil {
			return "", err
		}
		return c.suspect, nil
	}
	ch, err := b.ChunkHeader(ci)
	if err != nil {
		return "", err
	}
	c.data = data
	c.collect(ch, nil)
	return c.suspect, nil
}
