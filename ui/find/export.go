package find

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
)

// exportDialog asks where to save the hits as CSV, beside the recording.
func (b *Bar) exportDialog() {
	if len(b.hits) == 0 || b.win == nil {
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		werr := b.WriteCSV(wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			dialog.ShowError(fmt.Errorf("the hits could not be saved: %w", werr), b.win)
			return
		}
		b.say(fmt.Sprintf("Saved %d hits to %s.", len(b.hits), wc.URI().Path()))
	}, b.win)
	d.SetFileName(CSVName(b.l.Doc().Name))
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv"}))
	if p := b.l.Doc().Path; p != "" && !strings.Contains(p, "://") {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(p))); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
}

// CSVName is the name the hits' CSV is offered under: the recording's
// name with -hits.csv.
func CSVName(name string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if base == "" || base == "." {
		base = "recording"
	}
	return base + "-hits.csv"
}
