package ui

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/widgets"
)

// loadingPanel shows a bag opening: a progress bar, the stage with what
// is done in its unit, the rate and the time left, and Cancel.
type loadingPanel struct {
	content fyne.CanvasObject
	bar     *widget.ProgressBar
	stage   *widget.Label
	// now is the clock (tests set it); began is when the stage shown began.
	now       func() time.Time
	began     time.Time
	lastStage string
}

func newLoadingPanel(name string, cancel func()) *loadingPanel {
	p := &loadingPanel{bar: widget.NewProgressBar(), stage: widget.NewLabel("starting…"), now: time.Now}
	p.stage.Alignment = fyne.TextAlignCenter
	p.stage.Importance = widget.LowImportance
	title := widget.NewLabelWithStyle("Opening "+name+"…", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	cancelBtn := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), cancel)
	box := container.NewVBox(title, p.bar, p.stage, container.NewCenter(cancelBtn))
	p.content = widgets.NewCentered(440, box)
	return p
}

func (p *loadingPanel) set(done, total int64, stage string) {
	now := p.now()
	if stage != p.lastStage {
		p.lastStage, p.began = stage, now
	}
	if total > 0 {
		p.bar.SetValue(float64(done) / float64(total))
	}
	text := stage
	if line := human.Progress(done, total, stageUnit(stage), now.Sub(p.began)); line != "" {
		text += ": " + line
	} else {
		text += "…" // a total not known yet: no "0 of 1"
	}
	p.stage.SetText(text)
}

// stageUnit is what an opening stage counts.
func stageUnit(stage string) string {
	switch {
	case stage == model.StageChunks:
		return human.UnitChunks
	case stage == model.StageMessages, stage == series.StageExtract:
		return human.UnitMessages
	case strings.HasPrefix(stage, bag.StageOpen):
		return human.UnitFiles
	}
	return human.UnitBytes // reading the index, fetching, decompressing
}

// newCancelledPanel says that opening was cancelled and offers to retry.
func newCancelledPanel(v *bagView) fyne.CanvasObject {
	msg := widget.NewLabelWithStyle("Opening "+v.src.name+" was cancelled.", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	retry := widget.NewButtonWithIcon("Open again", theme.ViewRefreshIcon(), v.load)
	closeBtn := widget.NewButton("Close window", func() { v.win.Close() })
	return container.NewCenter(container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), retry, closeBtn, layout.NewSpacer())))
}
