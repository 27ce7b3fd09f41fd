package find

import (
	"fmt"

	"github.com/bagscope/bagscope/ui/widgets"
)

// exportDialog asks where to save the hits as CSV, beside the recording.
func (b *Bar) exportDialog() {
	if len(b.hits) == 0 || b.win == nil {
		return
	}
	d := b.l.Doc()
	widgets.SaveFile(b.win, "the hits", widgets.SiblingName(d.Name, "-hits.csv"), d.Path, b.WriteCSV, func(path string) {
		b.say(fmt.Sprintf("Saved %d hits to %s.", len(b.hits), path))
	})
}

// ExportCSV asks where to save the hits as CSV (the bar's CSV… button).
func (b *Bar) ExportCSV() { b.exportDialog() }
