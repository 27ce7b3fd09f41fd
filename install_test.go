package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// installTools are what `make install-desktop` runs; the test uses gio to
// ask GLib, as a desktop would, what a file is and what opens it. `make
// deps` installs them; only outside CI may the test skip without them.
var installTools = []string{"make", "update-mime-database", "update-desktop-database", "xdg-mime", "gio"}

// runInstall runs `make install-desktop` with env added to a clean one.
func runInstall(t *testing.T, env ...string) string {
	t.Helper()
	cmd := exec.Command("make", "-s", "--no-print-directory", "install-desktop")
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TMPDIR=" + t.TempDir()}, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make install-desktop: %v\n%s", err, out)
	}
	return string(out)
}

// gioMime is `gio mime TYPE` (or `gio info` of a file's type) as the
// user with data and config as XDG_DATA_HOME and XDG_CONFIG_HOME sees it.
func gio(t *testing.T, data, config string, args ...string) string {
	t.Helper()
	cmd := exec.Command("gio", args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Dir(data), "XDG_DATA_HOME=" + data, "XDG_CONFIG_HOME=" + config, "XDG_DATA_DIRS=/usr/local/share:/usr/share"}
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// checkInstalled checks what install-desktop left in data and config:
// the desktop entry runs prefix's bagscope and offers it for the four
// types and nothing else; the MIME types know a rosbag2 metadata.yaml by
// its first line and no other; mimeapps.list makes bagscope the default
// for .bag and .mcap only; and GLib agrees.
func checkInstalled(t *testing.T, data, config, prefix string) {
	t.Helper()
	entry, err := os.ReadFile(filepath.Join(data, "applications", "bagscope.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(entry, []byte("\nExec="+prefix+"/bin/bagscope %F\n")) {
		t.Errorf("the desktop entry does not run %s/bin/bagscope:\n%s", prefix, entry)
	}
	if want := "\nMimeType=application/x-rosbag;application/x-mcap;application/x-rosbag2-db3;application/x-rosbag2-metadata;\n"; !bytes.Contains(entry, []byte(want)) {
		t.Errorf("the desktop entry's types are not%s:\n%s", want, entry)
	}
	if _, err := os.Stat(filepath.Join(data, "icons/hicolor/256x256/apps/bagscope.png")); err != nil {
		t.Error(err)
	}

	var info struct {
		Types []struct {
			Type  string `xml:"type,attr"`
			Globs []struct {
				Pattern string `xml:"pattern,attr"`
			} `xml:"glob"`
			Magic []struct {
				Value string `xml:"value,attr"`
			} `xml:"magic>match"`
		} `xml:"mime-type"`
	}
	b, err := os.ReadFile(filepath.Join(data, "mime/packages/bagscope.xml"))
	if err == nil {
		err = xml.Unmarshal(b, &info)
	}
	if err != nil {
		t.Fatal(err)
	}
	globs := map[string]string{}
	for _, mt := range info.Types {
		for _, g := range mt.Globs {
			globs[g.Pattern] = mt.Type
		}
		if mt.Type == "application/x-rosbag2-metadata" && (len(mt.Globs) != 0 || len(mt.Magic) != 1 || mt.Magic[0].Value != "rosbag2_bagfile_information:") {
			t.Errorf("rosbag2's metadata type is not known by its first line alone: %+v", mt)
		}
	}
	for pat, want := range map[string]string{"*.bag": "application/x-rosbag", "*.bag.active": "application/x-rosbag", "*.mcap": "application/x-mcap", "*.db3": "application/x-rosbag2-db3"} {
		if globs[pat] != want {
			t.Errorf("%s is %q, want %s", pat, globs[pat], want)
		}
	}
	if len(globs) != 4 {
		t.Errorf("globs %v: bagscope claims more names than its four", globs)
	}
	if _, err := os.Stat(filepath.Join(data, "mime/mime.cache")); err != nil {
		t.Errorf("update-mime-database did not run: %v", err)
	}

	apps, err := os.ReadFile(filepath.Join(config, "mimeapps.list"))
	if err != nil {
		t.Fatal(err)
	}
	var defaults []string
	for _, l := range strings.Split(string(apps), "\n") {
		if strings.HasSuffix(l, "=bagscope.desktop") || strings.Contains(l, "bagscope.desktop;") {
			defaults = append(defaults, l)
		}
	}
	if strings.Join(defaults, " ") != "application/x-rosbag=bagscope.desktop application/x-mcap=bagscope.desktop" {
		t.Errorf("mimeapps.list makes bagscope the default for %q, want .bag and .mcap only:\n%s", defaults, apps)
	}

	// GLib, as the file manager asks it.
	files := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(files, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct{ path, want string }{
		{write("x.bag", "#ROSBAG V2.0\n"), "application/x-rosbag"},
		{write("x.mcap", "\x89MCAP0\r\n"), "application/x-mcap"},
		{write("rec/rec_0.db3", "SQLite format 3\x00"), "application/x-rosbag2-db3"},
		{write("rosbag2-metadata", "rosbag2_bagfile_information:\n  version: 5\n"), "application/x-rosbag2-metadata"},
		{write("other/metadata.yaml", "name: a ROS package's metadata\n"), ""},
		{files, "inode/directory"},
	} {
		out := gio(t, data, config, "info", "-a", "standard::content-type", c.path)
		got := strings.TrimSpace(out[strings.LastIndex(out, ":")+1:])
		if c.want != "" && got != c.want || c.want == "" && strings.Contains(got, "rosbag") {
			t.Errorf("%s is %q to GLib, want %q", c.path, got, c.want)
		}
	}
	for _, c := range []struct {
		mime    string
		dflt    bool // bagscope is the default set
		offered bool
	}{
		{"application/x-rosbag", true, true},
		{"application/x-mcap", true, true},
		{"application/x-rosbag2-db3", false, true},
		{"application/x-rosbag2-metadata", false, true},
		{"inode/directory", false, false},
		{"application/x-yaml", false, false},
	} {
		out := gio(t, data, config, "mime", c.mime)
		if offered := strings.Contains(out, "\tbagscope.desktop"); offered != c.offered {
			t.Errorf("%s: bagscope offered %v, want %v:\n%s", c.mime, offered, c.offered, out)
		}
		if set := strings.Contains(string(apps), c.mime+"=bagscope.desktop"); set != c.dflt {
			t.Errorf("%s: bagscope set as its default %v, want %v", c.mime, set, c.dflt)
		}
	}
}

// fakeBagscope makes prefix/bin/bagscope, which GLib wants to exist
// before it offers the desktop entry.
func fakeBagscope(t *testing.T, prefix string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(prefix, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prefix, "bin", "bagscope"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestInstallDesktop runs `make install-desktop` into a temporary home,
// as a user would, and then as root under sudo for another user: the
// files go to that user's home, owned by that user, with that user's
// defaults, and root's home is left alone.
func TestInstallDesktop(t *testing.T) {
	for _, tool := range installTools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (make deps installs it)", tool)
			}
			t.Skipf("%s is missing (make deps installs it); CI is unset, so the test skips", tool)
		}
	}
	t.Run("user", func(t *testing.T) {
		home := t.TempDir()
		prefix := filepath.Join(home, "prefix")
		fakeBagscope(t, prefix)
		data, config := filepath.Join(home, "data"), filepath.Join(home, "config")
		runInstall(t, "HOME="+home, "XDG_DATA_HOME="+data, "XDG_CONFIG_HOME="+config, "PREFIX="+prefix)
		checkInstalled(t, data, config, prefix)
	})
	t.Run("sudo", func(t *testing.T) {
		if os.Getuid() != 0 {
			t.Skip("not root: sudo's case needs root to install as another user")
		}
		nobody, err := user.Lookup("nobody")
		if err != nil {
			t.Skip("no user nobody")
		}
		uid, _ := strconv.Atoi(nobody.Uid)
		gid, _ := strconv.Atoi(nobody.Gid)
		// nobody must reach its home: a folder of its own under a
		// traversable one.
		top, err := os.MkdirTemp("", "bagscope-install-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(top) })
		os.Chmod(top, 0o755)
		home := filepath.Join(top, "home")
		if err := os.Mkdir(home, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chown(home, uid, gid)
		prefix := filepath.Join(top, "prefix")
		fakeBagscope(t, prefix)
		rootHome := t.TempDir()
		out := runInstall(t, "HOME="+rootHome, "SUDO_USER=nobody", "INSTALL_HOME="+home, "PREFIX="+prefix)
		if !strings.Contains(out, "for nobody in "+home) {
			t.Errorf("the install does not say it is for nobody:\n%s", out)
		}
		data, config := filepath.Join(home, ".local/share"), filepath.Join(home, ".config")
		checkInstalled(t, data, config, prefix)
		filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
			if err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
					t.Errorf("%s is owned by uid %d, not nobody's %d", p, st.Uid, uid)
				}
			}
			return nil
		})
		if left, _ := os.ReadDir(rootHome); len(left) != 0 {
			t.Errorf("root's home got %v", left)
		}
	})
}
