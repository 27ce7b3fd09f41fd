package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"
)

// ClipLabel is a label cut with an ellipsis when it does not fit, whose
// whole text shows in a tooltip while it is cut (issue 14: nothing is cut
// without an ellipsis and the full text on hover). A text that fits has no
// tooltip.
type ClipLabel struct {
	ttwidget.Label
	// tip, when set, is the tooltip whatever the fit: a longer
	// explanation than the text itself.
	tip string
}

// NewClipLabel returns a label of text that cuts with an ellipsis.
func NewClipLabel(text string, align fyne.TextAlign, style fyne.TextStyle) *ClipLabel {
	l := &ClipLabel{}
	l.Text, l.Alignment, l.TextStyle = text, align, style
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// ExtendBaseWidget makes l the widget its tooltip and label belong to.
func (l *ClipLabel) ExtendBaseWidget(w fyne.Widget) { l.Label.ExtendBaseWidget(w) }

// SetText changes the text and whether it needs its tooltip.
func (l *ClipLabel) SetText(s string) {
	l.Label.SetText(s)
	l.updateTip()
}

// Tip returns the tooltip set with SetTip.
func (l *ClipLabel) Tip() string { return l.tip }

// SetTip sets a tooltip shown whether or not the text is cut ("" for the
// default: the text itself, while it is cut).
func (l *ClipLabel) SetTip(s string) {
	l.tip = s
	l.updateTip()
}

// Resize lays the label out and decides whether its text is cut.
func (l *ClipLabel) Resize(s fyne.Size) {
	l.Label.Resize(s)
	l.updateTip()
}

func (l *ClipLabel) updateTip() {
	switch {
	case l.tip != "":
		l.SetToolTip(l.tip)
	case l.Cut():
		l.SetToolTip(l.Text)
	default:
		l.SetToolTip("")
	}
}

// Cut says whether the text is wider than the label shows.
func (l *ClipLabel) Cut() bool {
	if l.Text == "" {
		return false
	}
	size := theme.TextSize()
	if l.SizeName != "" {
		size = theme.Size(l.SizeName)
	}
	room := l.Size().Width - 2*theme.InnerPadding()
	return fyne.MeasureText(l.Text, size, l.TextStyle).Width > room
}

// ClipRich is DimText (secondary text in the placeholder colour) cut with
// an ellipsis, whose whole text shows in a tooltip while it is cut.
type ClipRich struct {
	ttwidget.RichText
	// Tip, when set, is the tooltip while the text is cut, instead of
	// the text (a recent file's whole path for its cut folder).
	Tip string
	// note, when set, is a tooltip shown whether or not the text is cut,
	// after the text.
	note string
}

// DimClip is DimText with its whole text in a tooltip while it is cut.
func DimClip(s string, size fyne.ThemeSizeName, align fyne.TextAlign) *ClipRich {
	t := &ClipRich{}
	t.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: s, Style: widget.RichTextStyle{
		Alignment: align,
		ColorName: theme.ColorNamePlaceHolder,
		SizeName:  size,
		Inline:    true,
	}}}
	t.Truncation = fyne.TextTruncateEllipsis
	t.Scroll = container.ScrollNone
	t.ExtendBaseWidget(t)
	return t
}

// ExtendBaseWidget makes t the widget its tooltip and text belong to.
func (t *ClipRich) ExtendBaseWidget(w fyne.Widget) { t.RichText.ExtendBaseWidget(w) }

// SetText changes the text, keeping its style.
func (t *ClipRich) SetText(s string) {
	if seg, ok := t.segment(); ok {
		seg.Text = s
		t.Refresh()
	}
	t.updateTip()
}

// Resize lays the text out and decides whether it is cut.
func (t *ClipRich) Resize(s fyne.Size) {
	t.RichText.Resize(s)
	t.updateTip()
}

func (t *ClipRich) segment() (*widget.TextSegment, bool) {
	if len(t.Segments) != 1 {
		return nil, false
	}
	seg, ok := t.Segments[0].(*widget.TextSegment)
	return seg, ok
}

// Note returns the note set with SetNote.
func (t *ClipRich) Note() string { return t.note }

// SetNote sets a tooltip shown after the text whether or not it is cut.
func (t *ClipRich) SetNote(s string) {
	t.note = s
	t.updateTip()
}

func (t *ClipRich) updateTip() {
	switch {
	case t.note != "":
		t.SetToolTip(t.String() + "\n" + t.note)
	case t.Cut() && t.Tip != "":
		t.SetToolTip(t.Tip)
	case t.Cut():
		t.SetToolTip(t.String())
	default:
		t.SetToolTip("")
	}
}

// Cut says whether the text is wider than the widget shows.
func (t *ClipRich) Cut() bool {
	seg, ok := t.segment()
	if !ok || seg.Text == "" {
		return false
	}
	size := theme.TextSize()
	if seg.Style.SizeName != "" {
		size = theme.Size(seg.Style.SizeName)
	}
	room := t.Size().Width - 2*theme.InnerPadding()
	return fyne.MeasureText(seg.Text, size, seg.Style.TextStyle).Width > room
}
