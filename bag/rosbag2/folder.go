package rosbag2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// FolderName is the layout's name as bag lists it.
const FolderName = "rosbag2 folder"

func init() {
	bag.RegisterFolderFormat(bag.FolderFormat{Name: FolderName, Claims: Claims, Open: OpenFolder})
}

// Claims reports whether dir is a rosbag2 bag folder: it has a
// metadata.yaml, or (when the folder itself is opened) holds .db3 files,
// zstd-compressed storage files or MCAP files named as rosbag2 names them
// (<name>_<i>.mcap). A file opened inside a folder with a
// metadata.yaml is claimed when it is a storage file (.db3, .mcap, either
// zstd-compressed); a ROS 1 .bag is not.
func Claims(dir, file string) bool {
	fsys := bag.FSFor(dir)
	if file != "" {
		lower := strings.ToLower(strings.TrimSuffix(strings.ToLower(bag.Base(file)), ".zstd"))
		if !strings.HasSuffix(lower, ".db3") && !strings.HasSuffix(lower, ".mcap") {
			return false
		}
		st, err := fsys.Stat(bag.Join(dir, MetadataName))
		return err == nil && st.Mode().IsRegular()
	}
	if st, err := fsys.Stat(bag.Join(dir, MetadataName)); err == nil && st.Mode().IsRegular() {
		return true
	}
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := strings.ToLower(e.Name())
		if strings.HasSuffix(n, ".db3") || strings.HasSuffix(n, ".db3.zstd") || strings.HasSuffix(n, ".mcap.zstd") || splitMCAP.MatchString(n) {
			return true
		}
	}
	return false
}

// splitMCAP matches the name rosbag2 gives its MCAP files: <name>_<i>.mcap.
var splitMCAP = regexp.MustCompile(`_\d+\.mcap$`)

// Bag is a rosbag2 bag folder opened as one recording: its files read
// through bag.Multi, with the metadata.yaml it has (nil when none or when
// it does not parse).
type Bag struct {
	bag.Storage
	Dir      string
	Metadata *Metadata
	// Files are the storage files read, in order; Missing those the
	// metadata lists that are not in the folder.
	Files, Missing []string
}

// Unwrap returns the recording's storage (a bag.MultiStorage, or the one
// file's own storage).
func (b *Bag) Unwrap() bag.Storage { return b.Storage }

// Of returns the rosbag2 Bag behind s, or nil.
func Of(s bag.Storage) *Bag {
	for {
		switch v := s.(type) {
		case *Bag:
			return v
		case interface{ Unwrap() bag.Storage }:
			s = v.Unwrap()
		default:
			return nil
		}
	}
}

// OpenFolder opens the bag folder dir as one recording. The storage files
// are those metadata.yaml lists (resolved by base name when the path is
// prefixed with the folder's name, as old versions wrote, and with or
// without .zstd) and any other storage file in the folder; without a
// metadata.yaml, the folder's storage files in natural order. Each
// disagreement between the metadata and the files (files missing or
// extra, counts, topics, types, serialization formats, storage and
// compression) is a warning in FileInfo and a finding of Check, and the
// recording is what the files hold.
func OpenFolder(dir string, o bag.OpenOptions) (bag.Storage, error) {
	var warnings, errs []error
	warn := func(format string, args ...any) { warnings = append(warnings, fmt.Errorf(format, args...)) }
	var meta *Metadata
	fsys := bag.FSFor(dir)
	mpath := bag.Join(dir, MetadataName)
	if _, err := fsys.Stat(mpath); err == nil {
		meta, err = ReadMetadata(mpath)
		if err != nil {
			warn("%s does not parse, the folder is read from its files: %v", MetadataName, err)
			meta = nil
		} else if meta.Version > MaxMetadataVersion {
			warn("%s is version %d, newer than the %d bagscope knows: fields it adds are not read", MetadataName, meta.Version, MaxMetadataVersion)
		}
	} else if errors.Is(err, os.ErrNotExist) {
		warn("the folder has no %s: it is read from its files", MetadataName)
	} else {
		warn("%s cannot be read, the folder is read from its files: %v", MetadataName, err)
	}
	onDisk, err := bag.RecordingFiles(dir)
	if errors.Is(err, bag.ErrNoListing) && meta != nil {
		// An HTTP folder: its files are those its metadata lists.
		onDisk, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	// Keep the storage files: a ROS 1 .bag is no part of a rosbag2 folder.
	var storageFiles []string
	for _, p := range onDisk {
		if isStorageName(bag.Base(p)) {
			storageFiles = append(storageFiles, p)
		}
	}
	var paths, missing []string
	listed := map[string]string{} // path read -> path as the metadata writes it
	if meta != nil {
		used := map[string]bool{}
		for _, rel := range meta.FilePaths() {
			p := resolve(dir, rel)
			if p == "" {
				missing = append(missing, rel)
				continue
			}
			if used[p] {
				continue
			}
			used[p] = true
			paths = append(paths, p)
			listed[p] = rel
		}
		for _, p := range storageFiles {
			if !used[p] {
				warn("%s is in the folder but %s does not list it: it is read too", bag.Base(p), MetadataName)
				paths = append(paths, p)
			}
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("%s lists %d file(s) that are not in the folder: %s; their messages are missing", MetadataName, len(missing), strings.Join(missing, ", ")))
		}
	} else {
		paths = storageFiles
	}
	if len(paths) == 0 {
		if meta != nil {
			// Nothing to read: an empty recording that says why.
			m := bag.NewMulti(nil, bag.MultiOptions{Path: dir, Format: FolderName, Version: versionText(meta), Warnings: warnings, Errors: errs,
				Missing: missingFiles(dir, meta, missing, nil), Claim: metadataClaim(meta)})
			return &Bag{Storage: m, Dir: dir, Metadata: meta, Missing: missing}, nil
		}
		return nil, fmt.Errorf("%s has no %s and no storage file (.db3, .mcap)", bag.Shown(dir), MetadataName)
	}
	if len(paths) > bag.MaxParts {
		return nil, fmt.Errorf("%s: %d files, at most %d can be read as one recording", bag.Shown(dir), len(paths), bag.MaxParts)
	}
	parts, names, lost, err := bag.OpenParts(paths, o)
	if err != nil {
		return nil, errors.Join(append(errs, err)...)
	}
	if meta != nil {
		presetCounts(meta, parts, names, listed)
		warnings = append(warnings, compare(meta, parts, names, listed)...)
	}
	format := FolderName
	if meta != nil && meta.StorageIdentifier != "" {
		format += " (" + meta.StorageIdentifier + ")"
	}
	opts := bag.MultiOptions{Path: dir, Format: format, Version: versionText(meta), Names: names, Warnings: warnings, Errors: append(errs, lost...)}
	if meta != nil {
		opts.Missing = missingFiles(dir, meta, missing, names)
		opts.Claim = metadataClaim(meta)
		for _, n := range names {
			var c *bag.Claim
			if rel, ok := listed[n]; ok {
				if fe := meta.FileEntry(rel); fe != nil {
					c = &bag.Claim{Messages: fe.MessageCount, By: MetadataName}
				}
			}
			opts.PartClaims = append(opts.PartClaims, c)
		}
	}
	m := bag.Multi(parts, opts)
	return &Bag{Storage: m, Dir: dir, Metadata: meta, Files: names, Missing: missing}, nil
}

// metadataClaim is what metadata.yaml says the recording holds.
func metadataClaim(meta *Metadata) *bag.Claim {
	c := &bag.Claim{Messages: meta.MessageCount, By: MetadataName, Topics: map[string]uint64{}}
	for _, t := range meta.Topics {
		c.Topics[t.Name] += t.MessageCount
	}
	return c
}

// missingFiles describes the files metadata.yaml lists that are not in
// the folder: each with its count and times where the metadata gives
// them (version 5 on), placed after the files read (names) that the
// metadata lists before it.
func missingFiles(dir string, meta *Metadata, missing, names []string) []bag.MissingFile {
	var out []bag.MissingFile
	read := map[string]bool{}
	for _, n := range names {
		read[filepath.Clean(n)] = true
	}
	after := 0
	for _, rel := range meta.FilePaths() {
		if p := resolve(dir, rel); p != "" {
			if read[p] {
				after++
			}
			continue
		}
		if !slices.Contains(missing, rel) {
			continue
		}
		mf := bag.MissingFile{Name: filepath.Join(dir, filepath.Base(filepath.FromSlash(rel))), After: after,
			Why: fmt.Sprintf("%s lists %s, which is not in the folder", MetadataName, filepath.Base(filepath.FromSlash(rel)))}
		if fe := meta.FileEntry(rel); fe != nil {
			mf.Messages = bag.Exactly(fe.MessageCount)
			if fe.MessageCount > 0 {
				mf.First, mf.Last = bag.TimeFromNanos(fe.StartingTime), bag.TimeFromNanos(fe.StartingTime+fe.Duration)
			}
		}
		out = append(out, mf)
	}
	return out
}

func versionText(m *Metadata) string {
	if m == nil {
		return "no metadata.yaml"
	}
	return fmt.Sprintf("metadata.yaml version %d", m.Version)
}

// isStorageName reports whether a file name is a rosbag2 storage file.
func isStorageName(name string) bool {
	lower := strings.TrimSuffix(strings.ToLower(name), ".zstd")
	return strings.HasSuffix(lower, ".db3") || strings.HasSuffix(lower, ".mcap")
}

// resolve finds the file a metadata path names in dir: as written, by its
// base name (old versions prefix the folder's name), with .zstd added or
// removed (a recorder that crashed before compressing its last file).
// "" when there is none. In a remote folder an absolute path (the
// recording machine's) is looked for by its base name only.
func resolve(dir, rel string) string {
	fsys := bag.FSFor(dir)
	var cands []string
	if bag.IsURL(dir) {
		slash := filepath.ToSlash(rel)
		cands = append(cands, bag.Join(dir, slash))
		if b := path.Base(slash); b != slash {
			cands = append(cands, bag.Join(dir, b))
		}
		if strings.HasPrefix(slash, "/") {
			cands = cands[len(cands)-1:]
		}
		cands = slices.Compact(cands)
	} else {
		if filepath.IsAbs(rel) {
			cands = append(cands, rel)
		}
		rel = filepath.FromSlash(rel)
		for _, r := range []string{rel, filepath.Base(rel)} {
			cands = append(cands, filepath.Join(dir, r))
		}
	}
	var alt []string
	for _, c := range cands {
		if s, ok := strings.CutSuffix(c, ".zstd"); ok {
			alt = append(alt, s)
		} else {
			alt = append(alt, c+".zstd")
		}
	}
	for _, c := range append(cands, alt...) {
		if st, err := fsys.Stat(c); err == nil && st.Mode().IsRegular() {
			if bag.IsURL(c) {
				return c
			}
			return filepath.Clean(c)
		}
	}
	return ""
}

// compare lists where the metadata disagrees with the files.
func compare(meta *Metadata, parts []bag.Storage, names []string, listed map[string]string) []error {
	var out []error
	warn := func(format string, args ...any) { out = append(out, fmt.Errorf(format, args...)) }
	var total uint64
	var start, end int64
	haveTimes := false
	topicCounts := map[string]uint64{}
	topicTypes := map[string]string{}
	topicEncs := map[string]string{}
	for i, p := range parts {
		s, _ := p.Summary()
		if s == nil {
			continue
		}
		total += s.Messages
		if s.Messages > 0 {
			if a, b := s.Start.Nanos(), s.End.Nanos(); !haveTimes {
				start, end, haveTimes = a, b, true
			} else {
				start, end = min(start, a), max(end, b)
			}
		}
		for _, t := range s.Topics {
			topicCounts[t.Topic] += t.Messages
			if _, ok := topicTypes[t.Topic]; !ok {
				topicTypes[t.Topic] = t.Type
				if len(t.Connections) > 0 {
					topicEncs[t.Topic] = t.Connections[0].Encoding
				}
			}
		}
		rel, ok := listed[names[i]]
		if !ok {
			continue
		}
		if fe := meta.FileEntry(rel); fe != nil && fe.MessageCount != s.Messages {
			warn("%s says %s holds %d messages; it holds %d", MetadataName, bag.Base(names[i]), fe.MessageCount, s.Messages)
		}
		name := strings.ToLower(names[i])
		zst := strings.HasSuffix(name, ".zstd")
		switch {
		case meta.CompressionMode == "FILE" && !zst:
			warn("%s says the files are compressed whole (%s FILE mode); %s is not", MetadataName, meta.CompressionFormat, bag.Base(names[i]))
		case meta.CompressionMode != "FILE" && zst:
			warn("%s is compressed whole, but %s does not say FILE compression mode", bag.Base(names[i]), MetadataName)
		}
		format := p.FileInfo().Format
		switch meta.StorageIdentifier {
		case "sqlite3":
			if !strings.Contains(format, "SQLite") {
				warn("%s says the storage is sqlite3; %s is %s", MetadataName, bag.Base(names[i]), format)
			}
		case "mcap":
			if !strings.HasPrefix(format, "MCAP") {
				warn("%s says the storage is mcap; %s is %s", MetadataName, bag.Base(names[i]), format)
			}
		}
	}
	if meta.MessageCount != total {
		warn("%s counts %d messages; the files hold %d", MetadataName, meta.MessageCount, total)
	}
	if haveTimes && meta.HasStart && meta.MessageCount > 0 {
		if meta.StartingTime != start {
			warn("%s says the recording starts at %s; its first message is at %s", MetadataName, bag.TimeFromNanos(meta.StartingTime), bag.TimeFromNanos(start))
		}
		if meta.Duration != end-start {
			warn("%s says the recording lasts %d ns; its messages span %d ns", MetadataName, meta.Duration, end-start)
		}
	}
	seen := map[string]bool{}
	for _, t := range meta.Topics {
		seen[t.Name] = true
		n, ok := topicCounts[t.Name]
		switch {
		case !ok && t.MessageCount > 0:
			warn("%s lists topic %s with %d messages; the files have no such topic", MetadataName, t.Name, t.MessageCount)
		case ok && n != t.MessageCount:
			warn("%s counts %d messages on %s; the files hold %d", MetadataName, t.MessageCount, t.Name, n)
		}
		if typ, ok := topicTypes[t.Name]; ok && typ != t.Type && normType(typ) != normType(t.Type) {
			warn("%s says %s is of type %s; the files say %s", MetadataName, t.Name, t.Type, typ)
		}
		if enc, ok := topicEncs[t.Name]; ok && t.SerializationFormat != "" && enc != "" && enc != t.SerializationFormat {
			warn("%s says %s is serialized as %s; the files say %s", MetadataName, t.Name, t.SerializationFormat, enc)
		}
	}
	var extra []string
	for t, n := range topicCounts {
		if !seen[t] && n > 0 {
			extra = append(extra, fmt.Sprintf("%s (%d messages)", t, n))
		}
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		warn("the files have topics %s does not list: %s", MetadataName, strings.Join(extra, ", "))
	}
	return out
}

// normType drops the "msg/" of a ROS 2 type name: sensor_msgs/msg/Image
// and sensor_msgs/Image name one type.
func normType(t string) string {
	if i := strings.Index(t, "/msg/"); i >= 0 {
		return t[:i] + "/" + t[i+len("/msg/"):]
	}
	return t
}

// countPresetter is a storage that can take its counts from the metadata
// instead of reading its rows (a .db3 file: db3.Store.PresetCounts).
type countPresetter interface {
	PresetCounts(byTopic map[string]uint64, start, end int64, hasTimes bool) bool
}

// presetCounts hands metadata.yaml's per-topic counts and times to the
// folder's file when it is the only one the metadata lists, so that
// opening does not count every row (a .db3 file would run a GROUP BY over
// all of them). The file's Check counts the rows and reports where they
// disagree; compare then finds the metadata agreeing with itself.
func presetCounts(meta *Metadata, parts []bag.Storage, names []string, listed map[string]string) {
	if len(parts) != 1 || len(meta.FilePaths()) != 1 {
		return
	}
	rel, ok := listed[names[0]]
	if !ok {
		return
	}
	if fe := meta.FileEntry(rel); fe != nil && fe.MessageCount != meta.MessageCount {
		return // the metadata disagrees with itself: count the rows
	}
	var cp countPresetter
	for s := parts[0]; s != nil; {
		if c, ok := s.(countPresetter); ok {
			cp = c
			break
		}
		u, ok := s.(interface{ Unwrap() bag.Storage })
		if !ok {
			break
		}
		s = u.Unwrap()
	}
	if cp == nil {
		return
	}
	byTopic := map[string]uint64{}
	var sum uint64
	for _, t := range meta.Topics {
		byTopic[t.Name] += t.MessageCount
		sum += t.MessageCount
	}
	if sum != meta.MessageCount {
		return
	}
	cp.PresetCounts(byTopic, meta.StartingTime, meta.StartingTime+meta.Duration, meta.HasStart)
}

// VisitMessages hands every message to fn on the reading goroutines (see
// bag.VisitMessages): the folder's one file in parallel, several in order.
func (b *Bag) VisitMessages(ctx context.Context, f bag.MessageFilter, fn func(m *bag.Message)) error {
	return bag.VisitMessages(ctx, b.Storage, f, fn)
}

// VisitMessagesSkipped is VisitMessages that also returns what the visit
// skipped (bag.SkipVisitor).
func (b *Bag) VisitMessagesSkipped(ctx context.Context, f bag.MessageFilter, fn func(m *bag.Message)) ([]bag.ByteRange, error) {
	return bag.VisitMessagesSkipped(ctx, b.Storage, f, fn)
}
