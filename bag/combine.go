package bag

import (
	"errors"
	"fmt"
)

// Member is one recording of several read as one (Combine): its storage,
// the prefix of its topics ("" for the first, "B:" for the next) and the
// nanoseconds added to its times (its offset to the first).
type Member struct {
	Storage Storage
	Prefix  string
	Offset  int64
}

// Combine reads several recordings as one recording of several files:
// the first's topics and times as they are, each other's topics under its
// prefix and its times moved by its offset (Shift). A recording of several
// files (a rosbag2 folder, a split bag) gives each of its files as a part,
// so its damage names the file and offset as it does alone. Closing the
// result does not close the members: their owner does (the window keeps
// them open to align them again without reopening them).
func Combine(members []Member) (*MultiStorage, error) {
	if len(members) == 0 {
		return nil, errors.New("no recording to combine")
	}
	var parts []Storage
	var o MultiOptions
	for i, mb := range members {
		own, names, mo, err := membersParts(mb.Storage)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			o.Path = mb.Storage.FileInfo().Path
		}
		for _, mf := range mo.Missing {
			mf.After += len(parts)
			mf.Name = mb.Prefix + mf.Name
			o.Missing = append(o.Missing, mf)
		}
		o.Errors = append(o.Errors, prefixed(mb.Prefix, mo.Errors)...)
		o.Warnings = append(o.Warnings, prefixed(mb.Prefix, mo.Warnings)...)
		for j, p := range own {
			if mb.Prefix != "" || mb.Offset != 0 {
				p = Shift(p, mb.Prefix, mb.Offset)
			}
			parts = append(parts, noClose{p})
			o.Names = append(o.Names, names[j])
			var c *Claim
			if j < len(mo.PartClaims) {
				c = mo.PartClaims[j]
			}
			o.PartClaims = append(o.PartClaims, c)
		}
	}
	if len(parts) > MaxParts {
		return nil, fmt.Errorf("the recordings have %d files together, at most %d", len(parts), MaxParts)
	}
	return NewMulti(parts, o), nil
}

// prefixed names the recording an error of an added one is about.
func prefixed(prefix string, errs []error) []error {
	if prefix == "" {
		return errs
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = fmt.Errorf("%s %w", prefix, e)
	}
	return out
}

// membersParts returns the files of a recording: the parts of a recording
// of several files read through Multi (behind the wrappers that only add
// to it, as a rosbag2 folder's does), else the recording itself.
func membersParts(s Storage) ([]Storage, []string, MultiOptions, error) {
	inflate := false
	for x := s; x != nil; {
		switch v := x.(type) {
		case *MultiStorage:
			return partsOf(v, inflate)
		case singlePart:
			return partsOf(v.MultiStorage, inflate)
		case *messageZstd:
			inflate = true
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	return []Storage{s}, []string{s.FileInfo().Path}, MultiOptions{}, nil
}

// partsOf returns m's parts, each decompressing its messages when the
// recording does.
func partsOf(m *MultiStorage, inflate bool) ([]Storage, []string, MultiOptions, error) {
	parts := m.parts
	if inflate {
		parts = make([]Storage, len(m.parts))
		for i, p := range m.parts {
			parts[i] = &messageZstd{Storage: p}
		}
	}
	return parts, m.names, m.opts, nil
}

// noClose is a member's file inside a combined recording: closing the
// combination leaves it open.
type noClose struct{ Storage }

func (noClose) Close() error { return nil }

// Unwrap returns the file.
func (n noClose) Unwrap() Storage { return n.Storage }

// RecordShift says which recording of a combination (Combine) holds the
// combination's byte offset off (a top-level record's, a block's): its
// prefix and the offset added to its times. ok is false for the first
// recording (its times are the window's), for one recording alone and
// for an offset outside the combination's files.
func RecordShift(l RecordLister, off int64) (prefix string, shift int64, ok bool) {
	m, isMulti := l.(*MultiStorage)
	if !isMulti {
		return "", 0, false
	}
	p, _ := SplitPart(off)
	if p < 0 || p >= len(m.parts) {
		return "", 0, false
	}
	for s := m.parts[p]; ; {
		switch x := s.(type) {
		case *Shifted:
			return x.Prefix(), x.Offset(), true
		case interface{ Unwrap() Storage }:
			s = x.Unwrap()
		default:
			return "", 0, false
		}
	}
}
