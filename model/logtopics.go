package model

import "github.com/bagscope/bagscope/model/sensor"

// LogTopics returns the topics of d whose messages are logs.
func LogTopics(d *Document) []string {
	var out []string
	for _, t := range d.Topics {
		if sensor.IsLogType(t.Type) {
			out = append(out, t.Topic)
		}
	}
	return out
}
