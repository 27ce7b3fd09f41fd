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

// The rmw enums as rosbag2 stores them up to metadata version 8.
var (
	qosReliability = map[string]string{"1": "reliable", "2": "best effort", "4": "best available"}
	qosDurability  = map[string]string{"1": "transient local", "2": "volatile", "4": "best available"}
	qosHistory     = map[string]string{"1": "keep last", "2": "keep all"}
	qosLiveliness  = map[string]string{"1": "automatic", "3": "manual by topic"}
)

// enumText names an enum value given as a number or (version 9) a name.
func enumText(v string, names map[string]string) string {
	if n, ok := names[v]; ok {
		return n
	}
	if _, err := strconv.Atoi(v); err == nil {
		return "" // system default or unknown
	}
	switch v = strings.ReplaceAll(v, "_", " "); v {
	case "system default", "unknown":
		return ""
	}
	return v
}

func profileText(p map[string]string) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(enumText(p["reliability"], qosReliability))
	add(enumText(p["durability"], qosDurability))
	switch h := enumText(p["history"], qosHistory); h {
	case "keep last":
		if d := p["depth"]; d != "" && d != "0" {
			add("keep last " + d)
		} else {
			add("keep last")
		}
	default:
		add(h)
	}
	for _, name := range []string{"deadline", "lifespan"} {
		if d, ok := qosDuration(p[name+".sec"], p[name+".nsec"]); ok {
			add(name + " " + d)
		}
	}
	if l := enumText(p["liveliness"], qosLiveliness); l != "" && l != "automatic" {
		add("liveliness " + l)
	}
	return strings.Join(parts, ", ")
}

// qosDuration formats a QoS duration, or reports false for none: zero, or
// one of the two sentinels rosbag2 writes for "infinite".
func qosDuration(sec, nsec string) (string, bool) {
	s, err1 := strconv.ParseInt(sec, 10, 64)
	n, err2 := strconv.ParseInt(nsec, 10, 64)
	if err1 != nil || err2 != nil || s == 0 && n == 0 || s >= 2147483647 {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.9f", float64(s)+float64(n)*1e-9), "0"), ".") + " s", true
}
