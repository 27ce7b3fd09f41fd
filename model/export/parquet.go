package export

import (
	"io"
	"math"
	"unicode/utf8"
	"unsafe"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/parquet-go/parquet-go"
)

// Parquet tables buffer a row group in memory before writing it: at most
// rowGroupBytes each and allBuffered for all the tables of an export
// together (a table of many topics writes smaller row groups), so memory
// stays bounded whatever the recording's size.
const (
	rowGroupBytes = 8 << 20
	allBuffered   = 16 << 20
	minRowGroup   = 1 << 20
)

// pageCodec compresses every table's pages (zstd.go).
var pageCodec = &zstdCodec{}

// Rows are handed to parquet-go a column at a time, in batches of at most
// batchRows rows or batchBytes of byte values (a table's share of it when
// its row groups are small): one WriteRowValues per column and batch
// instead of a parquet.Row per message, which parquet-go would take apart
// into its columns again.
const (
	batchBytes = 1 << 20
	arenaChunk = 64 << 10
)

// batchRows is a var for the tests, which also write batches of a few rows.
var batchRows = 256

// pqTable writes one table as Parquet: each message a row.
type pqTable struct {
	l        *layout
	w        *parquet.GenericWriter[any]
	cols     [][]parquet.Value // the values of the rows batched, per leaf column
	mark     []int             // len(cols[i]) before the current row
	rows     int               // rows batched
	arena    [][]byte          // copies of the batch's byte values (the message data is not kept)
	used     int               // chunks of arena in use
	copied   int               // bytes in arena
	maxBytes int               // copied bytes that end a batch
	buffered int               // bytes buffered since the last row group, roughly
	limit    int               // when buffered reaches it, the row group is written
}

func newPQTable(l *layout, out io.Writer, definition, recording string, tables int) *pqTable {
	t := &pqTable{l: l, cols: make([][]parquet.Value, l.nleaf), mark: make([]int, l.nleaf), limit: min(rowGroupBytes, max(minRowGroup, allBuffered/max(tables, 1)))}
	t.maxBytes = min(batchBytes, t.limit/8)
	t.w = parquet.NewGenericWriter[any](out, writerOptions(l, definition, recording)...)
	return t
}

// writerOptions are a table's schema, compression and key-value metadata
// (the message type, its definition and encoding, the recording), with
// the byte columns' bounds and statistics left out (blobColumns).
func writerOptions(l *layout, definition, recording string) []parquet.WriterOption {
	schema := l.parquetSchema()
	opts := []parquet.WriterOption{
		schema,
		parquet.Compression(pageCodec),
		parquet.CreatedBy("bagscope", "", ""),
		parquet.KeyValueMetadata("ros.type", l.plan.Type),
		parquet.KeyValueMetadata("ros.definition", definition),
		parquet.KeyValueMetadata("ros.schema_encoding", l.plan.SchemaEncoding),
		parquet.KeyValueMetadata("ros.recording", recording),
	}
	for _, path := range blobColumns(schema) {
		opts = append(opts, parquet.SkipPageBounds(path...), parquet.SkipPageStatistics(path...))
	}
	return opts
}

// blobColumns returns the paths of the schema's byte-array columns that
// are not strings: uint8[] fields, such as an image's data. Their pages'
// and row groups' bounds (min and max) are left out: parquet-go keeps each
// page's bounds whole until the file is closed (its column index), so an
// image topic kept two copies of every image, 2.2 GB of memory for
// images.bag's 1,086 images of ~900 kB, and the footer would hold them;
// and their pages' statistics too: each page header held the image's min
// and max, uncompressed, so image_raw.parquet was 4.0 GB for 963 MB of
// images (16 MB without), and export of images.bag 79-89 MiB of RSS (56-58
// without). The bounds of a blob are of no use to a query.
func blobColumns(s *parquet.Schema) [][]string {
	var out [][]string
	for _, path := range s.Columns() {
		leaf, ok := s.Lookup(path...)
		if ok && leaf.Node.Type().Kind() == parquet.ByteArray && leaf.Node.Type().LogicalType() == nil {
			out = append(out, path)
		}
	}
	return out
}

func (t *pqTable) scalar(leaf int, k rosmsg.Kind, bits uint64, rep, def int) {
	kind := parquet.Int32 // 8, 16 and 32 bits, signed or not: INT32 holds the bits
	switch k {
	case rosmsg.KindBool:
		kind = parquet.Boolean
		if bits != 0 {
			bits = 1
		}
	case rosmsg.KindInt64, rosmsg.KindUint64:
		kind = parquet.Int64
	case rosmsg.KindFloat32:
		kind, bits = parquet.Float, uint64(uint32(bits))
	case rosmsg.KindFloat64:
		kind = parquet.Double
	default:
		bits = uint64(int64(int32(uint32(bits))))
	}
	t.add(leaf, kind, nil, bits, rep, def)
}

// add appends a value of the given kind (bits as parquet.Value holds
// them: ptr and length for a byte array) to leaf's column.
func (t *pqTable) add(leaf int, kind parquet.Kind, ptr *byte, bits uint64, rep, def int) {
	c := append(t.cols[leaf], parquet.Value{})
	t.cols[leaf] = c
	v := &c[len(c)-1]
	if mirrorOK && uint(rep)|uint(def) <= parquet.MaxDefinitionLevel && uint(leaf) <= parquet.MaxColumnIndex {
		setValue(v, ^int8(kind), ptr, bits, rep, def, leaf)
		return
	}
	switch kind {
	case parquet.Boolean:
		*v = parquet.BooleanValue(bits != 0)
	case parquet.Int32:
		*v = parquet.Int32Value(int32(bits))
	case parquet.Int64:
		*v = parquet.Int64Value(int64(bits))
	case parquet.Float:
		*v = parquet.FloatValue(math.Float32frombits(uint32(bits)))
	case parquet.Double:
		*v = parquet.DoubleValue(math.Float64frombits(bits))
	case parquet.ByteArray:
		*v = parquet.ByteArrayValue(unsafe.Slice(ptr, bits))
	}
	*v = v.Level(rep, def, leaf)
}

func (t *pqTable) bytes(leaf int, b []byte, str bool, rep, def int) {
	if str && !utf8.Valid(b) {
		b = []byte(rosmsg.DecodeText(b))
	}
	t.buffered += len(b)
	b = t.keep(b)
	t.add(leaf, parquet.ByteArray, unsafe.SliceData(b), uint64(len(b)), rep, def)
}

// keep copies b into the arena, where it stays until the batch is written.
func (t *pqTable) keep(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	t.copied += len(b)
	if len(b) > arenaChunk/4 {
		return append([]byte(nil), b...)
	}
	if t.used == 0 || cap(t.arena[t.used-1])-len(t.arena[t.used-1]) < len(b) {
		if t.used == len(t.arena) {
			t.arena = append(t.arena, make([]byte, 0, arenaChunk))
		}
		t.used++
	}
	c := t.arena[t.used-1]
	n := len(c)
	c = append(c, b...)
	t.arena[t.used-1] = c
	return c[n:len(c):len(c)]
}

func (t *pqTable) null(leaf int, rep, def int) {
	if mirrorOK && uint(rep)|uint(def) <= parquet.MaxDefinitionLevel && uint(leaf) <= parquet.MaxColumnIndex {
		c := append(t.cols[leaf], parquet.Value{})
		t.cols[leaf] = c
		setValue(&c[len(c)-1], 0, nil, 0, rep, def, leaf)
		return
	}
	t.cols[leaf] = append(t.cols[leaf], parquet.NullValue().Level(rep, def, leaf))
}

// times sets the row's time columns: ts in column order, those not ok
// null (only the clock column is nullable).
func (t *pqTable) times(ts []int64, ok []bool) {
	for i := 0; i < t.l.nfixed; i++ {
		switch {
		case t.l.clock && i == t.l.nfixed-1 && !ok[i]:
			t.null(i, 0, 0)
		case t.l.clock && i == t.l.nfixed-1:
			t.add(i, parquet.Int64, nil, uint64(ts[i]), 0, 1)
		default:
			t.add(i, parquet.Int64, nil, uint64(ts[i]), 0, 0)
		}
	}
}

// end ends the row whose values were handed over, writing the batch when
// it is full and the row group at its bound.
func (t *pqTable) end() error {
	for i, c := range t.cols {
		t.buffered += 8 * (len(c) - t.mark[i])
		t.mark[i] = len(c)
	}
	t.rows++
	if t.buffered >= t.limit {
		if err := t.flushBatch(); err != nil {
			return err
		}
		t.buffered = 0
		return t.w.Flush()
	}
	if t.rows >= batchRows || t.copied >= t.maxBytes {
		return t.flushBatch()
	}
	return nil
}

// flushBatch writes the rows batched, a column at a time (the column
// writers copy the values).
func (t *pqTable) flushBatch() error {
	if t.rows == 0 {
		return nil
	}
	for i, w := range t.w.ColumnWriters() {
		if _, err := w.WriteRowValues(t.cols[i]); err != nil {
			return err
		}
		clear(t.cols[i]) // the values point into the arena
		t.cols[i] = t.cols[i][:0]
		t.mark[i] = 0
	}
	t.rows = 0
	for i := range t.used {
		t.arena[i] = t.arena[i][:0]
	}
	t.used, t.copied = 0, 0
	return nil
}

// drop forgets the values of a row that will not be written.
func (t *pqTable) drop() {
	for i, c := range t.cols {
		t.cols[i] = c[:t.mark[i]]
	}
}

func (t *pqTable) close() error {
	if err := t.flushBatch(); err != nil {
		return err
	}
	return t.w.Close()
}
