// Package findings is the Findings tab: what the storage's check finds
// wrong with a recording, most severe first, each leading to its record,
// and the "Save repaired copy…" action where the format can be repaired.
package findings

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// AutoCheckLimit is the largest bag checked as soon as its window opens;
// larger ones wait for the Check button, as the check decompresses every
// chunk. A remote recording is never checked on its own (AutoChecks).
const AutoCheckLimit = 256 << 20

// AutoChecks says whether document d's window checks it as it opens: a
// local file of at most AutoCheckLimit bytes.
func AutoChecks(d *model.Document) bool {
	return d.Size <= AutoCheckLimit && !bag.TransferOf(d.Storage).Remote
}

// Panel is the Findings tab: the doctor's findings (the storage's
// Check) and the "Save repaired copy…" action (ROS 1 bags only, for now).
type Panel struct {
	d   *model.Document
	win fyne.Window
	// ctx ends with the window; cancel stops the running check.
	ctx      context.Context
	cancel   context.CancelFunc
	status   *widget.Label
	progress *widget.ProgressBar
	stopBtn  *widget.Button
	checkBtn *widget.Button
	showBtn  *widget.Button
	saveBtn  *widget.Button
	selected int // selected finding, or -1
	Hooks
	list     *widget.List
	detail   *widget.Label
	findings []bag.Finding
	content  fyne.CanvasObject
}

// Hooks are the Findings panel's links to the other views, each
// optional.
type Hooks struct {
	// SelectRecord selects the record at a file offset in the Records tab
	// without showing it.
	SelectRecord func(off int64)
	// OnReport receives the findings of every check that finished.
	OnReport func([]bag.Finding)
	// OnChecked hears of the end of every check: its report, or the error
	// that stopped it.
	OnChecked func(*bag.CheckReport, error)
}

// Tab is the panel as the window's Findings Tab.
func (p *Panel) Tab() *container.TabItem {
	return container.NewTabItemWithIcon("Findings", theme.WarningIcon(), p.content)
}

// New builds the Findings panel of document d in window w and
// starts the check on small bags. ctx ends with the window and stops a
// running check; showRecord shows the record at a file offset in the
// Records tab.
func New(ctx context.Context, d *model.Document, w fyne.Window, showRecord func(off int64), h Hooks) *Panel {
	p := &Panel{d: d, win: w, ctx: ctx, Hooks: h}
	p.showBtn = widget.NewButtonWithIcon("Show in Records", theme.NavigateNextIcon(), func() {
		if p.selected >= 0 && p.selected < len(p.findings) {
			showRecord(p.findings[p.selected].Offset)
		}
	})
	p.showBtn.Disable()
	if model.Lister(d.Storage) == nil {
		p.showBtn.Hide() // the Records view does not read this format yet
	}
	p.selected = -1
	p.status = widget.NewLabel("")
	p.status.Wrapping = fyne.TextWrapWord
	p.progress = widget.NewProgressBar()
	p.progress.Hide()
	p.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), func() {
		if p.cancel != nil {
			p.cancel()
		}
	})
	p.stopBtn.Hide()
	p.checkBtn = widget.NewButtonWithIcon("Check every record", theme.SearchIcon(), p.runCheck)
	p.saveBtn = widget.NewButtonWithIcon("Save repaired copy…", theme.DocumentSaveIcon(), p.SaveRepaired)
	p.updateSave()
	p.detail = widget.NewLabel("")
	p.detail.Wrapping = fyne.TextWrapWord
	p.list = widget.NewList(
		func() int { return len(p.findings) },
		func() fyne.CanvasObject {
			msg := widget.NewLabel("")
			msg.Truncation = fyne.TextTruncateEllipsis
			where := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
			return container.NewBorder(nil, nil, container.NewHBox(widget.NewIcon(theme.InfoIcon()), where), nil, msg)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			f := p.findings[i]
			row := o.(*fyne.Container)
			left := row.Objects[1].(*fyne.Container)
			left.Objects[0].(*widget.Icon).SetResource(severityIcon(f.Severity))
			left.Objects[1].(*widget.Label).SetText(findingPlace(f))
			row.Objects[0].(*widget.Label).SetText(f.Message)
			// A longer record kind widens the place column: lay the row
			// out again, or the message overlaps it.
			row.Layout.Layout(row.Objects, row.Size())
		},
	)
	p.list.OnSelected = func(i widget.ListItemID) {
		p.selected = i
		p.showBtn.Enable()
		f := p.findings[i]
		if p.SelectRecord != nil {
			p.SelectRecord(f.Offset) // ready in the Records tab
		}
		p.detail.SetText(fmt.Sprintf("%s %s:\n%s", strings.ToUpper(f.Severity.String()[:1])+f.Severity.String()[1:], findingWhere(f), f.Message))
	}
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, container.NewHBox(p.checkBtn, p.saveBtn), p.status),
		container.NewBorder(nil, nil, nil, p.stopBtn, p.progress),
	)
	split := container.NewVSplit(p.list, container.NewBorder(nil, nil, nil, container.NewVBox(p.showBtn), container.NewVScroll(p.detail)))
	split.Offset = 0.75
	widgets.RememberSplit(split, "findings")
	p.content = container.NewBorder(top, nil, nil, nil, split)
	switch {
	case AutoChecks(d):
		p.runCheck()
	case bag.TransferOf(d.Storage).Remote:
		// A remote recording is read only where it is shown: the check
		// fetches the whole file, so it waits for the user.
		p.status.SetText(fmt.Sprintf("Not checked: this recording is remote, and checking it fetches and decompresses all of it (%s). Press \"Check every record\" to run it.", human.Size(d.Size)))
	default:
		p.status.SetText(fmt.Sprintf("This bag is %s: checking reads and decompresses every chunk. Press \"Check every record\" to run it.", human.Size(d.Size)))
	}
	return p
}

// runCheck runs the doctor in the background, with progress and Stop.
func (p *Panel) runCheck() {
	p.checkBtn.Disable()
	p.progress.SetValue(0)
	p.progress.Show()
	p.stopBtn.Show()
	if p.d.Bag != nil {
		p.status.SetText("Checking every record: bag header, index, chunks, index entries, connections, md5sums…")
	} else {
		p.status.SetText("Checking every record…")
	}
	ctx, cancel := context.WithCancel(p.ctx)
	p.cancel = cancel
	var shown time.Time
	progress := func(done, total int64) {
		if total <= 0 || time.Since(shown) < 50*time.Millisecond && done < total {
			return
		}
		shown = time.Now()
		fyne.Do(func() { p.progress.SetValue(float64(done) / float64(total)) })
	}
	link.Background(func() {
		defer cancel()
		rep, err := model.CheckStorage(ctx, p.d.Storage, progress)
		fyne.Do(func() { p.showReport(rep, err) })
	})
}

func (p *Panel) showReport(rep *bag.CheckReport, err error) {
	p.progress.Hide()
	p.stopBtn.Hide()
	p.checkBtn.Enable()
	if p.OnChecked != nil {
		p.OnChecked(rep, err)
	}
	switch {
	case errors.Is(err, context.Canceled):
		p.status.SetText("The check was stopped before it finished. \"Check every record\" runs it again.")
		return
	case err != nil:
		p.status.SetText("The check could not run: " + err.Error())
		return
	}
	p.findings = append(p.findings[:0], rep.Findings...)
	// Most severe first, then in file order.
	sort.SliceStable(p.findings, func(i, j int) bool { return p.findings[i].Severity > p.findings[j].Severity })
	counts := [3]int{}
	for _, f := range p.findings {
		counts[f.Severity]++
	}
	switch {
	case len(p.findings) == 0:
		p.status.SetText(fmt.Sprintf("No findings: every record of the %s checks out.", human.Plural(rep.Messages, "message")))
	case counts[bag.Error] == 0:
		p.status.SetText(fmt.Sprintf("No errors; %s and %s. Select one to read it whole.", human.Plural(uint64(counts[bag.Warning]), "warning"), human.Plural(uint64(counts[bag.Info]), "note")))
	case !p.canSave():
		p.status.SetText(fmt.Sprintf("%s, %s, %s. Select one to read it whole.", human.Plural(uint64(counts[bag.Error]), "error"), human.Plural(uint64(counts[bag.Warning]), "warning"), human.Plural(uint64(counts[bag.Info]), "note")))
	default:
		p.status.SetText(fmt.Sprintf("%s, %s, %s. \"Save repaired copy…\" writes a new, indexed copy with every message that can be read.", human.Plural(uint64(counts[bag.Error]), "error"), human.Plural(uint64(counts[bag.Warning]), "warning"), human.Plural(uint64(counts[bag.Info]), "note")))
	}
	p.updateSave()
	if p.OnReport != nil {
		p.OnReport(p.findings)
	}
	p.detail.SetText("")
	p.selected = -1
	p.showBtn.Disable()
	p.list.UnselectAll()
	p.list.Refresh()
}

// canSave says whether "Save repaired copy…" has something to repair and
// something to keep: the recording can be repaired, it lost something, was
// read without its index, or the last check found something, and it has
// messages to keep.
func (p *Panel) canSave() bool {
	if !Repairable(p.d) || p.d.Summary == nil || p.d.Summary.Messages == 0 && !Scanned(p.d) {
		return false
	}
	return Scanned(p.d) || len(p.findings) > 0 || bag.DamageOf(p.d.Storage).Lost()
}

// updateSave enables "Save repaired copy…" when there is something to
// repair.
func (p *Panel) updateSave() {
	if p.canSave() {
		p.saveBtn.Enable()
	} else {
		p.saveBtn.Disable()
	}
}

// Scanned reports whether the recording could not be read through its
// index and was read record by record instead.
func Scanned(d *model.Document) bool {
	return d.Scan != nil || d.Info != nil && d.Info.Scanned != nil
}

// SaveRepaired asks where to write a repaired copy and writes it in the
// background, then says what was kept and lost.
func (p *Panel) SaveRepaired() {
	if Repairable(p.d) && !p.canSave() {
		return // nothing to repair (Ctrl+Shift+S on a healthy recording)
	}
	if !Repairable(p.d) {
		dialog.ShowInformation("Not available for this format yet", "bagscope cannot write a repaired copy of this kind of recording yet; `bagscope convert` writes its readable messages as a ROS 1 bag or an MCAP file.", p.win)
		return
	}
	save := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		out := wc.URI().Path()
		wc.Close()
		busy := dialog.NewCustomWithoutButtons("Writing the repaired copy…", widget.NewProgressBarInfinite(), p.win)
		busy.Show()
		link.Background(func() {
			rep, err := model.SaveRepaired(p.d, out)
			fyne.Do(func() {
				busy.Hide()
				if err != nil {
					dialog.ShowError(fmt.Errorf("the repaired copy could not be written: %w", err), p.win)
					return
				}
				dialog.ShowInformation("Repaired copy saved", repairText(out, rep, bag.DamageRead(p.d.Storage, rep.Lost)), p.win)
			})
		})
	}, p.win)
	save.SetFileName(model.RepairedName(p.d))
	if p.d.Path != "" {
		// Beside the recording, where users look for it.
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(p.d.Path))); err == nil {
			save.SetLocation(l)
		}
	}
	save.Show()
}

// Repairable reports whether a repaired copy of the document can be
// written (see model.Repairable): every format `bagscope fix` repairs.
func Repairable(d *model.Document) bool { return model.Repairable(d) }

// repairText says what a repair kept and lost, in the words every command
// uses for the recording's damage d.
func repairText(out string, rep *bag.RepairReport, d *bag.Damage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Wrote %s: %s, %s compression.\n", out, human.Plural(rep.Messages, "message"), rep.Compression)
	topics := make([]string, 0, len(rep.Kept))
	for t := range rep.Kept {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		fmt.Fprintf(&b, "  %s: %s\n", t, human.Count(rep.Kept[t]))
	}
	if rep.Suspect > 0 {
		fmt.Fprintf(&b, "Left out %s: read from damaged units, they cannot be trusted.\n", human.Plural(rep.Suspect, "suspect message"))
	}
	if rep.Complete() && !d.Lost() {
		b.WriteString("Nothing was lost.")
		return b.String()
	}
	if h := human.DamageHeadline(d); h != "" {
		fmt.Fprintf(&b, "Lost: %s.\n", h)
	}
	for i, r := range d.Ranges {
		if i == 8 {
			fmt.Fprintf(&b, "… and %d more lost ranges (Findings lists them).\n", len(d.Ranges)-i)
			break
		}
		fmt.Fprintf(&b, "%s: offset %s: %s\n", filepath.Base(r.File), human.Count(uint64(r.Start)), human.LostRange(r))
	}
	return b.String()
}

func severityIcon(s bag.Severity) fyne.Resource {
	switch s {
	case bag.Error:
		return theme.ErrorIcon()
	case bag.Warning:
		return theme.WarningIcon()
	}
	return theme.InfoIcon()
}

// findingPlace is the finding's location column: "4117 chunk", with the
// file of a recording of several ("wbag_1.db3 4117 page"), or "recording"
// for a finding about the whole recording (a file missing), never "0
// bytes".
func findingPlace(f bag.Finding) string {
	if f.File == "" && f.Offset == 0 && f.Record == "" {
		return fmt.Sprintf("%10s %-11s", "", "recording")
	}
	place := fmt.Sprintf("%10d %-11s", f.Offset, recordName(f.Record))
	if f.File != "" {
		place = filepath.Base(f.File) + " " + place
	}
	return place
}

// findingWhere says where a finding is, for its detail: "at byte offset
// 4117 of wbag_1.db3 (chunk record)", or "about the whole recording".
func findingWhere(f bag.Finding) string {
	if f.File == "" && f.Offset == 0 && f.Record == "" {
		return "about the whole recording"
	}
	s := fmt.Sprintf("at byte offset %d", f.Offset)
	if f.File != "" {
		s += " of " + filepath.Base(f.File)
	}
	return s + recordSuffix(f.Record)
}

// recordName names a finding's record kind; "bytes" for a byte range.
func recordName(kind string) string {
	if kind == "" {
		return "bytes"
	}
	return kind
}

func recordSuffix(kind string) string {
	if kind == "" {
		return ""
	}
	return " (" + kind + " record)"
}
