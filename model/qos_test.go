package model

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
)

func TestQoSText(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"rosbag2 v4-8 numbers", "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n  avoid_ros_namespace_conventions: false",
			"reliable, volatile"},
		{"keep last and a deadline", "- history: 1\n  depth: 10\n  reliability: 2\n  durability: 1\n  deadline:\n    sec: 0\n    nsec: 100000000\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n",
			"best effort, transient local, keep last 10, deadline 0.1 s"},
		{"v9 names", "- history: keep_last\n  depth: 5\n  reliability: reliable\n  durability: transient_local\n  liveliness: manual_by_topic\n",
			"reliable, transient local, keep last 5, liveliness manual by topic"},
		{"two publishers, same", "- reliability: 1\n  durability: 2\n- reliability: 1\n  durability: 2\n", "reliable, volatile"},
		{"two publishers, differ", "- reliability: 1\n- reliability: 2\n", "reliable | best effort"},
		{"empty", "", ""},
		{"empty string", "''", ""},
		{"not a list", "weird text\nhere", "weird text here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := QoSText(tt.yaml); got != tt.want {
				t.Errorf("QoSText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestQoSOfConnection(t *testing.T) {
	if got := QoS(&bag.Connection{Latching: true}); got != "latched" {
		t.Errorf("latched ROS 1 connection: %q", got)
	}
	if got := QoS(&bag.Connection{}); got != "" {
		t.Errorf("plain connection: %q", got)
	}
}
