// Command mcapread is the benchmark's peer for MCAP reading: the mcap Go
// library's own indexed reader reading (not decoding) every message of a
// file, in log-time order, on one goroutine, printing the count and the
// payload bytes.
//
// With -floor it measures the floor instead: every chunk record read and
// decompressed (zstd with klauspost/compress, lz4 with pierrec/lz4, the
// libraries both the mcap library and bagscope use), nothing else, on one
// goroutine. Its CPU time divided by the cores is the least time any
// reader of the file can take.
//
//	go run ./testdata/bench/mcapread [-floor] FILE.mcap
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

func main() {
	floor := flag.Bool("floor", false, "only read and decompress every chunk")
	flag.Parse()
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		fail(err)
	}
	if *floor {
		decompressAll(f, r)
		return
	}
	it, err := r.Messages(mcap.UsingIndex(true), mcap.InOrder(mcap.LogTimeOrder))
	if err != nil {
		fail(err)
	}
	var n, bytes int
	var msg mcap.Message
	for {
		_, _, m, err := it.NextInto(&msg)
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
		n++
		bytes += len(m.Data)
	}
	fmt.Println(n, "messages,", bytes, "bytes")
}

// decompressAll reads every chunk the summary indexes and decompresses its
// records, as a reader must at the least.
func decompressAll(f *os.File, r *mcap.Reader) {
	info, err := r.Info()
	if err != nil {
		fail(err)
	}
	zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		fail(err)
	}
	lr := lz4.NewReader(nil)
	var raw, out []byte
	var total int
	for _, ci := range info.ChunkIndexes {
		raw = grow(raw, int(ci.ChunkLength))
		if _, err := f.ReadAt(raw, int64(ci.ChunkStartOffset)); err != nil {
			fail(err)
		}
		// The chunk record: op, length, then start, end, uncompressed
		// size, CRC, the compression string and the records' length.
		c := raw[9:]
		usize := binary.LittleEndian.Uint64(c[16:])
		p := 28
		cl := int(binary.LittleEndian.Uint32(c[p:]))
		p += 4 + cl
		rl := int(binary.LittleEndian.Uint64(c[p:]))
		p += 8
		recs := c[p : p+rl]
		out = grow(out, int(usize))
		switch ci.Compression {
		case mcap.CompressionZSTD:
			if out, err = zd.DecodeAll(recs, out[:0]); err != nil {
				fail(err)
			}
		case mcap.CompressionLZ4:
			lr.Reset(bytes.NewReader(recs))
			if _, err := io.ReadFull(lr, out); err != nil {
				fail(err)
			}
		default:
			out = recs
		}
		total += len(out)
	}
	fmt.Println(len(info.ChunkIndexes), "chunks,", total, "bytes decompressed")
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n, n+n/4)
	}
	return b[:n]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mcapread:", err)
	os.Exit(1)
}
