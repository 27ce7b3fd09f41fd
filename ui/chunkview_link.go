package ui

// onChunkShown registers a view's reaction to the chunk view showing the
// chunk whose record is at pos (the timeline outlines it).
func (l *docLink) onChunkShown(f func(pos int64)) {
	l.onChunk = append(l.onChunk, f)
}

// chunkWasShown tells the views that the chunk view shows the chunk at pos.
func (l *docLink) chunkWasShown(pos int64) {
	for _, f := range l.onChunk {
		f(pos)
	}
}
