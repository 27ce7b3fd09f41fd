package mcap

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// dec reads a record's content field by field, checking every length
// against the bytes that remain. The first failure sticks in err. When
// fields is set, each field is also listed with its byte range (relative to
// the record's first byte, the op).
type dec struct {
	b      []byte
	p      int
	err    error
	fields *[]bag.RecordField
}

func newDec(content []byte) *dec { return &dec{b: content} }

func (d *dec) fail(name string, n int) {
	if d.err == nil {
		d.err = fmt.Errorf("field %s needs %d bytes at content offset %d, %d remain", name, n, d.p, len(d.b)-d.p)
	}
}

func (d *dec) need(name string, n int) bool {
	if d.err != nil {
		return false
	}
	if n < 0 || len(d.b)-d.p < n {
		d.fail(name, n)
		return false
	}
	return true
}

// add lists the field read from start to here: its type as the MCAP
// specification names it, and how many of its first bytes are its length.
func (d *dec) add(name, typ string, prefix, start int, value func() string) {
	if d.fields != nil {
		*d.fields = append(*d.fields, bag.RecordField{Name: name, Value: value(), Type: typ,
			Start: int64(start + recHeaderLen), End: int64(d.p + recHeaderLen), Prefix: int64(prefix)})
	}
}

func (d *dec) u8(name string) uint8 {
	if !d.need(name, 1) {
		return 0
	}
	v := d.b[d.p]
	d.p++
	d.add(name, "uint8", 0, d.p-1, func() string { return strconv.Itoa(int(v)) })
	return v
}

func (d *dec) u16(name string) uint16 {
	if !d.need(name, 2) {
		return 0
	}
	v := binary.LittleEndian.Uint16(d.b[d.p:])
	d.p += 2
	d.add(name, "uint16", 0, d.p-2, func() string { return strconv.Itoa(int(v)) })
	return v
}

func (d *dec) u32(name string) uint32 {
	if !d.need(name, 4) {
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b[d.p:])
	d.p += 4
	d.add(name, "uint32", 0, d.p-4, func() string { return strconv.FormatUint(uint64(v), 10) })
	return v
}

func (d *dec) u64(name string) uint64 {
	if !d.need(name, 8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.p:])
	d.p += 8
	d.add(name, "uint64", 0, d.p-8, func() string { return strconv.FormatUint(v, 10) })
	return v
}

// time reads a u64 nanosecond time and shows it as seconds.
func (d *dec) time(name string) uint64 {
	if !d.need(name, 8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.p:])
	d.p += 8
	d.add(name, "timestamp", 0, d.p-8, func() string { return strconv.FormatUint(v, 10) + " (" + bag.TimeFromUnixNanos(v).String() + ")" })
	return v
}

// prefixed reads a u32 length and that many bytes, without listing them.
func (d *dec) prefixed(name string) ([]byte, int) {
	start := d.p
	if !d.need(name, 4) {
		return nil, start
	}
	n := binary.LittleEndian.Uint32(d.b[d.p:])
	if uint64(n) > uint64(len(d.b)-d.p-4) {
		d.fail(name, int(min(uint64(n), 1<<31-1))+4)
		return nil, start
	}
	d.p += 4
	v := d.b[d.p : d.p+int(n)]
	d.p += int(n)
	return v, start
}

func (d *dec) str(name string) string {
	v, start := d.prefixed(name)
	if d.err != nil {
		return ""
	}
	s := string(v)
	d.add(name, "string", 4, start, func() string { return strconv.Quote(s) })
	return s
}

// bytes32 reads u32-length-prefixed bytes (aliasing the record).
func (d *dec) bytes32(name string) []byte {
	v, start := d.prefixed(name)
	if d.err != nil {
		return nil
	}
	d.add(name, "bytes", 4, start, func() string { return showBytes(v) })
	return v
}

// bytes64 reads u64-length-prefixed bytes (aliasing the record).
func (d *dec) bytes64(name string) []byte {
	start := d.p
	if !d.need(name, 8) {
		return nil
	}
	n := binary.LittleEndian.Uint64(d.b[d.p:])
	if n > uint64(len(d.b)-d.p-8) {
		d.fail(name, int(min(n, 1<<31-1))+8)
		return nil
	}
	d.p += 8
	v := d.b[d.p : d.p+int(n)]
	d.p += int(n)
	d.add(name, "bytes", 8, start, func() string { return showBytes(v) })
	return v
}

// rest reads the remaining bytes.
func (d *dec) rest(name string) []byte {
	if d.err != nil {
		return nil
	}
	start := d.p
	v := d.b[d.p:]
	d.p = len(d.b)
	d.add(name, "bytes", 0, start, func() string { return showBytes(v) })
	return v
}

func (d *dec) strMap(name string) map[string]string {
	v, start := d.prefixed(name)
	if d.err != nil {
		return nil
	}
	m := map[string]string{}
	in := &dec{b: v}
	for in.p < len(in.b) && in.err == nil {
		k := in.str("key")
		val := in.str("value")
		if in.err == nil {
			m[k] = val
		}
	}
	if in.err != nil {
		d.err = fmt.Errorf("field %s: %v", name, in.err)
		return m
	}
	d.add(name, "map<string, string>", 4, start, func() string { return showMap(m) })
	return m
}

func (d *dec) idMap(name string) map[uint16]uint64 {
	v, start := d.prefixed(name)
	if d.err != nil {
		return nil
	}
	if len(v)%10 != 0 {
		d.err = fmt.Errorf("field %s: %d bytes is not a whole number of 10-byte entries", name, len(v))
		return nil
	}
	m := make(map[uint16]uint64, len(v)/10)
	for i := 0; i+10 <= len(v); i += 10 {
		m[binary.LittleEndian.Uint16(v[i:])] = binary.LittleEndian.Uint64(v[i+2:])
	}
	d.add(name, "map<uint16, uint64>", 4, start, func() string { return showIDMap(m) })
	return m
}

func showBytes(b []byte) string {
	const max = 32
	if len(b) <= max {
		return fmt.Sprintf("%d bytes %s", len(b), hex.EncodeToString(b))
	}
	return fmt.Sprintf("%d bytes %s...", len(b), hex.EncodeToString(b[:max]))
}

func showMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(k)
		sb.WriteByte('=')
		sb.WriteString(m[k])
	}
	return sb.String()
}

func showIDMap(m map[uint16]uint64) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, int(k))
	}
	sort.Ints(keys)
	var sb strings.Builder
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%d=%d", k, m[uint16(k)])
	}
	return sb.String()
}

// The records, as this package reads them.

type header struct{ Profile, Library string }

type footer struct {
	SummaryStart, SummaryOffsetStart uint64
	SummaryCRC                       uint32
}

type schema struct {
	ID             uint16
	Name, Encoding string
	Data           []byte
	Offset         int64
}

type channel struct {
	ID, SchemaID    uint16
	Topic, Encoding string
	Metadata        map[string]string
	Offset          int64
}

type chunkHeader struct {
	Start, End  uint64
	USize       uint64
	CRC         uint32
	Compression string
	// RecordsLen is the declared length of the compressed records;
	// RecordsAt their offset in the record's content.
	RecordsLen uint64
	RecordsAt  int
}

type chunkIndex struct {
	Start, End      uint64
	Offset, Length  uint64
	MsgIndexOffsets map[uint16]uint64
	MsgIndexLength  uint64
	Compression     string
	CSize, USize    uint64
	RecordOffset    int64 // where the chunk index record is
}

type attachmentIndex struct {
	Offset, Length      uint64
	LogTime, CreateTime uint64
	DataSize            uint64
	Name, MediaType     string
}

type statistics struct {
	MessageCount                                             uint64
	SchemaCount                                              uint16
	ChannelCount, AttachmentCount, MetadataCount, ChunkCount uint32
	Start, End                                               uint64
	ChannelCounts                                            map[uint16]uint64
	Offset                                                   int64
}

type metadataIndex struct {
	Offset, Length uint64
	Name           string
}

type summaryOffset struct {
	Op            Op
	Start, Length uint64
}

func parseHeader(d *dec) header {
	return header{Profile: d.str("profile"), Library: d.str("library")}
}

func parseFooter(d *dec) footer {
	return footer{SummaryStart: d.u64("summary_start"), SummaryOffsetStart: d.u64("summary_offset_start"), SummaryCRC: d.u32("summary_crc")}
}

func parseSchema(d *dec) schema {
	return schema{ID: d.u16("id"), Name: d.str("name"), Encoding: d.str("encoding"), Data: d.bytes32("data")}
}

func parseChannel(d *dec) channel {
	return channel{ID: d.u16("id"), SchemaID: d.u16("schema_id"), Topic: d.str("topic"), Encoding: d.str("message_encoding"), Metadata: d.strMap("metadata")}
}

func parseChunkHeader(d *dec) chunkHeader {
	var h chunkHeader
	h.Start = d.time("message_start_time")
	h.End = d.time("message_end_time")
	h.USize = d.u64("uncompressed_size")
	h.CRC = d.u32("uncompressed_crc")
	h.Compression = d.str("compression")
	start := d.p
	h.RecordsLen = d.u64("records length")
	h.RecordsAt = d.p
	if d.err == nil && d.fields != nil {
		n := min(h.RecordsLen, uint64(len(d.b)-d.p))
		*d.fields = append(*d.fields, bag.RecordField{Name: "records", Value: fmt.Sprintf("%d bytes (%s)", h.RecordsLen, compressionName(h.Compression)),
			Start: int64(start + recHeaderLen + 8), End: int64(d.p+recHeaderLen) + int64(n)})
	}
	return h
}

func parseChunkIndex(d *dec) chunkIndex {
	var c chunkIndex
	c.Start = d.time("message_start_time")
	c.End = d.time("message_end_time")
	c.Offset = d.u64("chunk_start_offset")
	c.Length = d.u64("chunk_length")
	c.MsgIndexOffsets = d.idMap("message_index_offsets")
	c.MsgIndexLength = d.u64("message_index_length")
	c.Compression = d.str("compression")
	c.CSize = d.u64("compressed_size")
	c.USize = d.u64("uncompressed_size")
	return c
}

func parseAttachmentIndex(d *dec) attachmentIndex {
	return attachmentIndex{Offset: d.u64("offset"), Length: d.u64("length"), LogTime: d.time("log_time"), CreateTime: d.time("create_time"),
		DataSize: d.u64("data_size"), Name: d.str("name"), MediaType: d.str("media_type")}
}

func parseStatistics(d *dec) statistics {
	return statistics{MessageCount: d.u64("message_count"), SchemaCount: d.u16("schema_count"), ChannelCount: d.u32("channel_count"),
		AttachmentCount: d.u32("attachment_count"), MetadataCount: d.u32("metadata_count"), ChunkCount: d.u32("chunk_count"),
		Start: d.time("message_start_time"), End: d.time("message_end_time"), ChannelCounts: d.idMap("channel_message_counts")}
}

func parseMetadataIndex(d *dec) metadataIndex {
	return metadataIndex{Offset: d.u64("offset"), Length: d.u64("length"), Name: d.str("name")}
}

func parseSummaryOffset(d *dec) summaryOffset {
	return summaryOffset{Op: Op(d.u8("group_opcode")), Start: d.u64("group_start"), Length: d.u64("group_length")}
}

// attachment is an attachment record's fields; Data aliases the record.
type attachment struct {
	LogTime, CreateTime uint64
	Name, MediaType     string
	Data                []byte
	CRC                 uint32
	CRCEnd              int // content offset of the crc field (what it covers)
}

func parseAttachment(d *dec) attachment {
	var a attachment
	a.LogTime = d.time("log_time")
	a.CreateTime = d.time("create_time")
	a.Name = d.str("name")
	a.MediaType = d.str("media_type")
	a.Data = d.bytes64("data")
	a.CRCEnd = d.p
	a.CRC = d.u32("crc")
	return a
}

type metadata struct {
	Name     string
	Metadata map[string]string
}

func parseMetadata(d *dec) metadata {
	return metadata{Name: d.str("name"), Metadata: d.strMap("metadata")}
}

// messageHeaderLen is the fixed part of a message record's content.
const messageHeaderLen = 2 + 4 + 8 + 8

type message struct {
	Channel  uint16
	Sequence uint32
	LogTime  uint64
	PubTime  uint64
	Data     []byte
}

func parseMessage(d *dec) message {
	return message{Channel: d.u16("channel_id"), Sequence: d.u32("sequence"), LogTime: d.time("log_time"), PubTime: d.time("publish_time"), Data: d.rest("data")}
}

// compressionName shows a chunk compression, "" as "none".
func compressionName(c string) string {
	if c == "" {
		return "none"
	}
	return c
}
