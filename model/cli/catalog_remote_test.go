package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/model/catalog"
)

// The catalogue over an S3 prefix: versitygw on loopback holds a mix of
// real recordings (ROS 1 bags, MCAP files, rosbag2 folders of .db3 and
// .mcap parts, an unindexed bag), behind a proxy that sees every request.

// s3Fleet copies the recordings to a folder of their own, which is both
// uploaded and catalogued locally. The three larger bags (1.4 to 2.4 MB)
// are bigger than what opening a file fetches (its last 256 KiB and first
// 64 KiB), so a whole-file download shows in the bytes fetched.
func s3Fleet(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
	dir := t.TempDir()
	for sub, srcs := range map[string][]string{
		"a": {testdata + "/robot.bag", testdata + "/ros2-mixed.mcap",
			sharedBags + "/foxglove__mcap/tests/conformance/data/OneMetadata/OneMetadata-mdx-pad-st-sum.mcap"},
		"a/deeper": {sharedBags + "/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag",
			sharedBags + "/geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap"},
		"big": {sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag",
			sharedBags + "/cra-ros-pkg__robot_localization/test/test1.bag",
			sharedBags + "/swri-robotics__bag-reader-java/src/test/resources/PointCloud2.bag"},
		"b": {sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", testdata + "/tf.bag"},
	} {
		os.MkdirAll(filepath.Join(dir, sub), 0o755)
		for _, src := range srcs {
			if out, err := exec.Command("cp", "-r", src, filepath.Join(dir, sub)+"/").CombinedOutput(); err != nil {
				t.Fatalf("cp %s: %v %s", src, err, out)
			}
		}
	}
	// A file that is no recording is not listed.
	os.WriteFile(filepath.Join(dir, "b", "notes.txt"), []byte("not a recording"), 0o644)
	return dir
}

// s3Proxy is the proxy in front of versitygw: it records the objects read
// (GETs with a Range) and answers the statuses set for some keys.
type s3Proxy struct {
	*remotetest.Faults
	mu     sync.Mutex
	reads  map[string]int // object path -> ranged GETs
	refuse map[string]int // object path suffix -> status
	// onRead, when set, hears of each ranged GET before it is
	// forwarded, with the object's count so far.
	onRead func(path string, n int)
}

func newS3Proxy(t *testing.T, s *remotetest.S3Server) *s3Proxy {
	p := &s3Proxy{Faults: remotetest.NewFaults(t, s.Endpoint), reads: map[string]int{}, refuse: map[string]int{}}
	p.Status(func(_ int, r *http.Request) int {
		p.mu.Lock()
		defer p.mu.Unlock()
		if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
			p.reads[r.URL.Path]++
			if p.onRead != nil {
				p.onRead(r.URL.Path, p.reads[r.URL.Path])
			}
		}
		for suffix, code := range p.refuse {
			if strings.HasSuffix(r.URL.Path, suffix) {
				return code
			}
		}
		return 0
	})
	return p
}

// takeReads returns the objects read since the last call.
func (p *s3Proxy) takeReads() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.reads
	p.reads = map[string]int{}
	return r
}

type remoteCatalogRun struct {
	catalogRun
	Bytes, Requests int64
}

func runRemoteCatalog(t *testing.T, args ...string) (remoteCatalogRun, int) {
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
		Fetched    struct {
			Bytes    int64 `json:"bytes"`
			Requests int64 `json:"requests"`
		} `json:"fetched"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("catalog %v: exit %d, not JSON: %v\n%s%s", args, code, err, out, stderr)
	}
	return remoteCatalogRun{catalogRun{r.Listed, r.Read, r.Unchanged, r.NotScanned, r.Failed, r.Recordings, r.Topics}, r.Fetched.Bytes, r.Fetched.Requests}, code
}

// rowsByName reads a catalogue's rows keyed by their path below root (a
// folder or a prefix URL), with the path, and the listing's time and
// validator (which differ between a local file and its object), cleared.
func rowsByName(t *testing.T, cat, root string) (map[string]catalog.Recording, map[string][]catalog.Topic) {
	t.Helper()
	recs, err := catalog.ReadRecordings(cat)
	if err != nil {
		t.Fatal(err)
	}
	topics, err := catalog.ReadTopics(cat)
	if err != nil {
		t.Fatal(err)
	}
	key := func(p string) string { return strings.TrimSuffix(strings.TrimPrefix(p, root), "/") }
	rs, ts := map[string]catalog.Recording{}, map[string][]catalog.Topic{}
	for _, r := range recs {
		k := key(r.Path)
		r.Health = strings.ReplaceAll(r.Health, r.Path, "PATH")
		r.Path, r.MTime, r.Validator = "", r.MTime.UTC(), ""
		rs[k] = r
	}
	for _, tp := range topics {
		k := key(tp.Path)
		tp.Path = ""
		ts[k] = append(ts[k], tp)
	}
	return rs, ts
}

// TestCatalogS3Prefix: a prefix catalogued through S3 has the rows of the
// same files catalogued locally (but for the path and the listing's time)
// and of `info --json --freq` of each URL; the larger recordings are read
// from their index, never downloaded; a re-run reads no object, and after
// one object changes only it; three processes, each a shard, write the
// rows of one run; objects refused (403) or gone (404) are rows that say
// so, and so is a key that does not exist.
func TestCatalogS3Prefix(t *testing.T) {
	fleet := s3Fleet(t)
	s3 := remotetest.Versity(t, "fleet")
	s3.Env(t, false)
	s3.Upload(t, "fleet", "2026/", fleet)
	proxy := newS3Proxy(t, s3)
	ep := strings.TrimSuffix(proxy.URL, "/")
	const prefix = "s3://fleet/2026/"
	dir := t.TempDir()
	localCat, remoteCat := filepath.Join(dir, "local"), filepath.Join(dir, "remote")

	runCatalog(t, fleet, "-o", localCat)
	cold, code := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat)
	if code != 0 || cold.Listed != 10 || cold.Read != 9 || cold.NotScanned != 1 || cold.Failed != 0 {
		t.Fatalf("cold run: exit %d, %+v; want 10 listed, 9 read, 1 not scanned (the unindexed bag)", code, cold)
	}
	coldReads := proxy.takeReads()
	t.Logf("cold: %d recordings, %d requests, %d bytes fetched; objects read %v", cold.Listed, cold.Requests, cold.Bytes, coldReads)

	// The same rows as the local catalogue's.
	lr, lt := rowsByName(t, localCat, fleet+"/")
	rr, rt := rowsByName(t, remoteCat, prefix)
	if len(lr) != 10 || len(rr) != len(lr) {
		t.Fatalf("%d remote rows, %d local; want 10 each", len(rr), len(lr))
	}
	for name, l := range lr {
		r, ok := rr[name]
		if !ok {
			t.Errorf("%s: no remote row", name)
			continue
		}
		if r.MTime.IsZero() {
			t.Errorf("%s: no time; want the objects' Last-Modified", name)
		}
		l.MTime = r.MTime // the upload's time, not the file's
		if !reflect.DeepEqual(l, r) {
			t.Errorf("%s:\nremote %+v\nlocal  %+v", name, r, l)
		}
		if !reflect.DeepEqual(lt[name], rt[name]) {
			t.Errorf("%s topics:\nremote %+v\nlocal  %+v", name, rt[name], lt[name])
		}
	}

	// Each row against info of its URL, and its validator against the
	// object's ETag as info's open sees it.
	recs, _ := catalog.ReadRecordings(remoteCat)
	for _, rec := range recs {
		if strings.HasSuffix(rec.Path, "test_unindexed.bag") {
			if rec.Indexed || !strings.Contains(rec.Health, "--scan") {
				t.Errorf("unindexed bag: %+v; want listed, not read", rec)
			}
			continue
		}
		out, stderr, icode := run("info", "--json", "--freq", "--endpoint-url", ep, rec.Path)
		var info struct {
			Format, Version string
			Size            int64
			Start, End      struct{ NS int64 }
			Duration        float64
			Messages        int64
			Chunks          int32
			Topics          []struct {
				Topic, Type string
				Messages    int64
				Frequency   *float64
			}
		}
		if err := json.Unmarshal([]byte(out), &info); err != nil || icode != 0 {
			t.Fatalf("info --json %s: exit %d %v\n%s%s", rec.Path, icode, err, out, stderr)
		}
		if rec.Format != info.Format || rec.Version != info.Version || rec.StartNS != info.Start.NS || rec.EndNS != info.End.NS ||
			rec.Messages != info.Messages || rec.Chunks != info.Chunks || math.Abs(rec.Duration-info.Duration) > 1e-9 || int(rec.Topics) != len(info.Topics) {
			t.Errorf("row %+v\ninfo %s", rec, out)
		}
		if !strings.HasSuffix(rec.Path, "/") && !strings.HasPrefix(rec.Validator, "etag:\"") {
			t.Errorf("%s: validator %q; want the listing's ETag", rec.Path, rec.Validator)
		}
		if strings.HasSuffix(rec.Path, "/") && !strings.HasPrefix(rec.Validator, "objects:") {
			t.Errorf("%s: validator %q; want the hash of its objects'", rec.Path, rec.Validator)
		}
	}
	// The larger bags were read from their index: only a part of each
	// was fetched (each is read twice above, by catalog and by info).
	for _, name := range []string{"tilt_laser.bag", "test1.bag", "PointCloud2.bag"} {
		url := prefix + "big/" + name
		st, _ := os.Stat(filepath.Join(fleet, "big", name))
		one, _ := runRemoteCatalog(t, url, "--endpoint-url", ep, "-o", filepath.Join(dir, "one-"+name))
		if one.Read != 1 || one.Bytes <= 0 || one.Bytes >= st.Size()/2 {
			t.Errorf("%s (%d bytes): %+v; want it read fetching less than half of it", name, st.Size(), one)
		}
	}
	proxy.takeReads()

	// Unchanged: listings only, no object read.
	again, _ := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat)
	if again.Read != 0 || again.Unchanged != 10 || again.Recordings != 10 || again.Topics != cold.Topics || again.Bytes != 0 {
		t.Errorf("unchanged run: %+v; want nothing read, 10 unchanged, no bytes", again)
	}
	if reads := proxy.takeReads(); len(reads) != 0 {
		t.Errorf("unchanged run read objects: %v", reads)
	}
	t.Logf("unchanged: %d requests, %d bytes", again.Requests, again.Bytes)

	// One object rewritten (robot.bag now holds tf.bag): only it is read,
	// and its row is tf.bag's.
	tf, _ := os.ReadFile(filepath.Join(fleet, "b", "tf.bag"))
	s3.Put(t, "fleet", "2026/a/robot.bag", tf)
	changed, _ := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat)
	reads := proxy.takeReads()
	if changed.Read != 1 || changed.Unchanged != 9 || len(reads) != 1 || reads["/fleet/2026/a/robot.bag"] == 0 {
		t.Errorf("after rewriting one object: %+v, objects read %v; want only a/robot.bag read", changed, reads)
	}
	rr, _ = rowsByName(t, remoteCat, prefix)
	if got, want := rr["a/robot.bag"], lr["b/tf.bag"]; got.Messages != want.Messages || got.StartNS != want.StartNS || got.Size != want.Size {
		t.Errorf("rewritten a/robot.bag: %+v; want tf.bag's %+v", got, want)
	}

	// One byte of b/tf.bag changed: the same size; its ETag (and
	// Last-Modified) tell, and it alone is read.
	tf[len(tf)/2] ^= 0xff
	s3.Put(t, "fleet", "2026/b/tf.bag", tf)
	flipped, _ := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat)
	if reads := proxy.takeReads(); flipped.Read+flipped.Failed != 1 || flipped.Unchanged != 9 || len(reads) != 1 || reads["/fleet/2026/b/tf.bag"] == 0 {
		t.Errorf("after changing one byte of an object: %+v, objects read %v; want only b/tf.bag read", flipped, reads)
	}

	// An object rewritten while it is read (test1.bag, read in many
	// requests: after its third) is a row saying it changed during the
	// read, tried again by the next run, which reads it whole.
	test1, _ := os.ReadFile(filepath.Join(fleet, "big", "test1.bag"))
	other := append([]byte(nil), test1...)
	other[len(other)/3] ^= 0xff
	proxy.mu.Lock()
	proxy.onRead = func(path string, n int) {
		if path == "/fleet/2026/big/test1.bag" && n == 3 {
			s3.Put(t, "fleet", "2026/big/test1.bag", other)
		}
	}
	proxy.mu.Unlock()
	// A listing before the rewrite: the object's ETag as it was.
	mid, _ := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat, "--read-all")
	proxy.mu.Lock()
	proxy.onRead = nil
	proxy.mu.Unlock()
	proxy.takeReads()
	var midRow catalog.Recording
	recs, _ = catalog.ReadRecordings(remoteCat)
	for _, r := range recs {
		if strings.HasSuffix(r.Path, "/big/test1.bag") {
			midRow = r
		}
	}
	if mid.Failed != 1 || !strings.Contains(midRow.Health, "changed during the read") || midRow.Validator != "" {
		t.Errorf("rewritten while read: %+v, row %+v; want its row saying it changed during the read", mid, midRow)
	}
	after, _ := runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", remoteCat, "--read-all")
	if reads := proxy.takeReads(); after.Failed != 0 || after.Read != 1 || len(reads) != 1 || reads["/fleet/2026/big/test1.bag"] == 0 {
		t.Errorf("the run after: %+v, objects read %v; want test1.bag alone read again", after, reads)
	}

	// Three processes, one shard each, write the rows of one run.
	bin := builtBagscope(t)
	whole, sharded := filepath.Join(dir, "whole"), filepath.Join(dir, "sharded")
	runRemoteCatalog(t, prefix, "--endpoint-url", ep, "-o", whole)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := exec.Command(bin, "catalog", prefix, "--endpoint-url", ep, "-o", sharded, "--shard", fmt.Sprintf("%d/3", i)).CombinedOutput()
			if err != nil {
				errs[i] = fmt.Errorf("shard %d/3: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if files, _ := catalog.Files(sharded, catalog.RecordingsTable); len(files) != 3 {
		t.Errorf("%d partitions: %v; want 3", len(files), files)
	}
	wr, wt := rowsByName(t, whole, "")
	sr, st := rowsByName(t, sharded, "")
	if !reflect.DeepEqual(wr, sr) || !reflect.DeepEqual(wt, st) {
		t.Errorf("the shards' rows differ from one run's:\nshards %+v\none    %+v", sr, wr)
	}

	// Refused and vanished objects, and a key that is not there: rows
	// saying so (exit 1), tried again by the next run.
	robot, _ := os.ReadFile(filepath.Join(fleet, "big", "test1.bag"))
	s3.Put(t, "fleet", "2026/c/denied.bag", robot)
	s3.Put(t, "fleet", "2026/c/gone.bag", robot)
	proxy.mu.Lock()
	proxy.refuse["/fleet/2026/c/denied.bag"] = http.StatusForbidden
	proxy.refuse["/fleet/2026/c/gone.bag"] = http.StatusNotFound
	proxy.mu.Unlock()
	for range 2 {
		bad, code := runRemoteCatalog(t, prefix, prefix+"c/missing.bag", "--endpoint-url", ep, "-o", remoteCat)
		if code != 1 || bad.Listed != 13 || bad.Failed != 3 || bad.Read != 0 || bad.Unchanged != 10 {
			t.Errorf("with a refused, a vanished and a missing object: exit %d, %+v; want exit 1, 3 failed, 10 unchanged", code, bad)
		}
		recs, _ := catalog.ReadRecordings(remoteCat)
		found := 0
		for _, r := range recs {
			for name, want := range map[string]string{"denied.bag": "HTTP 403", "gone.bag": "HTTP 404", "missing.bag": "no such"} {
				if strings.HasSuffix(r.Path, "/"+name) {
					found++
					if r.Healthy || !strings.Contains(r.Health, want) || r.Error == "" || r.Validator != "" {
						t.Errorf("%s: healthy %v, health %q, validator %q; want its health saying %q", name, r.Healthy, r.Health, r.Validator, want)
					}
				}
			}
		}
		if found != 3 {
			t.Errorf("%d rows of the 3 unreadable objects", found)
		}
	}
}

// TestCatalogHTTPURL: http(s) URLs of recordings (served by nginx) are
// catalogued as their local files are; a re-run reads none of them (the
// opening suffix read's ETag is the same), a touched file is read again,
// and a URL the server has not is a row saying so.
func TestCatalogHTTPURL(t *testing.T) {
	fleet := s3Fleet(t)
	web := remotetest.Nginx(t, fleet)
	dir := t.TempDir()
	rels := []string{"a/robot.bag", "a/ros2-mixed.mcap", "big/test1.bag"}
	var local, urls []string
	for _, rel := range rels {
		local = append(local, filepath.Join(fleet, rel))
		urls = append(urls, web.URL+rel)
	}
	localCat, webCat := filepath.Join(dir, "local"), filepath.Join(dir, "web")
	runCatalog(t, append(local, "-o", localCat)...)
	cold, code := runRemoteCatalog(t, append(urls, "-o", webCat)...)
	if code != 0 || cold.Read != 3 || cold.Bytes == 0 {
		t.Fatalf("cold: exit %d, %+v; want 3 read", code, cold)
	}
	lr, lt := rowsByName(t, localCat, fleet+"/")
	wr, wt := rowsByName(t, webCat, web.URL)
	for _, rel := range rels {
		l, w := lr[rel], wr[rel]
		l.MTime = w.MTime
		if w.MTime.IsZero() || !reflect.DeepEqual(l, w) || !reflect.DeepEqual(lt[rel], wt[rel]) {
			t.Errorf("%s:\nurl   %+v\nlocal %+v", rel, w, l)
		}
	}
	recs, _ := catalog.ReadRecordings(webCat)
	for _, r := range recs {
		if !strings.HasPrefix(r.Validator, "etag:") {
			t.Errorf("%s: validator %q; want nginx's ETag", r.Path, r.Validator)
		}
	}
	again, _ := runRemoteCatalog(t, append(urls, "-o", webCat)...)
	if again.Read != 0 || again.Unchanged != 3 {
		t.Errorf("unchanged: %+v; want nothing read", again)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(fleet, "a", "robot.bag"), later, later); err != nil {
		t.Fatal(err)
	}
	touched, _ := runRemoteCatalog(t, append(urls, "-o", webCat)...)
	if touched.Read != 1 || touched.Unchanged != 2 {
		t.Errorf("after touching robot.bag: %+v; want it alone read", touched)
	}
	missing, code := runRemoteCatalog(t, append(urls, web.URL+"a/missing.bag", "-o", webCat)...)
	if code != 1 || missing.Failed != 1 || missing.Unchanged != 3 {
		t.Errorf("with a missing URL: exit %d, %+v; want exit 1, it failed, 3 unchanged", code, missing)
	}
	recs, _ = catalog.ReadRecordings(webCat)
	found := false
	for _, r := range recs {
		if strings.HasSuffix(r.Path, "/missing.bag") {
			found = true
			if !strings.Contains(r.Health, "HTTP 404") || r.Format != "ROS 1 bag" {
				t.Errorf("missing.bag: %+v; want its health saying HTTP 404", r)
			}
		}
	}
	if !found {
		t.Error("no row for the missing URL")
	}
}
