package catalog

import (
	"cmp"
	"os"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/model/human"
)

// Column is a column of the library's table of recordings.
type Column int

// The library's columns, in the order shown.
const (
	ColPath Column = iota
	ColFormat
	ColSize
	ColStart
	ColDuration
	ColMessages
	ColHealth
	NumColumns
)

var columnNames = [NumColumns]string{"Path", "Format", "Size", "Start (UTC)", "Duration", "Messages", "Health"}

// String is the column's heading.
func (c Column) String() string { return columnNames[c] }

// Numeric reports whether the column holds numbers (shown right-aligned).
func (c Column) Numeric() bool {
	return c == ColSize || c == ColDuration || c == ColMessages
}

// IsCatalog reports whether dir is a catalogue (bagscope catalog wrote a
// recordings table in it) rather than a folder of recordings.
func IsCatalog(dir string) bool {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return false
	}
	files, err := Files(dir, RecordingsTable)
	return err == nil && len(files) > 0
}

// Table is the recordings of a library sorted and filtered as the window
// shows them. Its zero value holds none.
type Table struct {
	all    []Recording
	rows   []int // indices into all, in the order shown
	sortBy Column
	desc   bool
	filter []string
}

// NewTable returns a table of rs sorted by path.
func NewTable(rs []Recording) *Table {
	t := &Table{all: rs}
	t.update()
	return t
}

// All returns every recording, shown or not.
func (t *Table) All() []Recording { return t.all }

// Len counts the rows shown.
func (t *Table) Len() int { return len(t.rows) }

// Row returns the i-th row shown.
func (t *Table) Row(i int) *Recording { return &t.all[t.rows[i]] }

// SortedBy returns the column sorted by and whether the order is
// descending.
func (t *Table) SortedBy() (Column, bool) { return t.sortBy, t.desc }

// Sort sorts the rows by col (descending when desc); ties keep the path
// order.
func (t *Table) Sort(col Column, desc bool) {
	t.sortBy, t.desc = col, desc
	t.update()
}

// SetFilter shows only the recordings every word of text (case aside)
// appears in: their path, format, health or metadata. "unhealthy" and
// "healthy" match by health, "failed" the recordings that could not be
// read.
func (t *Table) SetFilter(text string) {
	t.filter = strings.Fields(strings.ToLower(text))
	t.update()
}

func (t *Table) update() {
	t.rows = t.rows[:0]
	for i := range t.all {
		if t.matches(&t.all[i]) {
			t.rows = append(t.rows, i)
		}
	}
	slices.SortStableFunc(t.rows, func(a, b int) int {
		x, y := &t.all[a], &t.all[b]
		c := compareBy(x, y, t.sortBy)
		if t.desc {
			c = -c
		}
		if c == 0 {
			c = strings.Compare(x.Path, y.Path)
		}
		return c
	})
}

func compareBy(x, y *Recording, col Column) int {
	switch col {
	case ColFormat:
		return strings.Compare(x.Format, y.Format)
	case ColSize:
		return cmp.Compare(x.Size, y.Size)
	case ColStart:
		return cmp.Compare(x.StartNS, y.StartNS)
	case ColDuration:
		return cmp.Compare(x.Duration, y.Duration)
	case ColMessages:
		return cmp.Compare(x.Messages, y.Messages)
	case ColHealth:
		// The worst first in ascending order, where the eye starts.
		return cmp.Compare(healthRank(x), healthRank(y))
	}
	return strings.Compare(x.Path, y.Path)
}

// healthRank orders recordings worst first: failed, damaged, unread,
// healthy.
func healthRank(r *Recording) int {
	switch Badge(r) {
	case BadgeFailed:
		return 0
	case BadgeDamaged:
		return 1
	case BadgeUnread:
		return 2
	}
	return 3
}

func (t *Table) matches(r *Recording) bool {
	for _, w := range t.filter {
		switch w {
		case "healthy":
			if Badge(r) != BadgeHealthy {
				return false
			}
			continue
		case "unhealthy":
			if Badge(r) == BadgeHealthy {
				return false
			}
			continue
		case "failed":
			if Badge(r) == BadgeFailed {
				continue
			}
		}
		if !strings.Contains(strings.ToLower(r.Path), w) && !strings.Contains(strings.ToLower(r.Format), w) &&
			!strings.Contains(strings.ToLower(r.Health), w) && !strings.Contains(strings.ToLower(r.Metadata), w) {
			return false
		}
	}
	return true
}

// A BadgeKind is what a recording's health badge says.
type BadgeKind int

// Health badges.
const (
	BadgeHealthy BadgeKind = iota // read, nothing lost
	BadgeDamaged                  // read, something lost
	BadgeUnread                   // listed, not read (no index; catalog --scan reads it)
	BadgeFailed                   // could not be opened
)

// Badge says which health badge the recording shows.
func Badge(r *Recording) BadgeKind {
	switch {
	case r.Error != "":
		return BadgeFailed
	case !r.Indexed && !r.Scanned:
		return BadgeUnread
	case !r.Healthy:
		return BadgeDamaged
	}
	return BadgeHealthy
}

// Cell is the text of row r's column col.
func Cell(r *Recording, col Column) string {
	switch col {
	case ColPath:
		return r.Path
	case ColFormat:
		return r.Format
	case ColSize:
		return human.Size(r.Size)
	case ColStart:
		if r.StartNS == 0 && r.EndNS == 0 {
			return ""
		}
		return r.Start.UTC().Format("2006-01-02 15:04:05")
	case ColDuration:
		if r.StartNS == 0 && r.EndNS == 0 {
			return ""
		}
		return human.Duration(r.Duration)
	case ColMessages:
		if Badge(r) == BadgeUnread || Badge(r) == BadgeFailed {
			return ""
		}
		return human.Count(uint64(r.Messages))
	case ColHealth:
		return r.Health
	}
	return ""
}

// Span returns the earliest start and latest end (ns since the epoch) of
// the recordings shown that have times, and false when none has.
func (t *Table) Span() (lo, hi int64, ok bool) {
	for _, i := range t.rows {
		r := &t.all[i]
		if r.StartNS == 0 && r.EndNS == 0 {
			continue
		}
		if !ok || r.StartNS < lo {
			lo = r.StartNS
		}
		if !ok || r.EndNS > hi {
			hi = r.EndNS
		}
		ok = true
	}
	return lo, hi, ok
}
