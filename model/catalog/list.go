package catalog

import (
	"context"
	"hash/fnv"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
)

// ShardOf returns the shard (0 to n-1) of the recording at path: a hash
// of the path as listed (a URL's as shown, without its signature, which
// differs between processes), so every process given the same roots
// agrees.
func ShardOf(path string, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(bag.Shown(path)))
	return int(h.Sum32() % uint32(n))
}

// list finds the recordings under roots, sorted by path: recording files
// (bag.IsRecordingName), and rosbag2 folders (a folder holding a
// metadata.yaml is one recording, not looked into further).
func list(ctx context.Context, roots []string) ([]entry, error) {
	var out []entry
	for _, root := range roots {
		if bag.IsURL(root) {
			ents, err := listRemote(ctx, remote.Default(), root)
			if err != nil {
				return nil, err
			}
			out = append(out, ents...)
			continue
		}
		fsys := bag.FSFor(root)
		st, err := fsys.Stat(root)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, entry{path: root, size: st.Size(), mtime: st.ModTime()})
			continue
		}
		if err := walk(ctx, fsys, strings.TrimSuffix(root, "/"), &out); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.path, b.path) })
	out = slices.CompactFunc(out, func(a, b entry) bool { return a.path == b.path })
	return out, nil
}

func walk(ctx context.Context, fsys bag.FS, dir string, out *[]entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(ents, func(e fs.DirEntry) bool { return !e.IsDir() && e.Name() == "metadata.yaml" }) {
		// A rosbag2 folder: one recording, its size and time those of
		// its files together.
		e := entry{path: dir}
		for _, f := range ents {
			if f.IsDir() {
				continue
			}
			if info, err := f.Info(); err == nil {
				e.size += info.Size()
				e.mtime = latest(e.mtime, info.ModTime())
			}
		}
		*out = append(*out, e)
		return nil
	}
	for _, f := range ents {
		p := bag.Join(dir, f.Name())
		if f.IsDir() {
			if err := walk(ctx, fsys, p, out); err != nil {
				return err
			}
			continue
		}
		if !bag.IsRecordingName(f.Name()) {
			continue
		}
		info, err := f.Info()
		if err != nil {
			continue
		}
		*out = append(*out, entry{path: p, size: info.Size(), mtime: info.ModTime()})
	}
	return nil
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Found is a recording found under the roots, as catalog lists it: Path
// as listed, Name its path below the root it was found under without the
// recording's extension ("day1/run3"; the root's own name when the root
// is one recording), with the extension kept where two would share a
// name, and the path as shown where they still would: unique among the
// recordings found, and the same in every process given the same roots.
type Found struct {
	Path, Name string
}

// Find lists the recordings under roots as a catalogue run does (files,
// rosbag2 folders and S3 prefixes, sorted by path), each with its Name:
// export writes each to its own partition by it. The caller takes a shard
// of them with ShardOf.
func Find(ctx context.Context, roots []string) ([]Found, error) {
	var out []Found
	seen := map[string]bool{}
	for _, root := range roots {
		ents, err := list(ctx, []string{root})
		if err != nil {
			return nil, err
		}
		base := strings.TrimSuffix(root, "/")
		for _, e := range ents {
			if seen[e.path] {
				continue
			}
			seen[e.path] = true
			rel := strings.TrimPrefix(strings.TrimPrefix(e.path, base), "/")
			if e.path == base || rel == e.path {
				rel = bag.Base(e.path)
			}
			out = append(out, Found{Path: e.path, Name: rel})
		}
	}
	slices.SortFunc(out, func(a, b Found) int { return strings.Compare(a.Path, b.Path) })
	count := func(name func(Found) string) map[string]int {
		n := map[string]int{}
		for _, f := range out {
			n[name(f)]++
		}
		return n
	}
	bare := count(func(f Found) string { return trimRecordingExt(f.Name) })
	full := count(func(f Found) string { return f.Name })
	for i, f := range out {
		switch {
		case bare[trimRecordingExt(f.Name)] == 1:
			out[i].Name = trimRecordingExt(f.Name)
		case full[f.Name] > 1:
			out[i].Name = strings.TrimLeft(bag.Shown(f.Path), "/")
		}
	}
	return out, nil
}

// trimRecordingExt drops a recording's extensions (".bag", ".mcap.zstd").
func trimRecordingExt(name string) string {
	for _, ext := range []string{".zstd", ".bag", ".mcap", ".db3"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}
