package query

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// Output formats of Filter, by the names users give them.
var filterFormats = map[string]string{
	"bag": ".bag", "ros1": ".bag", "rosbag": ".bag",
	"mcap": ".mcap",
	"db3":  ".db3", "sqlite": ".db3", "sqlite3": ".db3", "rosbag2": ".db3",
}

// FilterOptions say what Filter keeps and how it writes it.
type FilterOptions struct {
	// Filter selects the topics and the log time range (Conns is not
	// used): only the chunks in range are read.
	Filter bag.MessageFilter
	// Where, when not empty, is an expression (bag/rosmsg/expr) a kept
	// message must hold for; topics it cannot read are left out.
	Where string
	// Format is the output's format (bag, mcap or db3); "" takes it from
	// the output's extension.
	Format string
	// Compression is the output's chunk compression ("" the format's
	// default).
	Compression string
	// Progress, when set, receives the messages read and the number
	// selected (from the index; 0 when unknown).
	Progress func(done, total int64)
}

// FilterReport says what Filter wrote.
type FilterReport struct {
	*bag.RepairReport
	// Format is the output's format name.
	Format string
	// Read counts the messages read (and evaluated, with a Where).
	Read int64
	// Connections counts the connections written (their definitions and
	// QoS are kept, with or without messages).
	Connections int
	// Unread lists the selected topics a Where expression cannot read:
	// they are left out.
	Unread []Unread
	// Failed counts messages the expression could not be evaluated on
	// (their data does not hold its fields): they are left out.
	Failed int64
	First  []Failure
}

// FilterFormat returns the format Filter writes out in: the format named
// (bag, mcap, db3) or else out's extension's.
func FilterFormat(out, format string) (*bag.Format, error) {
	ext := ""
	if format != "" {
		var ok bool
		if ext, ok = filterFormats[strings.ToLower(strings.TrimPrefix(format, "."))]; !ok {
			return nil, fmt.Errorf("unknown output format %q: want bag, mcap or db3", format)
		}
	} else {
		for _, e := range []string{".bag", ".mcap", ".db3"} {
			if strings.HasSuffix(strings.ToLower(out), e) {
				ext = e
			}
		}
		if ext == "" {
			return nil, fmt.Errorf("%s: name the output .bag, .mcap or .db3, or give --format", out)
		}
	}
	f := bag.FormatFor("x" + ext)
	if f == nil || f.Write == nil {
		return nil, fmt.Errorf("bagscope cannot write %s files", ext)
	}
	return f, nil
}

// Filter writes to out, in the format asked for, the messages of src that
// opt selects: their payloads byte for byte, with their connections'
// definitions, QoS and metadata. ROS 1 bags hold ROS 1 messages and
// rosbag2 .db3 files CDR messages only: converting between them is
// refused. The file is written to a temporary file and renamed into place
// when complete; src is only read.
func Filter(ctx context.Context, src bag.Storage, out string, opt FilterOptions) (*FilterReport, error) {
	format, err := FilterFormat(out, opt.Format)
	if err != nil {
		return nil, err
	}
	fs := &filtered{ctx: ctx, progress: opt.Progress}
	rep := &FilterReport{Format: format.Name}
	var keep map[uint32]bool
	if opt.Where != "" {
		var cache rosmsg.Cache
		c, err := Compile(src, &cache, opt.Where, opt.Filter)
		if err != nil {
			return nil, err
		}
		var clock *ClockIndex
		if c.ReadsClock() {
			if clock, err = ReadClock(ctx, src, &cache); err != nil && !errors.Is(err, ErrNoClock) {
				return nil, err
			}
		}
		start, _ := model.TimeRange(src)
		fs.match = c.NewMatcher(start, clock)
		fs.rep = rep
		rep.Unread = c.Unread
		keep = map[uint32]bool{}
		for _, id := range c.Conns() {
			keep[id] = true
		}
	}
	var ids []uint32
	for _, c := range src.Connections() {
		if len(opt.Filter.Topics) > 0 && !slices.Contains(opt.Filter.Topics, c.Topic) {
			continue
		}
		if keep != nil && !keep[c.ID] {
			continue
		}
		ids = append(ids, c.ID)
	}
	if len(ids) == 0 {
		return nil, errors.New("the selection leaves no topic to write")
	}
	rep.Connections = len(ids)
	sel := bag.MessageFilter{Conns: ids, Start: opt.Filter.Start, End: opt.Filter.End}
	fs.Storage = bag.Select(src, sel)
	fs.total = selectedCount(src, sel)
	r, err := model.WriteAtomically(out, func(w io.WriteSeeker) (*bag.RepairReport, error) {
		return format.Write(w, fs, opt.Compression)
	})
	rep.RepairReport = r
	rep.Read = fs.read
	if fs.err != nil && err == nil {
		err = fs.err
	}
	if r != nil {
		var lost uint64
		r.Lost, lost = AddScanLoss(r.Lost, src)
		r.LostMessages = max(r.LostMessages, lost)
	}
	if opt.Progress != nil {
		opt.Progress(fs.read, max(fs.total, fs.read))
	}
	rep.First = earliest(rep.First)
	return rep, err
}

// filtered is a recording seen through a selection: bag.Select's view of
// the selected connections and time range, whose messages are further
// those the expression holds for. The writers read it as any other
// recording.
type filtered struct {
	bag.Storage
	ctx      context.Context
	match    *Matcher
	rep      *FilterReport
	progress func(done, total int64)
	total    int64
	read     int64
	err      error
}

// Messages iterates over the selected messages; mf narrows them further.
func (f *filtered) Messages(mf bag.MessageFilter) bag.MessageIter {
	it := &filterIter{f: f, it: f.Storage.Messages(mf)}
	if _, ok := it.it.(interface{ Sequence() uint32 }); ok {
		return seqIter{it}
	}
	return it
}

// filterIter drops the messages the expression does not hold for.
type filterIter struct {
	f  *filtered
	it bag.MessageIter
}

func (i *filterIter) Next() bool {
	f := i.f
	for i.it.Next() {
		f.read++
		if f.read&1023 == 0 {
			if err := f.ctx.Err(); err != nil {
				f.err = err
				return false
			}
			if f.progress != nil {
				f.progress(f.read, f.total)
			}
		}
		if f.match == nil {
			return true
		}
		m := i.it.Message()
		ok, _, err := f.match.Match(m, nil)
		if err != nil {
			f.rep.Failed++
			f.rep.First = append(f.rep.First, Failure{Topic: m.Conn.Topic, Time: m.Time, Loc: m.Loc, Err: err})
			if len(f.rep.First) > 4*maxFailures {
				f.rep.First = earliest(f.rep.First)
			}
			continue
		}
		if ok {
			return true
		}
	}
	return false
}

func (i *filterIter) Message() *bag.Message { return i.it.Message() }

// Err returns the iteration's error, or the context's when cancelled.
func (i *filterIter) Err() error {
	if i.f.err != nil {
		return i.f.err
	}
	return i.it.Err()
}

func (i *filterIter) Close() { i.it.Close() }

// Skipped lists the ranges the read skipped.
func (i *filterIter) Skipped() []bag.ByteRange {
	if sk, ok := i.it.(interface{ Skipped() []bag.ByteRange }); ok {
		return sk.Skipped()
	}
	return nil
}

// seqIter is a filterIter over an iterator that knows each message's
// MCAP sequence number, which the MCAP writer keeps.
type seqIter struct{ *filterIter }

// Sequence returns the current message's sequence number.
func (i seqIter) Sequence() uint32 { return i.it.(interface{ Sequence() uint32 }).Sequence() }
