package catalog

import (
	"slices"
	"testing"
)

func tableRows() []Recording {
	return []Recording{
		{Path: "/f/b.mcap", Format: "MCAP", Size: 300, Indexed: true, Healthy: true, Health: "ok", StartNS: 2e9, EndNS: 5e9, Duration: 3, Messages: 30},
		{Path: "/f/a.bag", Format: "ROS 1 bag", Size: 100, Indexed: true, Healthy: false, Health: "2 messages lost at offset 4096", StartNS: 1e9, EndNS: 9e9, Duration: 8, Messages: 80},
		{Path: "/f/c.bag", Format: "ROS 1 bag", Size: 50, Health: "not read: no index (catalog --scan reads it)"},
		{Path: "/f/d.db3", Format: "", Size: 10, Error: "not a database", Health: "not read: not a database"},
		{Path: "/g/e.mcap", Format: "MCAP", Size: 200, Indexed: true, Healthy: true, Health: "ok", StartNS: 3e9, EndNS: 4e9, Duration: 1, Messages: 10, Metadata: `{"robot":{"name":"rover7"}}`},
	}
}

func paths(t *Table) []string {
	var out []string
	for i := range t.Len() {
		out = append(out, t.Row(i).Path)
	}
	return out
}

// TestTableSortsAndFilters: the library's rows by each column both ways
// (ties by path), and filtered by words, health words and metadata.
func TestTableSortsAndFilters(t *testing.T) {
	for _, tc := range []struct {
		name   string
		col    Column
		desc   bool
		filter string
		want   []string
	}{
		{"by path", ColPath, false, "", []string{"/f/a.bag", "/f/b.mcap", "/f/c.bag", "/f/d.db3", "/g/e.mcap"}},
		{"by size, largest first", ColSize, true, "", []string{"/f/b.mcap", "/g/e.mcap", "/f/a.bag", "/f/c.bag", "/f/d.db3"}},
		{"by messages", ColMessages, false, "", []string{"/f/c.bag", "/f/d.db3", "/g/e.mcap", "/f/b.mcap", "/f/a.bag"}},
		{"by start", ColStart, false, "", []string{"/f/c.bag", "/f/d.db3", "/f/a.bag", "/f/b.mcap", "/g/e.mcap"}},
		{"by health, worst first", ColHealth, false, "", []string{"/f/d.db3", "/f/a.bag", "/f/c.bag", "/f/b.mcap", "/g/e.mcap"}},
		{"by format", ColFormat, false, "", []string{"/f/d.db3", "/f/b.mcap", "/g/e.mcap", "/f/a.bag", "/f/c.bag"}},
		{"by duration, longest first", ColDuration, true, "", []string{"/f/a.bag", "/f/b.mcap", "/g/e.mcap", "/f/c.bag", "/f/d.db3"}},
		{"a word", ColPath, false, "MCAP", []string{"/f/b.mcap", "/g/e.mcap"}},
		{"two words", ColPath, false, "mcap /g/", []string{"/g/e.mcap"}},
		{"unhealthy", ColPath, false, "unhealthy", []string{"/f/a.bag", "/f/c.bag", "/f/d.db3"}},
		{"healthy", ColPath, false, "healthy", []string{"/f/b.mcap", "/g/e.mcap"}},
		{"failed", ColPath, false, "failed", []string{"/f/d.db3"}},
		{"health text", ColPath, false, "lost", []string{"/f/a.bag"}},
		{"metadata", ColPath, false, "rover7", []string{"/g/e.mcap"}},
		{"nothing", ColPath, false, "zzz", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := NewTable(tableRows())
			tb.Sort(tc.col, tc.desc)
			tb.SetFilter(tc.filter)
			if got := paths(tb); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestBadgesAndCells: each row's badge, and the cells of rows without
// times or counts stay empty rather than show zeros.
func TestBadgesAndCells(t *testing.T) {
	rows := tableRows()
	want := []BadgeKind{BadgeHealthy, BadgeDamaged, BadgeUnread, BadgeFailed, BadgeHealthy}
	for i := range rows {
		if got := Badge(&rows[i]); got != want[i] {
			t.Errorf("%s: badge %v, want %v", rows[i].Path, got, want[i])
		}
	}
	for _, col := range []Column{ColStart, ColDuration, ColMessages} {
		if c := Cell(&rows[2], col); c != "" {
			t.Errorf("an unread recording's %s is %q", col, c)
		}
	}
	if c := Cell(&rows[1], ColMessages); c != "80" {
		t.Errorf("messages cell %q", c)
	}
	tb := NewTable(rows)
	lo, hi, ok := tb.Span()
	if !ok || lo != 1e9 || hi != 9e9 {
		t.Errorf("span %d..%d (%v), want 1e9..9e9", lo, hi, ok)
	}
}
