package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/ros1"
)

// CheckRepairOutput refuses an output path that is the input itself, or
// an existing file unless force is set. in may be "" for a bag held in
// memory.
func CheckRepairOutput(in, out string, force bool) error {
	if bag.IsURL(out) {
		return fmt.Errorf("%s is a URL: copies are written to a local file; name one (the input may be a URL)", bag.Shown(out))
	}
	ost, err := os.Stat(out)
	if err != nil {
		return nil
	}
	if in != "" {
		if ist, err := os.Stat(in); err == nil && os.SameFile(ist, ost) {
			return fmt.Errorf("refusing to write the repaired copy over the input %s: name another file", in)
		}
	}
	if !force {
		return fmt.Errorf("%s exists: name another file, or pass --force to overwrite it", out)
	}
	return nil
}

// WriteRepaired writes a repaired, indexed copy of src to out, in src's own
// format, with every message that can be read: into a temporary file beside
// out, renamed into place once complete, so a failed repair never leaves a
// half-written file. chunkSize, when not 0, is the copy's uncompressed chunk
// size where the format lets it be chosen. src's in-memory index may lose
// the chunks that cannot be read; open a fresh Storage for it. src may be
// a part of a recording (bag.Select): the copy then holds that part, in
// the format out's name asks for.
func WriteRepaired(src bag.Storage, out, compression string, chunkSize int) (*bag.RepairReport, error) {
	r, ok := bag.Underlying(src).(bag.Repairer)
	if f := bag.FormatFor(out); !ok || f != nil && f.Name != src.FileInfo().Format {
		// Another format asked for by the output's name (a crashed .db3
		// saved as .mcap), a format that cannot repair itself, or a part
		// of a recording: every message that can be read, written in the
		// output's format.
		if f == nil || f.Write == nil {
			return nil, fmt.Errorf("bagscope cannot write a repaired %s file: name the output .mcap or .bag", src.FileInfo().Format)
		}
		return writeConverted(src, f, out, compression, chunkSize)
	}
	if cs, ok := r.(interface{ SetChunkSize(int) }); ok && chunkSize > 0 {
		cs.SetChunkSize(chunkSize)
	}
	return writeAtomically(out, func(w io.WriteSeeker) (*bag.RepairReport, error) { return r.Repair(w, compression) })
}

// WriteConverted writes every message of src as a new file at out in the
// format out's name ends with (.bag, .mcap), through a temporary file as
// WriteRepaired does. src may be a part of a recording (bag.Select).
func WriteConverted(src bag.Storage, out, compression string) (*bag.RepairReport, error) {
	f := bag.FormatFor(out)
	if f == nil || f.Write == nil {
		return nil, fmt.Errorf("%s: the output's name must end with the extension of a format bagscope writes (.bag or .mcap)", out)
	}
	return writeConverted(src, f, out, compression, 0)
}

// writeConverted writes src at out in format f, with chunks of chunkSize
// uncompressed bytes when not 0.
func writeConverted(src bag.Storage, f *bag.Format, out, compression string, chunkSize int) (*bag.RepairReport, error) {
	write := f.Write
	if chunkSize > 0 {
		sized, ok := sizedWriters[f.Name]
		if !ok {
			return nil, fmt.Errorf("a %s file has no chunks whose size can be chosen", f.Name)
		}
		write = func(w io.WriteSeeker, src bag.Storage, compression string) (*bag.RepairReport, error) {
			return sized(w, src, compression, chunkSize)
		}
	}
	rep, err := writeAtomically(out, func(w io.WriteSeeker) (*bag.RepairReport, error) { return write(w, src, compression) })
	if rep != nil {
		addScanLosses(rep, src.FileInfo().Scanned)
	}
	return rep, err
}

// sizedWriters write a format with a chosen chunk size, by format name
// (as bag.Formats lists it; a test keeps the names registered).
var sizedWriters = map[string]func(out io.WriteSeeker, src bag.Storage, compression string, chunkSize int) (*bag.RepairReport, error){
	"ROS 1 bag": func(out io.WriteSeeker, src bag.Storage, compression string, chunkSize int) (*bag.RepairReport, error) {
		return ros1.WriteFrom(out, src, ros1.WriterOptions{Compression: compression, ChunkThreshold: chunkSize})
	},
	"MCAP": func(out io.WriteSeeker, src bag.Storage, compression string, chunkSize int) (*bag.RepairReport, error) {
		return mcap.Write(out, src, mcap.WriteOptions{Compression: compression, ChunkSize: int64(chunkSize)})
	},
}

// addScanLosses adds to rep what reading src without its index could not
// use, when the writer did not report it already.
func addScanLosses(rep *bag.RepairReport, scan *bag.ScanInfo) {
	if scan == nil {
		return
	}
	for _, r := range scan.Skipped {
		if strings.HasPrefix(r.Why, "padding") { // zero padding held nothing
			continue
		}
		if !slices.ContainsFunc(rep.Lost, func(l bag.ByteRange) bool { return l.Start == r.Start && l.End == r.End }) {
			rep.Lost = append(rep.Lost, r)
		}
	}
	slices.SortFunc(rep.Lost, func(a, b bag.ByteRange) int { return int(a.Start - b.Start) })
	rep.LostMessages = max(rep.LostMessages, scan.LostMessages)
}

// writeAtomically runs write on a temporary file beside out and renames it
// into place once complete, so a failed write never leaves a half-written
// file. The copy is readable by all (0644), like any file the user saves.
func writeAtomically(out string, write func(io.WriteSeeker) (*bag.RepairReport, error)) (*bag.RepairReport, error) {
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return nil, err
	}
	pendingTemps.Store(tmp.Name(), struct{}{})
	defer func() {
		os.Remove(tmp.Name())
		pendingTemps.Delete(tmp.Name())
	}()
	rep, err := write(tmp)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return rep, err
	}
	return rep, os.Rename(tmp.Name(), out)
}

// pendingTemps holds the temporary files being written.
var pendingTemps sync.Map

// RemovePendingTemps removes the temporary files of writes in progress,
// for a program stopped by a signal before their deferred clean-up runs.
func RemovePendingTemps() {
	pendingTemps.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// SaveRepaired writes a repaired copy of an opened document to out, in its
// format, reading the file afresh so the document itself is left as it is.
func SaveRepaired(d *Document, out string) (*bag.RepairReport, error) {
	if err := CheckRepairOutput(d.Path, out, true); err != nil {
		return nil, err
	}
	if d.src == nil {
		return saveRepairedRecording(d, out)
	}
	src, err := bag.NewStorage(d.src, d.Size, d.Path)
	if err != nil {
		return nil, err
	}
	return WriteRepaired(src, out, "", 0)
}

// saveRepairedRecording repairs a document opened through bag.OpenWith (a
// folder, a zstd file), opened afresh: the one file it reads, or a
// recording of several files (a rosbag2 folder, a split set) whole, every
// message that can be read written into one file, as `bagscope fix` does.
func saveRepairedRecording(d *Document, out string) (*bag.RepairReport, error) {
	p := bag.Underlying(d.Storage).FileInfo().Path
	if m := bag.AsMulti(d.Storage); m != nil && len(m.Parts()) != 1 {
		p = d.Path
	}
	if p == "" {
		return nil, errors.New("the recording has no file to repair")
	}
	if err := CheckRepairOutput(p, out, true); err != nil {
		return nil, err
	}
	src, err := bag.OpenFile(p)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	FillDefinitions(src)
	return WriteRepaired(src, out, "", 0)
}

// Repairable reports whether a repaired copy of d can be written: by its
// format's own repair (ROS 1, MCAP), or, as `bagscope fix` does, by writing
// every message that can be read into a new file of the format of its
// files (a .db3, a rosbag2 folder or split set).
func Repairable(d *Document) bool {
	if _, ok := bag.Underlying(d.Storage).(bag.Repairer); ok {
		return true
	}
	f := bag.FormatFor(RepairedName(d))
	return f != nil && f.Write != nil
}

// RepairedName is the suggested name of d's repaired copy, beside it:
// "x.bag" (or "x.bag.active") gives "x-repaired.bag", "x.mcap"
// "x-repaired.mcap", a folder of .db3 files "folder-repaired.db3".
func RepairedName(d *Document) string {
	name := strings.TrimSuffix(d.Name, ".active")
	ext := filepath.Ext(name)
	if m := bag.AsMulti(d.Storage); m != nil && len(m.Names()) > 0 {
		ext = filepath.Ext(strings.TrimSuffix(m.Names()[0], ".zstd"))
		if st, err := os.Stat(d.Path); err == nil && st.IsDir() || filepath.Base(d.Path) == "metadata.yaml" {
			name = filepath.Base(strings.TrimSuffix(d.Path, "/metadata.yaml")) + ext
		}
	}
	if ext == ".zstd" {
		name = strings.TrimSuffix(name, ext)
		ext = filepath.Ext(name)
	}
	if ext == "" {
		ext = ".bag"
	}
	return strings.TrimSuffix(name, ext) + "-repaired" + ext
}

// StageCheck is the progress stage of CheckDocument.
const StageCheck = "checking"

// CheckDocument runs the doctor of the document's format on its file. It
// reports progress in the format's units and stops with ctx's error when
// ctx is cancelled. progress may be nil.
func CheckDocument(ctx context.Context, d *Document, progress ProgressFunc) (*bag.CheckReport, error) {
	var p func(done, total int64)
	if progress != nil {
		p = func(done, total int64) { progress(done, total, StageCheck) }
	}
	if d.src == nil { // a recording of several files, or a decompressed copy
		return d.Storage.Check(ctx, p)
	}
	return bag.CheckReader(ctx, d.src, d.Size, p)
}
