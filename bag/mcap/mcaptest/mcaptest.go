// Package mcaptest makes damaged MCAP copies of real recordings for the
// tests of the packages that read them. It is imported by tests only.
package mcaptest

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
)

// ChunkDamaged writes the recording src as an indexed MCAP of 1 MiB zstd
// chunks (dir/intact.mcap), and a copy (dir/damaged.mcap) whose first
// chunk has 256 bytes overwritten nine tenths of the way into it: its
// first blocks still decompress, and its summary is intact, so opening
// finds nothing wrong and only a read of the chunk's messages finds it
// damaged. It returns both paths and the damaged chunk's offset.
func ChunkDamaged(src bag.Storage, dir string) (intact, damaged string, chunk int64, err error) {
	intact = filepath.Join(dir, "intact.mcap")
	damaged = filepath.Join(dir, "damaged.mcap")
	f, err := os.Create(intact)
	if err != nil {
		return "", "", 0, err
	}
	_, err = mcap.Write(f, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 1 << 20})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", 0, err
	}
	s, err := bag.OpenFile(intact)
	if err != nil {
		return "", "", 0, err
	}
	blocks := s.Blocks()
	s.Close()
	if len(blocks) < 2 {
		return "", "", 0, fmt.Errorf("%d chunks written: the recording is too small", len(blocks))
	}
	data, err := os.ReadFile(intact)
	if err != nil {
		return "", "", 0, err
	}
	blk := blocks[0]
	at := blk.Offset + blk.Len*9/10
	for i := at; i < at+256; i++ {
		data[i] = 0xff
	}
	return intact, damaged, blk.Offset, os.WriteFile(damaged, data, 0o644)
}
