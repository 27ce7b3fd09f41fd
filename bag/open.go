package bag

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/bagscope/bagscope/bag/remote"
)

// Opening a recording by path: Open takes a file, a folder (a rosbag2 bag,
// a folder of a split ROS 1 recording) or a rosbag2 metadata.yaml, and
// gives one Storage for the whole recording; OpenFiles reads several files
// as one recording. Folder layouts register themselves, as formats do: a
// rosbag2 folder is claimed by bag/rosbag2.

// StageOpen is the progress stage of opening one file of several.
const StageOpen = "opening"

// OpenOptions are what Open may use while opening.
type OpenOptions struct {
	// Context stops the open when done; nil is context.Background().
	Context context.Context
	// Progress, when set, receives progress: done out of total units
	// (bytes, files) in the named stage (StageDecompress, StageOpen,
	// StageFetch, each followed by a file name). It is called from the
	// opening goroutine, or for StageFetch from the goroutine that
	// fetched.
	Progress func(done, total int64, stage string)
	// AllowRemoteScan lets a remote file that has no usable index or
	// summary (cut, unindexed, .bag.active, a rosbag2 FILE-mode .zstd) be
	// read whole to open it. Without it such a file does not open: the
	// error is a *ScanConsentError that states the file's size.
	AllowRemoteScan bool
}

func (o OpenOptions) context() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// FolderFormat is a layout of a recording as a folder of files.
type FolderFormat struct {
	// Name is the layout's name ("rosbag2 folder").
	Name string
	// Claims reports whether dir holds a recording of this layout. file
	// is the file the user opened in dir ("" when the folder itself was
	// opened); a file the layout does not read should not be claimed. It
	// must be cheap: a Stat or two, no listing of a folder given a file.
	Claims func(dir, file string) bool
	// Open opens the recording in dir.
	Open func(dir string, o OpenOptions) (Storage, error)
}

var (
	folderMu      sync.Mutex
	folderFormats []FolderFormat
)

// RegisterFolderFormat makes a folder layout known to Open.
func RegisterFolderFormat(f FolderFormat) {
	folderMu.Lock()
	defer folderMu.Unlock()
	folderFormats = append(folderFormats, f)
}

func claimingFolder(dir, file string) *FolderFormat {
	folderMu.Lock()
	defer folderMu.Unlock()
	for i := range folderFormats {
		if folderFormats[i].Claims(dir, file) {
			f := folderFormats[i]
			return &f
		}
	}
	return nil
}

// Open opens the recording at path: a recording file (a storage file
// inside a rosbag2 bag folder too, alone: FolderOf names its folder); a
// folder (a rosbag2 bag folder, a folder of ROS 1 bags split by `rosbag
// record --split`, read as one recording); or a rosbag2 metadata.yaml (its
// folder). A zstd-compressed
// file (rosbag2's FILE compression mode) is decompressed into the user's
// cache folder first. path may be a URL (http://, https://, s3://,
// gs://; see FSFor): the file is read in place, and a folder is an S3
// prefix or, over HTTP, the folder of a metadata.yaml.
func Open(path string) (Storage, error) { return OpenWith(path, OpenOptions{}) }

// OpenWith is Open with a context and progress.
func OpenWith(path string, o OpenOptions) (Storage, error) {
	st, err := FSFor(path).Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return openFolder(path, o)
	}
	dir, base := Dir(path), Base(path)
	if base == "metadata.yaml" {
		return openFolder(dir, o)
	}
	// A storage file of a rosbag2 folder opens alone, as the commands
	// open it; FolderOf names the whole recording.
	return openFileWith(path, o)
}

// FolderOf returns the folder whose recording the file at path is one
// file of (a rosbag2 bag folder, whose metadata.yaml is beside it), or ""
// when the file is a recording of its own. Open reads such a file alone:
// callers say that the folder is the whole recording.
func FolderOf(path string) string {
	st, err := FSFor(path).Stat(path)
	if err != nil || st.IsDir() || Base(path) == "metadata.yaml" {
		return ""
	}
	dir := Dir(path)
	if claimingFolder(dir, path) == nil {
		return ""
	}
	return dir
}

// IsPlainFile reports whether Open reads path as one file on its own,
// just as OpenFile does: false for a folder, a metadata.yaml and a zstd
// file (a storage file inside a rosbag2 bag folder is read alone: see
// FolderOf). It costs a Stat.
func IsPlainFile(path string) bool {
	st, err := FSFor(path).Stat(path)
	if err != nil {
		return true // let the open say what is wrong
	}
	if st.IsDir() {
		return false
	}
	base := Base(path)
	return base != "metadata.yaml" && !strings.HasSuffix(strings.ToLower(base), ".zstd")
}

// openFolder opens a folder: through the layout that claims it, else as
// the recording files it holds, read as one.
func openFolder(dir string, o OpenOptions) (Storage, error) {
	if f := claimingFolder(dir, ""); f != nil {
		return f.Open(dir, o)
	}
	files, err := RecordingFiles(dir)
	if errors.Is(err, remote.ErrNoListing) {
		return nil, fmt.Errorf("%s has no metadata.yaml, and an HTTP server cannot list a folder: open the URL of a recording file, or of the folder's metadata.yaml", Shown(dir))
	}
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no recording file (.bag, .mcap, .db3) and no metadata.yaml", Shown(dir))
	}
	s, err := OpenFilesWith(files, o)
	if err != nil {
		return nil, err
	}
	if m := AsMulti(s); m != nil && m.opts.Path == "" {
		m.opts.Path = dir
	}
	return s, nil
}

// IsRecordingName reports whether a file name is one of a recording file
// (.bag, .mcap, .db3, or a registered format's extension), zstd-compressed
// or not.
func IsRecordingName(name string) bool {
	lower := strings.ToLower(name)
	lower = strings.TrimSuffix(lower, ".zstd")
	if strings.HasSuffix(lower, ".db3") || strings.HasSuffix(lower, ".bag") || strings.HasSuffix(lower, ".mcap") {
		return true
	}
	return FormatFor(lower) != nil
}

// RecordingFiles lists the recording files in dir (not below it), in
// natural order: name_2 before name_10. dir may be a URL of a folder that
// can be listed (an S3 prefix).
func RecordingFiles(dir string) ([]string, error) {
	fsys := FSFor(dir)
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !IsRecordingName(n) {
			continue
		}
		if !e.Type().IsRegular() {
			if st, err := fsys.Stat(Join(dir, n)); err != nil || !st.Mode().IsRegular() {
				continue
			}
		}
		names = append(names, n)
	}
	SortNatural(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Join(dir, n)
	}
	return out, nil
}

var digitsRE = regexp.MustCompile(`\d+`)

// SortNatural sorts names so that runs of digits compare as numbers:
// x_2.bag before x_10.bag.
func SortNatural(names []string) {
	sort.SliceStable(names, func(i, j int) bool { return naturalLess(names[i], names[j]) })
}

func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		la, lb := digitsRE.FindStringIndex(a), digitsRE.FindStringIndex(b)
		if la == nil || lb == nil || la[0] != lb[0] || a[:la[0]] != b[:lb[0]] {
			return a < b
		}
		na, nb := strings.TrimLeft(a[la[0]:la[1]], "0"), strings.TrimLeft(b[lb[0]:lb[1]], "0")
		if len(na) != len(nb) {
			return len(na) < len(nb)
		}
		if na != nb {
			return na < nb
		}
		a, b = a[la[1]:], b[lb[1]:]
	}
	return len(a) < len(b)
}

// OpenFiles opens several files as one recording (see Multi), in natural
// order of their names; one path opens that file as Open does. A file
// that does not open is left out with a warning as long as another one
// opens.
func OpenFiles(paths []string) (Storage, error) { return OpenFilesWith(paths, OpenOptions{}) }

// OpenFilesWith is OpenFiles with a context and progress.
func OpenFilesWith(paths []string, o OpenOptions) (Storage, error) {
	switch {
	case len(paths) == 0:
		return nil, errors.New("no file to open")
	case len(paths) == 1:
		return openFileWith(paths[0], o)
	case len(paths) > MaxParts:
		return nil, fmt.Errorf("%d files: at most %d can be read as one recording", len(paths), MaxParts)
	}
	paths = append([]string(nil), paths...)
	sort.SliceStable(paths, func(i, j int) bool {
		di, dj := Dir(paths[i]), Dir(paths[j])
		if di != dj {
			return di < dj
		}
		return naturalLess(Base(paths[i]), Base(paths[j]))
	})
	parts, names, lost, err := OpenParts(paths, o)
	if err != nil {
		return nil, err
	}
	var warnings []error
	splitWarns, missing := splitWarnings(paths)
	for _, w := range splitWarns {
		if errors.Is(w, errSplitGap) {
			lost = append([]error{w}, lost...)
		} else {
			warnings = append(warnings, w)
		}
	}
	format := parts[0].FileInfo().Format
	for _, p := range parts[1:] {
		if p.FileInfo().Format != format {
			format = "mixed formats"
			break
		}
	}
	dir := Dir(paths[0])
	for _, p := range paths[1:] {
		if Dir(p) != dir {
			dir = ""
			break
		}
	}
	path := dir
	if path == "" {
		path = paths[0]
	}
	// Names are shown: a presigned URL's signature stays hidden.
	for i := range names {
		names[i] = Shown(names[i])
	}
	for i := range missing {
		missing[i].After = 0
		for _, n := range names {
			if naturalLess(filepath.Base(n), filepath.Base(missing[i].Name)) {
				missing[i].After++
			}
		}
	}
	return Multi(parts, MultiOptions{Path: Shown(path), Format: fmt.Sprintf("%s, %d files", format, len(parts)), Names: names, Warnings: warnings, Errors: lost, Missing: missing}), nil
}

// OpenParts opens each file of a recording of several files, reporting
// progress per file. A file that does not open is left out and named in
// lost; err is set only when none opens or ctx is done.
func OpenParts(paths []string, o OpenOptions) (parts []Storage, names []string, lost []error, err error) {
	ctx := o.context()
	var firstErr error
	for i, p := range paths {
		if err := ctx.Err(); err != nil {
			closeAll(parts)
			return nil, nil, nil, err
		}
		if o.Progress != nil {
			o.Progress(int64(i), int64(len(paths)), StageOpen+" "+Base(p))
		}
		s, err := openFileWith(p, o)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				closeAll(parts)
				return nil, nil, nil, cerr
			}
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: %w", Shown(p), err)
			}
			var size int64
			if st, serr := os.Stat(p); serr == nil {
				size = st.Size()
			}
			lost = append(lost, &LeftOutError{Path: Shown(p), Size: size, Err: err})
			continue
		}
		parts = append(parts, s)
		names = append(names, p)
	}
	if o.Progress != nil {
		o.Progress(int64(len(paths)), int64(len(paths)), StageOpen)
	}
	if len(parts) == 0 {
		return nil, nil, nil, firstErr
	}
	return parts, names, lost, nil
}

func closeAll(parts []Storage) {
	for _, p := range parts {
		p.Close()
	}
}

// errSplitGap marks the warning of numbers missing from a split recording.
var errSplitGap = errors.New("files of the split recording are missing")

var splitRE = regexp.MustCompile(`^(.*)_(\d+)(\.[^_]*)$`)

// splitWarnings says when files are not the numbered files of one split
// recording (name_0.bag, name_1.bag, …), or when numbers are missing:
// those files are missing too, each with at least one message (a split
// file is begun for a message).
func splitWarnings(paths []string) ([]error, []MissingFile) {
	prefix, ext := "", ""
	seen := map[int]bool{}
	lo, hi := -1, -1
	for i, p := range paths {
		m := splitRE.FindStringSubmatch(Base(p))
		if m == nil {
			return []error{fmt.Errorf("%s is not named as a file of a split recording (name_0, name_1, …): the files are read as one recording all the same", Base(p))}, nil
		}
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, nil
		}
		if i == 0 {
			prefix, ext = m[1], m[3]
		} else if m[1] != prefix || m[3] != ext {
			return []error{fmt.Errorf("%s and %s are not files of one split recording: the files are read as one recording all the same", Base(paths[0]), Base(p))}, nil
		}
		seen[n] = true
		if lo < 0 || n < lo {
			lo = n
		}
		if n > hi {
			hi = n
		}
	}
	var missing []string
	var files []MissingFile
	for n := lo; n <= hi && len(files) < MaxParts; n++ {
		if !seen[n] {
			name := fmt.Sprintf("%s_%d%s", Base(prefix), n, ext)
			if len(missing) < 20 {
				missing = append(missing, name)
			}
			files = append(files, MissingFile{Name: filepath.Join(filepath.Dir(paths[0]), name), Messages: AtLeast(1),
				Why: fmt.Sprintf("%s is missing from the numbered files of the split recording", name)})
		}
	}
	if len(missing) > 0 {
		if len(files) > len(missing) {
			missing = append(missing, fmt.Sprintf("and %d more", len(files)-len(missing)))
		}
		return []error{fmt.Errorf("the split recording lacks %s: %w", strings.Join(missing, ", "), errSplitGap)}, files
	}
	return nil, nil
}

// openFileWith opens one recording file; a zstd file is decompressed into
// the cache first.
func openFileWith(path string, o OpenOptions) (Storage, error) {
	if strings.HasSuffix(strings.ToLower(path), ".zstd") {
		return openZstdFile(path, o)
	}
	s, err := openPlainFile(path, o)
	var uf *UnknownFormatError
	if errors.As(err, &uf) && IsZstd(uf.Head) {
		return openZstdFile(path, o)
	}
	return s, err
}
