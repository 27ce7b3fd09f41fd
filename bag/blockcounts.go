package bag

// BlockIndexCounter is a Storage that can count a block's index entries
// per connection without listing them in time order as BlockIndex does
// (MCAP's walks its message index records and does not merge them), and
// may do so while a read of the same Storage runs on other goroutines.
type BlockIndexCounter interface {
	// BlockIndexCounts returns, per connection ID, the entries
	// BlockIndex(b) lists, and the error it returns.
	BlockIndexCounts(b *Block) (map[uint32]uint64, error)
}

// IndexCounter returns the counter of s's block index entries, when s is
// one file whose format counts them itself (BlockIndexCounter), else nil.
func IndexCounter(s Storage) BlockIndexCounter {
	if AsMulti(s) != nil {
		return nil
	}
	c, _ := unwrapTo[BlockIndexCounter](s)
	return c
}
