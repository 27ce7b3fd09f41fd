package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
)

// selection is a parsed --select TOPIC@TIME: the message of a topic
// nearest a time. A time below 1e8 s is relative to the bag's start (the
// bag cannot be from 1973); a larger one is seconds since the epoch.
type selection struct {
	topic string
	sec   float64
}

func parseSelection(s string) (selection, error) {
	i := strings.LastIndex(s, "@")
	if i <= 0 || i == len(s)-1 {
		return selection{}, fmt.Errorf("--select %q: want TOPIC@TIME, e.g. /imu@12.5 (seconds from the bag's start) or /imu@1700000000.25", s)
	}
	sec, err := strconv.ParseFloat(strings.TrimSuffix(s[i+1:], "s"), 64)
	if err != nil || math.IsNaN(sec) || math.IsInf(sec, 0) || sec < 0 {
		return selection{}, fmt.Errorf("--select %q: %q is not a time in seconds", s, s[i+1:])
	}
	return selection{topic: s[:i], sec: sec}, nil
}

// nanos is the selection's time, given the bag's start.
func (s selection) nanos(start int64) int64 {
	if s.sec < 1e8 {
		return start + int64(math.Round(s.sec*1e9))
	}
	return int64(math.Round(s.sec * 1e9))
}

// applySelection selects the message of sel's topic nearest its time once
// the message index is built, and reports a topic the bag lacks to warn.
// With record set, the Records view also shows the message's record.
func applySelection(l link.Link, sel selection, record bool, warn func(error)) {
	l.WithIndex(func(x *model.MessageIndex) {
		t := x.Topic(sel.topic)
		if t == nil || t.Len() == 0 {
			warn(fmt.Errorf("--select: the bag has no messages on topic %q", sel.topic))
			return
		}
		start := l.Doc().Summary.Start
		ref := t.At(t.Nearest(sel.nanos(start.Nanos())))
		l.SelectMessage(ref)
		if record {
			if f := l.Actions().ShowMessageRecord; f != nil {
				f(ref.ChunkPos, ref.Offset)
			}
		}
	})
}

// timeRange is a parsed --range A:B: a time window in seconds, relative to
// the bag's start or since the epoch as for --select.
type timeRange struct{ a, b selection }

// parseRange reads A:B (seconds, A before B).
func parseRange(s string) (timeRange, error) {
	as, bs, ok := strings.Cut(s, ":")
	a, errA := strconv.ParseFloat(strings.TrimSuffix(as, "s"), 64)
	b, errB := strconv.ParseFloat(strings.TrimSuffix(bs, "s"), 64)
	if !ok || errA != nil || errB != nil || !(a >= 0) || !(b > a) || math.IsInf(b, 0) {
		return timeRange{}, fmt.Errorf("--range %q: want START:END in seconds, START before END, e.g. 100:110 (from the bag's start) or 1700000000:1700000010", s)
	}
	return timeRange{selection{sec: a}, selection{sec: b}}, nil
}

// applyRange shows the window r in the timeline and the plots.
func applyRange(l link.Link, r timeRange) {
	start := l.Doc().Summary.Start.Nanos()
	l.SetRange(r.a.nanos(start), r.b.nanos(start), true)
}
