package mcap

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

var (
	benchOnce sync.Once
	benchData []byte
	benchN    int
)

// benchFile is a zstd-chunked file of 200,000 messages (about 60 MB
// uncompressed) on three channels.
func benchFile(b *testing.B) []byte {
	benchOnce.Do(func() {
		benchN = 200_000
		var buf bytes.Buffer
		w, err := lib.NewWriter(&buf, &lib.WriterOptions{IncludeCRC: true, Chunked: true, ChunkSize: 1 << 20, Compression: lib.CompressionZSTD})
		if err != nil {
			b.Fatal(err)
		}
		w.WriteHeader(&lib.Header{Profile: "ros2"})
		w.WriteSchema(&lib.Schema{ID: 1, Name: "a/msg/B", Encoding: "ros2msg", Data: []byte("int32 x")})
		for c := 1; c <= 3; c++ {
			w.WriteChannel(&lib.Channel{ID: uint16(c), SchemaID: 1, Topic: "/t" + string(rune('0'+c)), MessageEncoding: "cdr"})
		}
		data := make([]byte, 600)
		for i := range data {
			data[i] = byte(i * i)
		}
		for i := range benchN {
			data[0], data[1] = byte(i), byte(i>>8)
			ts := uint64(1e18) + uint64(i)*1000
			w.WriteMessage(&lib.Message{ChannelID: uint16(1 + i%3), LogTime: ts, PublishTime: ts, Data: data[:100+i%500]})
		}
		w.Close()
		benchData = buf.Bytes()
	})
	return benchData
}

func BenchmarkMessages(b *testing.B) {
	data := benchFile(b)
	b.Run("bagscope", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			r, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
			if err != nil {
				b.Fatal(err)
			}
			it := r.Messages(bag.MessageFilter{})
			n := 0
			for it.Next() {
				n += len(it.Message().Data) & 1
				n++
			}
			if it.Err() != nil || n < benchN {
				b.Fatalf("%d messages, %v", n, it.Err())
			}
		}
		b.ReportMetric(float64(benchN)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
	b.Run("library-indexed", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			rd, err := lib.NewReader(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			it, err := rd.Messages(lib.UsingIndex(true), lib.InOrder(lib.LogTimeOrder))
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			var m lib.Message
			for {
				_, _, _, err := it.NextInto(&m)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != benchN {
				b.Fatalf("%d messages", n)
			}
		}
		b.ReportMetric(float64(benchN)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
}

// BenchmarkOpen opens the benchmark file through its summary.
func BenchmarkOpen(b *testing.B) {
	data := benchFile(b)
	for range b.N {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.Summary(); err != nil {
			b.Fatal(err)
		}
	}
}
