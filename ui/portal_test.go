package ui

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/godbus/dbus/v5"
)

// TestUsePortalDecision: the portal's chooser is used only where a
// session bus answers with a FileChooser portal, and never when
// BAGSCOPE_OPEN_DIALOG asks for bagscope's own dialog; the reason is said.
func TestUsePortalDecision(t *testing.T) {
	rt := t.TempDir()
	if err := os.WriteFile(filepath.Join(rt, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	noPortal := errors.New("The name org.freedesktop.portal.Desktop was not provided by any .service files")
	for _, tc := range []struct {
		name   string
		env    map[string]string
		probe  error
		want   bool
		probed bool
		whyHas string
	}{
		{"a desktop session with a portal", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, nil, true, true, ""},
		{"a bus without a portal", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"}, noPortal, false, true, "no file chooser portal"},
		{"the bus found in XDG_RUNTIME_DIR", map[string]string{"XDG_RUNTIME_DIR": rt}, nil, true, true, ""},
		{"XDG_RUNTIME_DIR without a bus", map[string]string{"XDG_RUNTIME_DIR": t.TempDir()}, nil, false, false, "no D-Bus session bus"},
		{"no bus at all (Xvfb, ssh -X)", map[string]string{}, nil, false, false, "no D-Bus session bus"},
		{"bagscope's dialog asked for", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", envOpenDialog: "bagscope"}, nil, false, false, envOpenDialog},
		{"the portal asked for but missing", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", envOpenDialog: "portal"}, noPortal, false, true, "no file chooser portal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			probed := false
			got, why := usePortal(func(k string) string { return tc.env[k] }, func() error { probed = true; return tc.probe })
			if got != tc.want || probed != tc.probed || !strings.Contains(why, tc.whyHas) || got && why != "" {
				t.Errorf("use %v (%q), probed %v; want %v (…%s…), probed %v", got, why, probed, tc.want, tc.whyHas, tc.probed)
			}
		})
	}
}

// fakePortal is a FileChooser portal on a private session bus: it answers
// OpenFile with uri (Response, sent to the caller as the real portal
// does) or, when fail is set, with a D-Bus error.
type fakePortal struct {
	conn *dbus.Conn
	uri  string
	fail bool
	mu   sync.Mutex
	// title and options are what the last OpenFile asked.
	title   string
	options map[string]dbus.Variant
	done    chan struct{}
}

// Get is org.freedesktop.DBus.Properties.Get: the FileChooser's version.
func (f *fakePortal) Get(iface, prop string) (dbus.Variant, *dbus.Error) {
	if iface == "org.freedesktop.portal.FileChooser" && prop == "version" {
		return dbus.MakeVariant(uint32(4)), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(errors.New("no such property"))
}

// OpenFile is org.freedesktop.portal.FileChooser.OpenFile.
func (f *fakePortal) OpenFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	f.mu.Lock()
	f.title, f.options = title, options
	fail := f.fail
	f.mu.Unlock()
	if fail {
		return "", dbus.MakeFailedError(errors.New("no file chooser backend"))
	}
	path := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/1/bagscope")
	go func() {
		// The caller listens for Response only once OpenFile has
		// returned: send it until the recording has opened.
		for {
			msg := &dbus.Message{Type: dbus.TypeSignal, Headers: map[dbus.HeaderField]dbus.Variant{
				dbus.FieldPath:        dbus.MakeVariant(path),
				dbus.FieldInterface:   dbus.MakeVariant("org.freedesktop.portal.Request"),
				dbus.FieldMember:      dbus.MakeVariant("Response"),
				dbus.FieldDestination: dbus.MakeVariant(string(sender)),
			}, Body: []any{uint32(0), map[string]dbus.Variant{"uris": dbus.MakeVariant([]string{f.uri})}}}
			msg.Headers[dbus.FieldSignature] = dbus.MakeVariant(dbus.SignatureOf(msg.Body...))
			f.conn.Send(msg, nil)
			select {
			case <-f.done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return path, nil
}

// privateBus starts a D-Bus session bus for the test and points
// DBUS_SESSION_BUS_ADDRESS at it.
func privateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("dbus-daemon is missing (make deps installs dbus)")
		}
		t.Skip("dbus-daemon is missing (make deps installs dbus); CI is unset, so the test skips")
	}
	// A bus of its own config: the session config would let the bus
	// start a real portal installed on the machine.
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=`+dir+`</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--nopidfile", "--print-address")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr = strings.TrimSpace(addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
}

// TestOpenThroughPortal runs Open… against a portal on a private session
// bus: with no portal there, bagscope's dialog is chosen; with one, its
// chooser is asked (with the recordings' filter and the start folder) and
// the file it answers opens; when the portal fails, bagscope's dialog
// shows at once and the portal is not asked again.
func TestOpenThroughPortal(t *testing.T) {
	addr := privateBus(t)
	if ok, why := usePortal(os.Getenv, probePortal); ok || !strings.Contains(why, "no file chooser portal") {
		t.Fatalf("a bus without a portal: use %v (%s)", ok, why)
	}

	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	arm, _ := filepath.Abs("../testdata/arm7.bag")
	f := &fakePortal{conn: conn, uri: "file://" + arm, done: make(chan struct{})}
	if err := conn.Export(f, portalPath, "org.freedesktop.DBus.Properties"); err != nil {
		t.Fatal(err)
	}
	if err := conn.Export(f, portalPath, "org.freedesktop.portal.FileChooser"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", reply, err)
	}

	c := newTestController(t)
	c.portal = &portalState{}
	c.portal.look(os.Getenv, probePortal)
	if !c.portal.usable() {
		t.Fatalf("the portal is not used: %s", c.portal.reason)
	}
	w := test.NewTempWindow(t, nil)
	opened := make(chan *bagView, 1)
	c.onOpened = func(v *bagView) { opened <- v }
	c.openRecording(w)
	select {
	case v := <-opened:
		close(f.done)
		if v.err != nil || v.src.path != arm {
			t.Fatalf("opened %q: %v", v.src.path, v.err)
		}
	case <-time.After(time.Minute):
		close(f.done)
		t.Fatal("nothing opened a minute after the portal answered")
	}
	f.mu.Lock()
	filters := f.options["filters"].String()
	folder := f.options["current_folder"].String()
	title := f.title
	f.mu.Unlock()
	if !strings.Contains(title, "Open a recording") || !strings.Contains(filters, "*.mcap") || !strings.Contains(filters, "metadata.yaml") || folder == "" {
		t.Errorf("the chooser was asked %q with filters %s, folder %s", title, filters, folder)
	}

	// A failing portal: bagscope's dialog at once, and from then on.
	f.mu.Lock()
	f.fail = true
	f.mu.Unlock()
	w2 := test.NewTempWindow(t, nil)
	answered := make(chan struct{})
	c.portal.answered = func() { close(answered) }
	c.openRecording(w2)
	select {
	case <-answered:
	case <-time.After(time.Minute):
		t.Fatal("the failed portal call was not answered within a minute")
	}
	if len(w2.Canvas().Overlays().List()) == 0 {
		t.Fatal("no dialog after the portal failed")
	}
	if c.portal.usable() || !strings.Contains(c.portal.reason, "no file chooser backend") {
		t.Errorf("the failed portal is still used (%s)", c.portal.reason)
	}
}

// TestRecordingName: a rosbag2 folder picked through its metadata.yaml
// (the portal's chooser picks files) is called by the folder's name.
func TestRecordingName(t *testing.T) {
	for path, want := range map[string]string{
		"/data/run_0412/metadata.yaml":  "run_0412",
		"/data/run_0412/run_0412_0.db3": "run_0412_0.db3",
		"/data/x.bag":                   "x.bag",
		"/data/run_0412":                "run_0412",
	} {
		if got := recordingName(path); got != want {
			t.Errorf("%s is called %q, want %q", path, got, want)
		}
	}
}
