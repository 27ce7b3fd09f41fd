package export

import (
	"math"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// rawValue mirrors the layout of parquet.Value (parquet-go v0.32.0, pinned
// in go.mod). Building a parquet.Value with its constructors and Level
// writes its bytes one at a time on the stack and copies it: each value
// of an export then waits on a store forward, about a quarter of export's
// CPU. pqTable writes the fields in place instead, when mirrorOK says the
// layout and encoding still match the library's (checked once, against
// values the library builds); otherwise it uses the constructors.
type rawValue struct {
	ptr  *byte
	u64  uint64
	kind int8 // ^parquet.Kind; 0 is null
	def  byte
	rep  byte
	col  uint16 // ^column
}

var mirrorOK = mirrorMatches()

// setValue writes into *v a value of kind k (^k for a non-null value, 0
// for null), bits u64 and pointer ptr, at levels rep and def in column
// leaf. Callers check that the levels and the column fit.
func setValue(v *parquet.Value, kind int8, ptr *byte, u64 uint64, rep, def, leaf int) {
	r := (*rawValue)(unsafe.Pointer(v))
	r.ptr = ptr
	r.u64 = u64
	r.kind = kind
	r.def = byte(def)
	r.rep = byte(rep)
	r.col = ^uint16(leaf)
}

// mirrorMatches builds values of every kind pqTable writes both ways.
func mirrorMatches() bool {
	if unsafe.Sizeof(rawValue{}) != unsafe.Sizeof(parquet.Value{}) {
		return false
	}
	b := []byte("abc")
	f32, f64 := float32(-1.5), 2.25
	cases := []struct {
		want parquet.Value
		kind parquet.Kind
		ptr  *byte
		u64  uint64
	}{
		{parquet.BooleanValue(true), parquet.Boolean, nil, 1},
		{parquet.BooleanValue(false), parquet.Boolean, nil, 0},
		{parquet.Int32Value(-7), parquet.Int32, nil, 1<<64 - 7},
		{parquet.Int64Value(-1 << 40), parquet.Int64, nil, uint64(1<<64 - 1<<40)},
		{parquet.FloatValue(f32), parquet.Float, nil, uint64(math.Float32bits(f32))},
		{parquet.DoubleValue(f64), parquet.Double, nil, math.Float64bits(f64)},
		{parquet.ByteArrayValue(b), parquet.ByteArray, &b[0], 3},
	}
	for _, c := range cases {
		for _, lv := range [][3]int{{0, 0, 0}, {1, 2, 3}, {7, 200, 19999}} {
			var got parquet.Value
			setValue(&got, ^int8(c.kind), c.ptr, c.u64, lv[0], lv[1], lv[2])
			want := c.want.Level(lv[0], lv[1], lv[2])
			if got != want || got.Kind() != c.kind || got.RepetitionLevel() != lv[0] || got.DefinitionLevel() != lv[1] || got.Column() != lv[2] {
				return false
			}
		}
	}
	var null parquet.Value
	setValue(&null, 0, nil, 0, 1, 2, 3)
	return null == parquet.NullValue().Level(1, 2, 3) && null.IsNull()
}
