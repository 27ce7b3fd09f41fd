// Command ros2mcap writes the ROS 2 MCAP benchmark recordings: the
// messages of package ros2gen (the same 1,000,000 as
// ../shared/tools/gen_bench_bags.py's mixed.bag, as ROS 2 CDR with ros2msg
// schemas) in MCAP files written by the mcap Go library, once with zstd
// chunks and once with lz4 chunks.
//
//	go run ./testdata/bench/ros2mcap OUTDIR   # mixed_ros2_zstd.mcap, mixed_ros2_lz4.mcap
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
	for _, comp := range []mcap.CompressionFormat{mcap.CompressionZSTD, mcap.CompressionLZ4} {
		out := filepath.Join(os.Args[1], "mixed_ros2_"+string(comp)+".mcap")
		if err := write(out, comp, ev); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(out, len(ev), "messages")
	}
}

func write(path string, comp mcap.CompressionFormat, ev []ros2gen.Event) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 4 << 20, Compression: comp, IncludeCRC: true})
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
	g := ros2gen.NewGenerator()
	seq := map[string]uint32{}
	for _, e := range ev {
		data, stamp := g.Message(e)
		seq[e.Topic]++
		if err := w.WriteMessage(&mcap.Message{ChannelID: ids[e.Topic], Sequence: seq[e.Topic], LogTime: uint64(e.T), PublishTime: uint64(stamp), Data: data}); err != nil {
			return err
		}
	}
	return w.Close()
}
