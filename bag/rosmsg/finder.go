package rosmsg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/bagscope/bagscope/bag/rosmsg/ros2defs"
)

// ErrNoDefinition means no message definition was found for a type.
var ErrNoDefinition = errors.New("no message definition")

// Finder finds ROS 2 message definitions outside a recording, for the
// recordings that do not carry them (rosbag2 .db3 files before Iron): in
// folders the user names, then in an installed ROS 2 (AMENT_PREFIX_PATH,
// then /opt/ros/*), then among the standard definitions bagscope embeds. A
// Finder is safe for concurrent use.
type Finder struct {
	// Dirs are the user's folders, searched first. Each may be a ROS 2
	// install prefix (share/PKG/msg/T.msg), a share folder (PKG/msg/T.msg),
	// a package (msg/T.msg) or a folder of .msg files (T.msg).
	Dirs []string
	// NoSystem skips AMENT_PREFIX_PATH and /opt/ros (for tests).
	NoSystem bool
	// NoEmbedded skips the embedded standard definitions.
	NoEmbedded bool

	once  sync.Once
	roots []root
	mu    sync.Mutex
	memo  map[string]found
}

type root struct {
	fsys fs.FS
	name string // what the Message view says: the folder, or "bagscope's standard definitions"
	kind int    // which layout: see candidates
}

type found struct {
	text, source string
	err          error
}

const (
	layoutPrefix  = iota // share/PKG/KIND/T.ext
	layoutShare          // PKG/KIND/T.ext
	layoutPackage        // KIND/T.ext (a package folder; PKG must match its name)
	layoutFlat           // T.ext
)

func (f *Finder) init() {
	f.once.Do(func() {
		f.memo = map[string]found{}
		for _, d := range f.Dirs {
			for _, k := range []int{layoutPrefix, layoutShare, layoutPackage, layoutFlat} {
				f.roots = append(f.roots, root{os.DirFS(d), d, k})
			}
		}
		if !f.NoSystem {
			for _, p := range filepath.SplitList(os.Getenv("AMENT_PREFIX_PATH")) {
				if p != "" {
					f.roots = append(f.roots, root{os.DirFS(p), p, layoutPrefix})
				}
			}
			distros, _ := filepath.Glob("/opt/ros/*")
			sort.Sort(sort.Reverse(sort.StringSlice(distros))) // newest name first
			for _, p := range distros {
				f.roots = append(f.roots, root{os.DirFS(p), p, layoutPrefix})
			}
		}
		if !f.NoEmbedded {
			f.roots = append(f.roots, root{ros2defs.FS, "bagscope's standard definitions (ROS 2 " + ros2defs.Distro + ")", layoutShare})
		}
	})
}

// candidates lists where r may hold pkg's kind ("msg", "srv") file name.
func (r root) candidate(pkg, kind, name string) string {
	switch r.kind {
	case layoutPrefix:
		return path.Join("share", pkg, kind, name)
	case layoutShare:
		return path.Join(pkg, kind, name)
	case layoutPackage:
		return path.Join(kind, name)
	}
	return name
}

// readType finds the text of one type ("pkg/msg/T" or "pkg/srv/T") and
// where it was found.
func (f *Finder) readType(typ string) (string, string, error) {
	parts := strings.Split(NormalizeROS2Type(typ), "/")
	if len(parts) != 3 {
		return "", "", fmt.Errorf("%w for %s: not a package/msg/Type name", ErrNoDefinition, typ)
	}
	pkg, kind, name := parts[0], parts[1], parts[2]
	ext := "." + kind
	if kind == "srv" {
		name = strings.TrimSuffix(name, "_Event")
	}
	for _, r := range f.roots {
		p := r.candidate(pkg, kind, name+ext)
		if r.kind == layoutPackage && filepath.Base(r.name) != pkg {
			continue
		}
		b, err := fs.ReadFile(r.fsys, p)
		if err == nil {
			// Some collections store a type with its dependencies
			// after it, as a recording does: keep the type's own.
			b = []byte(splitROS2Sections(string(b))[0])
			src := r.name
			if r.fsys != ros2defs.FS {
				src = filepath.Join(r.name, filepath.FromSlash(p))
			}
			return string(b), src, nil
		}
	}
	return "", "", fmt.Errorf("%w for %s", ErrNoDefinition, typ)
}

// Find returns the full ros2msg definition of typ ("sensor_msgs/msg/Imu",
// or a service event "pkg/srv/X_Event", found as X.srv): its text followed
// by each type it uses, after a line of 80 '=' and "MSG: pkg/msg/T", as
// rosbag2 stores definitions; and where the top type's text was found.
func (f *Finder) Find(typ string) (text, source string, err error) {
	f.init()
	typ = NormalizeROS2Type(typ)
	f.mu.Lock()
	if r, ok := f.memo[typ]; ok {
		f.mu.Unlock()
		return r.text, r.source, r.err
	}
	f.mu.Unlock()
	text, source, err = f.find(typ)
	f.mu.Lock()
	f.memo[typ] = found{text, source, err}
	f.mu.Unlock()
	return text, source, err
}

func (f *Finder) find(typ string) (string, string, error) {
	top, source, err := f.readType(typ)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString(top)
	done := map[string]bool{typ: true}
	queue := []string{}
	enqueue := func(owner, text string) error {
		sections := []string{text}
		if strings.Contains(owner, "/srv/") {
			if req, resp, ok := cutServiceText(text); ok {
				sections = []string{req, resp}
			}
		}
		for _, sec := range sections {
			spec, err := ParseROS2Spec(owner, sec)
			if err != nil {
				return fmt.Errorf("definition of %s: %w", owner, err)
			}
			for _, fld := range spec.Fields {
				t := fld.BaseType
				if IsBuiltin(t) || t == "wstring" || t == "time" || t == "duration" {
					continue
				}
				t = NormalizeROS2Type(t)
				if !done[t] {
					done[t] = true
					queue = append(queue, t)
				}
			}
		}
		return nil
	}
	if err := enqueue(typ, top); err != nil {
		return "", "", err
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		text, _, err := f.readType(t)
		if err != nil {
			return "", "", fmt.Errorf("%s uses %s: %w", typ, t, err)
		}
		b.WriteString("\n" + strings.Repeat("=", 80) + "\nMSG: " + t + "\n" + text)
		if err := enqueue(t, text); err != nil {
			return "", "", err
		}
	}
	return b.String(), source, nil
}
