package ui

import (
	"context"
	"sync"
)

// chunkShown holds, per window, the views that follow which chunk the
// chunk view shows (the timeline outlines it). It lives beside docLink
// rather than in it, and each entry goes when its window closes.
var chunkShown = struct {
	sync.Mutex
	fns map[*docLink][]func(pos int64)
}{fns: map[*docLink][]func(int64){}}

// onChunkShown registers a view's reaction to the chunk view showing the
// chunk whose record is at pos.
func (l *docLink) onChunkShown(f func(pos int64)) {
	chunkShown.Lock()
	defer chunkShown.Unlock()
	if _, ok := chunkShown.fns[l]; !ok {
		context.AfterFunc(l.ctx, func() {
			chunkShown.Lock()
			delete(chunkShown.fns, l)
			chunkShown.Unlock()
		})
	}
	chunkShown.fns[l] = append(chunkShown.fns[l], f)
}

// chunkWasShown tells the views that the chunk view shows the chunk at pos.
func (l *docLink) chunkWasShown(pos int64) {
	chunkShown.Lock()
	fns := chunkShown.fns[l]
	chunkShown.Unlock()
	for _, f := range fns {
		f(pos)
	}
}
