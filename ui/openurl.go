package ui

import (
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
)

// File › Open URL… (Ctrl+L): a recording read in place over HTTP(S) or S3,
// as the commands read URLs (issue 25). Credentials come from the standard
// AWS chain and AWS_ENDPOINT_URL, as for the commands.

var shortcutOpenURL = &desktop.CustomShortcut{KeyName: fyne.KeyL, Modifier: fyne.KeyModifierShortcutDefault}

// errNotURL is what the URL field says until it holds a URL bagscope reads.
var errNotURL = errors.New("an http://, https://, s3:// or gs:// URL")

// validURL accepts the URLs the seam reads (bag.IsURL).
func validURL(s string) error {
	if !bag.IsURL(strings.TrimSpace(s)) {
		return errNotURL
	}
	return nil
}

// showOpenURLDialog asks for a URL and opens it in w (or a new window).
func (c *controller) showOpenURLDialog(w fyne.Window) {
	askURL(w, "Open URL", "Open", "https://host/run.mcap  or  s3://bucket/run42/",
		"A recording, a rosbag2 folder (…/ or …/metadata.yaml) or a presigned URL, read in place.",
		func(url string) { c.openPath(url, w) })
}

// askURL shows a form over w with one URL entry, checked as typed; done
// gets the URL, trimmed, when the user confirms.
func askURL(w fyne.Window, title, confirm, placeholder, hint string, done func(url string)) {
	entry := widget.NewEntry()
	entry.SetPlaceHolder(placeholder)
	entry.Validator = validURL
	items := []*widget.FormItem{{Text: "URL", Widget: entry, HintText: hint}}
	d := dialog.NewForm(title, confirm, "Cancel", items, func(ok bool) {
		if ok {
			done(strings.TrimSpace(entry.Text))
		}
	}, w)
	d.Resize(fyne.NewSize(620, d.MinSize().Height))
	d.Show()
	w.Canvas().Focus(entry)
}
