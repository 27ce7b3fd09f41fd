package message

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
)

// Preference keys of the Message view's layout.
const (
	splitMsgBytes   = "message.fields-bytes"   // fields | bytes (rememberSplit)
	splitMsgPicture = "message.picture-fields" // picture over fields
	prefMsgMode     = "message.view"           // "tree" or "text"
)

// Limits of the text view; Copy as YAML copies the whole message. A
// label's layout grows faster than its text (16 KB: ~20 ms, 64 KB: ~0.3 s,
// 256 KB: 7 s), so the view shows a message's first 24 KB, which holds
// every field of most messages.
const (
	echoViewElems   = 200      // elements of an array shown
	echoViewMaxLine = 8000     // characters of a line shown (the view wraps them)
	echoViewMax     = 24 << 10 // characters shown
)

// echoForView cuts a message's echo text to what the text view shows: long
// lines end with an ellipsis and the count of characters left out, and a
// long text stops with a line that says so.
func echoForView(text string) string {
	var b strings.Builder
	cut := false
	for line := range strings.Lines(text) {
		if b.Len() > echoViewMax {
			cut = true
			break
		}
		body := strings.TrimSuffix(line, "\n")
		if r := []rune(body); len(r) > echoViewMaxLine {
			body = string(r[:echoViewMaxLine]) + " … (" + human.Count(uint64(len(r)-echoViewMaxLine)) + " more characters)"
		}
		b.WriteString(body)
		if strings.HasSuffix(line, "\n") {
			b.WriteByte('\n')
		}
	}
	if cut {
		b.WriteString("… (the rest is left out here: the tree shows it, and Copy › Copy message as YAML copies all of it)")
	}
	return b.String()
}

// newFieldsPane is the message's fields as a tree or as text, and makes
// the buttons that choose between them and copy.
func (p *messagePanel) newFieldsPane() fyne.CanvasObject {
	p.treeBtn = widget.NewButtonWithIcon("Tree", theme.ListIcon(), func() { p.setTextMode(false) })
	p.textBtn = widget.NewButtonWithIcon("Echo", theme.DocumentIcon(), func() { p.setTextMode(true) }) // rostopic echo's text
	p.copyBtn = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), nil)
	p.copyBtn.OnTapped = func() {
		c := fyne.CurrentApp().Driver().CanvasForObject(p.copyBtn)
		if c == nil || p.msg == nil {
			return
		}
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(p.copyBtn)
		widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", p.copyItems(p.sel)...), c, pos.AddXY(0, p.copyBtn.Size().Height))
	}
	p.echo = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	p.echo.Selectable = true
	// Long lines (lists of numbers) wrap at the pane's width, as in a
	// terminal, rather than scroll sideways.
	p.echo.Wrapping = fyne.TextWrapWord
	p.echoScroll = container.NewVScroll(p.echo)
	p.treeView = p.tree
	body := container.NewStack(p.treeView, p.echoScroll)
	p.setTextMode(fyne.CurrentApp().Preferences().String(prefMsgMode) == "text")
	return body
}

// setTextMode shows the text view (on) or the tree, and remembers which.
func (p *messagePanel) setTextMode(on bool) {
	p.textMode = on
	mode := "tree"
	if on {
		mode = "text"
		p.treeView.Hide()
		p.echoScroll.Show()
		p.treeBtn.Importance, p.textBtn.Importance = widget.LowImportance, widget.HighImportance
	} else {
		p.echoScroll.Hide()
		p.treeView.Show()
		p.treeBtn.Importance, p.textBtn.Importance = widget.HighImportance, widget.LowImportance
	}
	p.treeBtn.Refresh()
	p.textBtn.Refresh()
	if p.sel == "" {
		p.setDetail(p.idleHint())
	}
	fyne.CurrentApp().Preferences().SetString(prefMsgMode, mode)
	p.updateEcho()
}

// updateEcho fills the text view with the message, when it shows.
func (p *messagePanel) updateEcho() {
	var root *rosmsg.Node
	if p.ft != nil {
		root = p.ft.Root()
	}
	if !p.textMode || root == p.echoFor && root != nil {
		return
	}
	sameType := p.echoFor != nil && root != nil && p.echoFor.Type == root.Type
	p.echoFor = root
	switch {
	case p.msg == nil:
		p.echo.SetText("")
	case root == nil:
		p.echo.SetText("This message is not decoded (the line above says why): its bytes are on the right.")
	default:
		// Long arrays are cut (saying how much is left out), so that a
		// camera frame shows at once; Copy gives the whole message.
		p.echo.SetText(echoForView(echo.Named(root, echoViewElems, p.ft.Enums().Names)))
	}
	if !sameType {
		p.echoScroll.ScrollToTop() // else it stays on the lines the user reads
	}
}

// setDetail sets the status line under the fields.
func (p *messagePanel) setDetail(s string) { p.detail.SetText(s) }

// idleHint is the status line while no field is selected.
func (p *messagePanel) idleHint() string {
	if p.textMode {
		return "The message as rostopic echo prints it: select text and press Ctrl+C, or use Copy."
	}
	return "Select a field to highlight its bytes, or a byte to find its field. Right-click a field to copy it."
}

// pictureWide is how much wider than tall the picture and fields pane is
// when the picture goes beside the fields rather than above them.
const pictureWide = 1.4

// pictureLayout lays out the picture|fields split, turned to put the
// picture beside the fields when their pane is wide and short (a window of
// 1024×640 under the timeline), above them otherwise, so the tree keeps
// rows to show. It turns the split before laying it out.
type pictureLayout struct{}

func (pictureLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		if s, ok := o.(*container.Split); ok && size.Height > 0 {
			if wide := size.Width > pictureWide*size.Height; wide != s.Horizontal {
				s.Horizontal = wide
				s.Move(fyne.NewPos(0, 0))
				s.Resize(size)
				s.Refresh() // the same size: lay it out again, turned
				continue
			}
		}
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (pictureLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objects {
		m = m.Max(o.MinSize())
	}
	return m
}
