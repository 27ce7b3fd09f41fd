package bag

import (
	"context"
	"strings"
	"sync/atomic"
	"time"
)

// Survey reads every message of s (on every core where the format can) and
// reports what the recording lost: the damage its opening found with what
// the read met, so that a summary says what was read, not what an index
// promises. It also returns the messages read per connection. progress,
// when not nil, hears of the messages read out of those the summary counts,
// about ten times a second from a goroutine of its own that ends before
// Survey returns.
func Survey(ctx context.Context, s Storage, progress func(done, total int64)) (*Damage, map[uint32]uint64, error) {
	var total int64
	if sum, _ := s.Summary(); sum != nil {
		total = int64(sum.Messages)
	}
	conns := s.Connections()
	slot := make(map[uint32]int, len(conns))
	for i, c := range conns {
		slot[c.ID] = i
	}
	counts := make([]atomic.Uint64, len(conns)+1) // the last for messages of no known connection
	suspects := make([]atomic.Uint64, len(conns)+1)
	var read, suspect atomic.Uint64
	count := func(m *Message) {
		i, ok := len(conns), false
		if m.Conn != nil {
			i, ok = slot[m.Conn.ID]
			if !ok {
				i = len(conns)
			}
		}
		counts[i].Add(1)
		read.Add(1)
		if m.Suspect != "" {
			suspect.Add(1)
			suspects[i].Add(1)
		}
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	defer func() {
		close(stop)
		<-stopped
	}()
	if progress == nil {
		close(stopped)
	} else {
		go func() {
			defer close(stopped)
			t := time.NewTicker(100 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					progress(int64(read.Load()), total)
				}
			}
		}()
	}
	var skipped []ByteRange
	var err error
	if m := AsMulti(s); m != nil && len(m.parts) > 1 {
		// In time order, so each lost range keeps its file.
		it := s.Messages(MessageFilter{})
		for n := 0; it.Next(); n++ {
			if n&4095 == 0 && ctx.Err() != nil {
				break
			}
			count(it.Message())
		}
		err = it.Err()
		skipped = IterSkipped(it)
		it.Close()
	} else {
		skipped, err = VisitMessagesSkipped(ctx, s, MessageFilter{}, count)
	}
	if err == nil {
		err = ctx.Err()
	}
	var t Tally
	for i, c := range conns {
		if n := counts[i].Load(); n > 0 {
			t.AddConn(c.ID, n, suspects[i].Load())
		}
	}
	t.Read, t.Suspects = read.Load(), suspect.Load()
	d := ReadDamage(s, skipped, t, err == nil)
	if err == nil && ctx.Value(noDoctorKey{}) == nil {
		err = addDoctorFindings(ctx, s, d, nil)
	}
	out := make(map[uint32]uint64, len(conns))
	for i, c := range conns {
		if n := counts[i].Load(); n > 0 {
			out[c.ID] = n
		}
	}
	return d, out, err
}

// noDoctorKey marks a context whose Survey runs no doctor.
type noDoctorKey struct{}

// SurveyWithReport is Survey for a caller that ran the doctor already
// (check): its report's errors are added instead of running it again. A
// report of a recording of several files is not split by file: the
// doctor runs on each file anew.
func SurveyWithReport(ctx context.Context, s Storage, rep *CheckReport, progress func(done, total int64)) (*Damage, map[uint32]uint64, error) {
	if AsMulti(s) != nil || rep == nil {
		return Survey(ctx, s, progress)
	}
	d, read, err := Survey(context.WithValue(ctx, noDoctorKey{}, true), s, progress)
	if err == nil {
		err = addDoctorFindings(ctx, s, d, rep)
	}
	return d, read, err
}

// SurveyedOnOpen is a Storage whose opening checks all of its structure
// (a .db3's pages): Survey runs no doctor on it.
type SurveyedOnOpen interface {
	SurveyedOnOpen() bool
}

// addDoctorFindings adds to d what the doctor (a quick Check: the
// structure, not the payloads) finds wrong that opening and reading did
// not: damage to indexes and summaries, which lose no message but which
// views rely on. Each is a lost range of no message, unless a range
// already holds its offset.
func addDoctorFindings(ctx context.Context, s Storage, d *Damage, done *CheckReport) error {
	parts := []Storage{s}
	names := []string{s.FileInfo().Path}
	if m := AsMulti(s); m != nil {
		parts, names = m.parts, m.names
	}
	ctx = WithQuickCheck(ctx)
	added := false
	for p, part := range parts {
		if so, ok := unwrapTo[SurveyedOnOpen](part); ok && so.SurveyedOnOpen() {
			continue
		}
		rep, err := done, error(nil)
		if rep == nil {
			rep, err = part.Check(ctx, nil)
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			continue
		}
		own := 0
		for _, r := range d.Ranges {
			if r.Part == p && r.File == names[p] {
				own++
			}
		}
		for _, f := range rep.Findings {
			if f.Severity != Error || f.Offset == 0 && own > 0 || f.Record == "message" {
				continue
			}
			if covered(d.Ranges, p, names[p], f.Offset) {
				continue
			}
			d.Ranges = append(d.Ranges, LostRange{File: names[p], Part: p, ByteRange: ByteRange{
				Start: f.Offset, End: f.Offset, Unit: UnitRecord, Messages: Exactly(0),
				Why: strings.TrimSpace(f.Message),
			}})
			added = true
		}
	}
	if added {
		sortLost(d.Ranges)
	}
	return nil
}

// AddDoctorFindings adds to d what a quick doctor (Check) of s finds wrong
// that d does not hold yet (see Survey), for a command that read the
// messages itself.
func AddDoctorFindings(ctx context.Context, s Storage, d *Damage) error {
	return addDoctorFindings(ctx, s, d, nil)
}

// ReadVoucher is a Storage whose reads can keep what they find of the data
// they decompress, so that a quick doctor (Check under WithQuickCheck, as
// AddDoctorFindings runs it) after them does not read that data again:
// it takes a read's word only for what the read saw whole and found
// nothing wrong with, so its report is the same.
type ReadVoucher interface {
	VouchReads()
}

// VouchReads asks s, and each file of a recording of several, to keep
// what the reads through it find for the doctor after them (ReadVoucher),
// where its format can; call it before the reads. A command that reads
// the messages and then says what the doctor finds (AddDoctorFindings)
// then decompresses the recording once.
func VouchReads(s Storage) {
	if m := AsMulti(s); m != nil {
		for _, p := range m.parts {
			VouchReads(p)
		}
		return
	}
	if v, ok := unwrapTo[ReadVoucher](s); ok {
		v.VouchReads()
	}
}

// AddDoctorReport is AddDoctorFindings with the quick doctor's report of
// s made already (rep, of one file: of several, the doctor runs on each
// file anew, as with rep nil).
func AddDoctorReport(ctx context.Context, s Storage, d *Damage, rep *CheckReport) error {
	if AsMulti(s) != nil {
		rep = nil
	}
	return addDoctorFindings(ctx, s, d, rep)
}

// covered reports whether a lost range of part p holds offset off.
func covered(rs []LostRange, p int, file string, off int64) bool {
	for _, r := range rs {
		if r.Part == p && r.File == file && off >= r.Start && (off < r.End || off == r.Start) {
			return true
		}
	}
	return false
}

// unwrapTo finds the first storage of type T behind s.
func unwrapTo[T any](s Storage) (T, bool) {
	for x := s; x != nil; {
		if t, ok := x.(T); ok {
			return t, true
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	var zero T
	return zero, false
}

// SurveyVisited is SurveyWithReport for a caller whose doctor's pass made
// rep handing every message it read to a visitor (WithMessageVisitor:
// check's decoding pass), dropped of them not handed on
// (DecompressingVisitorCounting). When the doctor visited every message
// and counted them by connection (rep.Visited, rep.Counts), dropped none,
// and neither it nor the opening of s found anything wrong (no error, no
// warning), a read of s through its index meets no damage and reads the
// messages the doctor's walk met: the survey then takes the doctor's
// counts instead of reading the recording again. Otherwise it reads, as
// SurveyWithReport does, so what it says is the same either way.
func SurveyVisited(ctx context.Context, s Storage, rep *CheckReport, dropped uint64, progress func(done, total int64)) (*Damage, map[uint32]uint64, error) {
	if !SurveyedByDoctor(s, rep, dropped) {
		return SurveyWithReport(ctx, s, rep, progress)
	}
	conns := s.Connections()
	known := make(map[uint32]bool, len(conns))
	for _, c := range conns {
		known[c.ID] = true
	}
	var t Tally
	out := make(map[uint32]uint64, len(conns))
	for _, c := range conns {
		if n := rep.Counts[c.ID]; n > 0 {
			t.AddConn(c.ID, n, 0)
			out[c.ID] = n
		}
	}
	for id, n := range rep.Counts {
		if !known[id] {
			t.Read += n // of no known connection, as Survey counts them
		}
	}
	if progress != nil {
		progress(int64(t.Read), int64(t.Read))
	}
	d := ReadDamage(s, nil, t, true)
	if err := addDoctorFindings(ctx, s, d, rep); err != nil {
		return d, out, err
	}
	return d, out, ctx.Err()
}

// SurveyedByDoctor reports whether the doctor's pass that made rep, having
// dropped messages not handed to its visitor, read what a Survey of s
// would: then SurveyVisited does not read s again.
func SurveyedByDoctor(s Storage, rep *CheckReport, dropped uint64) bool {
	if rep == nil || !rep.Visited || rep.Counts == nil || dropped > 0 || AsMulti(s) != nil {
		return false
	}
	if d := DamageOf(s); d != nil && len(d.Ranges) > 0 {
		return false
	}
	for _, f := range rep.Findings {
		if f.Severity >= Warning {
			return false
		}
	}
	return true
}
