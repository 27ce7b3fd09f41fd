// Command tinyrec writes the recordings of model/cli's
// TestHeadlessCommandsMemory: N tiny messages on /tiny, each a header and a
// float64 x (a saw-tooth, so the file compresses to a few MB), received 1 ms
// apart and stamped 1 ms before, except every 100,000th, stamped 5 ms
// before (so `check` says n/100,000 stamps go back).
//
//	tinyrec -format mcap|mcap-4mib-lz4|bag -n N -o PATH
//
// mcap is ROS 2 CDR in 1 MiB zstd chunks, as rosbag2 writes; mcap-4mib-lz4
// the same in 4 MiB lz4 chunks (the mcap CLI's and bagscope convert's
// chunk size); bag a ROS 1 bag of lz4 chunks.
//
// The test builds it without -race and runs it: writing a million messages
// took the race-instrumented test ~70 s of its 84 (on an idle machine),
// and this ~1 s. The recordings are the same bytes either way.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/foxglove/mcap/go/mcap"
)

func main() {
	format := flag.String("format", "mcap", "mcap, mcap-4mib-lz4 or bag")
	n := flag.Int("n", 1<<20, "messages")
	out := flag.String("o", "", "the recording to write")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: tinyrec -format mcap|mcap-4mib-lz4|bag -n N -o PATH")
		os.Exit(2)
	}
	var err error
	switch *format {
	case "mcap":
		err = writeMCAP(*out, *n, 1<<20, mcap.CompressionZSTD)
	case "mcap-4mib-lz4":
		err = writeMCAP(*out, *n, 4<<20, mcap.CompressionLZ4)
	case "bag":
		err = writeBag(*out, *n)
	default:
		err = fmt.Errorf("unknown -format %q", *format)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tinyrec:", err)
		os.Exit(1)
	}
}

// tinyTime is when message i was received: 1 ms apart.
func tinyTime(i int) int64 { return 1_600_000_000e9 + int64(i)*1e6 }

// tinyStamp is its header stamp: 1 ms before, but every 100,000th steps
// 5 ms back.
func tinyStamp(i int) int64 {
	if i%100_000 == 99_999 {
		return tinyTime(i) - 5e6
	}
	return tinyTime(i) - 1e6
}

// tinyValue is message i's x: a saw-tooth.
func tinyValue(i int) float64 { return float64(i%1000) / 8 }

const tinyROS2Def = "std_msgs/Header header\nfloat64 x\n" +
	"================================================================================\nMSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" +
	"================================================================================\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"

// writeMCAP writes n messages of 28 bytes (a header and a float64, CDR) on
// /tiny in chunks of chunkSize.
func writeMCAP(path string, n int, chunkSize int64, comp mcap.CompressionFormat) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: chunkSize, Compression: comp, IncludeCRC: true})
	if err != nil {
		return err
	}
	if err := w.WriteHeader(&mcap.Header{Profile: "ros2"}); err != nil {
		return err
	}
	if err := w.WriteSchema(&mcap.Schema{ID: 1, Name: "test_msgs/msg/Tiny", Encoding: "ros2msg", Data: []byte(tinyROS2Def)}); err != nil {
		return err
	}
	if err := w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/tiny", MessageEncoding: "cdr"}); err != nil {
		return err
	}
	data := make([]byte, 28)
	copy(data, []byte{0, 1, 0, 0})
	binary.LittleEndian.PutUint32(data[12:], 1) // frame_id: "" and its NUL
	for i := range n {
		st := tinyStamp(i)
		binary.LittleEndian.PutUint32(data[4:], uint32(st/1e9))
		binary.LittleEndian.PutUint32(data[8:], uint32(st%1e9))
		binary.LittleEndian.PutUint64(data[20:], math.Float64bits(tinyValue(i)))
		lt := uint64(tinyTime(i))
		if err := w.WriteMessage(&mcap.Message{ChannelID: 1, Sequence: uint32(i), LogTime: lt, PublishTime: lt, Data: data}); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

// writeBag writes the same messages as a ROS 1 bag of lz4 chunks.
func writeBag(path string, n int) error {
	def := "Header header\nfloat64 x\n" + "================================================================================\n" +
		"MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id"
	plan, err := rosmsg.Compile("test_msgs/Tiny", def)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := ros1.NewWriter(f, ros1.WriterOptions{Compression: "lz4"})
	if err != nil {
		return err
	}
	c := &ros1.Connection{ID: 0, Topic: "/tiny", Type: plan.Type, MD5Sum: plan.MD5, MessageDefinition: def}
	for _, kv := range [][2]string{{"topic", "/tiny"}, {"type", plan.Type}, {"md5sum", plan.MD5}, {"message_definition", def}} {
		c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
	}
	if err := w.AddConnection(c); err != nil {
		return err
	}
	d := make([]byte, 24)
	for i := range n {
		st := tinyStamp(i)
		binary.LittleEndian.PutUint32(d[0:], uint32(i))
		binary.LittleEndian.PutUint32(d[4:], uint32(st/1e9))
		binary.LittleEndian.PutUint32(d[8:], uint32(st%1e9))
		binary.LittleEndian.PutUint64(d[16:], math.Float64bits(tinyValue(i)))
		recv := tinyTime(i)
		if err := w.WriteMessage(0, ros1.Time{Sec: uint32(recv / 1e9), NSec: uint32(recv % 1e9)}, d); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}
