package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/godbus/dbus/v5"
	"github.com/rymdport/portal"
	"github.com/rymdport/portal/filechooser"
)

// Open… shows the desktop's own file chooser where a desktop portal runs
// (org.freedesktop.portal.FileChooser over D-Bus, through
// github.com/rymdport/portal, the library Fyne uses for its portals): the
// dialog users know, with their bookmarks, and a typed or pasted path
// (Ctrl+L). A rosbag2 folder opens through its metadata.yaml or any of
// its files. Where no portal runs (a bare X session, Xvfb, ssh -X), or it
// fails, bagscope's own dialog (opendialog.go) is shown: it takes typed
// paths and folders too. BAGSCOPE_OPEN_DIALOG=bagscope always uses
// bagscope's, =portal insists on the portal.

// envOpenDialog names the environment variable that picks the dialog.
const envOpenDialog = "BAGSCOPE_OPEN_DIALOG"

// portalName is the portal's bus name; portalPath its object.
const (
	portalName = "org.freedesktop.portal.Desktop"
	portalPath = "/org/freedesktop/portal/desktop"
)

// portalProbeTimeout bounds the look for a portal (a portal started on
// demand by the bus answers within it).
const portalProbeTimeout = 3 * time.Second

// usePortal decides whether Open… shows the portal's chooser: getenv
// reads the environment, probe says whether the session bus has a
// FileChooser portal. It says why when it does not.
func usePortal(getenv func(string) string, probe func() error) (bool, string) {
	switch strings.ToLower(getenv(envOpenDialog)) {
	case "bagscope", "fyne", "builtin":
		return false, envOpenDialog + " asks for bagscope's dialog"
	}
	if getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		rt := getenv("XDG_RUNTIME_DIR")
		if rt == "" {
			return false, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset)"
		}
		if _, err := os.Stat(filepath.Join(rt, "bus")); err != nil {
			return false, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and " + rt + "/bus is missing)"
		}
	}
	if err := probe(); err != nil {
		return false, "no file chooser portal: " + err.Error()
	}
	return true, ""
}

// probePortal asks the session bus for the FileChooser portal's version:
// an error when no portal runs or can be started, or it has no file
// chooser (xdg-desktop-portal without a backend for it).
func probePortal() error {
	conn, err := dbus.SessionBus()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), portalProbeTimeout)
	defer cancel()
	var v dbus.Variant
	return conn.Object(portalName, portalPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
		"org.freedesktop.portal.FileChooser", "version").Store(&v)
}

// portalState is what the controller knows of the portal: looked for
// once, in the background, when the app starts; dropped when a call
// fails.
type portalState struct {
	mu     sync.Mutex
	done   bool
	ok     bool
	reason string
	// answered, when set, is called once the chooser's answer has been
	// acted on (tests wait for it).
	answered func()
}

// look decides, once, whether to use the portal.
func (p *portalState) look(getenv func(string) string, probe func() error) {
	ok, why := usePortal(getenv, probe)
	p.mu.Lock()
	p.done, p.ok, p.reason = true, ok, why
	p.mu.Unlock()
}

// usable says whether Open… should show the portal's chooser now (not
// while it is still being looked for).
func (p *portalState) usable() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done && p.ok
}

// drop stops using the portal after a failed call.
func (p *portalState) drop(err error) {
	p.mu.Lock()
	p.ok, p.reason = false, "the file chooser portal failed: "+err.Error()
	p.mu.Unlock()
}

// openRecording asks for a recording to open in (or from) window w: the
// portal's chooser where one runs, else bagscope's Open dialog.
func (c *controller) openRecording(w fyne.Window) {
	if !c.portal.usable() {
		c.showOpenDialog(w)
		return
	}
	opts := &filechooser.OpenFileOptions{
		AcceptLabel:   "Open",
		CurrentFolder: c.openStartDir(),
		Filters:       []*filechooser.Filter{recordingFilter, {Name: "All files", Rules: []filechooser.Rule{{Type: filechooser.GlobPattern, Pattern: "*"}}}},
		CurrentFilter: recordingFilter,
	}
	parent := portalParent(w)
	go func() {
		uris, err := filechooser.OpenFile(parent, "Open a recording (a file, or a rosbag2 folder's metadata.yaml)", opts)
		fyne.Do(func() {
			if a := c.portal.answered; a != nil {
				defer a()
			}
			if err != nil {
				c.portal.drop(err)
				c.showOpenDialog(w)
				return
			}
			for _, u := range uris { // none when cancelled
				c.openPath(strings.TrimPrefix(u, "file://"), w)
			}
		})
	}()
}

// recordingFilter lists what bagscope opens, as the Open dialog does.
var recordingFilter = func() *filechooser.Filter {
	f := &filechooser.Filter{Name: "Recordings (.bag, .mcap, .db3, metadata.yaml)"}
	for _, p := range []string{"*.bag", "*.bag.active", "*.mcap", "*.db3", "metadata.yaml", "*.zstd"} {
		f.Rules = append(f.Rules, filechooser.Rule{Type: filechooser.GlobPattern, Pattern: p})
	}
	return f
}()

// portalParent is window w's handle for the portal (X11), so the chooser
// sits over it; "" where there is none (Wayland needs xdg-foreign).
func portalParent(w fyne.Window) (handle string) {
	if nw, ok := w.(driver.NativeWindow); ok {
		nw.RunNative(func(ctx any) {
			if x, ok := ctx.(driver.X11WindowContext); ok && x.WindowHandle != 0 {
				handle = portal.FormatX11WindowHandle(x.WindowHandle)
			}
		})
	}
	return handle
}
