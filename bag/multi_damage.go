package bag

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
)

// MissingFile is a file of a recording of several files that is not
// read: named by its metadata (or its numbering) but not in the folder, or
// in the folder but not opening.
type MissingFile struct {
	// Name is the file as the metadata names it, or its path.
	Name string
	// Why says what happened to it.
	Why string
	// Size is its size in bytes when it is there (0 otherwise).
	Size int64
	// Messages counts its messages, from the metadata where it says
	// (else the zero Count, to be narrowed by the recording's claim).
	Messages Count
	// First and Last are the times its messages span, from the metadata
	// where it says; otherwise the recording places it between its
	// neighbours (see After).
	First, Last Time
	// After is the number of the recording's files (parts) that come
	// before it in file order.
	After int
}

// LeftOutError is a file of a recording of several files that does not
// open and is left out.
type LeftOutError struct {
	Path string
	Size int64
	Err  error
}

func (e *LeftOutError) Error() string {
	return fmt.Sprintf("%s does not open and is left out: %v", filepath.Base(e.Path), e.Err)
}

func (e *LeftOutError) Unwrap() error { return e.Err }

// Damage reports what the recording lost: each file's own damage, named by
// file, the files it lacks, narrowed by what the recording claims
// (MultiOptions.Claim).
func (m *MultiStorage) Damage() *Damage { return m.damage(nil) }

// damage is Damage with the lost ranges a read of the messages found.
func (m *MultiStorage) damage(read []LostRange) *Damage {
	d := &Damage{Files: len(m.parts), Claim: m.opts.Claim}
	total := Exactly(0)
	sums, _ := m.partSummaries()
	partStart := func(p int) Time {
		if p >= 0 && p < len(sums) && sums[p] != nil {
			return sums[p].Start
		}
		return Time{}
	}
	for p, part := range m.parts {
		var pr []ByteRange
		for _, r := range read {
			if r.Part == p {
				pr = append(pr, r.ByteRange)
			}
		}
		var claim *Claim
		if p < len(m.opts.PartClaims) {
			claim = m.opts.PartClaims[p]
		}
		pd := fileDamage(part, pr, claim)
		for _, r := range pd.Ranges {
			r.Part, r.File = p, m.names[p]
			d.Ranges = append(d.Ranges, r)
		}
		for _, r := range pd.Unverified {
			r.Part, r.File = p, m.names[p]
			d.Unverified = append(d.Unverified, r)
		}
		d.Read += pd.Read
		d.Suspect += pd.Suspect
		d.readUnsure = d.readUnsure || pd.readUnsure
		total = total.Plus(pd.Messages)
	}
	missing := m.missing()
	d.Files += len(missing)
	d.MissingFiles = len(missing)
	for _, mf := range missing {
		r := LostRange{File: mf.Name, Part: -1, ByteRange: ByteRange{
			Start: 0, End: mf.Size, Unit: UnitFile, Messages: mf.Messages, Why: mf.Why, First: mf.First, Last: mf.Last,
		}}
		if r.First.IsZero() && r.Last.IsZero() {
			// Between its neighbours.
			if p := mf.After - 1; p >= 0 && p < len(sums) && sums[p] != nil {
				r.First = sums[p].End
			}
			r.Last = partStart(mf.After)
			if r.Last.IsZero() || r.Last.Before(r.First) {
				r.Last = r.First
			}
		}
		d.Ranges = append(d.Ranges, r)
		total = total.Plus(mf.Messages)
	}
	d.settle(&total, 0, m.opts.Path)
	// In file order: a missing file between its neighbours.
	key := func(r LostRange) (int, int) {
		if r.Part >= 0 {
			return 2 * r.Part, 1
		}
		for _, mf := range missing {
			if mf.Name == r.File {
				return 2*mf.After - 1, 0
			}
		}
		return -1, 0
	}
	sort.SliceStable(d.Ranges, func(i, j int) bool {
		a, _ := key(d.Ranges[i])
		b, _ := key(d.Ranges[j])
		if a != b {
			return a < b
		}
		return d.Ranges[i].Start < d.Ranges[j].Start
	})
	return d
}

// missing lists the files the recording lacks: those named in
// MultiOptions.Missing and those that did not open (LeftOutError in
// MultiOptions.Errors), unless Missing names them already.
func (m *MultiStorage) missing() []MissingFile {
	out := append([]MissingFile(nil), m.opts.Missing...)
	for _, e := range m.opts.Errors {
		var lo *LeftOutError
		if !errors.As(e, &lo) {
			continue
		}
		known := false
		for _, mf := range out {
			if mf.Name == lo.Path {
				known = true
			}
		}
		if !known {
			out = append(out, MissingFile{Name: lo.Path, Size: lo.Size, Why: lo.Error(), After: m.partsBefore(lo.Path)})
		}
	}
	return out
}

// partsBefore counts the parts whose name sorts before path.
func (m *MultiStorage) partsBefore(path string) int {
	n := 0
	for _, name := range m.names {
		if naturalLess(filepath.Base(name), filepath.Base(path)) {
			n++
		}
	}
	return n
}

// fileDamage is FileDamage with a claim from outside the file (its
// folder's metadata) beside the file's own.
func fileDamage(s Storage, read []ByteRange, claim *Claim) *Damage {
	d := FileDamage(s, read)
	if claim == nil || claim.Messages < d.Read {
		return d
	}
	lo := claim.Messages - d.Read
	hi := lo + d.Suspect
	if len(d.Ranges) == 0 && lo > 0 {
		d.Ranges = append(d.Ranges, LostRange{File: s.FileInfo().Path, ByteRange: ByteRange{
			Messages: Between(lo, hi),
			Why:      fmt.Sprintf("%s counts %d messages in the file, %d were found: where the others were is not known", claim.By, claim.Messages, d.Read),
		}})
	}
	if d.readUnsure {
		// Read is the index's count, and the read found fewer: the file
		// still holds at most what it claims.
		d.Messages = d.Messages.Within(lo, 0, true)
		capRanges(d.Ranges, claim.Messages)
	} else {
		narrowRanges(d.Ranges, lo, hi)
		d.Messages = d.Messages.Within(lo, hi, false)
	}
	if d.Claim == nil {
		d.Claim = claim
	}
	return d
}

// LostRanges lists what the read could not use in each file, by file.
func (it *multiIter) LostRanges() []LostRange {
	var out []LostRange
	for _, src := range it.opened {
		sk, ok := src.it.(interface{ Skipped() []ByteRange })
		if !ok {
			continue
		}
		for _, r := range sk.Skipped() {
			out = append(out, LostRange{File: it.m.names[src.part], Part: src.part, ByteRange: r})
		}
	}
	return out
}
