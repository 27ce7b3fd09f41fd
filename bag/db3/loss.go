package db3

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"gopkg.in/yaml.v3"
)

// What a rescue lost, counted from the evidence the file keeps:
//
//   - a table page that cannot be read leaves a run of row ids (lo, hi],
//     bounded by the keys of the interior cells around it; its rows are
//     those of the run no other page holds, so at most hi-lo less the
//     rows found in the run (row ids are whole numbers, each used once;
//     rosbag2's start at 1);
//   - the timestamp index (timestamp_idx) lists every row id: those of a
//     lost run that no page holds were lost, exactly, while the index
//     itself is whole, and at least, when it is damaged too;
//   - a row whose overflow chain breaks is one row, exactly;
//   - what the file's metadata table says it holds bounds the whole.
//
// Rows read from a page that fails its structural checks, or from a page
// no tree reaches, are suspect: they are given, with the reason, and are
// not counted as found when bounding a lost run.

// lossEvidence is what finishRescue hands rescueLoss.
type lossEvidence struct {
	pm *pageMap
	// badPages are pages of the messages table with rows that could not
	// be used (a record that does not parse or has other columns).
	badPages map[uint32]bool
	// rows are rows whose overflow chain broke: lost, one each.
	rows []damage
	// msgTreeBroken is set when a page of the messages table is damaged
	// where no key range bounds what it held: the pages it pointed to
	// are not known.
	msgTreeBroken bool
}

// markSuspects sets each rescued row's suspect flag and returns how many
// are suspect.
func (rs *rescued) markSuspects(ev *lossEvidence) uint64 {
	var n uint64
	for i := range rs.msgs {
		m := &rs.msgs[i]
		pi := ev.pm.info(m.page)
		_, unsound := ev.pm.unsound[m.page]
		m.suspect = unsound || ev.badPages[m.page] || pi == nil || pi.tree == 0 || rs.lostTopics[m.topic]
		if m.suspect {
			n++
		}
	}
	return n
}

// suspectWhy says why a rescued row is suspect ("" when it is not).
func (s *Store) suspectWhy(m rrow) string {
	if !m.suspect {
		return ""
	}
	pm := s.rescue.pm
	off := pm.p.offset(m.page)
	if why, ok := pm.unsound[m.page]; ok {
		return fmt.Sprintf("offset %d: read from page %d, which fails its structural checks (%s)", off, m.page, why)
	}
	if pi := pm.info(m.page); pi == nil || pi.tree == 0 {
		return fmt.Sprintf("offset %d: read from page %d, which no table tree reaches (found by the shape of its rows)", off, m.page)
	}
	if s.rescue.lostTopics[m.topic] {
		return fmt.Sprintf("offset %d: the topics row of its topic id %d is lost: its topic and type are not known", off, m.topic)
	}
	return fmt.Sprintf("offset %d: read from page %d, where other rows are unreadable", off, m.page)
}

// rescueLoss returns the lost ranges of the messages table, each with the
// messages it lost.
func (s *Store) rescueLoss(rs *rescued, ev *lossEvidence) []bag.ByteRange {
	pm := ev.pm
	root := pm.root("messages")
	var clean, all []int64
	for _, m := range rs.msgs {
		all = append(all, m.rowid)
		if !m.suspect {
			clean = append(clean, m.rowid)
		}
	}
	slices.Sort(all)
	slices.Sort(clean)
	found := func(ids []int64, id int64) bool {
		_, ok := slices.BinarySearch(ids, id)
		return ok
	}
	countIn := func(ids []int64, k keyRange) uint64 {
		lo, hi := 0, len(ids)
		if k.hasLo {
			lo = sort.Search(len(ids), func(i int) bool { return ids[i] > k.lo })
		}
		if k.hasHi {
			hi = sort.Search(len(ids), func(i int) bool { return ids[i] > k.hi })
		}
		return uint64(max(hi-lo, 0))
	}
	entries := slices.Clone(pm.entries)
	sort.Slice(entries, func(i, j int) bool { return entries[i].rowid < entries[j].rowid })
	entries = slices.CompactFunc(entries, func(a, b indexEntry) bool { return a.rowid == b.rowid })
	// The index is whole when it was walked from a root in the file
	// without meeting damage (a root cut off with the end of the file is
	// never walked, and lists nothing).
	indexWhole := pm.indexOf != 0 && pm.indexOf <= pm.p.pages && pm.roots[pm.indexOf] != "" &&
		!pm.treeDamaged[pm.indexOf] && pm.cutOff[pm.indexOf] == 0

	// The runs of row ids that could not be reached: a page of the
	// messages tree not read, or read with rows unusable.
	runs := append([]lostKeys(nil), pm.lostKeys[root]...)
	for n := range ev.badPages {
		if k, ok := pm.bounds[n]; ok {
			off := pm.p.offset(n)
			runs = append(runs, lostKeys{page: n, keys: k, off: off, end: off + int64(pm.p.pageSize), why: fmt.Sprintf("rows of page %d of table messages are unreadable", n)})
		}
	}
	for n, why := range pm.unsound {
		if pi := pm.info(n); pi != nil && pi.tree == root && root != 0 && !ev.badPages[n] {
			off := pm.p.offset(n)
			runs = append(runs, lostKeys{page: n, keys: pm.bounds[n], off: off, end: off + int64(pm.p.pageSize), why: why})
		}
	}
	// By offset, then page and why: runs come from maps, and a run inside
	// an equal one is counted with the first.
	slices.SortFunc(runs, func(a, b lostKeys) int {
		return cmp.Or(cmp.Compare(a.off, b.off), cmp.Compare(a.page, b.page), cmp.Compare(a.why, b.why),
			cmp.Compare(a.keys.lo, b.keys.lo), cmp.Compare(a.keys.hi, b.keys.hi))
	})
	var out []bag.ByteRange
	cutFirst := pm.p.pages + 1
	var cut *bag.ByteRange
	// What the pages cut off held, where their keys bound it: the rows
	// of a leaf whose parent is in the file (row ids are dense, so its
	// bound is most often its count), and how many such pages.
	var cutBoundedRows uint64
	var cutBounded uint32
	// The leaves cut off whose keys are not bounded (the last leaf of
	// the tree), and whether a page above the leaves was cut off with no
	// bound (its leaves then are not known).
	var cutOpenLeaves uint32
	cutOpenUpper := false
	for i, r := range runs {
		// A run inside another one is counted with it.
		inner := false
		for j, o := range runs {
			if j != i && contains(o.keys, r.keys) && (o.keys != r.keys || j < i) {
				inner = true
			}
		}
		br := bag.ByteRange{Start: r.off, End: r.end, Unit: bag.UnitPage, Why: r.why}
		if inner {
			br.Messages = bag.Exactly(0)
			br.Why += " (its rows are counted with the page above it)"
		} else {
			br.Messages, br.First, br.Last = runCount(r.keys, clean, all, entries, indexWhole, countIn, found)
		}
		if r.page >= cutFirst {
			// Pages cut off with the end of the file: one range.
			switch {
			case inner:
			case br.Messages.Bounded:
				cutBoundedRows += br.Messages.Max
				cutBounded++
			case pm.leafDepth[root] > 0 && r.depth == pm.leafDepth[root]:
				cutOpenLeaves++
			default:
				cutOpenUpper = true
			}
			if cut == nil {
				cut = &bag.ByteRange{Start: s.size, End: s.size, Unit: bag.UnitPage, Messages: bag.Exactly(0)}
			}
			cut.End = max(cut.End, r.end)
			cut.Messages = cut.Messages.Plus(br.Messages)
			if cut.First.IsZero() || !br.First.IsZero() && br.First.Before(cut.First) {
				cut.First = br.First
			}
			if cut.Last.Before(br.Last) {
				cut.Last = br.Last
			}
			continue
		}
		out = append(out, br)
	}
	if pm.claimed > 0 {
		end := pm.p.offset(cutFirst) + int64(pm.claimed)*int64(pm.p.pageSize)
		if cut == nil {
			cut = &bag.ByteRange{Start: s.size, Unit: bag.UnitPage, Messages: bag.Exactly(0)}
		}
		cut.End = max(cut.End, end)
		cut.Why = fmt.Sprintf("the header counts %d pages, the file holds %d: pages %d..%d are cut off", pm.hdr.pageCount, pm.p.pages, cutFirst, pm.hdr.pageCount)
		if k := pm.cutOff[root]; k > 0 {
			cut.Why += fmt.Sprintf(", %d of them pages of table messages", k)
		}
		// The pages cut off hold no message only when the messages
		// tree was walked from a root in the file: then every page of
		// it that was cut off is a run of its own above. Without that
		// root (the schema is cut, or names a root that was cut off), or
		// with a page of the tree damaged where no key range says what it
		// pointed to, nothing bounds the rows that were there.
		if root == 0 || root > pm.p.pages || ev.msgTreeBroken {
			cut.Messages = bag.AtLeast(cut.Messages.Min)
			cut.Why += ": the messages table's pages are not known, so nothing bounds its rows"
		}
	}
	if cut != nil {
		if cut.Why == "" {
			cut.Why = "pages of table messages are cut off with the end of the file"
		}
		if !cut.Messages.Bounded && pm.claimed > 0 {
			// Nothing bounds the rows cut off: estimate them from the
			// pages that are gone, at the rate of rows per page of the
			// pages that were read.
			if about, how := cutAbout(pm, rs, cutBoundedRows, cutBounded, cutOpenLeaves, cutOpenUpper || root == 0 || root > pm.p.pages || ev.msgTreeBroken); about > cut.Messages.Min {
				cut.Messages = bag.Estimated(cut.Messages.Min, about)
				cut.Why += "; about " + fmt.Sprint(about) + " rows: " + how
			}
		}
		out = append(out, *cut)
	}
	for _, d := range ev.rows {
		if ev.badPages[d.page] || pm.unsound[d.page] != "" {
			continue // counted with its page
		}
		out = append(out, bag.ByteRange{Start: d.off, End: d.end, Unit: bag.UnitRow, Messages: bag.Exactly(1), Why: d.why})
	}
	return out
}

// cutAbout estimates the rows of the messages table cut off the file,
// where nothing bounds them, and says how:
//
//   - a leaf cut off whose parent is in the file holds the rows its keys
//     bound (row ids are dense: its bound is most often its count):
//     boundedRows in bounded leaves;
//   - a leaf whose keys are not bounded (the tree's last, being filled)
//     holds half what a leaf read holds on average: openLeaves of them;
//   - when a page above the leaves was cut off unbounded (upper), or the
//     tree's root is not known, the pages cut off that are not bounded
//     leaves hold rows at the rate of the pages read from the first that
//     holds one: past the schema and the tables' first pages, the
//     messages table grows with its index as the recording goes, so its
//     share of the pages, and the rows a page holds, change little along
//     the file.
//
// 0 when no row was read.
func cutAbout(pm *pageMap, rs *rescued, boundedRows uint64, bounded, openLeaves uint32, upper bool) (uint64, string) {
	if len(rs.msgs) == 0 {
		return 0, ""
	}
	first := pm.p.pages + 1
	leaves := map[uint32]bool{}
	for _, m := range rs.msgs {
		first = min(first, m.page)
		leaves[m.page] = true
	}
	rows := uint64(len(rs.msgs))
	about := boundedRows
	how := fmt.Sprintf("%d in the %d leaves cut off whose keys bound them", boundedRows, bounded)
	if openLeaves > 0 {
		// The tree's last leaf is being filled: half full, on average,
		// of what a leaf read holds.
		half := (rows + uint64(len(leaves))) / uint64(2*len(leaves))
		about += uint64(openLeaves) * half
		how += fmt.Sprintf(", %d in %d more at half the %d rows a leaf read holds", uint64(openLeaves)*half, openLeaves, 2*half)
	}
	if upper {
		read := uint64(pm.p.pages - first + 1)
		open := uint64(pm.claimed - min(bounded+openLeaves, pm.claimed))
		n := (rows*open + read/2) / read
		about += n
		how += fmt.Sprintf(", %d in the %d other pages cut off at the rate of the %d rows in pages %d..%d", n, open, rows, first, pm.p.pages)
	}
	return about, how
}

// contains reports whether run a holds every key of run b.
func contains(a, b keyRange) bool {
	if a.hasLo && (!b.hasLo || b.lo < a.lo) {
		return false
	}
	if a.hasHi && (!b.hasHi || b.hi > a.hi) {
		return false
	}
	return true
}

// runCount bounds the rows lost in a run of row ids, and the times of
// those the index knows.
func runCount(k keyRange, clean, all []int64, entries []indexEntry, indexWhole bool,
	countIn func([]int64, keyRange) uint64, found func([]int64, int64) bool) (bag.Count, bag.Time, bag.Time) {
	var known uint64 // lost rows the index names
	var notClean uint64
	var first, last int64
	for _, e := range entries {
		if !k.contains(e.rowid) {
			continue
		}
		if !found(clean, e.rowid) {
			notClean++
		}
		if !found(all, e.rowid) {
			if known == 0 || e.ts < first {
				first = e.ts
			}
			last = max(last, e.ts)
			known++
		}
	}
	c := bag.AtLeast(known)
	lo, hasLo := k.lo, k.hasLo
	if !hasLo {
		lo, hasLo = 0, true // row ids start at 1
	}
	if hasLo && k.hasHi && k.hi >= lo {
		c = c.Within(known, satSubInt(uint64(k.hi-lo), countIn(clean, k)), false)
	}
	if indexWhole {
		c = c.Within(known, notClean, false)
	}
	var t0, t1 bag.Time
	if known > 0 {
		t0, t1 = bag.TimeFromNanos(first), bag.TimeFromNanos(last)
	}
	return c, t0, t1
}

func satSubInt(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// fileClaim reads what the file's metadata table says this file holds:
// its own entry of files, or the whole count when it lists this file
// alone. nil when it does not say.
func fileClaim(metadata, path string) *bag.Claim {
	if metadata == "" {
		return nil
	}
	var md struct {
		Info struct {
			Files []struct {
				Path         string `yaml:"path"`
				MessageCount uint64 `yaml:"message_count"`
			} `yaml:"files"`
		} `yaml:"rosbag2_bagfile_information"`
		Files []struct {
			Path         string `yaml:"path"`
			MessageCount uint64 `yaml:"message_count"`
		} `yaml:"files"`
	}
	if yaml.Unmarshal([]byte(metadata), &md) != nil {
		return nil
	}
	files := append(md.Files, md.Info.Files...)
	base := filepath.Base(path)
	for _, f := range files {
		if filepath.Base(filepath.FromSlash(f.Path)) == base && f.MessageCount > 0 {
			return &bag.Claim{Messages: f.MessageCount, By: "the file's metadata table"}
		}
	}
	return nil
}
