package rosmsg

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecode compiles a random definition and decodes random bytes with it.
// Nothing may panic; errors must be *Error with an offset inside the data; a
// decoded tree must have tiling byte ranges, valid JSON, and every listed
// path must extract the value the tree holds.
func FuzzDecode(f *testing.F) {
	for _, l := range golden(f) {
		if len(l.Hex) > 4096 {
			continue
		}
		data, _ := hex.DecodeString(l.Hex)
		f.Add(l.Type, l.FullText, data)
		if len(data) > 3 {
			f.Add(l.Type, l.FullText, data[:len(data)/2])
		}
	}
	const sep = "\n================================================================================\n"
	f.Add("p/A", "A a", []byte{})
	f.Add("p/A", "B[] b"+sep+"MSG: p/B\nA a", []byte{1, 0, 0, 0})
	f.Add("p/A", "p/E[] e"+sep+"MSG: p/E\n", []byte{255, 255, 255, 255})
	f.Add("p/A", "string[] s\nfloat64[3] f\ntime t", []byte{2, 0, 0, 0, 1, 0, 0, 0, 'x', 255, 255, 255, 127})
	f.Add("A", "Header h\nPoint[2] p"+sep+"MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id"+sep+"MSG: Point\nfloat32 x",
		make([]byte, 28))
	f.Fuzz(func(t *testing.T, typ, def string, data []byte) {
		p, err := Compile(typ, def)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Compile error %T %v is not an *Error", err, err)
			}
			return
		}
		root, err := p.Decode(data)
		if err != nil && !errors.Is(err, ErrTrailingBytes) {
			var e *Error
			if !errors.As(err, &e) || e.Offset < 0 || e.Offset > len(data) || root != nil {
				t.Fatalf("Decode = %v, %v", root, err)
			}
		} else {
			if root == nil || root.Start != 0 || root.End > len(data) {
				t.Fatalf("Decode = %v, %v", root, err)
			}
			checkRanges(t, root, "")
			if js := AppendJSON(nil, root); !json.Valid(js) {
				t.Fatalf("invalid JSON %s", js)
			}
		}
		paths := p.Paths()
		if len(paths) > 50 {
			paths = paths[:50]
		}
		for _, ps := range paths {
			path, err := CompilePath(p, ps)
			if err != nil {
				t.Fatalf("listed path %q does not compile: %v", ps, err)
			}
			v, err := path.Float64(data)
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("%s: %v is not an *Error", ps, err)
			}
			if root == nil {
				continue
			}
			want, ok := lookup(root, ps)
			if ok != (err == nil) || ok && !(v == want || v != v && want != want) {
				t.Fatalf("%s: extract %v, %v; tree %v, %v", ps, v, err, want, ok)
			}
		}
	})
}
