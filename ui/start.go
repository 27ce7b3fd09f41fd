package ui

import (
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// newStartPage is what bagscope shows without a file: open buttons, the
// recent files and a hint about drag and drop.
func newStartPage(c *controller, w fyne.Window) fyne.CanvasObject {
	icon := canvas.NewImageFromResource(iconResource)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(88, 88))
	title := widget.NewLabelWithStyle("bagscope", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	tagline := dimWrapped("Inspect ROS 1 bags and ROS 2 recordings (MCAP, rosbag2 folders): topics, chunks, records and messages.", fyne.TextAlignLeading)
	head := container.NewBorder(nil, nil, icon, nil, container.NewVBox(layout.NewSpacer(), title, tagline, layout.NewSpacer()))

	open := widget.NewButtonWithIcon("Open…", theme.FolderOpenIcon(), func() { c.showOpenDialog(w) })
	open.Importance = widget.HighImportance
	sample := widget.NewButtonWithIcon("Open the sample bag", theme.FileIcon(), func() { c.openSample(w) })
	buttons := container.NewGridWithColumns(2, open, sample)

	recentTitle := widget.NewLabelWithStyle("Recent files", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	recent := container.NewVBox(recentTitle)
	paths := c.recent.Paths()
	if len(paths) == 0 {
		recent.Add(dimText("No recent files yet.", theme.SizeNameText, fyne.TextAlignLeading))
	}
	for _, path := range paths {
		b := widget.NewButtonWithIcon(filepath.Base(path)+"   "+filepath.Dir(path), theme.DocumentIcon(), func() { c.openPath(path, w) })
		b.Alignment = widget.ButtonAlignLeading
		b.Importance = widget.LowImportance
		recent.Add(b)
	}

	hint := dimText("Tip: drop recordings (.bag, .mcap, .db3, bag folders) on this window to open them.", theme.SizeNameText, fyne.TextAlignCenter)

	page := container.NewVBox(head, gap(theme.Padding()*2), buttons, widget.NewSeparator(), recent, widget.NewSeparator(), hint)
	return container.NewVScroll(container.NewPadded(newCentered(620, page)))
}
