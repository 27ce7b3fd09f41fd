package mcap

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"sort"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// WriteOptions says how Write writes a file.
type WriteOptions struct {
	// Compression is the chunks' compression: "zstd", "lz4" or "none"
	// ("" means zstd).
	Compression string
	// ChunkSize is the target uncompressed size of a chunk (0 means 4 MiB).
	ChunkSize int64
	// Profile is the header's profile; "" derives it from the
	// connections' encoding ("ros1", "ros2").
	Profile string
	// Library names the writer in the header ("" means bagscope).
	Library string
	// Filter selects the messages written (the zero value: all).
	Filter bag.MessageFilter
}

// Write writes src's connections and messages (in log-time order) to out
// as an indexed, chunked MCAP file with a full summary, and reports what it
// kept. ROS 1 connections become channels with message encoding "ros1" and
// a "ros1msg" schema; their connection header fields (md5sum, callerid,
// latching, ...) are kept as channel metadata. When src is an MCAP Reader,
// its attachments and metadata records are copied too. Damage in src that
// its iterator skips is listed in the report's Lost.
func Write(out io.Writer, src bag.Storage, opts WriteOptions) (*bag.RepairReport, error) {
	comp, err := libCompression(opts.Compression)
	if err != nil {
		return nil, err
	}
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = 4 << 20
	}
	rep := &bag.RepairReport{Kept: map[string]uint64{}, Compression: compressionName(string(comp))}
	wo := &lib.WriterOptions{IncludeCRC: true, Chunked: true, ChunkSize: opts.ChunkSize, Compression: comp}
	switch comp {
	case lib.CompressionLZ4:
		wo.Compressor = lib.NewCustomCompressor(comp, newLZ4Writer())
	case lib.CompressionZSTD:
		zw, err := newZstdWriter(opts.ChunkSize)
		if err != nil {
			return nil, err
		}
		wo.Compressor = lib.NewCustomCompressor(comp, zw)
	}
	w, err := lib.NewWriter(out, wo)
	if err != nil {
		return nil, err
	}
	conns := src.Connections()
	profile := opts.Profile
	if profile == "" {
		profile = deriveProfile(conns)
	}
	library := opts.Library
	if library == "" {
		library = "bagscope"
	}
	if err := w.WriteHeader(&lib.Header{Profile: profile, Library: library}); err != nil {
		return nil, err
	}
	ids, err := channelIDs(conns)
	if err != nil {
		return nil, err
	}
	type schemaKey struct{ name, enc, def string }
	schemaIDs := map[schemaKey]uint16{}
	for _, c := range conns {
		enc, sEnc := c.Encoding, c.SchemaEncoding
		if enc == "ros1" && sEnc == "" {
			sEnc = "ros1msg"
		}
		var sid uint16
		if c.Type != "" || c.Definition != "" {
			k := schemaKey{c.Type, sEnc, c.Definition}
			if sid = schemaIDs[k]; sid == 0 {
				if len(schemaIDs) >= 1<<16-1 {
					return nil, fmt.Errorf("more than %d schemas", 1<<16-1)
				}
				sid = uint16(len(schemaIDs) + 1)
				schemaIDs[k] = sid
				if err := w.WriteSchema(&lib.Schema{ID: sid, Name: c.Type, Encoding: sEnc, Data: []byte(c.Definition)}); err != nil {
					return nil, err
				}
			}
		}
		md := maps.Clone(c.Metadata)
		if md == nil {
			md = map[string]string{}
		}
		if enc == "ros1" {
			setIf(md, "md5sum", c.MD5Sum)
			setIf(md, "callerid", c.CallerID)
			if c.Latching {
				setIf(md, "latching", "1")
			}
		}
		if err := w.WriteChannel(&lib.Channel{ID: ids[c.ID], SchemaID: sid, Topic: c.Topic, MessageEncoding: enc, Metadata: md}); err != nil {
			return nil, err
		}
	}
	if x, ok := bag.Underlying(src).(*Reader); ok {
		x.copyExtras(w, rep)
	}
	it := src.Messages(opts.Filter)
	defer it.Close()
	seqer, _ := it.(interface{ Sequence() uint32 })
	seqs := map[uint32]uint32{}
	var lm lib.Message
	for it.Next() {
		m := it.Message()
		if m.Conn == nil {
			continue
		}
		if m.Suspect != "" {
			rep.Suspect++
			continue
		}
		lm.ChannelID = ids[m.Conn.ID]
		lm.LogTime = uint64(m.Time.Nanos())
		lm.PublishTime = uint64(m.PublishTime.Nanos())
		lm.Data = m.Data
		if seqer != nil {
			lm.Sequence = seqer.Sequence()
		} else {
			lm.Sequence = seqs[m.Conn.ID]
			seqs[m.Conn.ID]++
		}
		if err := w.WriteMessage(&lm); err != nil {
			return rep, err
		}
		rep.Kept[m.Conn.Topic]++
		rep.Messages++
	}
	if err := it.Err(); err != nil {
		return rep, err
	}
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		rep.Lost = append(rep.Lost, sk.Skipped()...)
	}
	if sc := src.FileInfo().Scanned; sc != nil {
		rep.Lost = append(rep.Lost, sc.Skipped...)
		rep.LostMessages += sc.LostMessages
	}
	rep.Lost = mergeRanges(rep.Lost)
	if err := w.Close(); err != nil {
		return rep, err
	}
	return rep, nil
}

// Repair writes a valid, indexed copy of the file to out: every message
// Messages can read, the schemas and channels, the attachments and metadata
// that can be read, and a full summary. compression "" keeps the input's
// most common one.
func (x *Reader) Repair(out io.WriteSeeker, compression string) (*bag.RepairReport, error) {
	if compression == "" {
		compression = "none"
		if s, _ := x.Summary(); s != nil {
			if names := s.CompressionNames(); len(names) > 0 {
				compression = names[0]
			}
		}
	}
	return Write(out, x, WriteOptions{Compression: compression, Profile: x.hdr.Profile, Library: x.hdr.Library})
}

// copyExtras copies the attachments and metadata records that can be read.
func (x *Reader) copyExtras(w *lib.Writer, rep *bag.RepairReport) {
	for _, a := range x.attachments {
		b, err := x.readAt(int64(a.Offset), int64(a.Length))
		if err == nil && (len(b) < recHeaderLen || Op(b[0]) != OpAttachment) {
			err = errAt(int64(a.Offset), OpAttachment, ErrMalformed, "no attachment record here")
		}
		if err != nil {
			rep.Lost = append(rep.Lost, bag.ByteRange{Start: int64(a.Offset), End: int64(a.Offset + a.Length), Why: fmt.Sprintf("attachment %q: %v", a.Name, err)})
			continue
		}
		d := newDec(b[recHeaderLen:])
		at := parseAttachment(d)
		if d.err == nil && at.CRC != 0 {
			if c := crcIEEE(b[recHeaderLen : recHeaderLen+at.CRCEnd]); c != at.CRC {
				d.err = fmt.Errorf("CRC %08x, the record says %08x", c, at.CRC)
			}
		}
		if d.err != nil {
			rep.Lost = append(rep.Lost, bag.ByteRange{Start: int64(a.Offset), End: int64(a.Offset + a.Length), Why: fmt.Sprintf("attachment %q: %v", a.Name, d.err)})
			continue
		}
		w.WriteAttachment(&lib.Attachment{LogTime: at.LogTime, CreateTime: at.CreateTime, Name: at.Name, MediaType: at.MediaType,
			DataSize: uint64(len(at.Data)), Data: bytes.NewReader(at.Data)})
	}
	for _, m := range x.metas {
		b, err := x.readAt(int64(m.Offset), int64(m.Length))
		if err == nil && (len(b) < recHeaderLen || Op(b[0]) != OpMetadata) {
			err = errAt(int64(m.Offset), OpMetadata, ErrMalformed, "no metadata record here")
		}
		var md metadata
		if err == nil {
			d := newDec(b[recHeaderLen:])
			md = parseMetadata(d)
			err = d.err
		}
		if err != nil {
			rep.Lost = append(rep.Lost, bag.ByteRange{Start: int64(m.Offset), End: int64(m.Offset + m.Length), Why: fmt.Sprintf("metadata %q: %v", m.Name, err)})
			continue
		}
		w.WriteMetadata(&lib.Metadata{Name: md.Name, Metadata: md.Metadata})
	}
}

// newLZ4Writer is the chunks' lz4 compressor: the library's (its level 3),
// in blocks of 1 MiB rather than pierrec/lz4's default 4 MiB, whose buffers
// (a block and its compressed copy, 8 MiB) were the largest part of fix's
// memory (issue 29). The frame is as valid, and as small within 0.1%: lz4
// refers back 64 KiB at most.
func newLZ4Writer() *lz4.Writer {
	w := lz4.NewWriter(nil)
	if err := w.Apply(lz4.BlockSizeOption(lz4.Block1Mb), lz4.CompressionLevelOption(lz4.Level3)); err != nil {
		panic(err) // options known to be valid
	}
	return w
}

// newZstdWriter is the chunks' zstd compressor: the library's (its
// default level), with a window no larger than a chunk of chunkSize bytes
// needs rather than the level's 8 MiB, whose history buffers (twice the
// window) were the largest part of fix's memory. Each chunk is a frame of
// its own, so a match never reaches further back than the chunk's start.
func newZstdWriter(chunkSize int64) (*zstd.Encoder, error) {
	window := zstd.MinWindowSize
	for window < 8<<20 && int64(window) < chunkSize {
		window *= 2
	}
	return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithWindowSize(window))
}

func libCompression(c string) (lib.CompressionFormat, error) {
	switch c {
	case "", "zstd":
		return lib.CompressionZSTD, nil
	case "lz4":
		return lib.CompressionLZ4, nil
	case "none":
		return lib.CompressionNone, nil
	}
	return "", fmt.Errorf("compression %q: %w (MCAP files use zstd, lz4 or none)", c, ErrUnsupportedCompression)
}

func deriveProfile(conns []*bag.Connection) string {
	profile := ""
	for i, c := range conns {
		p := ""
		switch c.Encoding {
		case "ros1":
			p = "ros1"
		case "cdr":
			p = "ros2"
		}
		if i > 0 && p != profile {
			return ""
		}
		profile = p
	}
	return profile
}

// channelIDs keeps connection IDs as channel IDs when they fit, else
// numbers the channels from 1 in ID order.
func channelIDs(conns []*bag.Connection) (map[uint32]uint16, error) {
	ids := map[uint32]uint16{}
	fit := true
	for _, c := range conns {
		fit = fit && c.ID < 1<<16
	}
	if !fit && len(conns) >= 1<<16 {
		return nil, fmt.Errorf("%d connections: more than an MCAP file's %d channels", len(conns), 1<<16)
	}
	sorted := append([]*bag.Connection(nil), conns...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	for i, c := range sorted {
		if fit {
			ids[c.ID] = uint16(c.ID)
		} else {
			ids[c.ID] = uint16(i + 1)
		}
	}
	return ids, nil
}

func setIf(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok && v != "" {
		m[k] = v
	}
}

// mergeRanges sorts byte ranges and drops repeats of the same range.
func mergeRanges(r []bag.ByteRange) []bag.ByteRange {
	sort.SliceStable(r, func(i, j int) bool { return r[i].Start < r[j].Start })
	out := r[:0]
	for _, b := range r {
		if n := len(out); n > 0 && out[n-1].Start == b.Start && out[n-1].End == b.End {
			continue
		}
		out = append(out, b)
	}
	return out
}
