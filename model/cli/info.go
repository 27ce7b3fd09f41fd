package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/stats"
)

// ros1Format is the Format of a ROS 1 bag.
const ros1Format = "ROS 1 bag"

// infoJSON is the `info --json` object.
type infoJSON struct {
	Path    string   `json:"path"`
	Format  string   `json:"format"`
	Version string   `json:"version"`
	Size    int64    `json:"size"`
	Indexed bool     `json:"indexed"`
	Start   timeJSON `json:"start"`
	End     timeJSON `json:"end"`
	// Duration is End - Start in seconds.
	Duration float64 `json:"duration"`
	Messages uint64  `json:"messages"`
	// Counted says where the counts come from: "index" (the recording's
	// index or summary, trusted because opening found no damage) or
	// "read" (every message was read: the recording is unindexed, cut or
	// damaged, or --read-all asked).
	Counted     string          `json:"counted,omitempty"`
	Chunks      int             `json:"chunks"`
	Compression map[string]int  `json:"compression"`
	Topics      []topicInfoJSON `json:"topics"`
	// Error is why the file could not be read.
	Error string `json:"error,omitempty"`
	// Lost is what could not be read (every command's "lost").
	Lost *lossJSON `json:"lost,omitempty"`
	// Fetched is what reading a remote recording fetched (absent for a
	// local one).
	Fetched *fetchedJSON `json:"fetched,omitempty"`
	// Services are the services whose events the recording holds, and
	// Actions its actions (absent without; see serviceInfoJSON).
	Services []serviceInfoJSON `json:"services,omitempty"`
	Actions  []actionInfoJSON  `json:"actions,omitempty"`
}

type topicInfoJSON struct {
	Topic    string `json:"topic"`
	Type     string `json:"type"`
	MD5Sum   string `json:"md5sum"`
	Messages uint64 `json:"messages"`
	// Claimed is what the recording's index or summary counts, when it
	// is not what was read.
	Claimed     *uint64 `json:"claimed,omitempty"`
	Connections int     `json:"connections"`
	// The topic's rate and timing statistics, from the message index,
	// with --freq only.
	*topicStatsJSON
}

func newInfo(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "info [flags] FILE",
		Short: "print a summary of a recording (topics, types, counts, times, chunks)",
		Long: `info prints what rosbag info prints for a ROS 1 bag, and the same summary for MCAP files and
rosbag2 folders: format, duration, start and end, size, message count, compression, chunks, types
and topics. A recording that is unindexed, cut or damaged is read by scanning it, and what the scan
found is listed; what could not be read is said on stderr with its byte offset (exit 1).`,
		Example: `  bagscope info x.bag
  bagscope info x.bag --freq         # each topic's rate, intervals, jitter and gaps
  bagscope info rosbag2_folder/ --json`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	asJSON := c.Flags().Bool("json", false, "print one JSON object (with each topic's rate and timing statistics)")
	freq := c.Flags().Bool("freq", false, "print each topic's rate as rosbag info --freq does, with its intervals, jitter, gaps and active span")
	readAll := c.Flags().Bool("read-all", false, "read every message, so the counts are what was read and damage inside a chunk or page is found (info trusts an intact index otherwise; an unindexed, cut or damaged recording is always read)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		return status(runInfo(args[0], *asJSON, *freq, *readAll, e.openOptions(), e.stdout, e.stderr))
	}
	return c
}

// Where info's counts come from (infoJSON.Counted).
const (
	countedIndex = "index"
	countedRead  = "read"
)

// mustSurvey reports whether info reads every message of b rather than
// trust its index or summary: when opening found it unindexed, cut or
// damaged (d, what opening found, holds a lost range or a claim it could
// not meet). A remote recording is read whole only with the user's
// consent (--allow-remote-scan).
func mustSurvey(b bag.Storage, d *bag.Damage, path string, o bag.OpenOptions) bool {
	if bag.IsURL(path) && !o.AllowRemoteScan {
		return false
	}
	if b.FileInfo().Scanned != nil || d.MissingFiles > 0 || len(d.Ranges) > 0 || d.Suspect > 0 {
		return true
	}
	return d.Claim != nil && d.Claim.Messages != d.Read
}

func runInfo(path string, asJSON, freq, readAll bool, o bag.OpenOptions, stdout, stderr io.Writer) int {
	failJSON := func(err error) int {
		if asJSON {
			json.NewEncoder(stdout).Encode(infoJSON{Path: bag.Shown(path), Compression: map[string]int{}, Topics: []topicInfoJSON{}, Error: err.Error(), Fetched: fetchedObject()})
		}
		return fail(stderr, path, err)
	}
	b, err := bag.OpenFileWith(path, o)
	if err != nil {
		failJSON(err)
		return ExitUsage
	}
	defer b.Close()
	notePartOf(stderr, path)
	s, err := b.Summary()
	if err != nil {
		return failJSON(err)
	}
	// The counts come from the index or summary when the recording's
	// opening trusts it: reading every message costs seconds on a large
	// recording and the whole file over a URL. A recording that opening
	// found unindexed, cut or damaged (or --read-all) is read message by
	// message, so its counts are what was read and damage inside a chunk
	// or page is found, as cat and verify find it.
	d := bag.DamageOf(b)
	counted := countedIndex
	claimed := map[string]uint64{}
	if readAll || mustSurvey(b, d, path, o) {
		pl := newProgress(stderr, "reading")
		var read map[uint32]uint64
		d, read, err = bag.Survey(context.Background(), b, pl.update)
		pl.end()
		if err != nil {
			return failJSON(err)
		}
		claimed = readCounts(s, read)
		counted = countedRead
	}
	var set *stats.Set
	if freq {
		// From the index records: no message is decompressed.
		if set, err = computeStats(b); err != nil {
			return failJSON(err)
		}
	}
	// The services' calls and the actions' goals, from their events.
	svc, svcErr := readServices(b, path, o, stderr)
	// A damaged file's summary counts what could be read; what could not
	// is said on stderr too, and the exit status is 1, as every command
	// reports it.
	lost := &loss{d: d}
	status := 0
	if asJSON {
		status = printInfoJSON(stdout, s, set, lost, claimed, counted, svc)
	} else {
		printInfo(stdout, b, s, set, svc)
	}
	if svcErr != nil {
		fmt.Fprintf(stderr, "bagscope: %s: offset 0: reading the service events stopped (the counts are those read before): %v\n", path, svcErr)
		status = 1
	}
	printClaims(stderr, path, s, claimed)
	if lost.any() {
		lost.print(stderr, path)
		status = 1
	}
	return status
}

// readCounts makes the summary's message counts those read, and returns
// what the index or summary claimed for each topic where it claimed
// another number.
func readCounts(s *bag.Summary, read map[uint32]uint64) map[string]uint64 {
	claimed := map[string]uint64{}
	var total uint64
	for i := range s.Topics {
		t := &s.Topics[i]
		var n uint64
		for _, c := range t.Connections {
			n += read[c.ID]
		}
		if n != t.Messages {
			claimed[t.Topic] = t.Messages
			t.Messages = n
		}
		total += n
	}
	s.Messages = total
	s.ConnMessages = read
	return claimed
}

// printClaims says, for each topic whose count read differs from what the
// recording claims, both numbers.
func printClaims(stderr io.Writer, path string, s *bag.Summary, claimed map[string]uint64) {
	for _, t := range s.Topics {
		if c, ok := claimed[t.Topic]; ok {
			fmt.Fprintf(stderr, "bagscope: %s: offset 0: %s: %s read; the recording's index or summary counts %s\n", path, t.Topic, human.Plural(t.Messages, "message"), human.Count(c))
		}
	}
}

func printInfoJSON(w io.Writer, s *bag.Summary, set *stats.Set, lost *loss, claimed map[string]uint64, counted string, svc *services.Report) int {
	out := infoJSON{
		Path: s.Path, Format: s.Format, Version: s.Version, Size: s.Size, Indexed: s.Indexed, Counted: counted,
		Start: toTimeJSON(s.Start), End: toTimeJSON(s.End), Duration: float64(s.End.Nanos()-s.Start.Nanos()) / 1e9,
		Messages: s.Messages, Chunks: s.Chunks, Compression: s.Compression,
		Topics: []topicInfoJSON{},
	}
	lj := lost.json()
	out.Lost = &lj
	out.Fetched = fetchedObject()
	out.Services, out.Actions = servicesJSON(svc)
	for _, t := range s.Topics {
		tj := topicInfoJSON{Topic: t.Topic, Type: t.Type, MD5Sum: t.MD5Sum, Messages: t.Messages, Connections: len(t.Connections)}
		if c, ok := claimed[t.Topic]; ok {
			tj.Claimed = &c
		}
		if set != nil {
			st := statsJSON(set.Topic(t.Topic))
			tj.topicStatsJSON = &st
		}
		out.Topics = append(out.Topics, tj)
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(out); err != nil {
		return 1
	}
	return 0
}

// printInfo prints the summary; with set (info --freq), each topic's rate
// and timing statistics too.
func printInfo(w io.Writer, b bag.Storage, s *bag.Summary, set *stats.Set, svc *services.Report) {
	fi := b.FileInfo()
	if s.Format == ros1Format && len(fi.Files) == 0 {
		printRosbagInfo(w, b, s, set)
		if set != nil {
			printStats(w, s, set)
		}
		return
	}
	if !strings.HasPrefix(s.Format, "ROS 1") {
		printROS2Info(w, b, s, set, svc)
		if set != nil {
			printStats(w, s, set)
		}
		return
	}
	line := func(k, format string, args ...any) {
		fmt.Fprintf(w, "%-13s "+format+"\n", append([]any{k + ":"}, args...)...)
	}
	line("path", "%s", s.Path)
	format := s.Format
	if fi.Profile != "" {
		format += " (" + fi.Profile + " profile)"
	}
	line("format", "%s", format)
	line("version", "%s", s.Version)
	if s.Messages > 0 || s.Chunks > 0 {
		dur := s.End.Sub(s.Start)
		line("duration", "%s", humanDuration(dur))
		line("start", "%s", humanTime(s.Start))
		line("end", "%s", humanTime(s.End))
	}
	line("size", "%s", humanSize(float64(s.Size)))
	line("messages", "%d", s.Messages)
	if s.Chunks > 0 {
		line("compression", "%s", compressionLine(s))
		if s.UncompressedBytes > 0 && s.CompressedBytes != s.UncompressedBytes {
			line("uncompressed", "%s", humanSize(float64(s.UncompressedBytes)))
			line("compressed", "%s (%.2f%%)", humanSize(float64(s.CompressedBytes)), 100*float64(s.CompressedBytes)/float64(s.UncompressedBytes))
		}
	}
	line("chunks", "%d", s.Chunks)
	line("indexed", "%s", yesNo(s.Indexed))
	if st, ok := fetched(); ok {
		line("fetched", "%s", fetchedText(st))
	}
	if r := fi.Scanned; r != nil {
		printScan(w, r, s.Size)
	}
	printTypes(w, s)
	printTopics(w, s, rateColumn(s, set))
	if set != nil {
		printStats(w, s, set)
	}
}

func compressionLine(s *bag.Summary) string {
	names := s.CompressionNames()
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s [%d/%d chunks]", n, s.Compression[n], s.Chunks)
	}
	return strings.Join(parts, ", ")
}

func printTypes(w io.Writer, s *bag.Summary) {
	width := 0
	for _, t := range s.Types {
		width = max(width, len(t.Type))
	}
	for i, t := range s.Types {
		label := "types:"
		if i > 0 {
			label = ""
		}
		if t.MD5Sum == "" { // ROS 2 types have no md5sum
			fmt.Fprintf(w, "%-13s %s\n", label, t.Type)
			continue
		}
		fmt.Fprintf(w, "%-13s %-*s [%s]\n", label, width, t.Type, t.MD5Sum)
	}
}

// printTopics lists the topics; rates, when not nil, holds each one's
// " @ 50.0 Hz" (see rateColumn).
func printTopics(w io.Writer, s *bag.Summary, rates map[string]string) {
	tw, cw := 0, 0
	for _, t := range s.Topics {
		tw = max(tw, len(t.Topic))
		cw = max(cw, len(fmt.Sprint(t.Messages)))
	}
	for i, t := range s.Topics {
		label := "topics:"
		if i > 0 {
			label = ""
		}
		typ := t.Type
		if len(t.Types) > 0 {
			typ = strings.Join(t.Types, ", ")
		}
		extra := ""
		if n := len(t.Connections); n > 1 {
			extra = fmt.Sprintf(" (%d connections)", n)
		}
		fmt.Fprintf(w, "%-13s %-*s %*d msgs%s : %s%s\n", label, tw, t.Topic, cw, t.Messages, rates[t.Topic], typ, extra)
	}
}

// printScan says what scanning an unindexed or damaged file found.
func printScan(w io.Writer, r *bag.ScanInfo, size int64) {
	fmt.Fprintf(w, "%-13s %s\n", "scanned:", r.Reason)
	for _, e := range r.Extents(size) {
		fmt.Fprintf(w, "%-13s %s\n", "", parsedWords(e))
	}
	if r.LostMessages > 0 {
		fmt.Fprintf(w, "%-13s %s\n", "", knownLostWords(r))
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "%-13s skipped %s\n", "", s)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "%-13s %s\n", "", n)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
