package remote

import (
	"container/list"
	"sync"
)

// blockKey names one block of one opened file.
type blockKey struct {
	file  uint64
	index int64
}

// blockCache keeps the most recently used blocks of every file of a
// client, up to max bytes in all. Blocks are immutable once stored: a
// reader may keep the slice it got after the block is evicted.
type blockCache struct {
	mu    sync.Mutex
	max   int64
	used  int64
	order *list.List // front: most recent; values are *cached
	byKey map[blockKey]*list.Element
}

type cached struct {
	key  blockKey
	data []byte
}

func newBlockCache(max int64) *blockCache {
	return &blockCache{max: max, order: list.New(), byKey: map[blockKey]*list.Element{}}
}

// get returns a block and marks it used, or nil.
func (c *blockCache) get(k blockKey) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cached).data
	}
	return nil
}

// has reports whether a block is cached, without marking it used.
func (c *blockCache) has(k blockKey) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.byKey[k]
	return ok
}

// put stores a block, evicting the least recently used ones beyond max.
func (c *blockCache) put(k blockKey, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		c.used -= int64(len(e.Value.(*cached).data))
		e.Value.(*cached).data = data
		c.used += int64(len(data))
		c.order.MoveToFront(e)
	} else {
		c.byKey[k] = c.order.PushFront(&cached{key: k, data: data})
		c.used += int64(len(data))
	}
	for c.used > c.max && c.order.Len() > 1 {
		e := c.order.Back()
		v := e.Value.(*cached)
		c.order.Remove(e)
		delete(c.byKey, v.key)
		c.used -= int64(len(v.data))
	}
}

// drop forgets every block of a file.
func (c *blockCache) drop(file uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.order.Front(); e != nil; {
		next := e.Next()
		if v := e.Value.(*cached); v.key.file == file {
			c.order.Remove(e)
			delete(c.byKey, v.key)
			c.used -= int64(len(v.data))
		}
		e = next
	}
}

// size returns the bytes held.
func (c *blockCache) size() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
