package ui

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/dialog"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/model"
)

// AppID is the application ID, as in FyneApp.toml.
const AppID = "io.github.bagscope.bagscope"

// Version is shown in the About dialog; TestVersionAndIDAgree keeps it
// equal to cli.Version and FyneApp.toml's.
const Version = "0.1.0"

const prefRecent = "recent"

// prefMsgDirs holds the folders the user added for message definitions a
// recording lacks, one per line.
const prefMsgDirs = "msgDirs"

// Run starts the GUI with the command-line arguments (without the program
// name) and returns the exit status when the last window closes.
func Run(args []string) int {
	markTiming("main")
	opts, code, ok := parseArgs(args, os.Stderr)
	if !ok {
		return code
	}
	if os.Getenv("GOGC") == "" {
		// Collect at 1.25x the live heap, not 2x: the window's heap is
		// mostly Fyne's short-lived layout and text-shaping garbage over
		// 35-70 MB live (the message index of a 5M-message bag is 28 MB),
		// so this takes ~35 MB off its peak RSS for 2-3% of a core while
		// it plays (BENCHMARKS.md, GUI memory).
		debug.SetGCPercent(25)
	}
	shortenFyneCache(fyneCacheTime)
	a := app.NewWithID(AppID)
	a.SetIcon(iconResource)
	c := newController(a)
	c.tab, c.sel, c.rng, c.plots, c.find, c.adds = opts.tab, opts.sel, opts.rng, opts.plots, opts.find, opts.add
	c.compare = opts.compare
	if opts.size != nil {
		bagWindowSize = *opts.size
	} else if opts.screenshot == "" {
		c.ws = nativeScreen{} // fit the screen, and remember where windows were
	}
	if opts.screenshot == "" {
		if root := a.Storage().RootURI(); root != nil && root.Scheme() == "file" {
			c.state = openFileState(filepath.Join(root.Path(), closeStateFile), a.Preferences())
		}
		c.lastClosed = exitSoon
		c.portal = &portalState{}
		go c.portal.look(os.Getenv, probePortal)
		c.recent.Load(a.Preferences().String(prefRecent))
		c.recent.Save = func(s string) { a.Preferences().SetString(prefRecent, s) }
	}
	model.AddDefinitionDirs(definitionDirs(a, opts)...)
	status := 0
	switch {
	case opts.screenshot != "" && opts.library:
		c.screenshotLibrary(opts.screenshot, opts.files[0], opts.query, &status)
	case opts.library && len(opts.files) > 0:
		for _, f := range opts.files {
			c.showLibrary(f, queryOnLoad(opts.query, nil))
		}
	case opts.screenshot != "":
		c.screenshot(opts.screenshot, opts.sample, opts.files, &status)
	case opts.sample || len(opts.files) > 0:
		if opts.sample {
			c.openSample(nil)
		}
		for _, f := range opts.files {
			c.openPath(f, nil)
		}
	default:
		c.showStart()
	}
	a.Run()
	removeLibraryTemporary() // a quit closes no library window
	return status
}

// options are the GUI's command-line arguments.
type options struct {
	sample     bool
	screenshot string
	// library is --library: FILE... are folders of recordings or
	// catalogues, each shown as a library.
	library bool
	// query is --query: SQL run in the library's query box.
	query   string
	tab     string
	sel     *selection
	rng     *timeRange
	plots   []string
	find    string
	compare string
	add     []string
	msgs    []string
	files   []string
	// size is --size: the bag windows' size (and --screenshot's).
	size *fyne.Size
}

func parseArgs(args []string, stderr io.Writer) (options, int, bool) {
	var o options
	fs := flag.NewFlagSet("bagscope", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.sample, "sample", false, "open the embedded sample bag")
	fs.StringVar(&o.screenshot, "screenshot", "", "once FILE (or --sample) has loaded, save the window to `OUT.png` and exit")
	fs.BoolVar(&o.library, "library", false, "show each DIR (a folder of recordings, or a catalogue) as a library, as File › Open Library… does")
	fs.StringVar(&o.query, "query", "", "with --library: run `SQL` in the library's query box (as bagscope sql runs it)")
	fs.StringVar(&o.tab, "tab", "", "show the tab whose title starts with `NAME` (e.g. Findings)")
	fs.Func("plot", "plot `PATHS` (e.g. /imu.linear_acceleration.x; commas put several in one plot); repeat for more plots", func(s string) error {
		o.plots = append(o.plots, s)
		return nil
	})
	fs.Func("add", "show `FILE` in the window of the first FILE too, its topics under B: (then C:, …), aligned start to start (File › Add Recording…); repeatable", func(s string) error {
		o.add = append(o.add, s)
		return nil
	})
	fs.StringVar(&o.find, "find", "", "open the Find bar and search for `EXPR` (as `bagscope find` does)")
	fs.StringVar(&o.compare, "compare", "", "show the Diff tab comparing FILE with recording `B` (as `bagscope diff FILE B` does)")
	fs.Func("msgs", "also look in `DIR` for the ROS 2 message definitions a recording lacks (repeatable)", func(s string) error {
		o.msgs = append(o.msgs, s)
		return nil
	})
	fs.Func("size", "open bag windows (and render --screenshot) at `WxH` pixels, e.g. 1024x640", func(s string) error {
		sz, err := parseSize(s)
		o.size = &sz
		return err
	})
	fs.Func("select", "select the message of `TOPIC@TIME` nearest TIME: seconds from the bag's start, or since the epoch", func(s string) error {
		sel, err := parseSelection(s)
		o.sel = &sel
		return err
	})
	fs.Func("range", "show the time window `START:END` (seconds from the bag's start, or since the epoch) in the timeline and plots", func(s string) error {
		r, err := parseRange(s)
		o.rng = &r
		return err
	})
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bagscope [--sample] [--screenshot OUT.png] [--tab NAME] [--select TOPIC@TIME] [--range START:END] [--size WxH] [--plot PATHS]... [--find EXPR] [--compare B] [--msgs DIR]... [FILE...]")
		fmt.Fprintln(stderr, "       bagscope --library [--query SQL] [--screenshot OUT.png] [--size WxH] DIR...")
		fmt.Fprintln(stderr, "       bagscope help            list the headless commands")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return o, 0, false
		}
		return o, 2, false
	}
	o.files = fs.Args()
	if o.screenshot != "" && len(o.files) != 1 && !(o.sample && len(o.files) == 0) {
		fmt.Fprintln(stderr, "bagscope: --screenshot needs exactly one FILE (or --sample)")
		return o, 2, false
	}
	return o, 0, true
}

var iconResource = fyne.NewStaticResource("bagscope.png", assets.Icon)

// controller owns the application's windows and the recent files.
type controller struct {
	app    fyne.App
	recent *model.Recent
	// state keeps each window's place and its kind's last layout.
	state closeState
	start fyne.Window // the start page's window, while it shows the start page
	views map[fyne.Window]*bagView
	// async runs background work; tests make it synchronous.
	async func(func())
	// quit quits the app (Ctrl+Q); tests watch it.
	quit func()
	// lastClosed runs when the last window closes (nil in tests).
	lastClosed func()
	// onOpened, when set, is called once a bag view has finished loading.
	onOpened func(*bagView)
	// tab, sel and rng are the command line's --tab, --select and --range, applied to
	// every bag it opens.
	tab   string
	sel   *selection
	rng   *timeRange
	plots []string
	// find is --find: the expression the Find bar searches for on open.
	find string
	// compare is --compare: the recording the Diff tab compares with.
	compare string
	// adds is --add: recordings shown with each one opened (multi.go).
	adds []string
	// ws sizes and places bag windows on their screen; nil leaves them
	// at bagWindowSize where the window manager puts them.
	ws windowSystem
	// portal, when set, says whether Open… shows the desktop's file
	// chooser (portal.go); nil shows bagscope's dialog.
	portal *portalState
	// screenshotting is set by --screenshot: the picture shows the
	// defaults, not this user's last layout.
	screenshotting bool
}

func newController(a fyne.App) *controller {
	return &controller{
		app:    a,
		recent: &model.Recent{},
		state:  prefsState{a.Preferences()},
		views:  map[fyne.Window]*bagView{},
		async:  func(f func()) { go f() },
		quit:   a.Quit,
	}
}

// definitionDirs are the folders of message definitions every window
// looks in: those saved with File › Add Message Definition Folder…, then
// --msgs. --screenshot uses the saved ones too, so its picture decodes
// what the window would.
func definitionDirs(a fyne.App, opts options) []string {
	return append(splitLines(a.Preferences().String(prefMsgDirs)), opts.msgs...)
}

// splitLines splits a preference holding one value per line.
func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// addDefinitionFolder asks for a folder of ROS 2 message definitions
// (PKG/msg/TYPE.msg, an install or share folder) and keeps it for every
// recording opened from now on; the open windows whose recording lacks
// a definition it has reopen with it at once.
func (c *controller) addDefinitionFolder(w fyne.Window) {
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil || l == nil {
			return
		}
		dir := l.Path()
		n := c.useDefinitionDir(dir)
		msg := "bagscope now also looks in\n" + dir + "\nfor the message definitions a recording lacks (as PKG/msg/TYPE.msg)."
		switch n {
		case 0:
			msg += "\nNo open recording lacks one it has; recordings opened from now on use it."
		case 1:
			msg += "\nOne open recording lacked a definition it has, and was reopened with it."
		default:
			msg += fmt.Sprintf("\n%d open recordings lacked a definition it has, and were reopened with it.", n)
		}
		dialog.ShowInformation("Message definitions", msg, w)
	}, w)
	d.Show()
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}

// useDefinitionDir adds dir to the definition folders, remembered for
// the next runs, and reopens each open recording that lacks a definition
// dir has, so it decodes at once. It returns how many it reopened.
func (c *controller) useDefinitionDir(dir string) int {
	dirs := splitLines(c.app.Preferences().String(prefMsgDirs))
	if !slices.Contains(dirs, dir) {
		dirs = append(dirs, dir)
		c.app.Preferences().SetString(prefMsgDirs, strings.Join(dirs, "\n"))
		model.AddDefinitionDirs(dir)
	}
	n := 0
	for _, v := range c.views {
		if v.doc != nil && model.FindableDefinitions(v.doc.Storage) > 0 {
			v.reload()
			n++
		}
	}
	return n
}

// parseSize reads --size's "WxH" (e.g. "1024x640").
func parseSize(s string) (fyne.Size, error) {
	w, h, ok := strings.Cut(strings.ToLower(s), "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 200 || hi < 150 || wi > 16384 || hi > 16384 {
		return fyne.Size{}, fmt.Errorf("want WIDTHxHEIGHT in pixels between 200x150 and 16384x16384, e.g. 1024x640, not %q", s)
	}
	return fyne.NewSize(float32(wi), float32(hi)), nil
}
