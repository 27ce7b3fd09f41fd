package records

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"github.com/bagscope/bagscope/bag"
)

// savable returns, for a record whose payload a user may want as a file
// (an MCAP attachment or metadata record), the payload's byte range in the
// record and a file name to suggest; ok is false for other records.
func savable(r *bag.Record) (start, end int64, name string, ok bool) {
	if r == nil || r.Damaged {
		return 0, 0, "", false
	}
	var payload *bag.RecordField
	for i := range r.Fields {
		f := &r.Fields[i]
		switch {
		case f.Name == "name":
			if s, err := strconv.Unquote(f.Value); err == nil {
				name = s
			} else {
				name = f.Value
			}
		case r.Kind == "attachment" && f.Name == "data", r.Kind == "metadata" && f.Name == "metadata":
			payload = f
		}
	}
	if payload == nil {
		return 0, 0, "", false
	}
	name = filepath.Base(strings.TrimSpace(name))
	if name == "." || name == "/" || name == "" {
		name = r.Kind
	}
	start, end = payload.Start, payload.End
	switch r.Kind {
	case "attachment":
		start += 8 // the data's u64 length
	case "metadata":
		name += ".yaml"
	}
	if start > end {
		return 0, 0, "", false
	}
	return start, end, name, true
}

// metadataYAML turns an MCAP metadata map (u32 byte length, then each key
// and value as u32 length and bytes) into YAML text, multi-line values as
// literal blocks.
func metadataYAML(b []byte) ([]byte, error) {
	le := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 | int(p[3])<<24 }
	str := func() (string, error) {
		if len(b) < 4 || le(b) > len(b)-4 || le(b) < 0 {
			return "", fmt.Errorf("the metadata map is cut short")
		}
		n := le(b)
		s := string(b[4 : 4+n])
		b = b[4+n:]
		return s, nil
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("the metadata map is cut short")
	}
	b = b[4:]
	var out strings.Builder
	for len(b) > 0 {
		k, err := str()
		if err != nil {
			return nil, err
		}
		v, err := str()
		if err != nil {
			return nil, err
		}
		if strings.Contains(v, "\n") {
			fmt.Fprintf(&out, "%s: |\n", strconv.Quote(k))
			for _, line := range strings.Split(strings.TrimRight(v, "\n"), "\n") {
				fmt.Fprintf(&out, "  %s\n", line)
			}
			continue
		}
		fmt.Fprintf(&out, "%s: %s\n", strconv.Quote(k), strconv.Quote(v))
	}
	return []byte(out.String()), nil
}

// saveRecordPayload asks where to save the selected record's payload and
// writes it there: an attachment's data as it is, a metadata record's
// map (as the record stores it: each key's and value's length and bytes).
func (p *recordsPanel) saveRecordPayload() {
	rec := p.rec
	start, end, name, ok := savable(rec)
	c := fyne.CurrentApp().Driver().CanvasForObject(p.content)
	var win fyne.Window
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if w.Canvas() == c {
			win = w
		}
	}
	if !ok || win == nil {
		return
	}
	src := p.level().set.ReaderAt()
	off := rec.Offset + start
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil || wc == nil {
			return
		}
		defer wc.Close()
		var r io.Reader = io.NewSectionReader(src, off, end-start)
		if rec.Kind == "metadata" {
			b, err := io.ReadAll(r)
			if err == nil {
				b, err = metadataYAML(b)
			}
			if err != nil {
				dialog.ShowError(fmt.Errorf("reading the metadata record at %d: %w", rec.Offset, err), win)
				return
			}
			r = strings.NewReader(string(b))
		}
		if _, err := io.Copy(wc, r); err != nil {
			dialog.ShowError(fmt.Errorf("writing %s: %w", wc.URI().Path(), err), win)
		}
	}, win)
	d.SetFileName(name)
	if p.d.Path != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(p.d.Path))); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
}
