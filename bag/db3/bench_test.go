package db3

import (
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

var (
	benchOnce sync.Once
	benchDir  string
)

// benchBag writes a 100k-message file once per run.
func benchBag(b *testing.B) string {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "db3bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
		makeBag(b, filepath.Join(dir, "bench.db3"), 100000, "--small")
		// The same file with its header zeroed: read by the rescue path.
		data, _ := os.ReadFile(filepath.Join(dir, "bench.db3"))
		clear(data[:100])
		os.WriteFile(filepath.Join(dir, "zeroed.db3"), data, 0o644)
	})
	if benchDir == "" {
		b.Skip("no bench file")
	}
	return filepath.Join(benchDir, "bench.db3")
}

func readEvery(b *testing.B, s bag.Storage) (n, bytes int) {
	it := s.Messages(bag.MessageFilter{})
	for it.Next() {
		n++
		bytes += len(it.Message().Data)
	}
	if err := it.Err(); err != nil {
		b.Fatal(err)
	}
	return n, bytes
}

// BenchmarkMessages reads every message of a 100k-message file through the
// seam.
func BenchmarkMessages(b *testing.B) {
	p := benchBag(b)
	s, err := bag.OpenFile(p)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	var n, size int
	for b.Loop() {
		n, size = readEvery(b, s)
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkRawSQL is the floor: the same rows through database/sql alone.
func BenchmarkRawSQL(b *testing.B) {
	p := benchBag(b)
	dsn, _ := fileDSN(p, "mode=ro&immutable=1")
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.ReportAllocs()
	var n, size int
	for b.Loop() {
		n, size = 0, 0
		rows, err := db.Query("SELECT data FROM messages ORDER BY timestamp")
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var d sql.RawBytes
			rows.Scan(&d)
			n++
			size += len(d)
		}
		rows.Close()
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkRescue reads every message of the file with its header zeroed,
// through the page reader.
func BenchmarkRescue(b *testing.B) {
	benchBag(b)
	p := filepath.Join(benchDir, "zeroed.db3")
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n, size int
	for b.Loop() {
		s, err := openBytes(data, p)
		if err != nil {
			b.Fatal(err)
		}
		n, size = readEvery(b, s)
		s.Close()
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkOpen opens the 100k-message file (topics and per-topic counts).
func BenchmarkOpen(b *testing.B) {
	p := benchBag(b)
	b.ReportAllocs()
	for b.Loop() {
		s, err := bag.OpenFile(p)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
