package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bagscope/bagscope/model/catalog"
)

// catalogFleet copies a mix of real recordings into a folder of its own
// (so a test may touch them): ROS 1 bags (none, bz2), MCAP files (one with
// metadata records), rosbag2 folders of .db3 files (one split in five, one
// with custom data in an MCAP), an unindexed bag and an empty file.
func catalogFleet(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
	dir := t.TempDir()
	for _, src := range []string{
		testdata + "/robot.bag", testdata + "/ros2-mixed.mcap", testdata + "/tf.bag",
		sharedBags + "/cruise-automation__rosbag.js/fixtures/example.bag",
		sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag",
		sharedBags + "/foxglove__mcap/tests/conformance/data/OneMetadata/OneMetadata-mdx-pad-st-sum.mcap",
		sharedBags + "/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag",
		sharedBags + "/geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap",
		sharedBags + "/ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap",
		sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag",
		sharedBags + "/cruise-automation__rosbag.js/fixtures/empty-file.bag",
	} {
		sub := filepath.Join(dir, fmt.Sprintf("site%d", len(src)%3))
		os.MkdirAll(sub, 0o755)
		if out, err := exec.Command("cp", "-r", src, sub+"/").CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v %s", src, err, out)
		}
	}
	return dir
}

type catalogRun struct {
	Listed, Read, Unchanged, NotScanned, Failed, Recordings, Topics int
}

func runCatalog(t *testing.T, args ...string) (catalogRun, int) {
	t.Helper()
	out, stderr, code := run(append([]string{"catalog", "--json"}, args...)...)
	var r struct {
		Listed     int `json:"listed"`
		Read       int `json:"read"`
		Unchanged  int `json:"unchanged"`
		NotScanned int `json:"not_scanned"`
		Failed     int `json:"failed"`
		Recordings int `json:"recordings"`
		Topics     int `json:"topics"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("catalog %v: exit %d, not JSON: %v\n%s%s", args, code, err, out, stderr)
	}
	return catalogRun{r.Listed, r.Read, r.Unchanged, r.NotScanned, r.Failed, r.Recordings, r.Topics}, code
}

// TestCatalogRowsMatchInfo: every recording's row and topic rows say what
// `info --json --freq` of that recording says: format, times, counts,
// health, and each topic's type, count, rate, intervals and gaps. An
// unindexed bag is listed unread (and read with --scan); an empty file is
// listed with its error (exit 1).
func TestCatalogRowsMatchInfo(t *testing.T) {
	fleet := catalogFleet(t)
	cat := filepath.Join(t.TempDir(), "cat")
	r, code := runCatalog(t, fleet, "-o", cat)
	if code != 1 || r.Listed != 11 || r.Failed != 1 || r.NotScanned != 1 || r.Read != 9 {
		t.Fatalf("exit %d, %+v; want exit 1, 11 listed, 9 read, 1 not scanned, 1 failed", code, r)
	}
	recs, err := catalog.ReadRecordings(cat)
	if err != nil {
		t.Fatal(err)
	}
	topics, err := catalog.ReadTopics(cat)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string][]catalog.Topic{}
	for _, tp := range topics {
		byPath[tp.Path] = append(byPath[tp.Path], tp)
	}
	if len(recs) != 11 {
		t.Fatalf("%d recording rows; want 11", len(recs))
	}
	for _, rec := range recs {
		t.Run(filepath.Base(rec.Path), func(t *testing.T) {
			out, _, icode := run("info", "--json", "--freq", rec.Path)
			var info struct {
				Format, Version string
				Size            int64
				Start, End      struct{ NS int64 }
				Duration        float64
				Messages        int64
				Chunks          int32
				Error           string
				Lost            struct{ Messages int64 }
				Topics          []struct {
					Topic, Type, MD5Sum                                 string
					Messages                                            int64
					Frequency, IntervalMin, IntervalMedian, IntervalMax *float64
					GapCount                                            int32 `json:"gap_count"`
					Connections                                         int32
				}
			}
			if err := json.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(out, `"interval_min"`, `"intervalmin"`), `"interval_median"`, `"intervalmedian"`), `"interval_max"`, `"intervalmax"`)), &info); err != nil {
				t.Fatalf("info --json: %v\n%s", err, out)
			}
			switch {
			case strings.HasSuffix(rec.Path, "empty-file.bag"):
				if rec.Error == "" || info.Error == "" || icode != 2 {
					t.Errorf("empty file: row error %q, info exit %d error %q; want both to say why", rec.Error, icode, info.Error)
				}
				return
			case strings.HasSuffix(rec.Path, "test_unindexed.bag"):
				if rec.Indexed || rec.Scanned || rec.Messages != 0 || !strings.Contains(rec.Health, "--scan") || len(byPath[rec.Path]) != 0 {
					t.Errorf("unindexed bag: %+v; want listed, not read, its health saying --scan reads it", rec)
				}
				return
			}
			if rec.Format != info.Format || rec.Version != info.Version || rec.StartNS != info.Start.NS || rec.EndNS != info.End.NS ||
				rec.Start.UnixNano() != info.Start.NS || rec.Messages != info.Messages || rec.Chunks != info.Chunks ||
				math.Abs(rec.Duration-info.Duration) > 1e-9 || rec.LostMessages != info.Lost.Messages || rec.Healthy != (info.Lost.Messages == 0) {
				t.Errorf("row %+v\ninfo %s", rec, out)
			}
			if fi, err := os.Stat(rec.Path); err == nil && !fi.IsDir() && (rec.Size != fi.Size() || rec.Size != info.Size || !rec.MTime.Equal(fi.ModTime())) {
				t.Errorf("size %d, mtime %v; the file has %d, %v", rec.Size, rec.MTime, fi.Size(), fi.ModTime())
			}
			rows := byPath[rec.Path]
			if len(rows) != len(info.Topics) || int(rec.Topics) != len(info.Topics) {
				t.Fatalf("%d topic rows (%d counted); info lists %d", len(rows), rec.Topics, len(info.Topics))
			}
			for i, it := range info.Topics {
				tr := rows[i]
				if tr.Topic != it.Topic || tr.Type != it.Type || tr.MD5Sum != it.MD5Sum || tr.Messages != it.Messages || tr.Connections != it.Connections || tr.Gaps != it.GapCount ||
					!samePtr(tr.Rate, it.Frequency) || !samePtr(tr.IntervalMin, it.IntervalMin) || !samePtr(tr.IntervalMedian, it.IntervalMedian) || !samePtr(tr.IntervalMax, it.IntervalMax) {
					t.Errorf("topic row %+v\ninfo topic %+v", tr, it)
				}
				if tr.Bytes != nil {
					t.Errorf("%s: bytes %d without --read-all", tr.Topic, *tr.Bytes)
				}
			}
			if strings.HasSuffix(rec.Path, "OneMetadata-mdx-pad-st-sum.mcap") && rec.Metadata != `{"myMetadata":{"foo":"bar"}}` {
				t.Errorf("metadata %s; want the file's metadata record", rec.Metadata)
			}
		})
	}
	// --scan reads the unindexed bag (and only it: the rest is unchanged).
	r, _ = runCatalog(t, fleet, "-o", cat, "--scan")
	if r.Read != 1 || r.Unchanged != 10 {
		t.Errorf("--scan: %+v; want 1 read, 10 unchanged", r)
	}
}

func samePtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// TestCatalogIncremental: a second run reads nothing; a recording touched,
// added or removed is read again, added or dropped, and only it.
func TestCatalogIncremental(t *testing.T) {
	fleet := catalogFleet(t)
	cat := filepath.Join(t.TempDir(), "cat")
	first, _ := runCatalog(t, fleet, "-o", cat)
	again, _ := runCatalog(t, fleet, "-o", cat)
	if again.Read != 0 || again.Unchanged != first.Listed || again.Recordings != first.Recordings || again.Topics != first.Topics {
		t.Fatalf("unchanged re-run: %+v after %+v; want nothing read", again, first)
	}
	touched := filepath.Join(fleet, "site2", "robot.bag")
	if _, err := os.Stat(touched); err != nil {
		touched = filepath.Join(fleet, "site"+fmt.Sprint(len(testdata+"/robot.bag")%3), "robot.bag")
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(touched, later, later); err != nil {
		t.Fatal(err)
	}
	added := filepath.Join(fleet, "new", "two.bag")
	os.MkdirAll(filepath.Dir(added), 0o755)
	if out, err := exec.Command("cp", testdata+"/two-conns-one-topic.bag", added).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	removed, _ := filepath.Glob(filepath.Join(fleet, "*", "tf.bag"))
	if len(removed) != 1 {
		t.Fatalf("tf.bag copies: %v", removed)
	}
	os.Remove(removed[0])
	r, _ := runCatalog(t, fleet, "-o", cat)
	if r.Read != 2 || r.Unchanged != first.Listed-2 || r.Recordings != first.Recordings {
		t.Errorf("after touching, adding and removing one each: %+v; want 2 read, %d unchanged, %d rows", r, first.Listed-2, first.Recordings)
	}
	recs, _ := catalog.ReadRecordings(cat)
	seen := map[string]catalog.Recording{}
	for _, rec := range recs {
		seen[rec.Path] = rec
	}
	if _, ok := seen[removed[0]]; ok {
		t.Errorf("the removed %s still has a row", removed[0])
	}
	if rec, ok := seen[added]; !ok || rec.Messages == 0 {
		t.Errorf("the added %s: %+v", added, rec)
	}
	if rec := seen[touched]; !rec.MTime.Equal(later) {
		t.Errorf("the touched %s: mtime %v; want %v", touched, rec.MTime, later)
	}
}

// TestCatalogShards: three processes, each its shard, write one catalogue
// at once; it holds exactly the rows of one unsharded run, and DuckDB
// reads it as one Hive-partitioned dataset.
func TestCatalogShards(t *testing.T) {
	fleet := catalogFleet(t)
	dir := t.TempDir()
	bin := builtBagscope(t)
	whole, sharded := filepath.Join(dir, "whole"), filepath.Join(dir, "sharded")
	runCatalog(t, fleet, "-o", whole)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := exec.Command(bin, "catalog", fleet, "-o", sharded, "--shard", fmt.Sprintf("%d/3", i)).CombinedOutput()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				err = nil // the empty file's shard
			}
			if err != nil {
				errs[i] = fmt.Errorf("shard %d: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	files, _ := catalog.Files(sharded, catalog.RecordingsTable)
	if len(files) != 3 {
		t.Errorf("%d partitions: %v; want 3", len(files), files)
	}
	want, _ := catalog.ReadRecordings(whole)
	got, _ := catalog.ReadRecordings(sharded)
	norm := func(rs []catalog.Recording) map[string]string {
		m := map[string]string{}
		for _, r := range rs {
			m[r.Path] = fmt.Sprintf("%s %d %d %d %s", r.Format, r.Messages, r.StartNS, r.EndNS, r.Health)
		}
		return m
	}
	w, g := norm(want), norm(got)
	if len(w) != len(g) || len(got) != len(want) {
		t.Fatalf("sharded: %d rows (%d paths); unsharded %d", len(got), len(g), len(want))
	}
	for p, v := range w {
		if g[p] != v {
			t.Errorf("%s: sharded %q; unsharded %q", p, g[p], v)
		}
	}
	wt, _ := catalog.ReadTopics(whole)
	gt, _ := catalog.ReadTopics(sharded)
	if len(wt) != len(gt) {
		t.Errorf("topics: sharded %d rows; unsharded %d", len(gt), len(wt))
	}
	// A re-run unsharded replaces the three partitions with its one.
	runCatalog(t, fleet, "-o", sharded)
	if files, _ := catalog.Files(sharded, catalog.RecordingsTable); len(files) != 1 {
		t.Errorf("after an unsharded run: %v; want one partition", files)
	}

	requireNodeOracles(t)
	q := fmt.Sprintf("SELECT count(*) AS n, count(DISTINCT shard) AS shards, sum(messages) AS m FROM read_parquet('%s/recordings/*/*.parquet', hive_partitioning=true)", sharded)
	out, stderr, code, err := nodeOracle("duckdb_query.mjs", q)
	if err != nil || code != 0 {
		t.Fatalf("duckdb: %v %d %s", err, code, stderr)
	}
	var sum int64
	for _, r := range want {
		sum += r.Messages
	}
	if !strings.Contains(out, fmt.Sprintf(`{"n":"%d","shards":"1","m":"%d"}`, len(want), sum)) {
		t.Errorf("DuckDB reads %s; want %d recordings, %d messages", out, len(want), sum)
	}
}
