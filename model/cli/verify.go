package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/human"
)

// maxProblems is how many index problems verify prints; the rest are counted.
const maxProblems = 50

// castagnoli is the CRC-32C table (hardware-accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// verifyJSON is the `verify --json` object.
type verifyJSON struct {
	Path         string            `json:"path"`
	Messages     uint64            `json:"messages"`
	Bytes        uint64            `json:"bytes"`
	IndexEntries uint64            `json:"index_entries"`
	Topics       []topicVerifyJSON `json:"topics"`
	Problems     []string          `json:"problems"`
	// Lost is what could not be read (scan and iterator).
	Lost lossJSON `json:"lost"`
	OK   bool     `json:"ok"`
	// Error is why the file could not be verified at all.
	Error string `json:"error,omitempty"`
}

type topicVerifyJSON struct {
	Topic    string `json:"topic"`
	Messages uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
	CRC32C   string `json:"crc32c"`
}

// topicStats accumulates one topic's messages in time order.
type topicStats struct {
	topic    string
	messages uint64
	bytes    uint64
	crc      uint32
}

// verifyResult is what verify found.
type verifyResult struct {
	topics       []*topicStats // sorted by topic
	messages     uint64
	bytes        uint64
	indexEntries uint64
	problems     []error // sorted by chunk and offset; at most maxProblems
	moreProblems int
	lost         *loss
}

func newVerify(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "verify [flags] FILE",
		Short: "read every message, check the index, print per-topic counts, bytes and CRC-32C",
		Long: `verify reads every message, checks each index entry against its record, and prints per topic the
count, payload bytes and a CRC-32C of the payloads, so an original and its repaired or converted
copy can be compared. Exit 1 when anything recorded was lost (listed on stderr, and in --json as
"lost"); index problems that lost no message are listed but exit 0.`,
		Example: `  bagscope verify x.bag
  bagscope verify repaired.bag --topics /imu --json`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	asJSON := c.Flags().Bool("json", false, "print one JSON object")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		return runVerify(args[0], sel, *asJSON, e.openOptions(), e.stdout, e.stderr)
	}
	return c
}

func runVerify(path string, sel *selection, asJSON bool, o bag.OpenOptions, stdout, stderr io.Writer) error {
	// Like the other commands, verify reads an unindexed, cut or damaged
	// bag by scanning it (and says so), instead of refusing it.
	b, err := bag.OpenFileWith(path, o)
	if err != nil {
		if asJSON {
			json.NewEncoder(stdout).Encode(verifyJSON{Path: bag.Shown(path), Topics: []topicVerifyJSON{}, Problems: []string{}, Lost: noLoss(), Error: err.Error()})
		}
		return status(failOpen(stderr, path, err))
	}
	defer b.Close()
	vouchReads(b) // for the doctor after the read (readLoss)
	notePartOf(stderr, path)
	f, err := sel.resolve(b)
	if err != nil {
		return err
	}
	if r := b.FileInfo().Scanned; r != nil {
		fmt.Fprintf(stderr, "bagscope: %s: read by scanning: %v\n", path, r.Reason)
	}
	pl := newProgress(stderr, "verifying")
	res, err := verify(b, f, pl.update)
	pl.end()
	if err != nil {
		return status(fail(stderr, path, err))
	}
	sel.noteEmpty(stderr, path, res.messages)
	if asJSON {
		out := verifyJSON{Path: bag.Shown(path), Messages: res.messages, Bytes: res.bytes, IndexEntries: res.indexEntries,
			Topics: []topicVerifyJSON{}, Problems: []string{}, Lost: res.lost.json(), OK: !res.lost.any()}
		for _, t := range res.topics {
			out.Topics = append(out.Topics, topicVerifyJSON{t.topic, t.messages, t.bytes, fmt.Sprintf("%08x", t.crc)})
		}
		for _, p := range res.problems {
			out.Problems = append(out.Problems, p.Error())
		}
		if res.moreProblems > 0 {
			out.Problems = append(out.Problems, fmt.Sprintf("... and %d more", res.moreProblems))
		}
		if err := json.NewEncoder(stdout).Encode(out); err != nil {
			return status(ExitProblems)
		}
	} else {
		printVerify(stdout, path, res)
	}
	for _, p := range res.problems {
		fmt.Fprintf(stderr, "bagscope: %s: %v\n", path, p)
	}
	if res.moreProblems > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: ... and %d more index problems\n", path, res.moreProblems)
	}
	res.lost.print(stderr, path)
	// Index problems that lost no message are said, but only a loss
	// makes the exit status 1, as in every command.
	if res.lost.any() {
		return status(ExitProblems)
	}
	return nil
}

func printVerify(w io.Writer, path string, res *verifyResult) {
	tw := len("total")
	for _, t := range res.topics {
		tw = max(tw, len(t.topic))
	}
	fmt.Fprintf(w, "path: %s\n", path)
	fmt.Fprintf(w, "%-*s %10s %14s  %s\n", tw, "topic", "messages", "bytes", "crc32c")
	for _, t := range res.topics {
		fmt.Fprintf(w, "%-*s %10d %14d  %08x\n", tw, t.topic, t.messages, t.bytes, t.crc)
	}
	fmt.Fprintf(w, "%-*s %10d %14d\n", tw, "total", res.messages, res.bytes)
	status := "ok"
	if n := len(res.problems) + res.moreProblems; n > 0 {
		status = fmt.Sprintf("%d problems", n)
	}
	fmt.Fprintf(w, "index: %d entries checked, %s\n", res.indexEntries, status)
	if l := res.lost; l.any() {
		fmt.Fprintf(w, "lost: %s (listed on stderr)\n", human.DamageHeadline(l.d))
	}
}

// selectConns returns the connections on topics (all when topics is
// empty), by ID.
func selectConns(b bag.Storage, topics []string) []*bag.Connection {
	var out []*bag.Connection
	for _, c := range b.Connections() {
		if len(topics) == 0 || slices.Contains(topics, c.Topic) {
			out = append(out, c)
		}
	}
	return out
}

// verify reads every selected message in time order, adding it to its
// topic's count, byte total and CRC, and checks the index against what was
// read: for a ROS 1 bag each chunk's index data against the chunk's records
// as the iterator decompresses it, for other formats each block's index
// entries against the messages read. progress, if not nil, hears of the
// messages read out of those the index counts.
func verify(b bag.Storage, f bag.MessageFilter, progress func(done, total int64)) (*verifyResult, error) {
	topics := f.Topics
	it := b.Messages(f)
	defer it.Close()
	res := &verifyResult{}
	selectedConns := selectConns(b, topics)

	// Per connection: its topic's stats and its message count, found by ID
	// without a map lookup per message.
	byTopic := map[string]*topicStats{}
	var conns connTable
	selected := map[uint32]bool{}
	indexCount := map[uint32]uint64{} // index entries per connection
	for _, c := range selectedConns {
		s := byTopic[c.Topic]
		if s == nil {
			s = &topicStats{topic: c.Topic}
			byTopic[c.Topic] = s
			res.topics = append(res.topics, s)
		}
		conns.add(c.ID, s)
		selected[c.ID] = true
	}
	sort.Slice(res.topics, func(i, j int) bool { return res.topics[i].topic < res.topics[j].topic })
	var total, done int64
	if sum, _ := b.Summary(); sum != nil {
		for id := range selected {
			total += int64(sum.ConnMessages[id])
		}
	}

	var mu sync.Mutex
	var problems []error
	// joinIndex, when not nil, waits for the index entries counted
	// beside the read and adds them.
	var joinIndex func()
	// A file without chunks (an unchunked MCAP) has no index to check,
	// and a time range reads only part of each block's entries.
	checkIndex := f.Start.IsZero() && f.End.IsZero()
	if rit := ros1.Iter(it); rit != nil {
		rb := bag.Underlying(b).(*ros1.Store).Bag
		rit.OnChunk(func(lc *ros1.LoadedChunk) error {
			idx, err := rb.ChunkIndex(lc.Info)
			errs := ros1.CheckChunkIndex(lc, idx, func(id uint32) bool { return selected[id] })
			if err != nil {
				errs = append(errs, err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, x := range idx {
				if selected[x.Conn] {
					indexCount[x.Conn] += uint64(len(x.Entries))
				}
			}
			problems = append(problems, errs...)
			return nil
		})
	} else if ic := bag.IndexCounter(b); ic != nil {
		// Listed and counted by a goroutine of its own while the
		// messages are read (on the cores the read leaves idle), joined
		// after: on MCAP, Blocks reads every chunk's message index
		// records and BlockIndexCounts takes its counts.
		var counted sync.WaitGroup
		var errs []error
		counts := map[uint32]uint64{}
		noBlocks := false
		counted.Go(func() {
			blocks := b.Blocks()
			noBlocks = len(blocks) == 0
			for _, blk := range blocks {
				n, err := ic.BlockIndexCounts(blk)
				if err != nil {
					errs = append(errs, err)
				}
				for id, k := range n {
					counts[id] += k
				}
			}
		})
		joinIndex = func() {
			counted.Wait()
			if noBlocks {
				checkIndex = false
			}
			problems = append(problems, errs...)
			for id, k := range counts {
				if selected[id] {
					indexCount[id] += k
				}
			}
		}
	} else if blocks := b.Blocks(); len(blocks) == 0 {
		checkIndex = false
	} else {
		for _, blk := range blocks {
			idx, err := b.BlockIndex(blk)
			if err != nil {
				problems = append(problems, err)
			}
			for _, e := range idx {
				if selected[e.Conn] {
					indexCount[e.Conn]++
				}
			}
		}
	}

	if joinIndex != nil {
		defer func() {
			if joinIndex != nil {
				joinIndex()
			}
		}()
	}
	var t bag.Tally
	for it.Next() {
		m := it.Message()
		t.Add(m)
		cs := conns.get(m.Conn.ID)
		if cs == nil {
			return nil, fmt.Errorf("message of unselected connection %d", m.Conn.ID)
		}
		cs.messages++
		s := cs.topic
		s.messages++
		s.bytes += uint64(len(m.Data))
		s.crc = crc32.Update(s.crc, castagnoli, m.Data)
		if done++; progress != nil && done&0xffff == 0 {
			progress(done, total)
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if joinIndex != nil {
		joinIndex()
		joinIndex = nil
	}
	// What was read, not what an index counts, when every message was.
	res.lost = readLoss(b, it, t, f.Whole())
	// A block whose index cannot be read because the block is lost is
	// one of the lost ranges already: said once, there.
	problems = slices.DeleteFunc(problems, func(p error) bool { return lostAt(res.lost.d, errOffset(p)) })
	// A record the index shows was changed (its time out of its chunk's
	// span, where the index entry's is inside) holds a suspect message: a
	// loss, unlike an index entry that was damaged.
	var changed uint64
	for _, p := range problems {
		if errors.Is(p, ros1.ErrRecordChanged) {
			changed++
		}
	}
	res.lost.d.NoteSuspects(res.lost.d.Suspect + changed)

	for _, s := range res.topics {
		res.messages += s.messages
		res.bytes += s.bytes
	}
	for _, c := range selectedConns {
		res.indexEntries += indexCount[c.ID]
		if n := conns.get(c.ID).messages; checkIndex && indexCount[c.ID] != n {
			problems = append(problems, fmt.Errorf("offset %d: connection %d (%s): %d messages read from the chunks, %d index entries", c.Offset, c.ID, c.Topic, n, indexCount[c.ID]))
		}
	}
	// Chunks are checked on several goroutines: problems at one place
	// go by their words, so that two runs say the same.
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problemKey(problems[i]), problemKey(problems[j])
		if a != b {
			return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
		}
		return problems[i].Error() < problems[j].Error()
	})
	if len(problems) > maxProblems {
		res.moreProblems = len(problems) - maxProblems
		problems = problems[:maxProblems]
	}
	res.problems = problems
	return res, nil
}

// connStats is what verify counts per connection.
type connStats struct {
	topic    *topicStats
	messages uint64
}

// connTable finds a connection's stats by ID: in a slice for the usual small
// IDs, in a map for others.
type connTable struct {
	dense []*connStats
	other map[uint32]*connStats
}

func (t *connTable) add(id uint32, s *topicStats) {
	cs := &connStats{topic: s}
	if id < 1<<16 {
		if int(id) >= len(t.dense) {
			t.dense = slices.Grow(t.dense, int(id)+1-len(t.dense))[:id+1]
		}
		t.dense[id] = cs
		return
	}
	if t.other == nil {
		t.other = map[uint32]*connStats{}
	}
	t.other[id] = cs
}

func (t *connTable) get(id uint32) *connStats {
	if int(id) < len(t.dense) {
		return t.dense[id]
	}
	return t.other[id]
}

// problemKey orders problems by where they are in the file.
// lostAt reports whether a lost range of d starts at or holds offset off
// (0, no offset, is never held).
func lostAt(d *bag.Damage, off int64) bool {
	if off <= 0 || d.Files > 1 {
		return false
	}
	for _, r := range d.Ranges {
		if off == r.Start || off > r.Start && off < r.End {
			return true
		}
	}
	return false
}

func problemKey(err error) [2]int64 {
	if fe, ok := err.(*ros1.FormatError); ok {
		if fe.Chunk >= 0 {
			return [2]int64{fe.Chunk, fe.Offset}
		}
		return [2]int64{fe.Offset, 0}
	}
	return [2]int64{1 << 62, 0}
}
