// Command ros2mcap writes the ROS 2 MCAP benchmark recordings: the same
// 1,000,000 messages as ../shared/tools/gen_bench_bags.py's mixed.bag (five
// topics at 200, 100, 400, 100 and 200 Hz for 1000 s, with jitter, seeded),
// as ROS 2 messages (CDR, ros2msg schemas) in MCAP files written by the mcap
// Go library, once with zstd chunks and once with lz4 chunks.
//
//	go run ./testdata/bench/ros2mcap OUTDIR   # mixed_ros2_zstd.mcap, mixed_ros2_lz4.mcap
//
// GEN_DURATION (seconds, default 1000) shortens the recording for tests.
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/foxglove/mcap/go/mcap"
)

const t0 = 1_600_000_000 * int64(1e9) // recording start, ns

var rates = []struct {
	topic string
	hz    float64
}{{"/imu", 200}, {"/odom", 100}, {"/tf", 400}, {"/chatter", 100}, {"/cmd", 200}}

const sep = "\n================================================================================\n"

var (
	header     = "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" + sep + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
	quaternion = "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n"
	vector3    = "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
	point      = "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y\nfloat64 z\n"
	schemas    = map[string][2]string{
		"/imu": {"sensor_msgs/msg/Imu", "std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n" +
			"geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\ngeometry_msgs/Vector3 linear_acceleration\n" +
			"float64[9] linear_acceleration_covariance\n" + sep + header + sep + quaternion + sep + vector3},
		"/odom": {"nav_msgs/msg/Odometry", "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/PoseWithCovariance pose\ngeometry_msgs/TwistWithCovariance twist\n" +
			sep + header + sep + "MSG: geometry_msgs/PoseWithCovariance\nPose pose\nfloat64[36] covariance\n" +
			sep + "MSG: geometry_msgs/Pose\nPoint position\nQuaternion orientation\n" + sep + point + sep + quaternion +
			sep + "MSG: geometry_msgs/TwistWithCovariance\nTwist twist\nfloat64[36] covariance\n" +
			sep + "MSG: geometry_msgs/Twist\nVector3 linear\nVector3 angular\n" + sep + vector3},
		"/tf": {"tf2_msgs/msg/TFMessage", "geometry_msgs/TransformStamped[] transforms\n" + sep +
			"MSG: geometry_msgs/TransformStamped\nstd_msgs/Header header\nstring child_frame_id\nTransform transform\n" + sep + header +
			sep + "MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation\n" + sep + vector3 + sep + quaternion},
		"/chatter": {"std_msgs/msg/String", "string data\n"},
		"/cmd":     {"geometry_msgs/msg/Twist", "Vector3 linear\nVector3 angular\n" + sep + vector3},
	}
	words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
		"mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor"}
)

// cdr builds a little-endian CDR message; alignment counts from after the
// 4-byte encapsulation header.
type cdr struct{ b []byte }

func newCDR() *cdr { return &cdr{b: []byte{0, 1, 0, 0}} }
func (c *cdr) align(n int) {
	for (len(c.b)-4)%n != 0 {
		c.b = append(c.b, 0)
	}
}
func (c *cdr) u32(v uint32) { c.align(4); c.b = binary.LittleEndian.AppendUint32(c.b, v) }
func (c *cdr) f64(v float64) {
	c.align(8)
	c.b = binary.LittleEndian.AppendUint64(c.b, math.Float64bits(v))
}
func (c *cdr) str(s string) { c.u32(uint32(len(s) + 1)); c.b = append(append(c.b, s...), 0) }
func (c *cdr) header(stamp int64, frame string) {
	c.u32(uint32(stamp / 1e9))
	c.u32(uint32(stamp % 1e9))
	c.str(frame)
}

type event struct {
	t     int64
	topic string
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ros2mcap OUTDIR")
		os.Exit(2)
	}
	dur := 1000.0
	if s := os.Getenv("GEN_DURATION"); s != "" {
		var err error
		if dur, err = strconv.ParseFloat(s, 64); err != nil {
			panic(err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var ev []event
	for _, r := range rates {
		period := 1 / r.hz
		phase := rng.Float64() * period
		for i := range int(math.Round(dur * r.hz)) {
			t := phase + float64(i)*period + rng.NormFloat64()*period*0.05
			ev = append(ev, event{t0 + int64(max(t, 0)*1e9), r.topic})
		}
	}
	slices.SortStableFunc(ev, func(a, b event) int { return int(a.t - b.t) })
	for _, comp := range []mcap.CompressionFormat{mcap.CompressionZSTD, mcap.CompressionLZ4} {
		out := filepath.Join(os.Args[1], "mixed_ros2_"+string(comp)+".mcap")
		if err := write(out, comp, ev); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(out, len(ev), "messages")
	}
}

func write(path string, comp mcap.CompressionFormat, ev []event) error {
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
	for i, r := range rates {
		s := schemas[r.topic]
		id := uint16(i + 1)
		if err := w.WriteSchema(&mcap.Schema{ID: id, Name: s[0], Encoding: "ros2msg", Data: []byte(s[1])}); err != nil {
			return err
		}
		qos := "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n"
		if err := w.WriteChannel(&mcap.Channel{ID: id, SchemaID: id, Topic: r.topic, MessageEncoding: "cdr", Metadata: map[string]string{"offered_qos_profiles": qos}}); err != nil {
			return err
		}
		ids[r.topic] = id
	}
	rng := rand.New(rand.NewPCG(3, 4))
	seq := map[string]uint32{}
	for _, e := range ev {
		c := newCDR()
		stamp := e.t - int64(rng.IntN(3_000_000))
		x := float64(e.t-t0) * 1e-9
		switch e.topic {
		case "/imu":
			c.header(stamp, "imu_link")
			for _, v := range []float64{0, 0, math.Sin(x / 2), math.Cos(x / 2)} {
				c.f64(v)
			}
			for range 9 {
				c.f64(0.01)
			}
			for _, v := range []float64{rng.NormFloat64() * 0.01, rng.NormFloat64() * 0.01, 0.5 + rng.NormFloat64()*0.01} {
				c.f64(v)
			}
			for range 9 {
				c.f64(0.001)
			}
			for _, v := range []float64{rng.NormFloat64() * 0.1, rng.NormFloat64() * 0.1, 9.81 + rng.NormFloat64()*0.1} {
				c.f64(v)
			}
			for range 9 {
				c.f64(0.02)
			}
		case "/odom":
			c.header(stamp, "odom")
			c.str("base_link")
			for _, v := range []float64{math.Cos(x / 10), math.Sin(x / 10), 0, 0, 0, math.Sin(x / 20), math.Cos(x / 20)} {
				c.f64(v)
			}
			for range 36 {
				c.f64(0.05)
			}
			for _, v := range []float64{0.5 + rng.NormFloat64()*0.01, 0, 0, 0, 0, 0.05} {
				c.f64(v)
			}
			for range 36 {
				c.f64(0.05)
			}
		case "/tf":
			c.u32(2)
			for i, child := range []string{"base_link", "laser"} {
				c.header(stamp, []string{"odom", "base_link"}[i])
				c.str(child)
				for _, v := range []float64{math.Cos(x / 10), math.Sin(x / 10), 0, 0, 0, 0, 1} {
					c.f64(v)
				}
			}
		case "/chatter":
			seq[e.topic]++
			c.str(fmt.Sprintf("%s %s %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], seq[e.topic]))
		case "/cmd":
			for _, v := range []float64{0.5 + rng.NormFloat64()*0.05, 0, 0, 0, 0, rng.NormFloat64() * 0.1} {
				c.f64(v)
			}
		}
		seq[e.topic+"#"]++
		if err := w.WriteMessage(&mcap.Message{ChannelID: ids[e.topic], Sequence: seq[e.topic+"#"], LogTime: uint64(e.t), PublishTime: uint64(stamp), Data: c.b}); err != nil {
			return err
		}
	}
	return w.Close()
}
