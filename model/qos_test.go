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
			"reliable, volatile, history unknown, depth 0, deadline ∞, lifespan ∞, liveliness automatic, lease ∞"},
		{"keep last and a deadline", "- history: 1\n  depth: 10\n  reliability: 2\n  durability: 1\n  deadline:\n    sec: 0\n    nsec: 100000000\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n",
			"best effort, transient local, keep last 10, deadline 0.1 s, lifespan ∞"},
		{"system defaults, a lease", "- history: 0\n  depth: 7\n  reliability: 0\n  durability: 0\n  liveliness: 0\n  liveliness_lease_duration:\n    sec: 2\n    nsec: 500000000\n  avoid_ros_namespace_conventions: true\n",
			"reliability system default, durability system default, history system default, depth 7, liveliness system default, lease 2.5 s, avoid ROS namespace conventions"},
		{"v9 names, keep all, zero durations", "- history: keep_all\n  depth: 0\n  reliability: best_effort\n  durability: volatile\n  deadline:\n    sec: 0\n    nsec: 0\n  liveliness: automatic\n",
			"best effort, volatile, keep all, deadline ∞, liveliness automatic"},
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
