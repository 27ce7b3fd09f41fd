package sensor

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
)

// Log message types, in their ROS 1 spelling (see BaseType).
const (
	ROS1LogType = "rosgraph_msgs/Log"
	ROS2LogType = "rcl_interfaces/Log"
)

// IsLogType says whether messages of type typ are log messages that the
// Log view lists.
func IsLogType(typ string) bool {
	t := BaseType(typ)
	return t == ROS1LogType || t == ROS2LogType
}

// Severity is a log level common to ROS 1 and ROS 2.
type Severity int

// The log levels, least severe first.
const (
	SevUnknown Severity = iota
	SevDebug
	SevInfo
	SevWarn
	SevError
	SevFatal
)

// Severities lists the levels from Debug to Fatal.
var Severities = []Severity{SevDebug, SevInfo, SevWarn, SevError, SevFatal}

// String is the level's name as rqt_console shows it: "Debug", "Info", ...
func (s Severity) String() string {
	switch s {
	case SevDebug:
		return "Debug"
	case SevInfo:
		return "Info"
	case SevWarn:
		return "Warn"
	case SevError:
		return "Error"
	case SevFatal:
		return "Fatal"
	}
	return "?"
}

// severityOf maps a message's level byte to a Severity: ROS 1's
// rosgraph_msgs/Log uses 1, 2, 4, 8, 16; ROS 2's rcl_interfaces/Log 10,
// 20, 30, 40, 50.
func severityOf(level int64, ros2 bool) Severity {
	if ros2 {
		switch level {
		case 10:
			return SevDebug
		case 20:
			return SevInfo
		case 30:
			return SevWarn
		case 40:
			return SevError
		case 50:
			return SevFatal
		}
		return SevUnknown
	}
	switch level {
	case 1:
		return SevDebug
	case 2:
		return SevInfo
	case 4:
		return SevWarn
	case 8:
		return SevError
	case 16:
		return SevFatal
	}
	return SevUnknown
}

// LogEntry is one decoded log message.
type LogEntry struct {
	Ref   msgref.Ref
	Topic string
	// Stamp is the message's own time (header.stamp or stamp), nanoseconds
	// since the epoch; Ref.T is its receive time.
	Stamp    int64
	Level    int64 // as written
	Severity Severity
	Node     string // name
	Msg      string
	File     string
	Function string
	Line     uint32
}

// DecodeLog reads a decoded rosgraph_msgs/Log or rcl_interfaces/msg/Log.
func DecodeLog(typ string, root *rosmsg.Node) (LogEntry, error) {
	if root == nil {
		return LogEntry{}, errors.New("the message is not decoded")
	}
	ros2 := BaseType(typ) == ROS2LogType
	f, err := needFields(root, "level", "name", "msg", "file", "function", "line")
	if err != nil {
		return LogEntry{}, err
	}
	lv, err := number(f[0])
	if err != nil {
		return LogEntry{}, err
	}
	e := LogEntry{
		Level: int64(lv), Severity: severityOf(int64(lv), ros2),
		Node: f[1].Text(), Msg: f[2].Text(), File: f[3].Text(), Function: f[4].Text(), Line: uint32(f[5].Uint()),
	}
	e.Stamp = stampOf(root)
	return e, nil
}

// stampOf returns a message's header.stamp (ROS 1) or stamp (ROS 2,
// builtin_interfaces/Time) in nanoseconds, or 0.
func stampOf(root *rosmsg.Node) int64 {
	s := root.Field("stamp")
	if h := root.Field("header"); s == nil && h != nil {
		s = h.Field("stamp")
	}
	if s == nil {
		return 0
	}
	if s.Kind == rosmsg.KindTime {
		t := s.Time()
		return int64(t.Sec)*1e9 + int64(t.Nsec)
	}
	sec, nsec := s.Field("sec"), s.Field("nanosec")
	if sec == nil || nsec == nil {
		return 0
	}
	return sec.Int()*1e9 + int64(nsec.Uint())
}

// ReadLog decodes every message of the given log topics of s, in receive
// time order. Messages that do not decode are counted in skipped (the
// first error is returned with them); only ctx's cancellation or a read
// error stops it early.
func ReadLog(ctx context.Context, s bag.Storage, cache *rosmsg.Cache, topics []string) (entries []LogEntry, skipped int, err error) {
	if len(topics) == 0 {
		return nil, 0, nil
	}
	if cache == nil {
		cache = &rosmsg.Cache{}
	}
	it := s.Messages(bag.MessageFilter{Topics: topics})
	defer it.Close()
	var first error
	for k := 0; it.Next(); k++ {
		if k&255 == 0 && ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		m := it.Message()
		if !IsLogType(m.Conn.Type) {
			continue
		}
		e, err := decodeLogMessage(cache, m)
		if err != nil {
			skipped++
			if first == nil {
				first = err
			}
			continue
		}
		entries = append(entries, e)
	}
	if err := it.Err(); err != nil {
		return entries, skipped, err
	}
	slices.SortStableFunc(entries, func(a, b LogEntry) int { return cmp.Compare(a.Ref.T, b.Ref.T) })
	return entries, skipped, first
}

func decodeLogMessage(cache *rosmsg.Cache, m *bag.Message) (LogEntry, error) {
	plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
	if err != nil {
		return LogEntry{}, fmt.Errorf("definition of %s: %w", m.Conn.Type, err)
	}
	root, err := plan.Decode(m.Data)
	if err != nil && !(errors.Is(err, rosmsg.ErrTrailingBytes) && root != nil) {
		return LogEntry{}, err
	}
	e, err := DecodeLog(m.Conn.Type, root)
	if err != nil {
		return LogEntry{}, fmt.Errorf("%s on %s: %w (as the recording defines it)", m.Conn.Type, m.Conn.Topic, err)
	}
	e.Topic = m.Conn.Topic
	e.Ref = msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
	return e, nil
}

// LogFilter selects log entries: at least MinLevel (SevUnknown: any),
// from Node ("" any), whose text contains Text (case-insensitive, in the
// message, the node name, the file or the function).
type LogFilter struct {
	MinLevel Severity
	Node     string
	Text     string
}

// Match says whether e passes the filter.
func (f LogFilter) Match(e *LogEntry) bool {
	if f.MinLevel != SevUnknown && e.Severity < f.MinLevel {
		return false
	}
	if f.Node != "" && e.Node != f.Node {
		return false
	}
	if f.Text != "" {
		q := strings.ToLower(f.Text)
		for _, s := range []string{e.Msg, e.Node, e.File, e.Function} {
			if strings.Contains(strings.ToLower(s), q) {
				return true
			}
		}
		return false
	}
	return true
}

// FilterLog returns the indexes of the entries that pass f.
func FilterLog(entries []LogEntry, f LogFilter) []int {
	out := make([]int, 0, len(entries))
	for i := range entries {
		if f.Match(&entries[i]) {
			out = append(out, i)
		}
	}
	return out
}

// LogRowAt returns the position in rows (indexes into entries, in time
// order) of the last entry received at or before t, or -1.
func LogRowAt(entries []LogEntry, rows []int, t int64) int {
	i, _ := slices.BinarySearchFunc(rows, t, func(r int, t int64) int {
		if entries[r].Ref.T <= t {
			return -1
		}
		return 1
	})
	return i - 1
}

// LogNodes returns the node names of entries, sorted, each once.
func LogNodes(entries []LogEntry) []string {
	seen := map[string]bool{}
	var out []string
	for i := range entries {
		if n := entries[i].Node; !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
