package bag

import "fmt"

// NeedsScan says, from a few reads of each of its files (the header, the
// footer), why opening the recording at path would read a file whole: no
// index or summary, or a cut one. nil when every file has its index, or
// when path cannot be read (opening it says why). A folder (rosbag2, or
// an S3 prefix) is asked file by file. A library lists such recordings
// without reading them, until asked to.
func NeedsScan(path string) error {
	fsys := FSFor(path)
	st, err := fsys.Stat(path)
	if err != nil {
		return nil
	}
	files := []string{path}
	if st.IsDir() {
		if files, err = RecordingFiles(path); err != nil {
			return nil
		}
	}
	for _, name := range files {
		f, err := fsys.Open(name)
		if err != nil {
			continue
		}
		var reason error
		if fi, err := f.Stat(); err == nil {
			reason = needsScan(f, fi.Size(), name)
		}
		f.Close()
		if reason != nil {
			if len(files) > 1 {
				return fmt.Errorf("%s: %w", Base(name), reason)
			}
			return reason
		}
	}
	return nil
}
