package widgets

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
)

// SaveFile asks where to save a file named name (beside the recording at
// recPath, where it is a local file), writes it with write, and calls
// done with its path; a failure shows in an error dialog that says what.
func SaveFile(w fyne.Window, what, name, recPath string, write func(io.Writer) error, done func(path string)) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		werr := write(wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			dialog.ShowError(fmt.Errorf("%s could not be saved: %w", what, werr), w)
			return
		}
		if done != nil {
			done(wc.URI().Path())
		}
	}, w)
	d.SetFileName(name)
	if ext := filepath.Ext(name); ext != "" {
		d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	}
	if recPath != "" && !strings.Contains(recPath, "://") {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(recPath))); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
}

// SiblingName is the name of a file saved from the recording name: its
// base without extension, then suffix ("run42.bag", "-hits.csv":
// "run42-hits.csv").
func SiblingName(name, suffix string) string {
	base := strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	if base == "metadata" {
		base = filepath.Base(filepath.Dir(name))
	}
	if base == "" || base == "." || base == "/" {
		base = "recording"
	}
	return base + suffix
}
