package mcap

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"testing"

	lib "github.com/foxglove/mcap/go/mcap"
)

// variant is one way of writing a test file with the library's writer.
type variant struct {
	name        string
	compression lib.CompressionFormat
	chunked     bool
	noSummary   bool
	noMsgIndex  bool
	attach      bool
}

func (v variant) String() string { return v.name }

// variants covers every compression, chunked and not, with and without
// summary and message indexes.
func variants() []variant {
	var out []variant
	for _, c := range []lib.CompressionFormat{lib.CompressionNone, lib.CompressionLZ4, lib.CompressionZSTD} {
		for _, ns := range []bool{false, true} {
			for _, nmi := range []bool{false, true} {
				out = append(out, variant{name: fmt.Sprintf("chunked-%s-nosum=%v-nomsgidx=%v", compressionName(string(c)), ns, nmi),
					compression: c, chunked: true, noSummary: ns, noMsgIndex: nmi, attach: !ns})
			}
		}
	}
	out = append(out, variant{name: "unchunked", attach: true}, variant{name: "unchunked-nosum", noSummary: true})
	return out
}

// genMessage returns message i's data: varied lengths, partly compressible.
func genMessage(i int) []byte {
	n := 20 + (i*37)%180
	b := make([]byte, n)
	for k := range b {
		if k%3 == 0 {
			b[k] = byte(i*7 + k)
		} else {
			b[k] = byte(k)
		}
	}
	return b
}

const genTopics = 3

// genMCAP writes n messages, in log-time order, on three channels, and
// returns the file and the messages as written.
func genMCAP(t testing.TB, v variant, n int, chunkSize int64) ([]byte, []rec) {
	t.Helper()
	var buf bytes.Buffer
	opts := &lib.WriterOptions{IncludeCRC: true, Chunked: v.chunked, ChunkSize: chunkSize, Compression: v.compression,
		SkipMessageIndexing: v.noMsgIndex}
	if v.noSummary {
		opts.SkipStatistics, opts.SkipRepeatedSchemas, opts.SkipRepeatedChannelInfos = true, true, true
		opts.SkipAttachmentIndex, opts.SkipMetadataIndex, opts.SkipChunkIndex, opts.SkipSummaryOffsets = true, true, true, true
	}
	w, err := lib.NewWriter(&buf, opts)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.WriteHeader(&lib.Header{Profile: "ros2", Library: "bagscope-test"}))
	must(w.WriteSchema(&lib.Schema{ID: 1, Name: "std_msgs/msg/String", Encoding: "ros2msg", Data: []byte("string data")}))
	must(w.WriteSchema(&lib.Schema{ID: 2, Name: "sensor_msgs/msg/Imu", Encoding: "ros2msg", Data: []byte("float64 x")}))
	topics := []string{"/chatter", "/imu", "/other"}
	for i, tp := range topics {
		must(w.WriteChannel(&lib.Channel{ID: uint16(i + 1), SchemaID: uint16(1 + i%2), Topic: tp, MessageEncoding: "cdr",
			Metadata: map[string]string{"offered_qos_profiles": "- history: 3", "n": fmt.Sprint(i)}}))
	}
	var want []rec
	for i := range n {
		ch := i % genTopics
		ts := uint64(1_700_000_000_000_000_000 + i*1_000_000)
		data := genMessage(i)
		must(w.WriteMessage(&lib.Message{ChannelID: uint16(ch + 1), Sequence: uint32(i), LogTime: ts, PublishTime: ts - 5, Data: data}))
		want = append(want, rec{Time: ts, Pub: ts - 5, Topic: topics[ch], CRC: crc32.ChecksumIEEE(data), Len: len(data)})
	}
	if v.attach {
		must(w.WriteAttachment(&lib.Attachment{LogTime: 5, CreateTime: 6, Name: "calib.yaml", MediaType: "text/yaml", DataSize: 5, Data: bytes.NewReader([]byte("a: 1\n"))}))
		must(w.WriteMetadata(&lib.Metadata{Name: "rosbag2", Metadata: map[string]string{"serialized_metadata": "x"}}))
	}
	must(w.Close())
	return buf.Bytes(), want
}
