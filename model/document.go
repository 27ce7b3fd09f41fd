package model

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/stats"
)

// Progress stages reported while opening.
const (
	StageIndex  = "reading index"
	StageChunks = "reading chunk headers"
)

// ProgressFunc receives progress of a background job: done out of total
// units (bytes or chunks) in the named stage; a total of 0 is not known
// yet. It is called from the job's goroutine.
type ProgressFunc func(done, total int64, stage string)

// Document is an opened recording and what the UI shows about it.
type Document struct {
	// Path is the file's path, or "" for a recording held in memory.
	Path string
	// Name is the file name shown in titles.
	Name string
	// Size is the file's size in bytes.
	Size int64
	// Storage is the opened recording, behind the storage seam: every
	// view reads through it.
	Storage bag.Storage
	// Info says what the file is and how it was read.
	Info *bag.FileInfo
	// Bag is the ROS 1 bag behind Storage, for the views of ROS 1's own
	// records (Records, Chunk); nil for other formats.
	Bag *ros1.Bag
	// Summary is the recording's summary; Topics derive from it.
	Summary *bag.Summary
	Topics  []Topic
	// Warnings are problems found while opening that did not stop it.
	Warnings []error
	// Scan is set when a ROS 1 bag could not be read through its index
	// (unindexed, cut or damaged) and was scanned record by record instead.
	Scan *ros1.ScanReport
	// Members are the recordings of a document of several (Combine), the
	// first being the one the others align to; nil for one recording.
	// Close closes them.
	Members []Member

	src    io.ReaderAt // the file's bytes, for a fresh read (check, repair)
	closer io.Closer

	distrust *bag.Distrust
}

// Distrust is the one mark of the messages every view of the document
// shows (bag.Distrust): what opening found damaged, and what the reads of
// its messages learn since. A Document that Open did not make gets its
// own on first call, which must then be on one goroutine.
func (d *Document) Distrust() *bag.Distrust {
	if d.distrust == nil {
		d.distrust = bag.NewDistrust(d.Storage)
	}
	return d.distrust
}

// Topic is one row of the topics table.
type Topic struct {
	Topic string
	Type  string
	// Types lists every type when the topic has more than one.
	Types    []string
	Messages uint64
	// Claimed is what the index or summary counts, when a read of every
	// message gave another number (Messages; see TopicView.SetRead).
	Claimed  uint64
	HasClaim bool
	// Frequency is messages per second averaged over the bag's duration
	// (0 when the duration is 0); the table shows Stats' rate instead.
	Frequency   float64
	Connections int
	// Conns are the topic's connections, by ID.
	Conns []ConnRow
	// Bytes adds up the payload sizes of the topic's messages, once
	// BytesKnown (counting them reads every chunk, in the background).
	Bytes      uint64
	BytesKnown bool
	// QoS is the quality of service its connections offered (see QoS).
	QoS string
	// Stats are the topic's timing statistics once computed from the
	// message index (see TopicView.SetStats); nil until then.
	Stats *stats.Topic
	// Member is the index of the recording the topic is from in a
	// combination of several (Document.Members; 0 for the first and for
	// a recording alone): views list a recording's topics before the
	// next one's, whatever their names.
	Member int
}

// ConnRow is one connection of a topic, for the topics table.
type ConnRow struct {
	ID                     uint32
	CallerID, Type, MD5Sum string
	Latching               bool
	Messages               uint64
	// Claimed is what the index or summary counts, when a read of every
	// message gave another number (Messages; see TopicView.SetRead).
	Claimed    uint64
	HasClaim   bool
	Frequency  float64
	Bytes      uint64
	BytesKnown bool
	QoS        string
	Stats      *stats.Topic
}

// Open opens the bag at path, reading its index and chunk headers; a bag
// whose index is missing or damaged is scanned instead (see Document.Scan).
// A folder (a rosbag2 bag, a split ROS 1 recording), a rosbag2
// metadata.yaml, a storage file inside a rosbag2 bag folder and a
// zstd-compressed file open the whole recording through bag.OpenWith.
// It stops with ctx's error when ctx is cancelled. progress may be nil.
func Open(ctx context.Context, path string, progress ProgressFunc) (*Document, error) {
	return OpenWith(ctx, path, progress, OpenOptions{})
}

// OpenOptions change how OpenWith opens a recording.
type OpenOptions struct {
	// AllowRemoteScan lets a remote file without a usable summary or
	// index be read whole (the window asks first: bag.ScanConsentError
	// says its size).
	AllowRemoteScan bool
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, path string, progress ProgressFunc, o OpenOptions) (*Document, error) {
	if bag.IsURL(path) || !bag.IsPlainFile(path) {
		// A URL is read in place through the seam, whatever it names.
		return openRecording(ctx, path, progress, o)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a bag file", path)
	}
	d, err := open(ctx, f, st.Size(), path, filepath.Base(path), progress)
	if err != nil {
		f.Close()
		return nil, err
	}
	d.closer = f
	if dir := bag.FolderOf(path); dir != "" {
		// A storage file of a rosbag2 folder is read alone, as every
		// command reads it; the window says, as they do, that the folder
		// is the whole recording.
		d.Warnings = append(slices.Clip(d.Warnings), errors.New(PartOfNote(path, dir)))
	}
	return d, nil
}

// openRecording opens a recording of one or several files through
// bag.OpenWith, which reports its own stages (decompressing, opening each
// file).
func openRecording(ctx context.Context, path string, progress ProgressFunc, o OpenOptions) (*Document, error) {
	if progress == nil {
		progress = func(int64, int64, string) {}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := bag.OpenWith(path, bag.OpenOptions{Context: ctx, AllowRemoteScan: o.AllowRemoteScan, Progress: func(done, total int64, stage string) { progress(done, total, stage) }})
	if err != nil {
		return nil, cancelled(ctx, err)
	}
	FillDefinitions(st)
	// How many chunks there are is known once their headers are read.
	progress(0, 0, StageChunks)
	nblocks := int64(len(st.Blocks()))
	if err := ctx.Err(); err != nil {
		st.Close()
		return nil, err
	}
	s, err := st.Summary()
	if err != nil && s == nil {
		st.Close()
		return nil, err
	}
	progress(nblocks, nblocks, StageChunks)
	info := st.FileInfo()
	if info.Path != "" {
		path = info.Path
	}
	s.Path = path
	d := &Document{
		Path: path, Name: bag.Base(path), Size: info.Size, // a URL's name without its query
		Storage: st, Info: info, Summary: s, Warnings: info.Warnings,
		distrust: bag.NewDistrust(st),
	}
	if rs, ok := bag.Underlying(st).(*ros1.Store); ok {
		d.Bag, d.Scan = rs.Bag, rs.Bag.Scan
	}
	d.Topics = topicsOf(s)
	return d, nil
}

// OpenBytes opens a bag held in memory, such as the embedded sample.
func OpenBytes(ctx context.Context, name string, data []byte, progress ProgressFunc) (*Document, error) {
	return open(ctx, bytes.NewReader(data), int64(len(data)), "", name, progress)
}

func open(ctx context.Context, r io.ReaderAt, size int64, path, name string, progress ProgressFunc) (*Document, error) {
	if progress == nil {
		progress = func(int64, int64, string) {}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	or := &openReader{r: r, ctx: ctx}
	progress(0, size, StageIndex)
	or.onRead = func(high int64) { progress(high, size, StageIndex) }
	st, err := bag.NewStorage(or, size, path)
	if err != nil {
		return nil, cancelled(ctx, err)
	}
	FillDefinitions(st)
	or.mu.Lock()
	or.onRead = nil
	or.mu.Unlock()
	// How many chunks there are is known once their headers are read.
	progress(0, 0, StageChunks)
	nblocks := int64(len(st.Blocks())) // reads every chunk header once
	if err := ctx.Err(); err != nil {
		st.Close()
		return nil, err
	}
	s, err := st.Summary()
	if err != nil && s == nil {
		st.Close()
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	progress(nblocks, nblocks, StageChunks)
	or.detach()
	s.Path = path
	info := st.FileInfo()
	d := &Document{
		Path: path, Name: name, Size: size,
		Storage: st, Info: info, Summary: s, Warnings: info.Warnings,
		src: r, distrust: bag.NewDistrust(st),
	}
	if rs, ok := bag.Underlying(st).(*ros1.Store); ok {
		d.Bag, d.Scan = rs.Bag, rs.Bag.Scan
	}
	d.Topics = topicsOf(s)
	return d, nil
}

// cancelled returns ctx's error when ctx is done and err came from that.
func cancelled(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return cerr
	}
	return err
}

func topicsOf(s *bag.Summary) []Topic {
	counts := s.ConnMessages
	dur := s.End.Sub(s.Start)
	freq := func(n uint64) float64 {
		if dur > 0 {
			return float64(n) / dur
		}
		return 0
	}
	out := make([]Topic, 0, len(s.Topics))
	for _, t := range s.Topics {
		row := Topic{Topic: t.Topic, Type: t.Type, Types: t.Types, Messages: t.Messages, Connections: len(t.Connections), Frequency: freq(t.Messages)}
		var qos []string
		for _, c := range t.Connections {
			q := QoS(c)
			row.Conns = append(row.Conns, ConnRow{ID: c.ID, CallerID: c.CallerID, Type: c.Type, MD5Sum: c.MD5Sum, Latching: c.Latching, Messages: counts[c.ID], Frequency: freq(counts[c.ID]), QoS: q})
			if q != "" && !containsStr(qos, q) {
				qos = append(qos, q)
			}
		}
		row.QoS = strings.Join(qos, " | ")
		out = append(out, row)
	}
	return out
}

// Duration returns the time from the first to the last message, in
// seconds.
func (d *Document) Duration() float64 {
	if d.Summary.Chunks == 0 && d.Summary.Messages == 0 {
		return 0
	}
	return d.Summary.End.Sub(d.Summary.Start)
}

// Close closes the document's file.
func (d *Document) Close() error {
	if len(d.Members) > 0 {
		var err error
		for _, m := range d.Members {
			err = errors.Join(err, m.Doc.Close())
		}
		return err
	}
	err := d.Storage.Close()
	if d.closer != nil {
		if cerr := d.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
