package bookmarks

import "github.com/bagscope/bagscope/ui/widgets"

// ExportBookmarksDialog asks where to save the bookmarks as CSV.
func (m *Marks) ExportBookmarksDialog() {
	if m.win != nil {
		d := m.l.Doc()
		widgets.SaveFile(m.win, "the bookmarks", widgets.SiblingName(d.Name, "-bookmarks.csv"), d.Path, m.WriteBookmarksCSV, nil)
	}
}

// ExportEventsDialog asks where to save the events as CSV.
func (m *Marks) ExportEventsDialog() {
	if m.win != nil {
		d := m.l.Doc()
		widgets.SaveFile(m.win, "the events", widgets.SiblingName(d.Name, "-events.csv"), d.Path, m.WriteEventsCSV, nil)
	}
}
