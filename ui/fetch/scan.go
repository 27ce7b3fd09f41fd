package fetch

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// ScanConfirm is the question a remote file without a usable summary or
// index asks before it is read whole: its name, why, and its size, with
// the download as the one action and a way out.
type ScanConfirm struct {
	Root fyne.CanvasObject
	// Scan is the button that reads the file whole.
	Scan *widget.Button
	// Question is the sentence that states the size.
	Question string
}

// NewScanConfirm asks whether to read the remote file e names whole;
// scan and cancel run on the UI goroutine.
func NewScanConfirm(name string, e *bag.ScanConsentError, scan, cancel func()) *ScanConfirm {
	icon := canvas.NewImageFromResource(theme.NewWarningThemedResource(theme.DownloadIcon()))
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(56, 56))
	title := widget.NewLabelWithStyle("Read all of "+name+"?", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	size := human.Size(e.Size)
	q := "This remote file has no summary or index that bagscope can use, so opening it means downloading all " +
		size + " of it and reading it from start to end."
	question := widget.NewLabel(q)
	question.Wrapping = fyne.TextWrapWord
	why := widgets.DimWrapped("Why: "+e.Reason.Error(), fyne.TextAlignLeading)
	where := widgets.DimWrapped(e.Path, fyne.TextAlignLeading)
	sc := &ScanConfirm{Question: q}
	sc.Scan = widget.NewButtonWithIcon("Download "+size+" and open", theme.DownloadIcon(), scan)
	sc.Scan.Importance = widget.HighImportance
	no := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), cancel)
	body := container.NewBorder(nil, nil, container.NewVBox(icon), nil,
		container.NewVBox(title, question, why, where, container.NewHBox(sc.Scan, no)))
	sc.Root = widgets.NewCentered(760, body)
	return sc
}
