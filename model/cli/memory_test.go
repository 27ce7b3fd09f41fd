package cli

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/foxglove/mcap/go/mcap"
)

// maxCommandRSS is the peak resident memory every headless command stays
// within, whatever the size of the recording (issue 29).
const maxCommandRSS = 64 << 20

// tinyMessages is how many messages the recordings of
// TestHeadlessCommandsMemory hold: a million in make test, four with -long.
func tinyMessages() int {
	if sweeptest.Long() {
		return 4 << 20
	}
	return 1 << 20
}

// tinyStamp is the stamp of message i, received at tinyTime(i): 1 ms
// before, but every 100,000th steps 5 ms back.
func tinyTime(i int) int64 { return 1_600_000_000e9 + int64(i)*1e6 }

func tinyStamp(i int) int64 {
	if i%100_000 == 99_999 {
		return tinyTime(i) - 5e6
	}
	return tinyTime(i) - 1e6
}

// tinyValue is message i's x: a saw-tooth, so that the recording
// compresses to a few MB in the test's temporary folder.
func tinyValue(i int) float64 { return float64(i%1000) / 8 }

const tinyROS2Def = "std_msgs/Header header\nfloat64 x\n" +
	"================================================================================\nMSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" +
	"================================================================================\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"

// writeTinyMCAP writes n messages of 28 bytes (a header and a float64, CDR)
// on /tiny in 1 MiB zstd chunks, as rosbag2 writes them.
func writeTinyMCAP(t *testing.T, path string, n int) {
	t.Helper()
	writeTinyMCAPChunks(t, path, n, 1<<20, mcap.CompressionZSTD)
}

// writeBigChunkMCAP writes them in 4 MiB lz4 chunks (the mcap CLI's and
// bagscope convert's chunk size): a chunk decompresses to four times a
// rosbag2 chunk, so a read-ahead counted in chunks holds four times the
// bytes.
func writeBigChunkMCAP(t *testing.T, path string, n int) {
	t.Helper()
	writeTinyMCAPChunks(t, path, n, 4<<20, mcap.CompressionLZ4)
}

func writeTinyMCAPChunks(t *testing.T, path string, n int, chunkSize int64, comp mcap.CompressionFormat) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: chunkSize, Compression: comp, IncludeCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	w.WriteSchema(&mcap.Schema{ID: 1, Name: "test_msgs/msg/Tiny", Encoding: "ros2msg", Data: []byte(tinyROS2Def)})
	w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/tiny", MessageEncoding: "cdr"})
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
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeTinyBag writes the same messages as a ROS 1 bag of lz4 chunks.
func writeTinyBag(t *testing.T, path string, n int) {
	t.Helper()
	def := "Header header\nfloat64 x\n" + "================================================================================\n" +
		"MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id"
	plan, err := rosmsg.Compile("test_msgs/Tiny", def)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ros1.NewWriter(f, ros1.WriterOptions{Compression: "lz4"})
	if err != nil {
		t.Fatal(err)
	}
	c := &ros1.Connection{ID: 0, Topic: "/tiny", Type: plan.Type, MD5Sum: plan.MD5, MessageDefinition: def}
	for _, kv := range [][2]string{{"topic", "/tiny"}, {"type", plan.Type}, {"md5sum", plan.MD5}, {"message_definition", def}} {
		c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
	}
	if err := w.AddConnection(c); err != nil {
		t.Fatal(err)
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
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestHeadlessCommandsMemory runs every headless command the front binary
// runs itself (export and catalog run in bagscope-gui) on recordings of a
// million (with -long four million) tiny messages on one topic, and checks
// each child's peak resident memory (rusage, through testdata/peakrss) is at most 64 MiB: nothing a
// command keeps may grow with the messages. The children run on two cores
// (GOMAXPROCS=2), the machine of issue 29, whatever the test's machine:
// the read-ahead of chunks grows with the cores (see BENCHMARKS.md).
// Without -long it runs a sample: check, plot --stats and a find that
// every message matches on the MCAP, verify and fix on the MCAP of 4 MiB
// lz4 chunks.
func TestHeadlessCommandsMemory(t *testing.T) {
	dir := t.TempDir()
	bin, meter := filepath.Join(dir, "bagscope"), filepath.Join(dir, "peakrss")
	for out, pkg := range map[string]string{bin: "./bagscope", meter: "../../testdata/peakrss"} {
		if b, err := exec.Command("go", "build", "-tags", "bagscope_front", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	n := tinyMessages()
	files := map[string]func(*testing.T, string, int){".mcap": writeTinyMCAP, "-4MiB-lz4.mcap": writeBigChunkMCAP}
	if sweeptest.Long() {
		files[".bag"] = writeTinyBag
	}
	for ext, write := range files {
		path := filepath.Join(dir, "tiny"+ext)
		dst := filepath.Join(dir, "out"+filepath.Ext(ext))
		n := n
		if ext == "-4MiB-lz4.mcap" && !sweeptest.Long() {
			// Fifteen chunks: more than the read-ahead holds (what
			// grew was per chunk, not per message).
			n /= 4
		}
		write(t, path, n)
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d messages, %.1f MB", path, n, float64(st.Size())/1e6)
		commands := [][]string{
			{"check", path},
			{"plot", path, "/tiny.x", "--stats"},
			// Every message a hit: more than find holds to sort.
			{"find", path, "@t >= 0", "--max-hits", "8000000"},
		}
		if ext == "-4MiB-lz4.mcap" && !sweeptest.Long() {
			// The large chunks: the commands that read in time order and
			// write (the read-ahead and the writer's buffers).
			commands = [][]string{
				{"verify", path},
				{"fix", "--force", path, dst},
			}
		}
		if sweeptest.Long() {
			commands = append(commands,
				[]string{"info", path},
				[]string{"check", "--quick", path},
				[]string{"verify", path},
				[]string{"cat", path},
				[]string{"find", path, "/tiny.x > 124.8"},
				[]string{"plot", path, "/tiny.x", "--csv", filepath.Join(dir, "p.csv")},
				[]string{"fix", "--force", path, dst},
				[]string{"filter", "--force", path, dst, "--topics", "/tiny"},
			)
		}
		for _, args := range commands {
			t.Run(ext+" "+strings.Join(args[:1], " "), func(t *testing.T) {
				// Measured by peakrss (see there), stdout thrown away.
				cmd := exec.Command(meter, append([]string{bin}, args...)...)
				cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %v\n%s", args, err, stderr.String())
				}
				var kib int64
				var cpu float64
				if _, err := fmt.Sscan(string(out), &kib, &cpu); err != nil {
					t.Fatalf("peakrss printed %q: %v", out, err)
				}
				rss := kib << 10
				t.Logf("%v: peak RSS %.1f MiB, CPU %.2f s", args[:len(args)-1], float64(rss)/(1<<20), cpu)
				if rss > maxCommandRSS {
					t.Errorf("%v: peak RSS %.1f MiB, want at most %d MiB", args, float64(rss)/(1<<20), maxCommandRSS>>20)
				}
			})
		}
		// The recording read as written: every message, the stamps
		// going back said (so the check read the stamps).
		out, err := exec.Command(bin, "check", path).CombinedOutput()
		want := fmt.Sprintf("%d messages have a header.stamp earlier than the message received before them", n/100_000)
		if !strings.Contains(string(out), want) {
			t.Errorf("check %s: %v, does not say %q:\n%s", path, err, want, out)
		}
	}
}
