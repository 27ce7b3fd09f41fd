package expr

import (
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// BenchmarkMatch evaluates expressions on one message, beside the
// validation a check makes of it (rosmsg.Plan.Validate).
func BenchmarkMatch(b *testing.B) {
	js := mustPlan(b, "sensor_msgs/JointState", jointStateDef)
	tf := mustPlan(b, "tf2_msgs/TFMessage", tfDef)
	cases := []struct {
		name string
		plan *rosmsg.Plan
		data []byte
		src  string
	}{
		{"scalar", js, jointState(), "header.seq > 5"},
		{"key", js, jointState(), "position[b] > 1.5 && velocity[c] == 0"},
		{"any", tf, tfMessage(), `any(transforms[*].child_frame_id == "leg" && transforms[*].transform.translation.z > 5)`},
		{"regex", tf, tfMessage(), `transforms[1].header.frame_id ~ "^wor"`},
	}
	// The expressions of BENCHMARKS.md's find rows, on real ROS 2 messages.
	for _, smp := range cdrSamples(b) {
		switch smp.plan.Type {
		case "sensor_msgs/msg/Imu":
			cases = append(cases, struct {
				name string
				plan *rosmsg.Plan
				data []byte
				src  string
			}{"cdr-imu", smp.plan, smp.data, "linear_acceleration.z > 12 || angular_velocity.x < -50"})
		case "nav_msgs/msg/Odometry":
			cases = append(cases, struct {
				name string
				plan *rosmsg.Plan
				data []byte
				src  string
			}{"cdr-odom", smp.plan, smp.data, "norm(twist.twist.linear) > 100"})
		}
	}
	for _, c := range cases {
		e, err := Parse(c.src)
		if err != nil {
			b.Fatal(err)
		}
		p, err := e.Compile(c.plan, "")
		if err != nil {
			b.Fatal(err)
		}
		s := p.NewState()
		in := &Input{Data: c.data}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				p.Match(s, in)
			}
		})
		b.Run(c.name+"/validate", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				c.plan.Validate(c.data)
			}
		})
	}
}
