// Package ros2gen makes the ROS 2 benchmark messages shared by
// testdata/bench/ros2mcap and ros2db3: the same 1,000,000 messages as
// ../shared/tools/gen_bench_bags.py's mixed.bag (five topics at 200, 100,
// 400, 100 and 200 Hz for 1000 s, with jitter, seeded), as ROS 2 CDR with
// their ros2msg definitions, so both recordings hold the same messages.
package ros2gen

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
)

// T0 is the recording's start, in nanoseconds since the epoch.
const T0 = 1_600_000_000 * int64(1e9)

// Topic is one topic of the recording with its rate.
type Topic struct {
	Name string
	Hz   float64
	// Type and Definition are the message type and its ros2msg text,
	// dependencies joined by lines of '='.
	Type, Definition string
}

const sep = "\n================================================================================\n"

var (
	header     = "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n" + sep + "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
	quaternion = "MSG: geometry_msgs/Quaternion\nfloat64 x 0\nfloat64 y 0\nfloat64 z 0\nfloat64 w 1\n"
	vector3    = "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
	point      = "MSG: geometry_msgs/Point\nfloat64 x\nfloat64 y\nfloat64 z\n"
)

// Topics are the recording's topics, in the order their IDs are given.
var Topics = []Topic{
	{"/imu", 200, "sensor_msgs/msg/Imu", "std_msgs/Header header\ngeometry_msgs/Quaternion orientation\nfloat64[9] orientation_covariance\n" +
		"geometry_msgs/Vector3 angular_velocity\nfloat64[9] angular_velocity_covariance\ngeometry_msgs/Vector3 linear_acceleration\n" +
		"float64[9] linear_acceleration_covariance\n" + sep + header + sep + quaternion + sep + vector3},
	{"/odom", 100, "nav_msgs/msg/Odometry", "std_msgs/Header header\nstring child_frame_id\ngeometry_msgs/PoseWithCovariance pose\ngeometry_msgs/TwistWithCovariance twist\n" +
		sep + header + sep + "MSG: geometry_msgs/PoseWithCovariance\nPose pose\nfloat64[36] covariance\n" +
		sep + "MSG: geometry_msgs/Pose\nPoint position\nQuaternion orientation\n" + sep + point + sep + quaternion +
		sep + "MSG: geometry_msgs/TwistWithCovariance\nTwist twist\nfloat64[36] covariance\n" +
		sep + "MSG: geometry_msgs/Twist\nVector3 linear\nVector3 angular\n" + sep + vector3},
	{"/tf", 400, "tf2_msgs/msg/TFMessage", "geometry_msgs/TransformStamped[] transforms\n" + sep +
		"MSG: geometry_msgs/TransformStamped\nstd_msgs/Header header\nstring child_frame_id\nTransform transform\n" + sep + header +
		sep + "MSG: geometry_msgs/Transform\nVector3 translation\nQuaternion rotation\n" + sep + vector3 + sep + quaternion},
	{"/chatter", 100, "std_msgs/msg/String", "string data\n"},
	{"/cmd", 200, "geometry_msgs/msg/Twist", "Vector3 linear\nVector3 angular\n" + sep + vector3},
}

// QoS is the offered_qos_profiles every topic gets (reliable, volatile), as
// rosbag2 writes it up to metadata version 8.
const QoS = "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 9223372036\n    nsec: 854775807\n" +
	"  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 9223372036\n" +
	"    nsec: 854775807\n  avoid_ros_namespace_conventions: false"

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima",
	"mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor"}

// Event is one message to write: its receive time and topic.
type Event struct {
	T     int64
	Topic string
}

// Duration is the recording's length in seconds: 1000, or $GEN_DURATION.
func Duration() (float64, error) {
	if s := os.Getenv("GEN_DURATION"); s != "" {
		return strconv.ParseFloat(s, 64)
	}
	return 1000, nil
}

// Events lists the messages of a recording of dur seconds in receive-time
// order (seeded: the same every time).
func Events(dur float64) []Event {
	rng := rand.New(rand.NewPCG(1, 2))
	var ev []Event
	for _, t := range Topics {
		period := 1 / t.Hz
		phase := rng.Float64() * period
		for i := range int(math.Round(dur * t.Hz)) {
			at := phase + float64(i)*period + rng.NormFloat64()*period*0.05
			ev = append(ev, Event{T0 + int64(max(at, 0)*1e9), t.Name})
		}
	}
	slices.SortStableFunc(ev, func(a, b Event) int { return int(a.T - b.T) })
	return ev
}

// Generator makes the messages' bytes, in order (seeded).
type Generator struct {
	rng *rand.Rand
	seq uint32
	b   []byte
	// noisy fills every float field with sensor noise (covariances,
	// orientations and poses included), as real sensors' values are:
	// chunks then compress little (204 MB of zstd for the 1M messages
	// instead of 66 MB), so decompression costs what it costs on real
	// recordings.
	noisy bool
}

// NewGenerator starts the messages of a recording.
func NewGenerator() *Generator { return &Generator{rng: rand.New(rand.NewPCG(3, 4))} }

// NewNoisyGenerator starts the messages of a recording whose every float
// field is noisy (see Generator.noisy).
func NewNoisyGenerator() *Generator {
	g := NewGenerator()
	g.noisy = true
	return g
}

// Message returns e's CDR bytes (valid until the next call) and its
// header stamp (the publish time).
func (g *Generator) Message(e Event) ([]byte, int64) {
	g.b = append(g.b[:0], 0, 1, 0, 0)
	rng := g.rng
	stamp := e.T - int64(rng.IntN(3_000_000))
	x := float64(e.T-T0) * 1e-9
	switch e.Topic {
	case "/imu":
		g.header(stamp, "imu_link")
		g.f64s(0, 0, math.Sin(x/2), math.Cos(x/2))
		g.repeat(9, 0.01)
		g.f64s(rng.NormFloat64()*0.01, rng.NormFloat64()*0.01, 0.5+rng.NormFloat64()*0.01)
		g.repeat(9, 0.001)
		g.f64s(rng.NormFloat64()*0.1, rng.NormFloat64()*0.1, 9.81+rng.NormFloat64()*0.1)
		g.repeat(9, 0.02)
	case "/odom":
		g.header(stamp, "odom")
		g.str("base_link")
		g.f64s(math.Cos(x/10), math.Sin(x/10), 0, 0, 0, math.Sin(x/20), math.Cos(x/20))
		g.repeat(36, 0.05)
		g.f64s(0.5+rng.NormFloat64()*0.01, 0, 0, 0, 0, 0.05)
		g.repeat(36, 0.05)
	case "/tf":
		g.u32(2)
		for i, child := range []string{"base_link", "laser"} {
			g.header(stamp, []string{"odom", "base_link"}[i])
			g.str(child)
			g.f64s(math.Cos(x/10), math.Sin(x/10), 0, 0, 0, 0, 1)
		}
	case "/chatter":
		g.seq++
		g.str(fmt.Sprintf("%s %s %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], g.seq))
	case "/cmd":
		g.f64s(0.5+rng.NormFloat64()*0.05, 0, 0, 0, 0, rng.NormFloat64()*0.1)
	}
	return g.b, stamp
}

// align pads to n bytes, counted from after the 4-byte header.
func (g *Generator) align(n int) {
	for (len(g.b)-4)%n != 0 {
		g.b = append(g.b, 0)
	}
}
func (g *Generator) u32(v uint32) { g.align(4); g.b = binary.LittleEndian.AppendUint32(g.b, v) }
func (g *Generator) f64s(vs ...float64) {
	for _, v := range vs {
		if g.noisy {
			v += g.rng.NormFloat64() * 1e-3
		}
		g.align(8)
		g.b = binary.LittleEndian.AppendUint64(g.b, math.Float64bits(v))
	}
}
func (g *Generator) repeat(n int, v float64) {
	for range n {
		g.f64s(v)
	}
}
func (g *Generator) str(s string) { g.u32(uint32(len(s) + 1)); g.b = append(append(g.b, s...), 0) }
func (g *Generator) header(stamp int64, frame string) {
	g.u32(uint32(stamp / 1e9))
	g.u32(uint32(stamp % 1e9))
	g.str(frame)
}
