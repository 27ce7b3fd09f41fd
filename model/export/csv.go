package export

import (
	"bufio"
	"encoding/base64"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// csvTable writes one table as CSV (RFC 4180): a header of column names,
// then a line per message. Numbers are written exactly (floats in Go's
// shortest form that reads back to the same float64, a float32 widened;
// NaN and infinities as
// NaN, Infinity and -Infinity), the time columns in nanoseconds since the
// epoch, bytes in base64, arrays a CSV does not spread as JSON.
type csvTable struct {
	l     *layout
	w     *bufio.Writer
	cells [][]byte // the current row's cells, per leaf column
	line  []byte
}

func newCSVTable(l *layout, out io.Writer) (*csvTable, error) {
	t := &csvTable{l: l, w: bufio.NewWriterSize(out, 256<<10), cells: make([][]byte, l.nleaf)}
	var line []byte
	for i, n := range l.names {
		if i > 0 {
			line = append(line, ',')
		}
		line = appendCSVField(line, []byte(n))
	}
	line = append(line, "\r\n"...)
	_, err := t.w.Write(line)
	return t, err
}

func (t *csvTable) scalar(leaf int, k rosmsg.Kind, bits uint64, _, _ int) {
	c := t.cells[leaf][:0]
	switch k {
	case rosmsg.KindBool:
		c = strconv.AppendBool(c, bits != 0)
	case rosmsg.KindFloat32:
		// Widened, as genpy and cat --json write it: any reader gets
		// the float32's exact value.
		c = appendFloat(c, float64(math.Float32frombits(uint32(bits))))
	case rosmsg.KindFloat64:
		c = appendFloat(c, math.Float64frombits(bits))
	case rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32, rosmsg.KindUint64:
		c = strconv.AppendUint(c, bits, 10)
	default:
		c = strconv.AppendInt(c, int64(bits), 10)
	}
	t.cells[leaf] = c
}

// appendFloat writes f in the shortest form that reads back to the same
// float64.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

func (t *csvTable) bytes(leaf int, b []byte, str bool, _, _ int) {
	c := t.cells[leaf][:0]
	switch {
	case !str:
		c = base64.StdEncoding.AppendEncode(c, b)
	case utf8.Valid(b):
		c = append(c, b...)
	default:
		c = append(c, rosmsg.DecodeText(b)...)
	}
	t.cells[leaf] = c
}

func (t *csvTable) null(leaf int, _, _ int) { t.cells[leaf] = t.cells[leaf][:0] }

func (t *csvTable) times(ts []int64, ok []bool) {
	for i := 0; i < t.l.nfixed; i++ {
		t.cells[i] = t.cells[i][:0]
		if ok[i] {
			t.cells[i] = strconv.AppendInt(t.cells[i], ts[i], 10)
		}
	}
}

func (t *csvTable) end() error {
	line := t.line[:0]
	for i, c := range t.cells {
		if i > 0 {
			line = append(line, ',')
		}
		line = appendCSVField(line, c)
		t.cells[i] = c[:0]
	}
	line = append(line, "\r\n"...)
	t.line = line
	_, err := t.w.Write(line)
	return err
}

func (t *csvTable) drop() {
	for i, c := range t.cells {
		t.cells[i] = c[:0]
	}
}

func (t *csvTable) close() error { return t.w.Flush() }

// appendCSVField appends a field, quoted when it holds a comma, a quote,
// a line break or leading or trailing space.
func appendCSVField(b, f []byte) []byte {
	quote := len(f) > 0 && (f[0] == ' ' || f[len(f)-1] == ' ')
	for _, c := range f {
		if c == ',' || c == '"' || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		return append(b, f...)
	}
	b = append(b, '"')
	for _, c := range f {
		if c == '"' {
			b = append(b, '"')
		}
		b = append(b, c)
	}
	return append(b, '"')
}
