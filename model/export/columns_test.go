package export

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/parquet-go/parquet-go"
)

// rowTable is the writer pqTable replaced: each message one parquet.Row
// handed to parquet-go's row writer, a row group at the same bound.
type rowTable struct {
	l        *layout
	w        *parquet.GenericWriter[any]
	cols     [][]parquet.Value
	row      parquet.Row
	buffered int
	limit    int
}

func newRowTable(l *layout, out io.Writer, definition, recording string, tables int) table {
	t := &rowTable{l: l, cols: make([][]parquet.Value, l.nleaf), limit: min(rowGroupBytes, max(minRowGroup, allBuffered/max(tables, 1)))}
	t.w = parquet.NewGenericWriter[any](out, writerOptions(l, definition, recording)...)
	return t
}

func (t *rowTable) scalar(leaf int, k rosmsg.Kind, bits uint64, rep, def int) {
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
	default:
		v = parquet.Int32Value(int32(uint32(bits)))
	}
	t.cols[leaf] = append(t.cols[leaf], v.Level(rep, def, leaf))
}

func (t *rowTable) bytes(leaf int, b []byte, str bool, rep, def int) {
	if str && !utf8.Valid(b) {
		b = []byte(rosmsg.DecodeText(b))
	}
	t.buffered += len(b)
	t.cols[leaf] = append(t.cols[leaf], parquet.ByteArrayValue(b).Level(rep, def, leaf))
}

func (t *rowTable) null(leaf int, rep, def int) {
	t.cols[leaf] = append(t.cols[leaf], parquet.NullValue().Level(rep, def, leaf))
}

func (t *rowTable) times(ts []int64, ok []bool) {
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

func (t *rowTable) end() error {
	row := t.row[:0]
	for i, c := range t.cols {
		row = append(row, c...)
		t.buffered += 8 * len(c)
		t.cols[i] = c[:0]
	}
	t.row = row
	if _, err := t.w.WriteRows([]parquet.Row{row}); err != nil {
		return err
	}
	if t.buffered >= t.limit {
		t.buffered = 0
		return t.w.Flush()
	}
	return nil
}

func (t *rowTable) drop() {
	for i, c := range t.cols {
		t.cols[i] = c[:0]
	}
}

func (t *rowTable) close() error { return t.w.Close() }

// TestColumnsMatchRows exports each shared recording with the column
// writer (in batches of 256 rows and of 3, its values written in place
// and, in batches of 3, with parquet-go's constructors) and with the row
// writer it replaced, and has DuckDB compare the two: the same Parquet schema
// (parquet_schema: every node's type, repetition and logical type) and
// the same rows in the same order, lists' nulls and empties included.
func TestColumnsMatchRows(t *testing.T) {
	for _, tc := range exportCases {
		for _, v := range []struct {
			batch  int
			mirror bool
		}{{256, mirrorOK}, {3, mirrorOK}, {3, false}} {
			t.Run(fmt.Sprintf("%s/batch%d/mirror=%v", filepath.Base(tc.file), v.batch, v.mirror), func(t *testing.T) {
				orig, origBatch, origMirror := newParquetTable, batchRows, mirrorOK
				defer func() { newParquetTable, batchRows, mirrorOK = orig, origBatch, origMirror }()
				batchRows, mirrorOK = v.batch, v.mirror
				newParquetTable = orig
				cols, _ := exportFile(t, tc.file, Parquet, Options{})
				newParquetTable = newRowTable
				rows, _ := exportFile(t, tc.file, Parquet, Options{})
				newParquetTable = orig
				if len(cols.Tables) != len(rows.Tables) || len(cols.Tables) == 0 {
					t.Fatalf("%d tables with columns, %d with rows", len(cols.Tables), len(rows.Tables))
				}
				var sql []string
				for i, a := range cols.Tables {
					b := rows.Tables[i].Path
					fields := "name, type, type_length, repetition_type, num_children, converted_type, scale, precision, field_id, logical_type"
					sql = append(sql,
						fmt.Sprintf("SELECT (SELECT count(*) FROM parquet_schema('%s')) n, (SELECT count(*) FROM (SELECT %s FROM parquet_schema('%s') EXCEPT ALL SELECT %s FROM parquet_schema('%s'))) ab, (SELECT count(*) FROM (SELECT %s FROM parquet_schema('%s') EXCEPT ALL SELECT %s FROM parquet_schema('%s'))) ba",
							a.Path, fields, a.Path, fields, b, fields, b, fields, a.Path),
						fmt.Sprintf("SELECT (SELECT count(*) FROM '%s') n, (SELECT count(*) FROM (SELECT * FROM read_parquet('%s', file_row_number=true) EXCEPT ALL SELECT * FROM read_parquet('%s', file_row_number=true))) ab, (SELECT count(*) FROM (SELECT * FROM read_parquet('%s', file_row_number=true) EXCEPT ALL SELECT * FROM read_parquet('%s', file_row_number=true))) ba",
							a.Path, a.Path, b, b, a.Path))
				}
				res := duckdb(t, sql...)
				for i, a := range cols.Tables {
					for j, what := range []string{"schema nodes", "rows"} {
						r := res[2*i+j].rows[0]
						if r["ab"] != "0" || r["ba"] != "0" {
							t.Errorf("%s: %s differ: %v", a.Topic, what, r)
						}
						if what == "rows" && r["n"] != fmt.Sprint(a.Rows) {
							t.Errorf("%s: %v rows read back, %d written", a.Topic, r["n"], a.Rows)
						}
					}
				}
			})
		}
	}
}

// TestValueMirror: the pinned parquet-go's Value still has the layout
// rawValue mirrors (otherwise export falls back to the library's
// constructors: correct, but slower, which no other test would notice).
func TestValueMirror(t *testing.T) {
	if !mirrorMatches() {
		t.Fatal("parquet.Value's layout no longer matches rawValue: update value.go for the new parquet-go")
	}
}
