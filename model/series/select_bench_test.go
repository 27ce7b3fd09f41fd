package series

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

const jointStateDef = `Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id
`

// benchDir is where the large benchmark recordings are
// (BAGSCOPE_BENCH_DIR, default ../bench beside the checkout), and whether
// it is there. make test runs the benchmarks once each with it set to
// /nonexistent: on the fixtures and small generated inputs only.
func benchDir() (string, bool) {
	dir := os.Getenv("BAGSCOPE_BENCH_DIR")
	if dir == "" {
		dir = "../../../bench"
	}
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// jointStateBench returns a generated bag of sensor_msgs/JointState
// messages (6 joints; every 10th message lists them in another order),
// cached in the temporary directory: 1M of them where the benchmark
// recordings are (benchDir), 10k where they are not (make test, which runs
// each benchmark once to keep it working: 1M took a minute under -race).
func jointStateBench(b *testing.B) string {
	n := 1000000
	if _, ok := benchDir(); !ok {
		n = 10000
	}
	path := filepath.Join(os.TempDir(), fmt.Sprintf("bagscope-bench-jointstate-%d-v1.bag", n))
	if _, err := os.Stat(path); err == nil {
		return path
	}
	plan, err := rosmsg.Compile("sensor_msgs/JointState", jointStateDef)
	if err != nil {
		b.Fatal(err)
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		b.Fatal(err)
	}
	w, err := ros1.NewWriter(f, ros1.WriterOptions{Compression: ros1.CompressionLZ4})
	if err != nil {
		b.Fatal(err)
	}
	c := &ros1.Connection{ID: 0, Topic: "/joint_states", Type: plan.Type, MD5Sum: plan.MD5, MessageDefinition: jointStateDef}
	for _, kv := range [][2]string{{"topic", c.Topic}, {"type", c.Type}, {"md5sum", c.MD5Sum}, {"message_definition", jointStateDef}} {
		c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
	}
	if err := w.AddConnection(c); err != nil {
		b.Fatal(err)
	}
	names := []string{"shoulder_pan", "shoulder_lift", "elbow", "wrist_1", "wrist_2", "wrist_3"}
	var data []byte
	u32 := func(v uint32) { data = binary.LittleEndian.AppendUint32(data, v) }
	for i := range n {
		order := []int{0, 1, 2, 3, 4, 5}
		if i%10 == 9 {
			order = []int{5, 4, 3, 2, 1, 0}
		}
		data = data[:0]
		sec, nsec := uint32(1700000000+i/1000), uint32(i%1000)*1000000
		u32(uint32(i))
		u32(sec)
		u32(nsec)
		u32(0)
		u32(6)
		for _, k := range order {
			u32(uint32(len(names[k])))
			data = append(data, names[k]...)
		}
		for a := range 3 {
			u32(6)
			for _, k := range order {
				data = binary.LittleEndian.AppendUint64(data, math.Float64bits(float64(a*10+k)+float64(i)*1e-6))
			}
		}
		if err := w.WriteMessage(0, ros1.Time{Sec: sec, NSec: nsec}, data); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkExtractSelect measures extraction of paths with selectors
// against a plain index on 1M-message recordings: a generated JointState
// bag (10k messages without the benchmark recordings, see jointStateBench)
// and, if present, the 1M-message ROS 2 MCAP of the benchmark recordings
// (400k /tf messages with two frames). It reports messages per second and heap
// allocations per message read.
func BenchmarkExtractSelect(b *testing.B) {
	type cas struct{ name, ref string }
	bags := []struct {
		name  string
		open  func(*testing.B) bag.Storage
		cases []cas
	}{
		{"jointstate", func(b *testing.B) bag.Storage { return openBag(b, jointStateBench(b)) }, []cas{
			{"index", "/joint_states.position[3]"},
			{"key", "/joint_states.position[wrist_1]"},
			{"all", "/joint_states.position[*]"},
			{"all-3-paths", ""},
		}},
		{"mcap-1M", func(b *testing.B) bag.Storage {
			dir, _ := benchDir()
			p := filepath.Join(dir, "mixed_ros2_lz4.mcap")
			if _, err := os.Stat(p); err != nil {
				b.Skip(err)
			}
			s, err := OpenStorage(p)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			return s
		}, []cas{
			{"index", "/tf.transforms[0].transform.translation.x"},
			{"key", "/tf.transforms[laser].transform.translation.x"},
			{"all", "/tf.transforms[*].transform.translation.x"},
		}},
	}
	for _, bg := range bags {
		b.Run(bg.name, func(b *testing.B) {
			s := bg.open(b)
			for _, tc := range bg.cases {
				b.Run(tc.name, func(b *testing.B) {
					var cache rosmsg.Cache
					refs := []string{tc.ref}
					if tc.ref == "" {
						refs = []string{"/joint_states.position[*]", "/joint_states.velocity[*]", "/joint_states.effort[*]"}
					}
					var req Request
					for _, r := range refs {
						ref, err := ResolveField(s, &cache, r)
						if err != nil {
							b.Fatal(err)
						}
						req.Fields = append(req.Fields, ref)
					}
					var msgs int64
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					for b.Loop() {
						set, err := Extract(context.Background(), s, &cache, req, nil)
						if err != nil {
							b.Fatal(err)
						}
						msgs += set.Messages
					}
					runtime.ReadMemStats(&after)
					b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
					b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(msgs), "allocs/msg")
				})
			}
		})
	}
}
