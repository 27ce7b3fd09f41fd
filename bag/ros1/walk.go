package ros1

// Walker walks the top-level records of a bag in byte order, from the bag
// header to the end of the file. It reads record headers only; read a
// record's data with Bag.ReadData.
//
//	w := b.Walk()
//	for w.Next() {
//		rec := w.Record()
//		...
//	}
//	if err := w.Err(); err != nil { ... }
type Walker struct {
	b   *Bag
	off int64
	buf []byte
	rec Record
	err error
}

// Walk returns a walker starting at the first record after the version line.
func (b *Bag) Walk() *Walker { return b.WalkFrom(VersionLineLen) }

// WalkFrom returns a walker starting at the record at off.
func (b *Bag) WalkFrom(off int64) *Walker { return &Walker{b: b, off: off} }

// Next advances to the next record. It returns false at the end of the file
// or on an error (see Err).
func (w *Walker) Next() bool {
	if w.err != nil || w.off >= w.b.size {
		return false
	}
	rec, buf, err := w.b.readRecord(w.off, w.buf)
	w.buf = buf
	if err != nil {
		w.err = err
		return false
	}
	w.rec = rec
	w.off = rec.End()
	return true
}

// Record returns the current record. Its header is reused by the next call
// to Next; copy what you keep.
func (w *Walker) Record() *Record { return &w.rec }

// Offset returns the offset of the next record to read.
func (w *Walker) Offset() int64 { return w.off }

// Err returns the error that stopped the walk, if any.
func (w *Walker) Err() error { return w.err }
