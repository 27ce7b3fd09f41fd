package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// JobStatus is a background read's line in a view: while it runs, what it
// reads, a progress bar and a Stop button; once stopped, why the view is
// empty and a Retry button; hidden once the read is done.
type JobStatus struct {
	content *fyne.Container
	label   *widget.Label
	bar     *widget.ProgressBar
	barBox  *fyne.Container
	stop    *widget.Button
	retry   *widget.Button
	// Relayout, when set, is called when the line shows or hides: the
	// view's container lays itself out again (Fyne does not when a child
	// of a container changes visibility).
	Relayout func()
}

// NewJobStatus returns a hidden job line whose Stop button calls stop and
// whose Retry button calls retry.
func NewJobStatus(stop, retry func()) *JobStatus {
	j := &JobStatus{label: widget.NewLabel(""), bar: widget.NewProgressBar()}
	j.label.Truncation = fyne.TextTruncateEllipsis
	j.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), stop)
	j.retry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), retry)
	j.retry.Importance = widget.HighImportance
	j.barBox = container.NewGridWrap(fyne.NewSize(200, j.bar.MinSize().Height), j.bar)
	j.content = container.NewBorder(nil, nil, nil, container.NewHBox(j.barBox, j.stop, j.retry), j.label)
	j.content.Hide()
	return j
}

// Content is the line.
func (j *JobStatus) Content() fyne.CanvasObject { return j.content }

// Progress shows the read running: text, the fraction done (0..1) and Stop.
func (j *JobStatus) Progress(text string, frac float64) {
	j.label.SetText(text)
	j.bar.SetValue(frac)
	j.barBox.Show()
	j.stop.Show()
	j.retry.Hide()
	j.show(true)
}

// show shows or hides the line, laying it (and the view, when it shows
// or hides) out again: its buttons change.
func (j *JobStatus) show(on bool) {
	changed := j.content.Visible() != on
	if on {
		j.content.Show()
		j.content.Refresh()
	} else {
		j.content.Hide()
	}
	if changed && j.Relayout != nil {
		j.Relayout()
	}
}

// Stopped shows the read stopped: text and Retry.
func (j *JobStatus) Stopped(text string) {
	j.label.SetText(text)
	j.barBox.Hide()
	j.stop.Hide()
	j.retry.Show()
	j.show(true)
}

// Done hides the line.
func (j *JobStatus) Done() { j.show(false) }

// Running reports whether the line shows a read running.
func (j *JobStatus) Running() bool { return j.content.Visible() && j.stop.Visible() }

// Text is the line's text, for tests.
func (j *JobStatus) Text() string { return j.label.Text }

// TapStop and TapRetry press the buttons, for tests.
func (j *JobStatus) TapStop()  { j.stop.OnTapped() }
func (j *JobStatus) TapRetry() { j.retry.OnTapped() }
