package series

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestCompleteFieldSampled checks that once SampleFields has read a
// recording, CompleteField offers every element and key its messages
// hold, and that every completion resolves.
func TestCompleteFieldSampled(t *testing.T) {
	type check struct {
		prefix  string
		has     []string
		hasNone []string
	}
	tests := []struct {
		name   string
		open   func(t *testing.T) bag.Storage
		checks []check
	}{
		{"ros1 tf and scan", func(t *testing.T) bag.Storage { return openBag(t, multichunk) }, []check{
			{"/tf.", []string{"/tf.transforms[*].transform.translation.x",
				"/tf.transforms[child_frame_id=base_link].transform.translation.x",
				"/tf.transforms[child_frame_id=laser].transform.rotation.w",
				"/tf.transforms[0].transform.translation.x"}, nil},
			{"/tf.transforms[child_frame_id=l", []string{"/tf.transforms[child_frame_id=laser].header.stamp"}, []string{"/tf.transforms[child_frame_id=base_link].header.stamp"}},
			{"/tf.transforms[laser].transform.tr", []string{"/tf.transforms[laser].transform.translation.x"}, nil},
			{"/scan.ranges[", []string{"/scan.ranges[*]", "/scan.ranges[0]", "/scan.ranges[31]"}, []string{"/scan.ranges[32]"}},
			{"/scan.ranges[1", []string{"/scan.ranges[1]", "/scan.ranges[17]"}, nil},
			{"/imu.orientation_covariance[", []string{"/imu.orientation_covariance[8]"}, []string{"/imu.orientation_covariance[*]"}},
		}},
		{"pr2 joint_names", func(t *testing.T) bag.Storage {
			const p = "../../../shared/bags/gt-ros-pkg__hrl/hai_sandbox/gt_strongbot/motions/joints_2010-08-17-19-51-09.bag"
			if _, err := os.Stat(p); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal(err)
				}
				t.Skip(err)
			}
			return openBag(t, p)
		}, []check{
			{"r_arm_controller/state.actual.positions[", []string{"r_arm_controller/state.actual.positions[*]",
				"r_arm_controller/state.actual.positions[r_shoulder_pan_joint]", "r_arm_controller/state.actual.positions[r_wrist_roll_joint]"},
				[]string{"r_arm_controller/state.actual.positions[l_wrist_roll_joint]"}},
			{"l_arm_controller/state.error.velocities[l_w", []string{"l_arm_controller/state.error.velocities[l_wrist_flex_joint]",
				"l_arm_controller/state.error.velocities[l_wrist_roll_joint]"}, nil},
		}},
		{"ros2 mcap tf", func(t *testing.T) bag.Storage {
			s, err := OpenStorage("../../testdata/ros2-mixed.mcap")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}, []check{
			{"/tf.transforms[", []string{"/tf.transforms[child_frame_id=base_link].transform.translation.x",
				"/tf.transforms[child_frame_id=laser].transform.translation.x"}, nil},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.open(t)
			var cache rosmsg.Cache
			if SampleOf(b) != nil {
				t.Fatal("a sample before sampling")
			}
			before := CompleteField(b, &cache, "", 0)
			s, err := SampleFields(context.Background(), b, &cache)
			if err != nil {
				t.Fatal(err)
			}
			if SampleOf(b) != s {
				t.Fatal("the sample is not recorded")
			}
			for _, c := range tc.checks {
				got := CompleteField(b, &cache, c.prefix, 0)
				for _, h := range c.has {
					if !slices.Contains(got, h) {
						t.Errorf("%s: missing %q in %.30q", c.prefix, h, got)
					}
				}
				for _, h := range c.hasNone {
					if slices.Contains(got, h) {
						t.Errorf("%s: unexpected %q", c.prefix, h)
					}
				}
				for _, p := range got {
					if !strings.HasPrefix(p, c.prefix) {
						t.Errorf("%s: %q does not continue it", c.prefix, p)
					}
				}
			}
			// Every listed path resolves; topics first, as before sampling.
			all := CompleteField(b, &cache, "", 0)
			if !slices.Equal(all[:len(Topics(b))], before[:len(Topics(b))]) {
				t.Errorf("topics %q, before sampling %q", all[:len(Topics(b))], before[:len(Topics(b))])
			}
			for _, topic := range Topics(b) {
				for _, p := range CompleteField(b, &cache, topic+".", 0) {
					if _, err := ResolveField(b, &cache, p); err != nil {
						t.Errorf("%s does not resolve: %v", p, err)
					}
				}
			}
		})
	}
}

// TestCompleteSampleCancel stops on a cancelled context.
func TestCompleteSampleCancel(t *testing.T) {
	b := openBag(t, multichunk)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var cache rosmsg.Cache
	if _, err := SampleFields(ctx, b, &cache); err == nil {
		t.Fatal("no error after cancel")
	}
}
