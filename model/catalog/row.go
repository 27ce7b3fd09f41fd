package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
)

// Recording is one row of the recordings table.
type Recording struct {
	Path    string `parquet:"path"`
	Format  string `parquet:"format"`
	Version string `parquet:"version"`
	// Size and MTime are the recording's files' bytes and latest
	// modification time, as listed: a later run reads the recording again
	// only when they change.
	Size  int64     `parquet:"size"`
	MTime time.Time `parquet:"mtime,timestamp(nanosecond)"`
	// Validator is what a remote recording's listing says of its
	// version: an object's ETag ("etag:…", else "modified:" and its
	// Last-Modified), a rosbag2 prefix's a hash of its objects' (""
	// for local files, and for a remote recording that could not be
	// reached, so a later run tries it again). A later run reads the
	// recording again only when it, Size or MTime change. A catalogue
	// written before this column reads with it empty: its local rows
	// stay unchanged, its remote rows are read again once.
	Validator string `parquet:"validator"`
	// Indexed is false for a recording read by scanning (Scanned) or not
	// read at all (no index, and no --scan).
	Indexed bool `parquet:"indexed"`
	Scanned bool `parquet:"scanned"`
	// ReadAll says every message was read (--read-all).
	ReadAll bool `parquet:"read_all"`
	// Start and End are the first and last receive times; Duration the
	// seconds between them.
	Start    time.Time `parquet:"start,timestamp(nanosecond)"`
	End      time.Time `parquet:"end,timestamp(nanosecond)"`
	StartNS  int64     `parquet:"start_ns"`
	EndNS    int64     `parquet:"end_ns"`
	Duration float64   `parquet:"duration"`
	Messages int64     `parquet:"messages"`
	Topics   int32     `parquet:"topics"`
	Chunks   int32     `parquet:"chunks"`
	// Compression lists the chunks' compressions ("lz4", "zstd,none").
	Compression string `parquet:"compression"`
	// The health: what was lost, as every command reports it. Healthy is
	// true when nothing was lost (Health is then "ok").
	Healthy      bool   `parquet:"healthy"`
	Health       string `parquet:"health"`
	LostMessages int64  `parquet:"lost_messages"`
	LostBytes    int64  `parquet:"lost_bytes"`
	Suspect      int64  `parquet:"suspect_messages"`
	MissingFiles int32  `parquet:"missing_files"`
	// Metadata is a JSON object of what the recording says of itself:
	// rosbag2's custom_data, MCAP metadata records (by name).
	Metadata string `parquet:"metadata"`
	// Error is why the recording could not be read ("" when it was).
	Error string `parquet:"error"`
}

// Topic is one row of the topics table.
type Topic struct {
	Path        string `parquet:"path"`
	Topic       string `parquet:"topic"`
	Type        string `parquet:"type"`
	MD5Sum      string `parquet:"md5sum"`
	Connections int32  `parquet:"connections"`
	Messages    int64  `parquet:"messages"`
	// Rate is `rosbag info --freq`'s: 1 / the median interval (null with
	// fewer than two messages or a median of 0). The intervals are in
	// seconds (null with fewer than two messages).
	Rate           *float64 `parquet:"rate,optional"`
	IntervalMin    *float64 `parquet:"interval_min,optional"`
	IntervalMedian *float64 `parquet:"interval_median,optional"`
	IntervalMax    *float64 `parquet:"interval_max,optional"`
	// Gaps counts the intervals over 3x the median; LongestGap is the
	// longest of them in seconds (null without gaps).
	Gaps       int32    `parquet:"gaps"`
	LongestGap *float64 `parquet:"longest_gap,optional"`
	First      *int64   `parquet:"first_ns,optional"`
	Last       *int64   `parquet:"last_ns,optional"`
	// Bytes adds up the payloads (null unless every message was read).
	Bytes *int64 `parquet:"bytes,optional"`
	QoS   string `parquet:"qos"`
}

// read reads one recording's rows, and says how: "read", "unscanned" or
// "failed".
func read(ctx context.Context, e entry, o Options) (Recording, []Topic, string) {
	r := Recording{Path: bag.Shown(e.path), Size: e.size, MTime: e.mtime, Validator: e.validator, Metadata: "{}", ReadAll: o.ReadAll}
	if e.err != nil {
		return unreached(r, e.err)
	}
	if !o.Scan {
		if reason := bag.NeedsScan(e.path); reason != nil {
			r.Health = fmt.Sprintf("not read: %v (catalog --scan reads it)", reason)
			r.Format = formatByName(e.path)
			return r, nil, "unscanned"
		}
	}
	b, err := model.OpenStorageWith(e.path, bag.OpenOptions{Context: ctx, AllowRemoteScan: o.Scan || o.AllowRemoteScan})
	if isRemoteFailure(err) {
		return unreached(r, err)
	}
	if err != nil {
		r.Error = err.Error()
		r.Health = "not read: " + err.Error()
		r.Format = formatByName(e.path)
		return r, nil, "failed"
	}
	defer b.Close()
	s, err := b.Summary()
	if isRemoteFailure(err) {
		return unreached(r, err)
	}
	if err != nil {
		r.Error = err.Error()
		r.Health = "not read: " + err.Error()
		return r, nil, "failed"
	}
	fi := b.FileInfo()
	r.Format, r.Version, r.Indexed, r.Scanned = s.Format, s.Version, fi.Indexed, fi.Scanned != nil
	d := bag.DamageOf(b)
	var read map[uint32]uint64
	var bytesOf map[uint32]uint64
	if o.ReadAll || r.Scanned {
		if d, read, err = bag.Survey(ctx, b, nil); err != nil {
			if isRemoteFailure(err) {
				return unreached(r, err)
			}
			r.Error = err.Error()
			return r, nil, "failed"
		}
		for i := range s.Topics {
			t := &s.Topics[i]
			t.Messages = 0
			for _, c := range t.Connections {
				t.Messages += read[c.ID]
			}
		}
		s.Messages = d.Read
	}
	if o.ReadAll {
		if bytesOf, err = stats.MessageBytes(ctx, b, nil); err != nil {
			if isRemoteFailure(err) {
				return unreached(r, err)
			}
			r.Error = err.Error()
		}
	}
	r.Start, r.End = s.Start.Std(), s.End.Std()
	r.StartNS, r.EndNS = s.Start.Nanos(), s.End.Nanos()
	r.Duration = float64(s.End.Nanos()-s.Start.Nanos()) / 1e9
	r.Messages, r.Topics, r.Chunks = int64(s.Messages), int32(len(s.Topics)), int32(s.Chunks)
	r.Compression = strings.Join(s.CompressionNames(), ",")
	r.LostMessages, r.LostBytes, r.Suspect, r.MissingFiles = int64(d.Messages.Min), d.Bytes, int64(d.Suspect), int32(d.MissingFiles)
	r.Healthy = !d.Lost()
	r.Health = "ok"
	if h := human.DamageHeadline(d); h != "" {
		r.Health = h
	}
	if md := metadataOf(b, e.path); len(md) > 0 {
		if j, err := json.Marshal(md); err == nil {
			r.Metadata = string(j)
		}
	}

	// Timing from the message index: index records only.
	var set *stats.Set
	x, err := model.BuildMessageIndex(ctx, b, nil)
	if isRemoteFailure(err) {
		return unreached(r, err)
	}
	if err == nil {
		set, _ = model.ComputeStats(ctx, x)
	}
	var topics []Topic
	for _, t := range s.Topics {
		row := Topic{Path: r.Path, Topic: t.Topic, Type: t.Type, MD5Sum: t.MD5Sum, Connections: int32(len(t.Connections)), Messages: int64(t.Messages)}
		if len(t.Connections) > 0 {
			row.QoS = model.QoS(t.Connections[0])
		}
		if bytesOf != nil {
			var n uint64
			for _, c := range t.Connections {
				n += bytesOf[c.ID]
			}
			v := int64(n)
			row.Bytes = &v
		}
		if set != nil {
			if st := set.Topics[t.Topic]; st != nil && st.Messages > 0 {
				first, last := st.First, st.Last
				row.First, row.Last = &first, &last
				if st.HasRate {
					rate := st.Rate
					row.Rate = &rate
				}
				if st.Messages >= 2 {
					row.IntervalMin, row.IntervalMedian, row.IntervalMax = seconds(st.MinInterval), seconds(st.MedianInterval), seconds(st.MaxInterval)
				}
				row.Gaps = int32(st.GapCount)
				var longest int64
				for _, g := range st.Gaps {
					longest = max(longest, g.End-g.Start)
				}
				if st.GapCount > 0 {
					row.LongestGap = seconds(longest)
				}
			}
		}
		topics = append(topics, row)
	}
	return r, topics, "read"
}

// isRemoteFailure reports whether err is remote storage failing to give
// a recording's bytes (access denied, gone, changed while read, the
// server down), not the recording being damaged: its row says so and a
// later run tries again.
func isRemoteFailure(err error) bool {
	var re *remote.Error
	return err != nil && errors.As(err, &re)
}

// unreached is the row of a remote recording that could not be read: its
// health and error say why (HTTP 403, 404, changed during the read), and
// it has no validator, so that the next run tries it again.
func unreached(r Recording, err error) (Recording, []Topic, string) {
	msg := err.Error()
	if errors.Is(err, remote.ErrChanged) {
		msg = "changed during the read: " + msg
	}
	r.Validator, r.Error, r.Health = "", msg, "not read: "+msg
	r.Format = formatByName(r.Path)
	return r, nil, "failed"
}

func seconds(ns int64) *float64 {
	f := float64(ns) / 1e9
	return &f
}

// formatByName names the format of a recording not opened, from its name.
func formatByName(path string) string {
	if f := bag.FormatFor(bag.Base(path)); f != nil {
		return f.Name
	}
	return ""
}
