package export

import (
	"io"
	"math"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/parquet-go/parquet-go"
)

// Parquet tables buffer a row group in memory before writing it: at most
// rowGroupBytes each and allBuffered for all the tables of an export
// together (a table of many topics writes smaller row groups), so memory
// stays bounded whatever the recording's size.
const (
	rowGroupBytes = 8 << 20
	allBuffered   = 32 << 20
	minRowGroup   = 1 << 20
)

// pageCodec compresses every table's pages (zstd.go).
var pageCodec = &zstdCodec{}

// pqTable writes one table as Parquet: each message a row.
type pqTable struct {
	l        *layout
	w        *parquet.GenericWriter[any]
	cols     [][]parquet.Value // the current row's values, per leaf column
	row      parquet.Row
	rows     [1]parquet.Row
	buffered int // bytes buffered since the last row group, roughly
	limit    int // when buffered reaches it, the row group is written
}

func newPQTable(l *layout, out io.Writer, definition, recording string, tables int) *pqTable {
	t := &pqTable{l: l, cols: make([][]parquet.Value, l.nleaf), limit: min(rowGroupBytes, max(minRowGroup, allBuffered/max(tables, 1)))}
	t.w = parquet.NewGenericWriter[any](out, l.parquetSchema(),
		parquet.Compression(pageCodec),
		parquet.CreatedBy("bagscope", "", ""),
		parquet.KeyValueMetadata("ros.type", l.plan.Type),
		parquet.KeyValueMetadata("ros.definition", definition),
		parquet.KeyValueMetadata("ros.schema_encoding", l.plan.SchemaEncoding),
		parquet.KeyValueMetadata("ros.recording", recording),
	)
	return t
}

func (t *pqTable) scalar(leaf int, k rosmsg.Kind, bits uint64, rep, def int) {
	var v parquet.Value
	switch k {
	case rosmsg.KindBool:
		v = parquet.BooleanValue(bits != 0)
	case rosmsg.KindInt64, rosmsg.KindUint64:
		v = parquet.Int64Value(int64(bits))
	case rosmsg.KindFloat32:
		v = parquet.FloatValue(math.Float32frombits(uint32(bits)))
	case rosmsg.KindFloat64:
		v = parquet.DoubleValue(math.Float64frombits(bits))
	default: // 8, 16 and 32 bits, signed or not: INT32 holds the bits
		v = parquet.Int32Value(int32(uint32(bits)))
	}
	t.cols[leaf] = append(t.cols[leaf], v.Level(rep, def, leaf))
}

func (t *pqTable) bytes(leaf int, b []byte, str bool, rep, def int) {
	if str && !utf8.Valid(b) {
		b = []byte(rosmsg.DecodeText(b))
	}
	t.buffered += len(b)
	t.cols[leaf] = append(t.cols[leaf], parquet.ByteArrayValue(b).Level(rep, def, leaf))
}

func (t *pqTable) null(leaf int, rep, def int) {
	t.cols[leaf] = append(t.cols[leaf], parquet.NullValue().Level(rep, def, leaf))
}

// times sets the row's time columns: ts in column order, those not ok
// null (only the clock column is nullable).
func (t *pqTable) times(ts []int64, ok []bool) {
	for i := 0; i < t.l.nfixed; i++ {
		switch {
		case t.l.clock && i == t.l.nfixed-1 && !ok[i]:
			t.cols[i] = append(t.cols[i], parquet.NullValue().Level(0, 0, i))
		case t.l.clock && i == t.l.nfixed-1:
			t.cols[i] = append(t.cols[i], parquet.Int64Value(ts[i]).Level(0, 1, i))
		default:
			t.cols[i] = append(t.cols[i], parquet.Int64Value(ts[i]).Level(0, 0, i))
		}
	}
}

// end writes the row whose values were handed over (the values refer to
// the message data, which WriteRows copies).
func (t *pqTable) end() error {
	row := t.row[:0]
	for i, c := range t.cols {
		row = append(row, c...)
		t.buffered += 8 * len(c)
		t.cols[i] = c[:0]
	}
	t.row = row
	t.rows[0] = row
	if _, err := t.w.WriteRows(t.rows[:]); err != nil {
		return err
	}
	if t.buffered >= t.limit {
		t.buffered = 0
		return t.w.Flush()
	}
	return nil
}

// drop forgets the values of a row that will not be written.
func (t *pqTable) drop() {
	for i, c := range t.cols {
		t.cols[i] = c[:0]
	}
}

func (t *pqTable) close() error { return t.w.Close() }
