package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/model/catalog"
)

// exportFleet copies real recordings into a folder of its own: ROS 1 bags,
// MCAP files and rosbag2 folders (.db3 and .mcap), two of them the same
// file under two sub-folders (their names differ by the folder only).
func exportFleet(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
	dir := t.TempDir()
	for i, src := range []string{
		testdata + "/robot.bag", testdata + "/robot.bag", testdata + "/ros2-mixed.mcap",
		sharedBags + "/cruise-automation__rosbag.js/fixtures/example.bag",
		sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag",
		sharedBags + "/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag",
		sharedBags + "/geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap",
		sharedBags + "/ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap",
	} {
		sub := filepath.Join(dir, fmt.Sprintf("site%d", i%2))
		os.MkdirAll(sub, 0o755)
		if out, err := exec.Command("cp", "-r", src, sub+"/").CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v %s", src, err, out)
		}
	}
	return dir
}

// exportManyOut is what `export --json` over many recordings says.
type exportManyOut struct {
	Listed     int `json:"listed"`
	Mine       int `json:"in_shard"`
	Recordings []struct {
		Recording string `json:"recording"`
		Path      string `json:"path"`
		Verdict   string `json:"verdict"`
		Tables    []struct {
			Path  string `json:"path"`
			Topic string `json:"topic"`
			Rows  int64  `json:"rows"`
		} `json:"tables"`
		Skipped []struct {
			Topic string `json:"topic"`
		} `json:"skipped"`
	} `json:"recordings"`
	OK bool `json:"ok"`
}

// treeFiles reads every file under dir, by its path below dir.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		m[rel] = b
		return nil
	})
	return m
}

// TestExportShards: three processes, each its shard of a folder of
// recordings, write one Hive dataset at once; it equals, file by file and
// byte for byte, the dataset one unsharded process writes; the shards'
// recordings partition the folder's as catalog --shard's do; and DuckDB
// reads from it, per recording and topic, the message counts info --json
// gives.
func TestExportShards(t *testing.T) {
	fleet := exportFleet(t)
	dir := t.TempDir()
	bin := builtBagscope(t)
	whole, sharded := filepath.Join(dir, "whole"), filepath.Join(dir, "sharded")

	// Many recordings without --hive is a usage mistake.
	if _, stderr, code := run("export", fleet, whole); code != ExitUsage || !strings.Contains(stderr, "--hive") {
		t.Errorf("export of a folder without --hive: exit %d, %q; want 2 naming --hive", code, stderr)
	}
	stdout, stderr, code := run("export", "--json", "--hive", fleet, whole)
	if code != ExitOK {
		t.Fatalf("unsharded export: exit %d\n%s", code, stderr)
	}
	var all exportManyOut
	if err := json.Unmarshal([]byte(stdout), &all); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	if all.Listed != 8 || all.Mine != 8 || len(all.Recordings) != 8 || !all.OK {
		t.Fatalf("unsharded: %d listed, %d exported, ok %v; want 8", all.Listed, len(all.Recordings), all.OK)
	}

	outs := make([]exportManyOut, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, "export", "--json", "--hive", "--shard", fmt.Sprintf("%d/3", i), fleet, sharded)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			out, err := cmd.Output()
			if err == nil {
				err = json.Unmarshal(out, &outs[i])
			}
			if err != nil {
				errs[i] = fmt.Errorf("shard %d/3: %v\n%s", i, err, errb.String())
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	// The shards partition the recordings, as catalog's shards do.
	var got []string
	for i, o := range outs {
		var mine []string
		for _, r := range o.Recordings {
			mine = append(mine, r.Path)
		}
		got = append(got, mine...)
		cat := filepath.Join(dir, fmt.Sprintf("catalog%d", i))
		if _, stderr, code := run("catalog", fleet, "-o", cat, "--shard", fmt.Sprintf("%d/3", i)); code != ExitOK {
			t.Fatalf("catalog --shard %d/3: exit %d\n%s", i, code, stderr)
		}
		recs, err := catalog.ReadRecordings(cat)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range recs {
			want = append(want, r.Path)
		}
		slices.Sort(mine)
		slices.Sort(want)
		if !slices.Equal(mine, want) {
			t.Errorf("shard %d/3: export took %v; catalog %v", i, mine, want)
		}
		if o.Listed != 8 || o.Mine != len(o.Recordings) {
			t.Errorf("shard %d/3: %d listed, %d in shard, %d exported", i, o.Listed, o.Mine, len(o.Recordings))
		}
	}
	var whole1 []string
	for _, r := range all.Recordings {
		whole1 = append(whole1, r.Path)
	}
	slices.Sort(got)
	if !slices.Equal(got, whole1) {
		t.Errorf("the shards' recordings %v; unsharded %v", got, whole1)
	}

	// One dataset: the same files, byte for byte.
	w, s := treeFiles(t, whole), treeFiles(t, sharded)
	if len(w) == 0 || len(w) != len(s) {
		t.Errorf("sharded: %d files; unsharded %d", len(s), len(w))
	}
	for p, b := range w {
		if !bytes.Equal(s[p], b) {
			t.Errorf("%s: sharded (%d bytes) differs from unsharded (%d bytes)", p, len(s[p]), len(b))
		}
	}

	// DuckDB's rows per recording and topic are info's message counts.
	requireNodeOracles(t)
	q := fmt.Sprintf("SELECT recording, topic, count(*) AS n FROM read_parquet('%s/*/*/*.parquet', hive_partitioning=true, union_by_name=true) GROUP BY ALL", sharded)
	out, stderr, code, err := nodeOracle("duckdb_query.mjs", q)
	if err != nil || code != 0 {
		t.Fatalf("duckdb: %v %d %s", err, code, stderr)
	}
	duck := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		var r struct{ Recording, Topic, N string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("duckdb line %q: %v", line, err)
		}
		duck[r.Recording+" "+r.Topic] = r.N
	}
	rows := 0
	for _, r := range all.Recordings {
		skipped := map[string]bool{}
		for _, s := range r.Skipped {
			skipped[s.Topic] = true
		}
		stdout, stderr, code := run("info", "--json", r.Path)
		if code != ExitOK {
			t.Fatalf("info %s: exit %d %s", r.Path, code, stderr)
		}
		var info struct {
			Topics []struct {
				Topic    string
				Messages int64
			}
		}
		if err := json.Unmarshal([]byte(stdout), &info); err != nil {
			t.Fatal(err)
		}
		for _, tp := range info.Topics {
			if skipped[tp.Topic] {
				continue
			}
			if tp.Messages == 0 {
				// A topic without messages has no rows (nor table).
				if n, ok := duck[r.Recording+" "+tp.Topic]; ok {
					t.Errorf("%s %s: DuckDB reads %s rows; info says none", r.Path, tp.Topic, n)
				}
				continue
			}
			rows++
			if n := duck[r.Recording+" "+tp.Topic]; n != fmt.Sprint(tp.Messages) {
				t.Errorf("%s (recording=%s) %s: DuckDB reads %q rows; info says %d messages", r.Path, r.Recording, tp.Topic, n, tp.Messages)
			}
		}
	}
	if rows != len(duck) || rows == 0 {
		t.Errorf("DuckDB reads %d (recording, topic) pairs; info lists %d exported", len(duck), rows)
	}
}

// TestExportManySelection: over many recordings, --topics exports the
// recordings that have the topic (a table each, its rows info's count) and
// passes over those without it, said on stderr, exit 0; a topic none has
// is a usage mistake.
func TestExportManySelection(t *testing.T) {
	fleet := exportFleet(t)
	out := filepath.Join(t.TempDir(), "lake")
	stdout, stderr, code := run("export", "--json", "--hive", "--topics", "/odom", fleet, out)
	if code != ExitOK {
		t.Fatalf("export --topics /odom: exit %d\n%s", code, stderr)
	}
	var got exportManyOut
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	with, without := 0, 0
	for _, r := range got.Recordings {
		info, _, _ := run("info", "--json", r.Path)
		var v struct{ Topics []struct{ Topic string } }
		json.Unmarshal([]byte(info), &v)
		has := slices.ContainsFunc(v.Topics, func(x struct{ Topic string }) bool { return x.Topic == "/odom" })
		switch {
		case has && (r.Verdict != "ok" || len(r.Tables) != 1 || r.Tables[0].Topic != "/odom"):
			t.Errorf("%s has /odom: verdict %q, tables %+v", r.Path, r.Verdict, r.Tables)
		case !has && (r.Verdict != verdictNoneSelected || len(r.Tables) != 0 || !strings.Contains(stderr, r.Path+": not exported: no topic /odom")):
			t.Errorf("%s has no /odom: verdict %q, tables %+v; stderr %s", r.Path, r.Verdict, r.Tables, stderr)
		}
		if has {
			with++
		} else {
			without++
		}
	}
	if with < 2 || without < 2 {
		t.Errorf("%d recordings with /odom, %d without; the fleet has both", with, without)
	}
	if _, stderr, code := run("export", "--hive", "--topics", "/no_such_topic", fleet, out+"2"); code != ExitUsage || !strings.Contains(stderr, "matches none of the 8 recordings") {
		t.Errorf("a topic no recording has: exit %d, %s; want 2", code, stderr)
	}
}
