package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// diskCache keeps fetched blocks in a folder between runs: one folder per
// file version (its URL without the query, its size and validators), one
// file per block. A file without an ETag or Last-Modified is not kept:
// nothing would tell a new version from the old. When the folder grows
// past max bytes, the versions used longest ago are removed.
type diskCache struct {
	dir string
	max int64

	mu      sync.Mutex
	used    int64
	counted bool
}

func newDiskCache(dir string, max int64) *diskCache { return &diskCache{dir: dir, max: max} }

// DefaultDiskCache returns the folder under the user's cache folder for
// remote blocks.
func DefaultDiskCache() string {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		base = os.TempDir()
	}
	return filepath.Join(base, "bagscope", "remote")
}

// folder returns the version's folder, or "" when the file cannot be kept.
func (d *diskCache) folder(f *File) string {
	if f.ver.etag == "" && f.ver.modTime == "" {
		return ""
	}
	u, _, _ := strings.Cut(f.loc.raw, "?")
	sum := sha256.Sum256([]byte(u + "\x00" + strconv.FormatInt(f.size, 10) + "\x00" + f.ver.etag + "\x00" + f.ver.modTime + "\x00" + strconv.FormatInt(f.c.opts.BlockSize, 10)))
	return filepath.Join(d.dir, hex.EncodeToString(sum[:16]))
}

// read fills blocks from the cache when it has every one of them.
func (d *diskCache) read(f *File, off int64, blocks [][]byte) bool {
	dir := d.folder(f)
	if dir == "" {
		return false
	}
	first := off / f.c.opts.BlockSize
	for i, b := range blocks {
		data, err := os.ReadFile(filepath.Join(dir, strconv.FormatInt(first+int64(i), 10)))
		if err != nil || len(data) != len(b) {
			return false
		}
		copy(b, data)
	}
	now := time.Now()
	os.Chtimes(dir, now, now)
	return true
}

// write stores blocks, then trims the cache to its bound.
func (d *diskCache) write(f *File, off int64, blocks [][]byte) {
	dir := d.folder(f)
	if dir == "" || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	first := off / f.c.opts.BlockSize
	var added int64
	for i, b := range blocks {
		name := filepath.Join(dir, strconv.FormatInt(first+int64(i), 10))
		if _, err := os.Stat(name); err == nil {
			continue
		}
		tmp, err := os.CreateTemp(dir, ".part-*")
		if err != nil {
			return
		}
		_, werr := tmp.Write(b)
		cerr := tmp.Close()
		if werr != nil || cerr != nil || os.Rename(tmp.Name(), name) != nil {
			os.Remove(tmp.Name())
			return
		}
		added += int64(len(b))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.counted {
		d.used, d.counted = d.measure(), true
	} else {
		d.used += added
	}
	if d.used > d.max {
		d.trim(dir)
	}
}

// measure adds up the cache's size.
func (d *diskCache) measure() int64 {
	var n int64
	filepath.WalkDir(d.dir, func(_ string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// trim removes the versions used longest ago, keeping the one in use,
// until the cache is within three quarters of its bound.
func (d *diskCache) trim(keep string) {
	ents, err := os.ReadDir(d.dir)
	if err != nil {
		return
	}
	type ver struct {
		path string
		used time.Time
	}
	var vers []ver
	for _, e := range ents {
		p := filepath.Join(d.dir, e.Name())
		if !e.IsDir() || p == keep {
			continue
		}
		if info, err := e.Info(); err == nil {
			vers = append(vers, ver{p, info.ModTime()})
		}
	}
	sort.Slice(vers, func(i, j int) bool { return vers[i].used.Before(vers[j].used) })
	for _, v := range vers {
		if d.used <= d.max*3/4 {
			break
		}
		os.RemoveAll(v.path)
		d.used = d.measure()
	}
}
