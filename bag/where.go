package bag

import "fmt"

// Locator is a Storage that says, for people, where a message lives in its
// own words (a .db3's row id rather than a location's bits).
type Locator interface {
	// Where describes the location loc of a message.
	Where(loc Loc) string
}

// Where says where the message at loc lives, for people: the offset of the
// chunk or record that holds it ("offset 4096, record 120 of the chunk's
// data"), the file of a recording of several files, or what the format
// says (a .db3's row). It never shows a location's internal encoding.
func Where(s Storage, loc Loc) string {
	if m := AsMulti(s); m != nil && len(m.parts) > 1 {
		p, own := m.PartLoc(loc)
		if p >= 0 && p < len(m.parts) {
			return m.base(p) + " " + Where(m.parts[p], own)
		}
	}
	for x := s; x != nil; {
		if l, ok := x.(Locator); ok {
			return l.Where(loc)
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	if loc.Offset != 0 {
		return fmt.Sprintf("offset %d, record at %d of the chunk's data", loc.Block, loc.Offset)
	}
	return fmt.Sprintf("offset %d", loc.Block)
}
