package remotetest

import (
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/foxglove/mcap/go/mcap"
)

// WindowMCAP writes an MCAP of seconds seconds with 64 KiB zstd chunks, as
// the foxglove writer lays them out (message indexes after each chunk, a
// summary with Statistics): /imu (float64 x, a 200-byte string) at 200 Hz,
// /big (a 20 kB string) at 10 Hz and /tf (a 100-byte string) at 100 Hz,
// in CDR. x is the message's time in seconds from the start.
func WindowMCAP(t testing.TB, path string, seconds int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 64 << 10, Compression: mcap.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&mcap.Header{Profile: "ros2"}))
	must(w.WriteSchema(&mcap.Schema{ID: 1, Name: "std_msgs/msg/String", Encoding: "ros2msg", Data: []byte("string data\n")}))
	must(w.WriteSchema(&mcap.Schema{ID: 2, Name: "test_msgs/msg/Sample", Encoding: "ros2msg", Data: []byte("float64 x\nstring pad\n")}))
	for i, topic := range []string{"/imu", "/big", "/tf"} {
		schema := uint16(1)
		if i == 0 {
			schema = 2
		}
		must(w.WriteChannel(&mcap.Channel{ID: uint16(i + 1), SchemaID: schema, Topic: topic, MessageEncoding: "cdr"}))
	}
	const start = uint64(1_700_000_000_000_000_000)
	noise := uint32(1)
	// cdrString appends a CDR string of n letters (its length counts the
	// final NUL) to b, which is 4-byte aligned.
	cdrString := func(b []byte, n int) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(n+1))
		for i := 0; i < n; i++ {
			noise = noise*1664525 + 1013904223
			b = append(b, 'a'+byte(noise>>28))
		}
		return append(b, 0)
	}
	head := []byte{0, 1, 0, 0}
	for ms := 0; ms < seconds*1000; ms += 5 {
		tm := start + uint64(ms)*1_000_000
		imu := binary.LittleEndian.AppendUint64(append([]byte(nil), head...), math.Float64bits(float64(ms)/1000))
		must(w.WriteMessage(&mcap.Message{ChannelID: 1, Sequence: uint32(ms), LogTime: tm, PublishTime: tm, Data: cdrString(imu, 200)}))
		if ms%100 == 0 {
			must(w.WriteMessage(&mcap.Message{ChannelID: 2, LogTime: tm, PublishTime: tm, Data: cdrString(append([]byte(nil), head...), 20000)}))
		}
		if ms%10 == 0 {
			must(w.WriteMessage(&mcap.Message{ChannelID: 3, LogTime: tm, PublishTime: tm, Data: cdrString(append([]byte(nil), head...), 100)}))
		}
	}
	must(w.Close())
}
