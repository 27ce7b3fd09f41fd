package ui

import (
	"bytes"
	"strings"

	"github.com/bagscope/bagscope/model"
)

// The last layout of each kind of recording is kept in the preferences
// when its window closes, and arranges the next window of that kind as it
// opens: a ROS 1 bag opens as the last bag was left, an MCAP as the last
// MCAP. Topics the new recording lacks are left out without a word (the
// recording is another one); the command line's --tab, --plot, --select
// and --range, and --screenshot, show what they say instead.

// prefLastLayout starts the preference key of a kind's last layout.
const prefLastLayout = "layout.last."

// layoutKind names d's kind of recording, for its last layout: a ROS 1
// bag, an MCAP file, a rosbag2 folder of .db3 files (or one .db3), or a
// rosbag2 folder of MCAP files.
func layoutKind(d *model.Document) string {
	f := strings.ToLower(d.Summary.Format)
	switch {
	case strings.Contains(f, "ros 1"):
		return "ros1"
	case strings.Contains(f, "rosbag2") && strings.Contains(f, "mcap"):
		return "rosbag2-mcap"
	case strings.Contains(f, "sqlite") || strings.Contains(f, "db3"):
		return "rosbag2-db3"
	case f == "mcap":
		return "mcap"
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, f)
}

// keepLayout keeps bag window v's layout as the last of its kind.
func (c *controller) keepLayout(v *bagView) {
	if c.screenshotting || v == nil || v.views == nil || v.views.link == nil || v.views.tabs == nil {
		return
	}
	var buf bytes.Buffer
	if err := writeLayout(&buf, layoutOf(v.views)); err == nil {
		c.state.SetString(prefLastLayout+layoutKind(v.views.link.Doc()), buf.String())
	}
}

// restoreLayout arranges the views dv of a window just opened as the last
// window of its kind was left, unless the command line says what to
// show. The header and the lanes stay as the screen's height and the
// user's last fold left them (fitting).
func (c *controller) restoreLayout(dv *docViews) {
	if c.screenshotting || dv == nil || dv.link == nil || dv.tabs == nil ||
		c.tab != "" || len(c.plots) > 0 || c.sel != nil || c.rng != nil {
		return
	}
	s := c.state.String(prefLastLayout + layoutKind(dv.link.Doc()))
	if s == "" {
		return
	}
	lay, err := readLayout(strings.NewReader(s))
	if err != nil {
		return
	}
	lay.HeaderFolded, lay.LanesHidden = dv.header.Collapsed(), dv.timeline.Collapsed()
	applyLayout(dv, lay)
}
