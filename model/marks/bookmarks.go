// Package marks holds the markers a recording's timeline shows besides its
// messages: the user's bookmarks (a name and a note at a time, kept in a
// sidecar file beside the recording, never inside it) and the events a
// recording carries (foxglove_msgs/Event and foxglove.Event topics), with
// their CSV export.
package marks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
)

// SidecarSuffix ends the name of a recording's bookmarks file, beside it:
// x.bag has x.bag.bookmarks.json; a rosbag2 folder run/ has
// run.bookmarks.json next to the folder.
const SidecarSuffix = ".bookmarks.json"

// maxBookmarksFile bounds a bookmarks file read (a hand-edited or foreign
// file is refused rather than loaded whole).
const maxBookmarksFile = 16 << 20

// Bookmark is a named point of a recording the user marked.
type Bookmark struct {
	// Time is the log time marked.
	Time bag.Time `json:"-"`
	Name string   `json:"name"`
	Note string   `json:"note,omitempty"`
	// Topic, when set, is the topic whose message was selected.
	Topic string `json:"topic,omitempty"`
	// Created is when the bookmark was made (UTC).
	Created time.Time `json:"created"`
}

// bookmarkJSON is a Bookmark as the sidecar stores it.
type bookmarkJSON struct {
	Time timeJSON `json:"time"`
	Bookmark
}

type timeJSON struct {
	Secs  uint32 `json:"secs"`
	NSecs uint32 `json:"nsecs"`
}

type fileJSON struct {
	Version   int            `json:"version"`
	Recording string         `json:"recording"`
	Bookmarks []bookmarkJSON `json:"bookmarks"`
}

// Bookmarks are the bookmarks of one recording and where they are kept.
// Not safe for concurrent use.
type Bookmarks struct {
	// Path is the sidecar file they are read from and saved to.
	Path string
	// List is sorted by time.
	List      []Bookmark
	recording string
	// inConfig: Path is in the user's configuration folder (a remote
	// recording's), made when first saved.
	inConfig bool
}

// SidecarPath is where the bookmarks of the recording at path live: beside
// it (beside the folder, for a rosbag2 folder or its metadata.yaml).
func SidecarPath(path string) string {
	p := filepath.Clean(path)
	if filepath.Base(p) == "metadata.yaml" {
		p = filepath.Dir(p)
	}
	return p + SidecarSuffix
}

// fallbackPath is where the bookmarks of a recording in a folder bagscope
// may not write go: the user's configuration folder, by the recording's
// absolute path.
func fallbackPath(path string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	name := strings.TrimSuffix(filepath.Base(abs), SidecarSuffix)
	return filepath.Join(dir, "bagscope", "bookmarks", name+"-"+hex.EncodeToString(sum[:6])+SidecarSuffix), nil
}

// urlPath is where the bookmarks of the recording at a URL live: nothing
// is ever written beside a remote recording, so in the user's
// configuration folder, by urlKey.
func urlPath(url string) (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(urlKey(url)))
	return filepath.Join(dir, "bagscope", "bookmarks", "url-"+bag.Base(url)+"-"+hex.EncodeToString(sum[:6])+SidecarSuffix), nil
}

// urlKey is the URL as shown (bag.Shown: its password, signature and
// token hidden, so no secret is written) without the parameters that
// presign it (X-Amz-*, X-Goog-*, Expires, Signature, the access key id),
// which change each time the same object is signed again: a presigned
// URL of the recording signed tomorrow finds today's bookmarks.
func urlKey(raw string) string {
	shown := bag.Shown(raw)
	base, query, ok := strings.Cut(shown, "?")
	if !ok {
		return shown
	}
	query, _, _ = strings.Cut(query, "#")
	v, err := neturl.ParseQuery(query)
	if err != nil {
		return shown
	}
	for k := range v {
		switch lk := strings.ToLower(k); {
		case strings.HasPrefix(lk, "x-amz-"), strings.HasPrefix(lk, "x-goog-"),
			lk == "expires", lk == "signature", lk == "awsaccesskeyid", lk == "googleaccessid":
			v.Del(k)
		}
	}
	if len(v) == 0 {
		return base
	}
	return base + "?" + v.Encode()
}

// Load reads the bookmarks of the recording at path: from the sidecar
// beside it, else from the fallback in the user's configuration folder
// (where they go when the recording's folder is read-only); none when
// there is neither. A recording at a URL keeps its bookmarks in the
// configuration folder (urlPath).
func Load(path string) (*Bookmarks, error) {
	if bag.IsURL(path) {
		file, err := urlPath(path)
		if err != nil {
			return &Bookmarks{}, err
		}
		b := &Bookmarks{Path: file, recording: urlKey(path), inConfig: true}
		if err := b.read(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return b, err
		}
		return b, nil
	}
	side := SidecarPath(path)
	b := &Bookmarks{Path: side, recording: filepath.Base(strings.TrimSuffix(side, SidecarSuffix))}
	err := b.read(side)
	if errors.Is(err, fs.ErrNotExist) {
		if fb, ferr := fallbackPath(side); ferr == nil {
			if err = b.read(fb); err == nil {
				b.Path = fb
			}
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return b, nil
	}
	return b, err
}

func (b *Bookmarks) read(file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() > maxBookmarksFile {
		return fmt.Errorf("%s: %d bytes is too big for a bookmarks file", file, st.Size())
	}
	var fj fileJSON
	if err := json.NewDecoder(f).Decode(&fj); err != nil {
		return fmt.Errorf("%s: not a bookmarks file: %w", file, err)
	}
	b.List = b.List[:0]
	for _, x := range fj.Bookmarks {
		bm := x.Bookmark
		bm.Time = bag.Time{Sec: x.Time.Secs, NSec: min(x.Time.NSecs, 999999999)}
		b.List = append(b.List, bm)
	}
	b.sort()
	return nil
}

func (b *Bookmarks) sort() {
	sort.SliceStable(b.List, func(i, j int) bool { return b.List[i].Time.Before(b.List[j].Time) })
}

// Add adds a bookmark (stamped now when Created is zero) and saves.
func (b *Bookmarks) Add(bm Bookmark) error {
	if bm.Created.IsZero() {
		bm.Created = time.Now().UTC().Truncate(time.Second)
	}
	if strings.TrimSpace(bm.Name) == "" {
		bm.Name = "bookmark at " + bm.Time.String()
	}
	b.List = append(b.List, bm)
	b.sort()
	return b.Save()
}

// Update replaces bookmark i's name and note and saves.
func (b *Bookmarks) Update(i int, name, note string) error {
	if i < 0 || i >= len(b.List) {
		return fmt.Errorf("no bookmark %d", i)
	}
	b.List[i].Name, b.List[i].Note = name, note
	return b.Save()
}

// Remove deletes bookmark i and saves.
func (b *Bookmarks) Remove(i int) error {
	if i < 0 || i >= len(b.List) {
		return fmt.Errorf("no bookmark %d", i)
	}
	b.List = append(b.List[:i], b.List[i+1:]...)
	return b.Save()
}

// Save writes the bookmarks to their sidecar (through a temporary file
// renamed into place), or, when the recording's folder cannot be written,
// to the fallback in the user's configuration folder; Path says which.
func (b *Bookmarks) Save() error {
	fj := fileJSON{Version: 1, Recording: b.recording, Bookmarks: []bookmarkJSON{}}
	for _, bm := range b.List {
		fj.Bookmarks = append(fj.Bookmarks, bookmarkJSON{Time: timeJSON{bm.Time.Sec, bm.Time.NSec}, Bookmark: bm})
	}
	data, err := json.MarshalIndent(fj, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if b.inConfig {
		if err := os.MkdirAll(filepath.Dir(b.Path), 0o755); err != nil {
			return err
		}
		return writeFile(b.Path, data)
	}
	err = writeFile(b.Path, data)
	if err != nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)) && strings.HasSuffix(b.Path, SidecarSuffix) {
		fb, ferr := fallbackPath(b.Path)
		if ferr != nil || fb == b.Path {
			return err
		}
		if ferr = os.MkdirAll(filepath.Dir(fb), 0o755); ferr != nil {
			return err
		}
		if ferr = writeFile(fb, data); ferr != nil {
			return fmt.Errorf("%w (and %s: %v)", err, fb, ferr)
		}
		b.Path = fb
		return nil
	}
	return err
}

// writeFile writes data to a temporary file beside path and renames it
// into place.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
