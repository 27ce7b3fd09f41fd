package ui

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// TestLayoutRoundTrip arranges a window (followed topic, two plots, the
// Message tab, header folded), saves its layout, and loads it onto a new
// window of the same recording, which is then arranged the same; loaded
// onto a recording without /imu, the /imu plot and topic are left out and
// said, the /odom plot kept.
func TestLayoutRoundTrip(t *testing.T) {
	c := newTestController(t)
	a := openKeysWindow(t, c, "")
	dv := a.v.views
	dv.link.SetTopics([]string{"/imu"})
	dv.plots.PlotPaths([]string{"/imu.linear_acceleration.x,/imu.angular_velocity.z", "/odom.twist.twist.linear.x"})
	dv.link.SelectTab("Message")
	if dv.header.Collapsed() {
		dv.header.Toggle()
	}
	dv.header.Toggle() // folded
	var buf bytes.Buffer
	if err := writeLayout(&buf, layoutOf(dv)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"/imu.angular_velocity.z"`) {
		t.Fatalf("the file does not hold the plots:\n%s", buf.String())
	}
	lay, err := readLayout(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}

	b := openKeysWindow(t, c, "")
	if b.v.views.header.Collapsed() != true {
		// The header was left folded, so a new window opens folded.
		t.Error("the new window's header is not folded as the last was left")
	}
	b.v.views.header.Toggle() // unfold: the layout must fold it again
	if missing := applyLayout(b.v.views, lay); len(missing) != 0 {
		t.Errorf("the same recording lacks %v", missing)
	}
	got, want := b.v.views.plots.Series(), dv.plots.Series()
	if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("plots %v, want %v", got, want)
	}
	if tab := b.tabs.Selected().Text; tab != "Message" {
		t.Errorf("tab %q, want Message", tab)
	}
	if !slices.Equal(b.v.views.link.Topics(), []string{"/imu"}) || !b.v.views.header.Collapsed() {
		t.Errorf("topics %v, header folded %v", b.v.views.link.Topics(), b.v.views.header.Collapsed())
	}

	r := openKeysWindow(t, c, "../testdata/robot.bag")
	missing := applyLayout(r.v.views, lay)
	if !slices.Equal(missing, []string{"/imu"}) {
		t.Errorf("robot.bag lacks %v, want [/imu]", missing)
	}
	if got := r.v.views.plots.Series(); !slices.ContainsFunc(got, func(p []string) bool { return slices.Equal(p, []string{"/odom.twist.twist.linear.x"}) }) ||
		slices.ContainsFunc(got, func(p []string) bool { return slices.Contains(p, "/imu.linear_acceleration.x") }) {
		t.Errorf("robot.bag's plots %v", got)
	}

	for _, bad := range []string{"", "{", `{"version": 9}`, "[1,2]"} {
		if _, err := readLayout(strings.NewReader(bad)); err == nil {
			t.Errorf("%q read as a layout", bad)
		}
	}
}
