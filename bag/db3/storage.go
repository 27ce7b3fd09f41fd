package db3

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// FormatName is the format's name as bag lists it.
const FormatName = "rosbag2 SQLite (.db3)"

func init() {
	bag.RegisterFormat(bag.Format{
		Name:       FormatName,
		Magic:      []byte(Magic),
		Extensions: []string{".db3"},
		Write: func(out io.WriteSeeker, src bag.Storage, _ string) (*bag.RepairReport, error) {
			return Write(out, src)
		},
		Open: func(r io.ReaderAt, size int64, path string) (bag.Storage, error) {
			return Open(r, size, path)
		},
		Check:     CheckReader,
		NeedsScan: needsScan,
	})
}

// needsScan says why Open would read every page of the file: a damaged or
// cut file is read from its pages, and a WAL with rows is copied with the
// file.
func needsScan(r io.ReaderAt, size int64, path string) error {
	head := make([]byte, HeaderSize)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil // Open says what is wrong
	}
	h := parseHeader(head[:n])
	if n < HeaderSize || !h.magicOK || h.pageSize == 0 {
		return &FormatError{Offset: 0, Msg: "the database header is missing or damaged: the rows are read from the pages", Err: ErrMalformed}
	}
	s := &Store{r: r, size: size, path: path, hdr: h}
	if cut := s.cutShort(path); cut != nil {
		return cut
	}
	if side, kind := sideFiles(path, h); side != "" {
		return fmt.Errorf("a %s with rows lies beside the file: the file and it are read whole", kind)
	}
	return nil
}

// Store is a rosbag2 .db3 file behind the storage seam.
type Store struct {
	r    io.ReaderAt
	size int64
	path string
	hdr  *header

	// sq is the SQLite connection; nil when the file was rescued.
	sq *sqlOpen
	// rescue holds the rows read from the pages when SQLite refused the
	// file; nil otherwise.
	rescue *rescued

	conns  []*bag.Connection
	byID   map[uint32]*bag.Connection
	counts map[uint32]uint64
	// unknown counts messages whose topic_id names no topic.
	unknown    map[int64]uint64
	total      uint64
	start, end int64
	hasTimes   bool

	schemaVersion int
	rosDistro     string
	metadata      string // the metadata table's YAML, when there is one
	compression   string // "zstd" when metadata says MESSAGE mode

	warnings []error
	scanned  *bag.ScanInfo
	// claim is what the file's metadata table says it holds, for a
	// rescued file.
	claim *bag.Claim

	zmu  sync.Mutex
	zdec *zstdDecoder

	mapOnce sync.Once
	pmap    *pageMap

	// countOnce guards the SQL count of the rows (see counted); preset
	// holds metadata.yaml's figures when the folder gave them.
	fastOnce sync.Once
	fplan    *fastPlan

	countOnce sync.Once
	countErr  error
	preset    *presetCounts

	// deferred is set when the rows were not counted on open (the file
	// is its folder's only one); swap then holds the rescue that replaces
	// the store when a read finds SQLite refusing the file (see heal.go).
	deferred bool
	swapOnce sync.Once
	swap     atomic.Pointer[Store]

	// surveyOnce guards the survey of the pages (see surveyed);
	// surveyDone is set once it ran.
	surveyOnce sync.Once
	surveyDone atomic.Bool
	// passed holds the pages that passed their checks (see pageBits).
	passedOnce sync.Once
	passed     pageBits
}

var (
	_ bag.Storage      = (*Store)(nil)
	_ bag.RecordLister = (*Store)(nil)
)

// Open opens the .db3 file held in r (size bytes); path is its file name
// ("" for a file in memory), used to look for a WAL or journal beside it and
// for metadata.yaml in its folder. It reads the topics and counts the
// messages per topic; when SQLite refuses the file, the rows are read from
// its pages instead (see FileInfo().Scanned).
func Open(r io.ReaderAt, size int64, path string) (*Store, error) {
	head := make([]byte, HeaderSize)
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	s := &Store{r: r, size: size, path: path, hdr: parseHeader(head[:n]), byID: map[uint32]*bag.Connection{}}
	s.compression = messageCompression(path)
	var reason error
	if n < HeaderSize {
		reason = &FormatError{Offset: int64(n), Msg: fmt.Sprintf("the file ends after %d bytes, inside the database header", n), Err: ErrTruncated}
	} else if !s.hdr.magicOK || s.hdr.pageSize == 0 {
		reason = &FormatError{Offset: 0, Msg: "the database header is damaged (SQLite: file is not a database)", Err: ErrMalformed}
	} else if cut := s.cutShort(path); cut != nil {
		// SQLite would read the missing bytes as zeros, without a word.
		reason = cut
	} else {
		sq, err := openSQL(r, size, path, s.hdr)
		if err != nil {
			return nil, err
		}
		s.sq = sq
		s.warnings = append(s.warnings, sq.warnings...)
		err = s.loadSQL()
		if err == nil && !s.deferred && s.sq.sidePath == "" {
			// The rows were counted, so SQLite read every one: check the
			// pages now, as it reads through a damaged page, more often
			// than not, without a word (see survey.go).
			s.surveyOnce.Do(func() {})
			s.surveyDone.Store(true)
			if bad := s.survey(path); bad != nil {
				err = errSurveyed{bad}
			}
		}
		if err == nil {
			return s, nil
		}
		var found errSurveyed
		if errors.As(err, &found) {
			s.sq.close()
			s.sq = nil
			s.conns, s.byID = nil, map[uint32]*bag.Connection{}
			s.counts, s.countErr, s.unknown, s.total, s.hasTimes = nil, nil, nil, 0, false
			if err := s.loadRescue(found.err); err != nil {
				return nil, err
			}
			return s, nil
		}
		if errors.Is(err, ErrNotRosbag2) {
			s.sq.close()
			return nil, err
		}
		reason = s.refused(err)
		if sq.sidePath != "" {
			s.warnings = append(s.warnings, fmt.Errorf("the rows of the %s beside the file are not rescued: only the file's own pages are read", sq.sideKind))
		}
		s.sq.close()
		s.sq = nil
		s.conns, s.byID = nil, map[uint32]*bag.Connection{}
		// The rescue counts the rows; the count's failure is the reason.
		s.counts, s.countErr, s.unknown, s.total, s.hasTimes = nil, nil, nil, 0, false
		s.deferred, s.preset = false, nil
	}
	if err := s.loadRescue(reason); err != nil {
		return nil, err
	}
	return s, nil
}

// refused returns why a file SQLite refused (err) is read from its
// pages: the damage the survey finds, which names its page and offset,
// else SQLite's words.
func (s *Store) refused(err error) error {
	if s.sq == nil || s.sq.sidePath == "" {
		if bad := s.survey(s.path); bad != nil {
			return bad
		}
	}
	return fmt.Errorf("SQLite refuses the file: %w", err)
}

// errSurveyed carries the damage the survey found on open.
type errSurveyed struct{ err error }

func (e errSurveyed) Error() string { return e.err.Error() }

// cutShort reports a file that ends before the pages its header counts,
// or inside a page, unless a WAL beside it holds the rest.
func (s *Store) cutShort(path string) error {
	h := s.hdr
	if side, _ := sideFiles(path, h); side != "" {
		return nil
	}
	ps := int64(h.pageSize)
	if h.pageCountValid() && int64(h.pageCount)*ps > s.size {
		return &FormatError{Offset: s.size, Msg: fmt.Sprintf("the file ends after %d bytes; its header counts %d pages of %d bytes (%d bytes): it was cut", s.size, h.pageCount, ps, int64(h.pageCount)*ps), Err: ErrTruncated}
	}
	if s.size%ps != 0 {
		return &FormatError{Offset: s.size - s.size%ps, Page: uint32(s.size/ps) + 1, Msg: fmt.Sprintf("the file ends %d bytes into its last page of %d bytes: it was cut", s.size%ps, ps), Err: ErrTruncated}
	}
	return nil
}

// loadSQL reads the schema, topics and counts through SQLite.
func (s *Store) loadSQL() error {
	db := s.sq.db
	ctx := context.Background()
	tables := map[string]bool{}
	rows, err := db.QueryContext(ctx, "SELECT type, name, tbl_name, rootpage FROM sqlite_master WHERE type IN ('table', 'index')")
	if err != nil {
		return err
	}
	var msgRoot, idxRoot int64
	for rows.Next() {
		var typ, name string
		var tbl sql.NullString
		var root sql.NullInt64
		if err := rows.Scan(&typ, &name, &tbl, &root); err != nil {
			rows.Close()
			return err
		}
		if typ == "index" {
			if strings.EqualFold(tbl.String, "messages") && idxRoot == 0 {
				idxRoot = root.Int64
			}
			continue
		}
		tables[name] = true
		if name == "messages" {
			msgRoot = root.Int64
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if !tables["messages"] || !tables["topics"] {
		return &FormatError{Msg: "the database has no topics and messages tables", Err: ErrNotRosbag2}
	}
	if tables["schema"] {
		var v sql.NullInt64
		var distro sql.NullString
		if err := db.QueryRowContext(ctx, "SELECT schema_version, ros_distro FROM schema").Scan(&v, &distro); err == nil {
			s.schemaVersion, s.rosDistro = int(v.Int64), distro.String
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
	if tables["metadata"] {
		var md sql.NullString
		err := db.QueryRowContext(ctx, "SELECT metadata FROM metadata ORDER BY id DESC LIMIT 1").Scan(&md)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		s.metadata = md.String
		if s.compression == "" && yamlValue(s.metadata, "compression_mode") == "MESSAGE" {
			s.compression = yamlValue(s.metadata, "compression_format")
		}
	}
	defs := map[string][2]string{}
	if tables["message_definitions"] {
		rows, err := db.QueryContext(ctx, "SELECT topic_type, encoding, encoded_message_definition FROM message_definitions")
		if err != nil {
			return err
		}
		for rows.Next() {
			var typ, enc, def sql.NullString
			if err := rows.Scan(&typ, &enc, &def); err != nil {
				rows.Close()
				return err
			}
			defs[typ.String] = [2]string{enc.String, def.String}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	rows, err = db.QueryContext(ctx, "SELECT * FROM topics ORDER BY id")
	if err != nil {
		return err
	}
	cols, err := rows.Columns()
	if err != nil {
		rows.Close()
		return err
	}
	hasQoS := false
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			rows.Close()
			return err
		}
		t := topicRow{}
		for i, c := range cols {
			switch strings.ToLower(c) {
			case "id":
				t.id, _ = vals[i].(int64)
			case "name":
				t.name = sqlString(vals[i])
			case "type":
				t.typ = sqlString(vals[i])
			case "serialization_format":
				t.format = sqlString(vals[i])
			case "offered_qos_profiles":
				t.qos, t.hasQoS = sqlString(vals[i]), true
				hasQoS = true
			case "type_description_hash":
				t.hash, t.hasHash = sqlString(vals[i]), true
			}
		}
		s.addTopic(t, defs)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if s.schemaVersion == 0 {
		s.schemaVersion = 1
		if hasQoS {
			s.schemaVersion = 2
		}
	}
	// The per-topic counts are read on first need (see counted), so that
	// a folder whose metadata.yaml has them opens without reading every
	// row; a probe of the messages table still lets SQLite refuse a
	// damaged file here, as the count did.
	remote := bag.IsURL(s.path)
	if !(remote && s.presetFromTable()) && !soleFileOfFolder(s.path) {
		// Count now: a file SQLite cannot read through is then rescued
		// from its pages.
		s.countOnce.Do(s.count)
		return s.countErr
	}
	var probe sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT max(rowid) FROM messages").Scan(&probe); err != nil {
		return err
	}
	if remote {
		// A remote file's interior pages lie all over it (a request
		// each): they are checked as the reads reach them, like its
		// leaves (see heal.go), and opening reads only the schema's
		// pages and the metadata.
		s.deferred = true
		return nil
	}
	soundIndex := idxRoot == 0 || idxRoot > 0 && idxRoot <= 1<<32-1 && s.treesSound(uint32(idxRoot), true)
	if msgRoot <= 0 || msgRoot > 1<<32-1 || !s.treesSound(uint32(msgRoot), false) || !soundIndex {
		// A damaged interior page: count now, as for a lone file.
		s.countOnce.Do(s.count)
		return s.countErr
	}
	s.deferred = true
	return nil
}

// soleFileOfFolder reports whether a metadata.yaml beside path lists path
// as its folder's only storage file: its figures can then stand for the
// file's (see PresetCounts) and the count can wait.
func soleFileOfFolder(path string) bool {
	if path == "" {
		return false
	}
	b, err := bag.ReadSmallFile(bag.Join(bag.Dir(path), "metadata.yaml"), 4<<20)
	if err != nil {
		return false
	}
	var files []string
	in, indent := false, 0
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimLeft(line, " ")
		if t == "" {
			continue
		}
		ind := len(line) - len(t)
		if strings.HasPrefix(t, "relative_file_paths:") {
			in, indent = true, ind
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(t, "- "); ok && ind >= indent {
			files = append(files, strings.Trim(strings.TrimSpace(v), `"'`))
			continue
		}
		in = false
	}
	if len(files) != 1 {
		return false
	}
	base := filepath.Base(filepath.FromSlash(files[0]))
	name := bag.Base(path)
	return base == name || base+".zstd" == name || base == name+".zstd"
}

// counted reads the per-topic counts and times through SQLite, once (a
// rescued file has them from its pages). It returns the error that
// stopped the count, if any.
func (s *Store) counted() error {
	s.countOnce.Do(s.count)
	return s.countErr
}

// count runs the GROUP BY (under countOnce).
func (s *Store) count() {
	if s.sq == nil {
		return
	}
	s.counts = map[uint32]uint64{}
	rows, err := s.sq.db.Query("SELECT topic_id, count(*), min(timestamp), max(timestamp) FROM messages GROUP BY topic_id")
	if err != nil {
		s.countErr = err
		return
	}
	for rows.Next() {
		var id, n, lo, hi int64
		if err := rows.Scan(&id, &n, &lo, &hi); err != nil {
			rows.Close()
			s.countErr = err
			return
		}
		s.addCount(id, uint64(n), lo, hi)
	}
	rows.Close()
	s.countErr = rows.Err()
}

// presetCounts are a file's per-topic counts and times as its folder's
// metadata.yaml gives them.
type presetCounts struct {
	counts     map[uint32]uint64
	total      uint64
	start, end int64
	hasTimes   bool
	// byTopic and the times are the metadata's, for Check to verify.
	byTopic map[string]uint64
	// fromTable is set when they came from the file's metadata table,
	// which Check compares with the rows itself (checkMetadata).
	fromTable bool
}

// PresetCounts gives the file's message counts by topic name and the
// times of its first and last message (hasTimes false when unknown), as
// the folder's metadata.yaml says when the file is the folder's only
// one. Summary then answers from them without reading the rows; Check
// counts the rows and reports where they disagree. It returns false, and
// changes nothing, when the figures cannot stand for the file: a topic
// the file does not list with messages, two topics of one name, a file
// read from its pages, or counts already read.
func (s *Store) PresetCounts(byTopic map[string]uint64, start, end int64, hasTimes bool) bool {
	if s.sq == nil || s.preset != nil {
		return false
	}
	byName := map[string]*bag.Connection{}
	for _, c := range s.conns {
		if byName[c.Topic] != nil {
			return false
		}
		byName[c.Topic] = c
	}
	p := &presetCounts{counts: map[uint32]uint64{}, byTopic: map[string]uint64{}}
	for t, n := range byTopic {
		p.byTopic[t] = n
		if n == 0 {
			continue
		}
		c := byName[t]
		if c == nil {
			return false
		}
		p.counts[c.ID] += n
		p.total += n
	}
	if p.total > 0 {
		if !hasTimes || end < start {
			return false
		}
		p.start, p.end, p.hasTimes = start, end, true
	}
	s.preset = p
	return true
}

// verifyPreset compares the metadata.yaml figures Summary gave with the
// rows (after counted).
func (s *Store) verifyPreset(add func(bag.Severity, int64, string, string, ...any)) {
	p := s.preset
	if p == nil || p.fromTable || s.countErr != nil {
		return
	}
	const rec = "metadata.yaml"
	for _, c := range s.conns {
		if want, got := p.counts[c.ID], s.counts[c.ID]; want != got {
			add(bag.Warning, 0, rec, "metadata.yaml counts %d messages on %s; the file holds %d (the summary shown on open was metadata.yaml's)", want, c.Topic, got)
		}
	}
	if p.total != s.total {
		add(bag.Warning, 0, rec, "metadata.yaml counts %d messages; the file holds %d (the summary shown on open was metadata.yaml's)", p.total, s.total)
	}
	if p.hasTimes && s.hasTimes && (p.start != s.start || p.end != s.end) {
		add(bag.Warning, 0, rec, "metadata.yaml says the messages span %s to %s; they span %s to %s", bag.TimeFromNanos(p.start), bag.TimeFromNanos(p.end), bag.TimeFromNanos(s.start), bag.TimeFromNanos(s.end))
	}
}

func sqlString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// topicRow is one row of the topics table.
type topicRow struct {
	id                int64
	name, typ, format string
	qos, hash         string
	hasQoS, hasHash   bool
	offset            int64
}

// addTopic adds a connection for a topics row.
func (s *Store) addTopic(t topicRow, defs map[string][2]string) {
	if t.id < 0 || t.id > 1<<32-1 {
		s.warnings = append(s.warnings, fmt.Errorf("topic %q has id %d, outside the range of connection IDs: its messages are not read", t.name, t.id))
		return
	}
	if _, dup := s.byID[uint32(t.id)]; dup {
		s.warnings = append(s.warnings, fmt.Errorf("two topics rows have id %d; the second (%q) is ignored", t.id, t.name))
		return
	}
	if t.format == "" {
		t.format = "cdr" // the first schema had no serialization_format: always CDR
	}
	c := &bag.Connection{ID: uint32(t.id), Topic: t.name, Type: t.typ, Encoding: t.format, Metadata: map[string]string{}, Offset: t.offset}
	if t.hasQoS {
		c.Metadata["offered_qos_profiles"] = t.qos
	}
	if t.hasHash {
		c.Metadata["type_description_hash"] = t.hash
	}
	if d, ok := defs[t.typ]; ok && d[1] != "" {
		c.SchemaEncoding, c.Definition = d[0], d[1]
	} else if base, isEvent := strings.CutSuffix(t.typ, "_Event"); isEvent && strings.Contains(base, "/srv/") {
		// rosbag2 stores a service's .srv text under the service's type;
		// its event topics carry pkg/srv/X_Event, built from that text.
		if d, ok := defs[base]; ok && d[1] != "" {
			c.SchemaEncoding, c.Definition = d[0], d[1]
		}
	}
	s.conns = append(s.conns, c)
	s.byID[c.ID] = c
}

// addCount records n messages of topic id between times lo and hi.
func (s *Store) addCount(id int64, n uint64, lo, hi int64) {
	if n == 0 {
		return
	}
	if id >= 0 && id <= 1<<32-1 && s.byID[uint32(id)] != nil {
		s.counts[uint32(id)] += n
	} else {
		if s.unknown == nil {
			s.unknown = map[int64]uint64{}
		}
		s.unknown[id] += n
		return
	}
	s.total += n
	if !s.hasTimes || lo < s.start {
		s.start = lo
	}
	if !s.hasTimes || hi > s.end {
		s.end = hi
	}
	s.hasTimes = true
}

// messageCompression reads metadata.yaml beside path and returns the
// compression format when it says MESSAGE mode, else "".
func messageCompression(path string) string {
	if path == "" {
		return ""
	}
	b, err := bag.ReadSmallFile(bag.Join(bag.Dir(path), "metadata.yaml"), 4<<20)
	if err != nil {
		return ""
	}
	if yamlValue(string(b), "compression_mode") == "MESSAGE" {
		return yamlValue(string(b), "compression_format")
	}
	return ""
}

// yamlValue returns the scalar value of the first "key:" line in a YAML
// text, unquoted; "" when there is none.
func yamlValue(text, key string) string {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimPrefix(t, "- ")
		if v, ok := strings.CutPrefix(t, key+":"); ok {
			v = strings.TrimSpace(v)
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
			return strings.Trim(v, "'")
		}
	}
	return ""
}

// FileInfo says what the file is and how it was read.
func (s *Store) FileInfo() *bag.FileInfo {
	if r := s.swap.Load(); r != nil {
		return r.FileInfo()
	}
	return &bag.FileInfo{
		Format: FormatName, Version: s.version(), Profile: "ros2",
		Path: s.path, Size: s.size, Indexed: s.rescue == nil, Scanned: s.scanned,
		Warnings: s.warnings, Claim: s.claim,
	}
}

func (s *Store) version() string { return "schema " + strconv.Itoa(s.schemaVersion) }

// SchemaVersion returns rosbag2's schema version of the file (1 to 4), as
// its schema table says or its columns show.
func (s *Store) SchemaVersion() int {
	if r := s.swap.Load(); r != nil {
		return r.schemaVersion
	}
	return s.schemaVersion
}

// ROSDistro returns the ROS distribution the schema table names, or "".
func (s *Store) ROSDistro() string { return s.rosDistro }

// Metadata returns the YAML text of the metadata table (schema 3 and
// later), or "".
func (s *Store) Metadata() string { return s.metadata }

// Connections lists the topics, by ID.
func (s *Store) Connections() []*bag.Connection {
	if r := s.swap.Load(); r != nil {
		return r.conns
	}
	return s.conns
}

// Connection returns the topic with an ID, or nil.
func (s *Store) Connection(id uint32) *bag.Connection {
	if r := s.swap.Load(); r != nil {
		return r.byID[id]
	}
	return s.byID[id]
}

// Summary describes the file as ros2 bag info does, from the counts read
// on open.
func (s *Store) Summary() (*bag.Summary, error) {
	if r := s.swap.Load(); r != nil {
		return r.Summary()
	}
	if p := s.preset; p != nil {
		out := &bag.Summary{
			Path: s.path, Format: FormatName, Version: s.version(), Size: s.size,
			Indexed: true, Messages: p.total, Compression: map[string]int{},
		}
		if p.hasTimes {
			out.Start, out.End = bag.TimeFromNanos(p.start), bag.TimeFromNanos(p.end)
		}
		counts := make(map[uint32]uint64, len(p.counts))
		for k, v := range p.counts {
			counts[k] = v
		}
		out.AddTopics(s.conns, counts)
		return out, nil
	}
	cerr := s.counted()
	out := &bag.Summary{
		Path: s.path, Format: FormatName, Version: s.version(), Size: s.size,
		Indexed: s.rescue == nil, Messages: s.total, Compression: map[string]int{},
	}
	if s.hasTimes {
		out.Start, out.End = bag.TimeFromNanos(s.start), bag.TimeFromNanos(s.end)
	}
	counts := make(map[uint32]uint64, len(s.counts))
	for k, v := range s.counts {
		counts[k] = v
	}
	out.AddTopics(s.conns, counts)
	var err error
	if cerr != nil {
		return out, fmt.Errorf("counting messages: %w", cerr)
	}
	if len(s.unknown) > 0 {
		ids := make([]int64, 0, len(s.unknown))
		var n uint64
		for id, c := range s.unknown {
			ids = append(ids, id)
			n += c
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		err = fmt.Errorf("%d messages name topic ids %v that the topics table does not list: they are not counted", n, ids)
	}
	return out, err
}

// Blocks returns nil: a .db3 file has no chunks.
func (s *Store) Blocks() []*bag.Block { return nil }

// BlockIndex returns an error: a .db3 file has no chunks.
func (s *Store) BlockIndex(b *bag.Block) ([]bag.IndexEntry, error) {
	return nil, errors.New("a .db3 file has no chunks")
}

// LocOf returns the location of the message with a row id.
func LocOf(rowid int64) bag.Loc {
	return bag.Loc{Block: rowid >> 32, Offset: uint32(rowid)}
}

// RowID returns the row id of the message at loc.
func RowID(loc bag.Loc) int64 { return loc.Block<<32 | int64(loc.Offset) }

// Close closes the database and removes its private copy, if any.
func (s *Store) Close() error {
	if s.sq != nil {
		return s.sq.close()
	}
	return nil
}

// Where says which row holds the message at loc, and the offset of its
// page when the file was read page by page.
func (s *Store) Where(loc bag.Loc) string {
	if r := s.swap.Load(); r != nil {
		return r.Where(loc)
	}
	id := RowID(loc)
	if s.rescue != nil {
		if i, ok := s.rescue.byRow[id]; ok {
			m := s.rescue.msgs[i]
			return fmt.Sprintf("offset %d, row %d on page %d", s.rescue.pm.p.offset(m.page)+int64(m.off), id, m.page)
		}
	}
	return fmt.Sprintf("row %d", id)
}

// Unverified says that no checksum covers any page: SQLite keeps none, so
// damage inside a row's data cannot be seen.
func (s *Store) Unverified() []bag.ByteRange {
	return []bag.ByteRange{{Start: 0, End: s.size, Why: "SQLite keeps no checksum of its pages: damage inside a row's data cannot be seen"}}
}
