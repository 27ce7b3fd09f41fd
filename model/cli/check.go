package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
)

// Exit statuses of check, from the table every command shares.
const (
	checkClean      = ExitOK       // no errors (warnings and infos allowed)
	checkErrors     = ExitProblems // at least one error
	checkUnreadable = ExitUsage    // not a recording, or not readable at all
)

// checkJSON is the `check --json` object.
type checkJSON struct {
	Path string `json:"path"`
	// OK is true when check found no error (warnings and infos allowed).
	OK bool `json:"ok"`
	// Verdict is "ok", "errors" or "unreadable" (not a recording).
	Verdict string `json:"verdict"`
	// Messages counts the messages the recording yields when read, as
	// info, verify and fix count them (a cut chunk's salvaged ones too);
	// MessagesInChunks those of the chunks the doctor found complete.
	Messages         uint64        `json:"messages"`
	MessagesInChunks uint64        `json:"messages_in_chunks"`
	Errors           int           `json:"errors"`
	Warnings         int           `json:"warnings"`
	Findings         []findingJSON `json:"findings"`
	// Lost is what the recording lost, as every command reports it.
	Lost lossJSON `json:"lost"`
	// Unverified lists the byte ranges no checksum covers: read, but
	// damage inside them could go unseen.
	Unverified []unverifiedJSON `json:"unverified"`
	// Error is why the file could not be checked at all.
	Error string `json:"error,omitempty"`
}

type unverifiedJSON struct {
	File string `json:"file"`
	From int64  `json:"from"`
	To   int64  `json:"to"`
	Why  string `json:"why"`
}

type findingJSON struct {
	Severity string `json:"severity"`
	// File names the file of a recording of several that Offset is in.
	File    string `json:"file,omitempty"`
	Offset  int64  `json:"offset"`
	Op      string `json:"op"`
	Message string `json:"message"`
}

func newCheck(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "check [flags] FILE",
		Short: "cross-check every record of a recording and list what is wrong, with offsets",
		Long: `check is the doctor: header against index, chunk infos against chunks, index entries against
message records, chunk sizes and checksums, connections, md5sums against definitions, every message
decoded against its definition and every header.stamp looked at (in 1970, after its receive time
or now, going backwards) (--quick skips both), time order, overlaps, padding, junk and truncation. Each finding has a severity and a byte offset. Exit 1 when anything recorded was lost (or a message
is suspect), 0 when nothing was: damage that lost no message (an index or summary rebuilt from the
records, a free page) is then a warning. Exit 2 when the file is not a recording (--json then holds one
error finding and "error").`,
		Example: `  bagscope check x.bag
  bagscope check --quick --json crashed_0.db3`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	asJSON := c.Flags().Bool("json", false, `print {"findings": [{"severity","offset","op","message"}, ...]} (and "error" when the file cannot be checked)`)
	quick := c.Flags().Bool("quick", false, "check the file's structure only, without decoding every message against its definition")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		return status(runCheck(args[0], *asJSON, *quick, e.stdout, e.stderr))
	}
	return c
}

func runCheck(path string, asJSON, quick bool, stdout, stderr io.Writer) int {
	// A file that cannot be checked at all is one error finding at the
	// offset the error names (0 for a file that is not a recording).
	unreadable := func(err error) int {
		if asJSON {
			json.NewEncoder(stdout).Encode(checkJSON{
				Path: bag.Shown(path), Verdict: "unreadable", Errors: 1,
				Findings: []findingJSON{{Severity: "error", Offset: errOffset(err), Message: err.Error()}},
				Lost:     noLoss(), Unverified: []unverifiedJSON{},
				Error: err.Error(),
			})
		}
		fail(stderr, path, err)
		return checkUnreadable
	}
	// check reads all of a recording: a remote one is read whole, by
	// consent of the command itself (no --allow-remote-scan needed).
	open := bag.OpenOptions{AllowRemoteScan: true}
	fsys := bag.FSFor(path)
	st, err := fsys.Stat(path)
	if err != nil {
		return unreadable(err)
	}
	// A folder, a metadata.yaml or a compressed file is a recording the
	// seam opens as a whole, then checks file by file.
	recording := st.IsDir() || !bag.IsPlainFile(path)
	var f bag.File
	if !recording {
		if f, err = fsys.Open(path); err != nil {
			return unreadable(err)
		}
		defer f.Close()
	}
	ctx := context.Background()
	if quick {
		ctx = bag.WithQuickCheck(ctx)
	}
	pl := newProgress(stderr, "checking")
	var rep *bag.CheckReport
	var s bag.Storage // the opened recording, when it opens
	readable := uint64(0)
	// visited: the doctor's pass hands the messages to the payload
	// check, dropped of them not (see bag.SurveyVisited).
	var visited bool
	var dropped atomic.Uint64
	if recording {
		rs, oerr := model.OpenStorageWith(path, open)
		if oerr != nil {
			pl.end()
			return unreadable(oerr)
		}
		rep, err = model.CheckStorage(ctx, rs, pl.update)
		readable = summaryMessages(rs)
		s = rs
		defer rs.Close()
	} else {
		// The format's doctor reads the raw file; the messages are
		// decoded against the opened recording's definitions, when it
		// opens: by the doctor as it decompresses them, if it can
		// (bag.WithMessageVisitor), else in a pass of their own.
		var pc *model.PayloadCheck
		var sc *model.StampCheck
		// own: the doctor decodes the payloads itself (ROS 1's) and
		// runs on the opened recording, handing the stamps their
		// messages as it reads them (model.CheckStorage).
		own := false
		if !quick {
			if o, oerr := model.OpenStorageWith(path, open); oerr == nil {
				s = o
				defer s.Close()
				switch {
				case !checksPayloads(s):
					pc, sc = model.NewPayloadCheck(s), model.NewStampCheck(s)
					ctx = bag.WithMessageVisitor(ctx, bag.DecompressingVisitorCounting(model.Visitors(pc.Visit, sc.Visit), &dropped))
					visited = true
				case oneReadPass && bag.DoctorVisits(s):
					own, visited = true, true
				}
			}
		}
		if own {
			rep, err = model.CheckStorage(ctx, s, pl.update)
		} else {
			rep, err = bag.CheckReader(ctx, f, st.Size(), pl.update)
		}
		switch {
		case err != nil || s == nil || own:
		case checksPayloads(s):
			// The doctor decoded the payloads; the stamps take a pass.
			rep, err = model.AddStampFindings(ctx, rep, s)
		default:
			rep, err = model.AddContentFindings(ctx, rep, s, pc, sc)
		}
	}
	pl.end()
	if err != nil {
		return unreadable(err)
	}
	if !recording {
		if s == nil {
			if o, oerr := model.OpenStorage(path); oerr == nil {
				s = o
				defer s.Close()
			}
		}
		if s != nil {
			readable = summaryMessages(s)
		}
	}
	// What the recording lost, as every command says it: from reading
	// every message (--quick: from opening it).
	lost := &loss{d: &bag.Damage{Messages: bag.Exactly(0)}}
	if s != nil {
		notePartOf(stderr, path)
		if quick {
			lost = fileLoss(s)
		} else {
			survey := bag.SurveyWithReport
			if visited && oneReadPass {
				// When the doctor's pass read what a read would,
				// the recording is not read again.
				if bag.SurveyedByDoctor(s, rep, dropped.Load()) {
					checkReadsSpared.Add(1)
				}
				survey = func(ctx context.Context, s bag.Storage, rep *bag.CheckReport, progress func(done, total int64)) (*bag.Damage, map[uint32]uint64, error) {
					return bag.SurveyVisited(ctx, s, rep, dropped.Load(), progress)
				}
			}
			d, _, serr := survey(context.Background(), s, rep, nil)
			if serr != nil {
				return unreadable(serr)
			}
			lost = &loss{d: d}
		}
	}
	if s != nil {
		settleSeverities(rep, lost)
	}
	if asJSON {
		out := checkJSON{Path: bag.Shown(path), OK: rep.Errors() == 0 && !lost.any(), Verdict: "ok", Messages: readable, MessagesInChunks: rep.Messages,
			Errors: rep.Errors(), Findings: []findingJSON{}, Lost: lost.json(), Unverified: []unverifiedJSON{}}
		if !out.OK {
			out.Verdict = "errors"
		}
		for _, r := range lost.d.Unverified {
			out.Unverified = append(out.Unverified, unverifiedJSON{r.File, r.Start, r.End, r.Why})
		}
		for _, f := range rep.Findings {
			op := strings.ReplaceAll(f.Record, " ", "_")
			sev := f.Severity.String()
			if sev == "warning" {
				out.Warnings++
			}
			file := ""
			if f.File != "" {
				file = filepath.Base(f.File)
			}
			out.Findings = append(out.Findings, findingJSON{sev, file, f.Offset, op, f.Message})
		}
		json.NewEncoder(stdout).Encode(out)
	} else {
		for _, f := range rep.Findings {
			fmt.Fprintf(stdout, "%-7s %s: %s\n", f.Severity, findingPlace(f), f.Message)
		}
		printUnverified(stdout, lost.d)
		fmt.Fprintf(stdout, "%s: %d messages (%d in complete chunks); %d errors, %d findings in all\n", path, readable, rep.Messages, rep.Errors(), len(rep.Findings))
	}
	lost.print(stderr, path)
	if rep.Errors() > 0 || lost.any() {
		return checkErrors
	}
	return checkClean
}

// checkReadsSpared counts the checks whose doctor's pass stood for the
// read that says what the recording lost (bag.SurveyVisited), for the
// tests to see that it is taken.
var checkReadsSpared atomic.Int64

// settleSeverities makes check's exit status say what every command's
// says (issue 22): 1 when anything recorded was lost, 0 when nothing was.
// A message that does not decode against its definition is suspect, so a
// loss (l.Undecoded, from the doctor's count). When the recording lost nothing, what the doctor
// calls an error (an index, a summary or a header that had to be rebuilt
// from the records) damaged no message: it is a warning.
func settleSeverities(rep *bag.CheckReport, l *loss) {
	l.Undecoded += int(rep.Undecoded)
	if l.any() {
		return
	}
	for i := range rep.Findings {
		if rep.Findings[i].Severity == bag.Error {
			rep.Findings[i].Severity = bag.Warning
		}
	}
}

// printUnverified says which byte ranges no checksum covers (the first
// few, then how many more and their bytes).
func printUnverified(w io.Writer, d *bag.Damage) {
	var total int64
	for i, r := range d.Unverified {
		total += r.End - r.Start
		if i < maxLossLines {
			fmt.Fprintf(w, "info    %s offset %d: bytes %d..%d cannot be verified: %s\n", filepath.Base(r.File), r.Start, r.Start, r.End, r.Why)
		}
	}
	if n := len(d.Unverified); n > maxLossLines {
		r := d.Unverified[maxLossLines]
		fmt.Fprintf(w, "info    %s offset %d: ... and %d more ranges no checksum covers (%s in all)\n", filepath.Base(r.File), r.Start, n-maxLossLines, human.Size(total))
	}
}

// errOffset returns the byte offset an error names: the Offset field of
// the first error in its chain that has one (every format's FormatError
// does), else 0.
func errOffset(err error) int64 {
	for e := err; e != nil; e = errors.Unwrap(e) {
		v := reflect.ValueOf(e)
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				break
			}
			v = v.Elem()
		}
		if v.Kind() == reflect.Struct {
			if f := v.FieldByName("Offset"); f.IsValid() && f.CanInt() {
				return f.Int()
			}
		}
	}
	return 0
}

// checksPayloads reports whether s's own doctor decodes every message
// (ROS 1's does).
func checksPayloads(s bag.Storage) bool {
	pc, ok := bag.Underlying(s).(interface{ ChecksPayloads() bool })
	return ok && pc.ChecksPayloads()
}

// summaryMessages is the number of messages s yields when read, as info
// counts them.
func summaryMessages(s bag.Storage) uint64 {
	if sum, _ := s.Summary(); sum != nil {
		return sum.Messages
	}
	return 0
}

// findingPlace says where a finding is, as the window's Findings tab does
// (ui/findings): "offset 4117 (chunk)", with the file of a recording of
// several ("wbag_1.db3 offset 4117 (page)"), or "recording" for a finding
// about the whole recording (metadata that disagrees, a file missing),
// never "offset 0".
func findingPlace(f bag.Finding) string {
	if f.File == "" && f.Offset == 0 && f.Record == "" {
		return "recording"
	}
	place := fmt.Sprintf("offset %d", f.Offset)
	if f.Record != "" {
		place += " (" + f.Record + ")"
	}
	if f.File != "" {
		place = filepath.Base(f.File) + " " + place
	}
	return place
}
