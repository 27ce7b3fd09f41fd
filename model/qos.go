package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// QoS describes a connection's quality of service readably: for a ROS 2
// topic the offered_qos_profiles its recorder stored ("reliable, volatile,
// keep last 10"; several publishers' differing profiles joined by " | "),
// for a ROS 1 connection "latched" or "".
func QoS(c *bag.Connection) string {
	if c.Latching {
		return "latched"
	}
	if c.Metadata == nil {
		return ""
	}
	return QoSText(c.Metadata["offered_qos_profiles"])
}

// QoSText turns rosbag2's offered_qos_profiles YAML (a list of profiles,
// enums as numbers up to metadata version 8 and as names from version 9)
// into text. Unknown or default values are left out; text it cannot read
// is returned as it is, on one line.
func QoSText(yaml string) string {
	var profiles []string
	var cur map[string]string
	var section string
	flush := func() {
		if cur != nil {
			if p := profileText(cur); p != "" && !containsStr(profiles, p) {
				profiles = append(profiles, p)
			}
		}
	}
	for _, line := range strings.Split(yaml, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed == "[]" || trimmed == "''" {
			continue
		}
		if strings.HasPrefix(trimmed, "- ") {
			flush()
			cur = map[string]string{}
			section = ""
			trimmed = strings.TrimSpace(trimmed[2:])
		} else if cur == nil {
			return strings.Join(strings.Fields(yaml), " ")
		} else if indent := len(line) - len(strings.TrimLeft(line, " ")); indent <= 2 {
			section = ""
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"'`)
		if v == "" {
			section = k
			continue
		}
		if section != "" {
			k = section + "." + k
		}
		cur[k] = v
	}
	flush()
	return strings.Join(profiles, " | ")
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// The rmw enums as rosbag2 stores them up to metadata version 8 (0 is the
// system default, and the unknown value follows the last policy).
var (
	qosReliability = map[string]string{"0": "system default", "1": "reliable", "2": "best effort", "3": "unknown", "4": "best available"}
	qosDurability  = map[string]string{"0": "system default", "1": "transient local", "2": "volatile", "3": "unknown", "4": "best available"}
	qosHistory     = map[string]string{"0": "system default", "1": "keep last", "2": "keep all", "3": "unknown"}
	qosLiveliness  = map[string]string{"0": "system default", "1": "automatic", "2": "manual by node", "3": "manual by topic", "4": "unknown", "5": "best available"}
)

// enumText names an enum value given as a number or (version 9) a name.
func enumText(v string, names map[string]string) string {
	if n, ok := names[v]; ok {
		return n
	}
	return strings.ReplaceAll(v, "_", " ")
}

// profileText is one profile in full, every policy the recorder stored:
// "reliable, volatile, keep last 10, deadline ∞, lifespan ∞, liveliness
// automatic, lease ∞". A policy left to the system default or unknown is
// named with its policy ("history system default, depth 10"); a duration
// of zero or rosbag2's "infinite" is ∞.
func profileText(p map[string]string) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	policy := func(key string, names map[string]string) string {
		v, ok := p[key]
		if !ok {
			return ""
		}
		t := enumText(v, names)
		if t == "system default" || t == "unknown" {
			return key + " " + t
		}
		return t
	}
	add(policy("reliability", qosReliability))
	add(policy("durability", qosDurability))
	h := policy("history", qosHistory)
	depth, hasDepth := p["depth"]
	switch {
	case h == "keep last" && hasDepth:
		add("keep last " + depth)
	case h == "keep all" || !hasDepth:
		add(h)
	case h == "":
		add("depth " + depth)
	default:
		add(h + ", depth " + depth)
	}
	for _, name := range []string{"deadline", "lifespan"} {
		if d, ok := qosDuration(p, name); ok {
			add(name + " " + d)
		}
	}
	if v, ok := p["liveliness"]; ok {
		add("liveliness " + enumText(v, qosLiveliness))
	}
	if d, ok := qosDuration(p, "liveliness_lease_duration"); ok {
		add("lease " + d)
	}
	if p["avoid_ros_namespace_conventions"] == "true" {
		add("avoid ROS namespace conventions")
	}
	return strings.Join(parts, ", ")
}

// qosDuration formats the QoS duration name of p: "0.1 s", or ∞ for zero
// and for the two sentinels rosbag2 writes for "infinite"; false when p
// has none.
func qosDuration(p map[string]string, name string) (string, bool) {
	sec, ok1 := p[name+".sec"]
	nsec, ok2 := p[name+".nsec"]
	if !ok1 && !ok2 {
		return "", false
	}
	s, err1 := strconv.ParseInt(sec, 10, 64)
	n, err2 := strconv.ParseInt(nsec, 10, 64)
	if err1 != nil || err2 != nil {
		return strings.TrimSpace(sec + " s " + nsec + " ns"), true
	}
	if s == 0 && n == 0 || s >= 2147483647 {
		return "∞", true
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.9f", float64(s)+float64(n)*1e-9), "0"), ".") + " s", true
}
