package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// loadingPanel shows a bag opening: a progress bar, the stage and Cancel.
type loadingPanel struct {
	content fyne.CanvasObject
	bar     *widget.ProgressBar
	stage   *widget.Label
}

func newLoadingPanel(name string, cancel func()) *loadingPanel {
	p := &loadingPanel{bar: widget.NewProgressBar(), stage: widget.NewLabel("starting…")}
	p.stage.Alignment = fyne.TextAlignCenter
	p.stage.Importance = widget.LowImportance
	title := widget.NewLabelWithStyle("Opening "+name+"…", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	cancelBtn := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), cancel)
	box := container.NewVBox(title, p.bar, p.stage, container.NewCenter(cancelBtn))
	p.content = widgets.NewCentered(440, box)
	return p
}

func (p *loadingPanel) set(done, total int64, stage string) {
	if total > 0 {
		p.bar.SetValue(float64(done) / float64(total))
	}
	switch stage {
	case model.StageIndex:
		p.stage.SetText(fmt.Sprintf("%s: %s of %s", stage, human.Size(done), human.Size(total)))
	default:
		p.stage.SetText(fmt.Sprintf("%s: %s of %s", stage, human.Count(uint64(done)), human.Count(uint64(total))))
	}
}

// newCancelledPanel says that opening was cancelled and offers to retry.
func newCancelledPanel(v *bagView) fyne.CanvasObject {
	msg := widget.NewLabelWithStyle("Opening "+v.src.name+" was cancelled.", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	retry := widget.NewButtonWithIcon("Open again", theme.ViewRefreshIcon(), v.load)
	closeBtn := widget.NewButton("Close window", func() { v.win.Close() })
	return container.NewCenter(container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), retry, closeBtn, layout.NewSpacer())))
}
