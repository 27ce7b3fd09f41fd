package ros1

// chunkConns keeps what one walk of a chunk has found per connection (its
// seam connection, its decoding plan, its slot in the chunk's vouch): the
// topics' messages interleave, so the connection changes at almost every
// message, and a chunk's few connections are found faster in place than
// by hashing (5% of find's CPU, 12% of check's, 2% of plot --stats's on
// the bench's mixed.bag). The first 16 are kept in place, the others in a
// map.
type chunkConns[V any] struct {
	n    int
	ids  [16]uint32
	vs   [16]V
	more map[uint32]V // past the first 16
}

// find returns what was kept for connection id.
func (c *chunkConns[V]) find(id uint32) (V, bool) {
	for i := range c.ids[:c.n] {
		if c.ids[i] == id {
			return c.vs[i], true
		}
	}
	v, ok := c.more[id]
	return v, ok
}

// keep keeps v for connection id, which find did not have.
func (c *chunkConns[V]) keep(id uint32, v V) {
	if c.n < len(c.ids) {
		c.ids[c.n], c.vs[c.n] = id, v
		c.n++
		return
	}
	if c.more == nil {
		c.more = map[uint32]V{}
	}
	c.more[id] = v
}
