package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/widgets"
)

// newErrorPanel says why the bag could not be opened, where in the file,
// and what to do about it.
func newErrorPanel(v *bagView, err error) fyne.CanvasObject {
	icon := canvas.NewImageFromResource(theme.NewErrorThemedResource(theme.ErrorIcon()))
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(56, 56))
	title := widget.NewLabelWithStyle("Could not open "+v.src.name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	msg := widget.NewLabel(err.Error())
	msg.Wrapping = fyne.TextWrapWord
	msg.TextStyle = fyne.TextStyle{Monospace: true}
	items := []fyne.CanvasObject{title, msg}
	if hint := model.Hint(err); hint != "" {
		h := widget.NewRichTextFromMarkdown(hint)
		h.Wrapping = fyne.TextWrapWord
		items = append(items, h)
	}
	if v.src.path != "" {
		items = append(items, widgets.DimWrapped(bag.Shown(v.src.path), fyne.TextAlignLeading))
	}
	open := widget.NewButtonWithIcon("Open another bag…", theme.FolderOpenIcon(), func() { v.c.openRecording(v.win) })
	open.Importance = widget.HighImportance
	closeBtn := widget.NewButton("Close window", func() { v.win.Close() })
	items = append(items, container.NewHBox(open, closeBtn))
	body := container.NewBorder(nil, nil, container.NewVBox(icon), nil, container.NewVBox(items...))
	return widgets.NewCentered(760, body)
}
