// Command ros2mcap writes the ROS 2 MCAP benchmark recordings: the
// messages of package ros2gen (the same 1,000,000 as
// ../shared/tools/gen_bench_bags.py's mixed.bag, as ROS 2 CDR with ros2msg
// schemas) in MCAP files written by the mcap Go library, each with zstd
// chunks and with lz4 chunks:
//
//   - mixed_ros2_1m_{zstd,lz4}.mcap: 1 MiB chunks, as rosbag2 and the mcap
//     writers write by default, with noisy values (every float field
//     noisy, as real sensors' are: the zstd file is ~204 MB);
//   - mixed_ros2_{zstd,lz4}.mcap: 4 MiB chunks, the values of the
//     earlier benchmarks (~70 MB each).
//
// Files that exist are left alone.
//
//	go run ./testdata/bench/ros2mcap OUTDIR
//
// GEN_DURATION (seconds, default 1000) shortens the recording for tests.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/bagscope/bagscope/testdata/bench/ros2gen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ros2mcap OUTDIR")
		os.Exit(2)
	}
	dur, err := ros2gen.Duration()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ros2mcap: GEN_DURATION:", err)
		os.Exit(2)
	}
	ev := ros2gen.Events(dur)
	variants := []struct {
		prefix    string
		chunkSize int64
		noisy     bool
	}{
		{"mixed_ros2_1m_", 1 << 20, true},
		{"mixed_ros2_", 4 << 20, false},
	}
	for _, v := range variants {
		for _, comp := range []mcap.CompressionFormat{mcap.CompressionZSTD, mcap.CompressionLZ4} {
			out := filepath.Join(os.Args[1], v.prefix+string(comp)+".mcap")
			if _, err := os.Stat(out); err == nil {
				continue
			}
			g := ros2gen.NewGenerator()
			if v.noisy {
				g = ros2gen.NewNoisyGenerator()
			}
			if err := write(out, comp, v.chunkSize, g, ev); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Println(out, len(ev), "messages")
		}
	}
}

// write writes the recording to path (through a temporary file, so that a
// run cut short leaves no half-written benchmark file).
func write(path string, comp mcap.CompressionFormat, chunkSize int64, g *ros2gen.Generator, ev []ros2gen.Event) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	defer f.Close()
	// The writer as rosbag2's MCAP storage sets it up: chunked, CRCs on.
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: chunkSize, Compression: comp, IncludeCRC: true})
	if err != nil {
		return err
	}
	if err := w.WriteHeader(&mcap.Header{Profile: "ros2", Library: "bagscope ros2mcap"}); err != nil {
		return err
	}
	ids := map[string]uint16{}
	for i, t := range ros2gen.Topics {
		id := uint16(i + 1)
		if err := w.WriteSchema(&mcap.Schema{ID: id, Name: t.Type, Encoding: "ros2msg", Data: []byte(t.Definition)}); err != nil {
			return err
		}
		qos := "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n"
		if err := w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: t.Name, MessageEncoding: "cdr", Metadata: map[string]string{"offered_qos_profiles": qos}}); err != nil {
			return err
		}
		ids[t.Name] = id
	}
	seq := map[string]uint32{}
	for _, e := range ev {
		data, stamp := g.Message(e)
		seq[e.Topic]++
		if err := w.WriteMessage(&mcap.Message{ChannelID: ids[e.Topic], Sequence: seq[e.Topic], LogTime: uint64(e.T), PublishTime: uint64(stamp), Data: data}); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
