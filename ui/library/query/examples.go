package query

import (
	"strings"

	"github.com/bagscope/bagscope/model/sqlhelper"
)

// example is a query of the Examples drop-down: its text has PATH and
// TOPIC where the library's sample recording and topic go.
type example struct{ name, sql string }

var examples = []example{
	{"Recordings with a gap over 1 s on a topic", `-- Recordings with a gap over 1 s on TOPIC (the catalogue's topics table)
SELECT path, topic, longest_gap, gaps, rate
FROM topics
WHERE topic = 'TOPIC' AND longest_gap > 1
ORDER BY longest_gap DESC`},
	{"Gaps over 1 s between messages of a topic", `-- Gaps over 1 s between TOPIC's messages in one recording
SELECT log_time, log_time - lag(log_time) OVER (ORDER BY log_time) AS gap
FROM messages('PATH', 'TOPIC')
QUALIFY gap > INTERVAL 1 SECOND
ORDER BY gap DESC`},
	{"Recordings missing a topic", `-- Recordings that have no TOPIC
SELECT path, start, duration, topics
FROM recordings
WHERE path NOT IN (SELECT path FROM topics WHERE topic = 'TOPIC')
ORDER BY start`},
	{"Messages where a field is below a value", `-- TOPIC's messages where a field is below a value: name one of its
-- numeric fields (SELECT * FROM messages(...) LIMIT 1 shows them)
SELECT log_time, "FIELD"
FROM messages('PATH', 'TOPIC')
WHERE "FIELD" < 0
ORDER BY log_time`},
	{"Topics by rate across the library", `-- Each topic's rate across the library, slowest recording first
SELECT topic, type, count(*) AS recordings, min(rate) AS slowest, median(rate) AS median, max(rate) AS fastest
FROM topics
GROUP BY topic, type
ORDER BY recordings DESC, topic`},
	{"Unhealthy recordings", `-- Recordings with damage, missing files or unreadable parts
SELECT path, health, lost_messages, lost_bytes, missing_files, error
FROM recordings
WHERE NOT healthy
ORDER BY lost_messages DESC`},
}

func exampleNames() []string {
	out := make([]string, len(examples))
	for i, e := range examples {
		out[i] = e.name
	}
	return out
}

// useExample puts the example named name in the box, with the library's
// sample recording and topic.
func (v *View) useExample(name string) {
	if name == "" {
		return // the drop-down cleared below
	}
	path, topic := "/path/to/recording.bag", "/topic"
	if v.acts.Sample != nil {
		if p, t := v.acts.Sample(); p != "" {
			path, topic = p, t
		}
	}
	for _, e := range examples {
		if e.name == name {
			r := strings.NewReplacer("'PATH'", sqlhelper.Quote(path), "'TOPIC'", sqlhelper.Quote(topic), "TOPIC", topic)
			v.editor.SetText(r.Replace(e.sql))
			v.win.Canvas().Focus(v.editor)
		}
	}
	v.examples.ClearSelected()
}
