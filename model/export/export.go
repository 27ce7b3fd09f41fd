package export

import (
	"context"
	"errors"
	"fmt"
	"io"

	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/query"
)

// Formats.
const (
	Parquet = "parquet"
	CSV     = "csv"
)

// Options say what Export writes.
type Options struct {
	// Format is Parquet or CSV.
	Format string
	// Filter selects the topics and the time range (Conns is not used).
	Filter bag.MessageFilter
	// Hive writes ROOT/topic=T/recording=R/R.parquet (partition values
	// percent-encoded, as DuckDB and Spark write and read them), so that
	// exports of many recordings under one root read as one dataset.
	// Otherwise each topic is ROOT/TOPIC.parquet (TOPIC's slashes are
	// folders).
	Hive bool
	// Recording names the recording in a Hive layout (the file's name
	// without extension when empty).
	Recording string
	// Force overwrites tables that exist.
	Force bool
	// Clock adds the column clock_time: the sim time of /clock at each
	// message (null before the first /clock message).
	Clock bool
	// Progress, when set, receives the messages read and the number
	// selected (from the index; 0 when unknown).
	Progress func(done, total int64)
}

// Table is one table Export wrote.
type Table struct {
	Topic, Type string
	Path        string
	Rows        int64
	Columns     int
	// Failed counts messages whose data does not hold their definition's
	// fields: they have no row.
	Failed int64
}

// Skip is a selected topic Export wrote no table for, and why.
type Skip struct {
	Topic, Type string
	Err         error
}

// Report says what Export wrote and what it could not.
type Report struct {
	Tables   []Table
	Skipped  []Skip
	Messages int64
	// Lost lists the byte ranges that could not be read; LostMessages
	// counts the messages known to be in them.
	Lost         []bag.ByteRange
	LostMessages uint64
}

// newParquetTable makes a Parquet table's writer (the tests compare it with
// a row-at-a-time writer).
var newParquetTable = func(l *layout, out io.Writer, definition, recording string, tables int) table {
	return newPQTable(l, out, definition, recording, tables)
}

// table is one table being written.
type table interface {
	sink
	times(ts []int64, ok []bool)
	end() error
	drop()
	close() error
}

type tableState struct {
	info  Table
	l     *layout
	t     table
	f     *os.File
	tmp   string
	stamp [2]*rosmsg.Path
}

// Export writes the messages of s that opt.Filter selects as one table per
// topic (and type) under dir: fields flattened to columns in definition
// order ("pose.position.x"), with the log time, the publish time and, for
// types with a header, header.stamp first. Parquet keeps the definition's
// types (int64 stays int64, uint8[] is binary, arrays are LISTs), so the
// tables of recordings of the same types union. Messages are read in log
// time order and written as they come, in row groups of bounded size.
// Each table is written to a temporary file renamed into place when
// complete.
func Export(ctx context.Context, s bag.Storage, dir string, opt Options) (*Report, error) {
	if opt.Format != Parquet && opt.Format != CSV {
		return nil, fmt.Errorf("unknown export format %q: want parquet or csv", opt.Format)
	}
	recording := opt.Recording
	if recording == "" {
		recording = recordingName(s)
	}
	var cache rosmsg.Cache
	rep := &Report{}
	byConn := map[uint32]*tableState{}
	byKey := map[string]*tableState{}
	var order []*tableState
	var conns []uint32
	cleanup := func() {
		for _, ts := range order {
			if ts.f != nil {
				ts.f.Close()
				os.Remove(ts.tmp)
			}
		}
	}
	for _, c := range s.Connections() {
		if len(opt.Filter.Topics) > 0 && !contains(opt.Filter.Topics, c.Topic) {
			continue
		}
		plan, err := model.PlanFor(&cache, c)
		if err != nil {
			if c.Definition == "" && (c.Encoding == "cdr" || c.Encoding == "ros1") {
				err = errors.New(model.MissingDefinitionHint(c))
			}
			rep.Skipped = append(rep.Skipped, Skip{c.Topic, c.Type, err})
			continue
		}
		key := c.Topic + "\x00" + plan.Type + "\x00" + c.Definition
		ts := byKey[key]
		if ts == nil {
			l, err := newLayout(plan, opt.Format == CSV, opt.Clock)
			if err != nil {
				rep.Skipped = append(rep.Skipped, Skip{c.Topic, c.Type, err})
				continue
			}
			ts = &tableState{info: Table{Topic: c.Topic, Type: c.Type, Columns: len(l.names)}, l: l}
			if l.stamp {
				ts.stamp = stampPaths(plan)
			}
			byKey[key] = ts
			order = append(order, ts)
		}
		byConn[c.ID] = ts
		conns = append(conns, c.ID)
	}
	// Several types (or definitions) on one topic: a table each, named
	// after the type.
	perTopic := map[string]int{}
	for _, ts := range order {
		perTopic[ts.info.Topic]++
	}
	for _, ts := range order {
		suffix := ""
		if perTopic[ts.info.Topic] > 1 {
			suffix = "." + strings.ReplaceAll(ts.l.plan.Type, "/", ".")
		}
		ts.info.Path = tablePath(dir, ts.info.Topic, recording, suffix, opt)
		if _, err := os.Stat(ts.info.Path); err == nil && !opt.Force {
			cleanup()
			return nil, fmt.Errorf("%s exists: name another folder, or pass --force to overwrite it", ts.info.Path)
		}
	}
	if len(order) == 0 {
		return rep, errors.New("no selected topic has a definition bagscope decodes")
	}
	var clock *query.ClockIndex
	if opt.Clock {
		var err error
		if clock, err = query.ReadClock(ctx, s, &cache); err != nil {
			cleanup()
			return nil, err
		}
	}
	for _, ts := range order {
		if err := os.MkdirAll(filepath.Dir(ts.info.Path), 0o755); err != nil {
			cleanup()
			return nil, err
		}
		f, err := os.CreateTemp(filepath.Dir(ts.info.Path), "."+filepath.Base(ts.info.Path)+".*.tmp")
		if err != nil {
			cleanup()
			return nil, err
		}
		ts.f, ts.tmp = f, f.Name()
		def := ""
		for _, c := range s.Connections() {
			if byConn[c.ID] == ts {
				def = c.Definition
				break
			}
		}
		if opt.Format == Parquet {
			ts.t = newParquetTable(ts.l, f, def, recording, len(order))
		} else if ts.t, err = newCSVTable(ts.l, f); err != nil {
			cleanup()
			return nil, err
		}
	}
	total := int64(0)
	if sum, _ := s.Summary(); sum != nil {
		for _, id := range conns {
			total += int64(sum.ConnMessages[id])
		}
	}
	w := &walker{}
	times, valid := make([]int64, 0, 4), make([]bool, 0, 4)
	it := s.Messages(bag.MessageFilter{Conns: conns, Start: opt.Filter.Start, End: opt.Filter.End})
	closed := false
	defer func() {
		if !closed {
			it.Close()
		}
	}()
	var err error
	for it.Next() {
		if rep.Messages&1023 == 0 {
			if err = ctx.Err(); err != nil {
				break
			}
			if opt.Progress != nil {
				opt.Progress(rep.Messages, total)
			}
		}
		rep.Messages++
		m := it.Message()
		ts := byConn[m.Conn.ID]
		if ts == nil {
			continue
		}
		w.out = ts.t
		times, ok := times[:0], valid[:0]
		times, ok = append(times, m.Time.Nanos(), m.PublishTime.Nanos()), append(ok, true, true)
		if ts.l.stamp {
			times, ok = append(times, stampNanos(ts.stamp, m.Data)), append(ok, true)
		}
		if clock != nil {
			c, has := clock.At(m.Time.Nanos())
			times, ok = append(times, c), append(ok, has)
		}
		if werr := w.message(ts.l, m.Data); werr != nil {
			ts.t.drop()
			ts.info.Failed++
			continue
		}
		ts.t.times(times, ok)
		if err = ts.t.end(); err != nil {
			break
		}
		ts.info.Rows++
	}
	if err == nil {
		err = it.Err()
	}
	if opt.Progress != nil {
		opt.Progress(rep.Messages, max(total, rep.Messages))
	}
	if err != nil {
		cleanup()
		return rep, err
	}
	for _, ts := range order {
		err := ts.t.close()
		if err == nil {
			err = ts.f.Chmod(0o644)
		}
		if cerr := ts.f.Close(); err == nil {
			err = cerr
		}
		ts.f = nil
		if err == nil {
			err = os.Rename(ts.tmp, ts.info.Path)
		}
		if err != nil {
			os.Remove(ts.tmp)
			cleanup()
			return rep, err
		}
		rep.Tables = append(rep.Tables, ts.info)
	}
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		rep.Lost = append(rep.Lost, sk.Skipped()...)
	}
	// The read's buffers (its chunks in flight) and the tables' go before
	// AddScanLoss's pass over the recording, which has buffers of its own:
	// held together they took an export of 4 MiB chunks of small messages
	// past the 64 MiB bound (TestHeadlessCommandsMemory, -long).
	it.Close()
	closed = true
	for _, ts := range order {
		ts.t = nil
	}
	clear(byConn)
	sort.SliceStable(rep.Tables, func(i, j int) bool { return rep.Tables[i].Path < rep.Tables[j].Path })
	rep.Lost, rep.LostMessages = query.AddScanLoss(rep.Lost, s)
	return rep, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// recordingName is the recording's file (or folder) name without its
// extension.
func recordingName(s bag.Storage) string {
	p := s.FileInfo().Path
	if p == "" {
		return "recording"
	}
	base := filepath.Base(strings.TrimSuffix(p, string(filepath.Separator)))
	for _, ext := range []string{".zstd", ".bag", ".mcap", ".db3"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

// tablePath is where a topic's table goes.
func tablePath(dir, topic, recording, suffix string, opt Options) string {
	ext := "." + opt.Format
	if opt.Hive {
		return filepath.Join(dir, "topic="+hiveEscape(topic), "recording="+hiveEscape(recording), safeName(recording)+suffix+ext)
	}
	parts := strings.Split(strings.Trim(topic, "/"), "/")
	for i, p := range parts {
		parts[i] = safeName(p)
	}
	return filepath.Join(dir, filepath.Join(parts...)+suffix+ext)
}

// hiveEscape percent-encodes a partition value as DuckDB does: every byte
// but letters, digits and -_.~.
func hiveEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// safeName makes a file name of a topic's part: no separators, no
// leading dot.
func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 || r == ':' {
			return '_'
		}
		return r
	}, s)
	if s == "" || s == "." || s == ".." || strings.HasPrefix(s, ".") {
		s = "_" + s
	}
	return s
}

// stampPaths compiles the header.stamp readers of plan.
func stampPaths(plan *rosmsg.Plan) [2]*rosmsg.Path {
	for _, f := range [][2]string{{"header.stamp.secs", "header.stamp.nsecs"}, {"header.stamp.sec", "header.stamp.nanosec"}} {
		s, err1 := rosmsg.CompilePath(plan, f[0])
		n, err2 := rosmsg.CompilePath(plan, f[1])
		if err1 == nil && err2 == nil {
			return [2]*rosmsg.Path{s, n}
		}
	}
	return [2]*rosmsg.Path{}
}

func stampNanos(p [2]*rosmsg.Path, data []byte) int64 {
	if p[0] == nil {
		return 0
	}
	s, err1 := p[0].Float64(data)
	n, err2 := p[1].Float64(data)
	if err1 != nil || err2 != nil {
		return 0
	}
	return int64(s)*1e9 + int64(n)
}
