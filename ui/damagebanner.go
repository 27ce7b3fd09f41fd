package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/findings"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// maxBannerRanges is how many lost ranges the banner's details list; the
// Findings tab lists them all.
const maxBannerRanges = 6

// damageBanner is the window's one summary of what a recording lost, in
// the words every command uses (bag.Damage through model/human): one line
// with what was lost and how much, the first place it was lost (file and
// byte offset) and how many more findings there are, with the actions
// that go with it. Its details (how the file was read, the warnings of
// opening, each lost range) are collapsed until asked for, so the views
// below keep their height at 1024x640.
type damageBanner struct {
	root     *fyne.Container
	headline *widget.Label
	details  *fyne.Container
	toggle   *widget.Button
	save     *widget.Button
	d        *model.Document
	dmg      *bag.Damage
}

// newDamageBanner builds the banner of d from what opening found; the
// link's read of every message refines it (OnReadLoss).
func newDamageBanner(d *model.Document, l *link.Hub) *damageBanner {
	b := &damageBanner{d: d}
	b.headline = widget.NewLabel("")
	b.headline.Truncation = fyne.TextTruncateEllipsis
	b.headline.TextStyle = fyne.TextStyle{Bold: true}
	b.details = container.NewVBox()
	b.details.Hide()
	b.toggle = widget.NewButtonWithIcon("Details", theme.MenuDropDownIcon(), b.flip)
	b.toggle.Importance = widget.LowImportance
	show := widget.NewButtonWithIcon("Show findings", theme.NavigateNextIcon(), func() { l.SelectTab("Findings") })
	show.Importance = widget.LowImportance
	actions := container.NewHBox(b.toggle, show)
	if findings.Repairable(d) {
		b.save = widget.NewButtonWithIcon("Save repaired copy…", theme.DocumentSaveIcon(), func() { l.Actions().SaveRepaired() })
		b.save.Importance = widget.LowImportance
		actions.Add(b.save)
	}
	// A VBox leaves the hidden details out of its height.
	text := container.NewVBox(b.headline, b.details)
	b.root = container.NewBorder(nil, nil, container.NewCenter(widget.NewIcon(theme.WarningIcon())), container.NewCenter(actions), text)
	b.set(bag.DamageOf(d.Storage))
	return b
}

// flip shows or hides the details.
func (b *damageBanner) flip() {
	if b.details.Hidden {
		b.details.Show()
		b.toggle.SetText("Hide details")
		b.toggle.SetIcon(theme.MenuDropUpIcon())
	} else {
		b.details.Hide()
		b.toggle.SetText("Details")
		b.toggle.SetIcon(theme.MenuDropDownIcon())
	}
	b.root.Refresh()
}

// readLoss refines the banner with what a read of every message skipped
// and, when it went to the end, the messages it read: the figure every
// command gives.
func (b *damageBanner) readLoss(loss stats.ReadLoss) {
	// The one report every command gives of the same read.
	b.set(bag.ReadDamage(b.d.Storage, loss.Skipped, loss.Tally, loss.Complete))
}

// set says dmg: the banner is hidden when there is nothing to say.
func (b *damageBanner) set(dmg *bag.Damage) {
	b.dmg = dmg
	line, details := bannerText(b.d, dmg)
	b.headline.SetText(line)
	b.details.Objects = nil
	for _, d := range details {
		b.details.Add(widgets.DimText(d, theme.SizeNameText, fyne.TextAlignLeading))
	}
	if len(details) == 0 {
		b.toggle.Hide()
	} else {
		b.toggle.Show()
	}
	if b.save != nil {
		if dmg.Lost() || findings.Scanned(b.d) {
			b.save.Enable()
		} else {
			b.save.Disable()
		}
	}
	if line == "" {
		b.root.Hide()
	} else {
		b.root.Show()
	}
	b.root.Refresh()
}

// maxBannerTopics is how many topics' losses the details name.
const maxBannerTopics = 6

// bannerText is the banner's line and its details: what was lost ("1 of
// 5 files missing: 1,240 messages lost; missing: wbag_2.db3."), the first
// place it was lost, how the file was read when not through its index,
// and how many more findings the details hold. "" when there is nothing to
// say.
func bannerText(d *model.Document, dmg *bag.Damage) (string, []string) {
	// The loss first, then how the file was read: a narrow window cuts
	// the line's end, never the loss.
	var parts, details []string
	if dmg.Lost() || dmg.Suspect > 0 {
		// Where first: a narrow window cuts the line's end, never the
		// place nor the loss.
		parts = append(parts, capitalize(firstLost(dmg, human.DamageHeadline(dmg)))+".")
		if c := human.ClaimNote(dmg); c != "" {
			details = append(details, capitalize(c)+".")
		}
		// Which topics lost how many, where the recording counts them.
		if t := human.TopicLosses(dmg, maxBannerTopics); t != "" {
			details = append(details, "By topic, "+t+".")
		}
	}
	scanText, scanDetails := scanWords(d)
	if scanText != "" {
		parts = append(parts, scanText)
		details = append(details, scanDetails...)
	}
	for _, w := range d.Warnings {
		details = append(details, w.Error())
	}
	for i, r := range dmg.Ranges {
		if i == maxBannerRanges {
			details = append(details, fmt.Sprintf("… and %d more lost ranges: Show findings lists them.", len(dmg.Ranges)-i))
			break
		}
		details = append(details, rangeWords(dmg, r))
	}
	if len(parts) == 0 && len(d.Warnings) > 0 {
		// Nothing lost: what opening noticed.
		parts = append(parts, d.Warnings[0].Error())
		details = details[1:]
	}
	if len(parts) == 0 {
		return "", nil
	}
	line := strings.Join(parts, " ")
	if n := len(details); n > 0 {
		line += fmt.Sprintf(" (%s in the details)", human.Plural(uint64(n), "more line"))
	}
	return line, details
}

// scanWords says how a file that could not be read through its index was
// read instead (page by page, record by record), and why.
func scanWords(d *model.Document) (string, []string) {
	switch {
	case d.Scan != nil:
		detail := []string{d.Scan.Reason.Error()}
		if findings.Repairable(d) {
			detail = append(detail, repairHint)
		}
		return human.ScanSummary(d.Scan), detail
	case d.Info != nil && d.Info.Scanned != nil:
		r := d.Info.Scanned
		how := "Read without its index"
		if d.Info.Format == "rosbag2 SQLite (.db3)" {
			how = "Read page by page (SQLite calls the file malformed)"
		}
		// Each file's offset against its own size, the file named when
		// the recording has several.
		var parsed []string
		for _, e := range r.Extents(d.Size) {
			w := fmt.Sprintf("parsed to byte %s of %s", human.Count(uint64(e.ParsedTo)), human.Count(uint64(e.Size)))
			if e.File != "" {
				w = e.File + " " + w
			}
			parsed = append(parsed, w)
		}
		text := fmt.Sprintf("%s: %s", how, strings.Join(parsed, "; "))
		// The bytes lost are said once, by the damage that follows, in
		// the words every command uses (unreadable, cut off).
		reason := "The file's index could not be used."
		if r.Reason != nil {
			reason = r.Reason.Error()
		}
		detail := []string{reason}
		if findings.Repairable(d) {
			detail = append(detail, repairHint)
		}
		return text + ".", detail
	}
	return "", nil
}

// firstLost puts where the loss was before its headline: the files
// missing ("1 of 5 files missing (wbag_2.db3): 1,240 messages lost"), or
// the first lost range's offset ("at offset 4,117 of x.db3: 41 messages
// lost").
func firstLost(dmg *bag.Damage, headline string) string {
	var missing []string
	for _, r := range dmg.Ranges {
		if r.Unit == bag.UnitFile && r.End == 0 {
			missing = append(missing, filepath.Base(r.File))
		}
	}
	if len(missing) > 0 {
		return strings.Replace(headline, "files missing:", "files missing ("+strings.Join(missing, ", ")+"):", 1)
	}
	if len(dmg.Ranges) == 0 {
		return headline
	}
	r := dmg.Ranges[0]
	s := "at offset " + human.Count(uint64(r.Start))
	if dmg.Files > 1 {
		s += " of " + filepath.Base(r.File)
	}
	return s + ": " + headline
}

// rangeWords says one lost range as the commands say it on stderr.
func rangeWords(dmg *bag.Damage, r bag.LostRange) string {
	s := human.LostRange(r)
	if dmg.Files > 1 && r.Unit != bag.UnitFile {
		s = filepath.Base(r.File) + ": " + s
	}
	return s
}

// capitalize makes the first letter upper case.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
