package cli

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// onePassDamages makes damaged copies of the recording at src: cut, a
// byte flipped in a chunk's data, and its index damaged (for a ROS 1 bag:
// an index entry's time, a chunk info's count; for an MCAP file: a byte
// of its summary section, where its chunk and message indexes are). Each
// is named by the damage.
func onePassDamages(t *testing.T, src string) map[string]string {
	t.Helper()
	return damagedCopies(t, src, true)
}

// damagedCopies is onePassDamages; unless strict, a ROS 1 bag without the
// chunks and index data its own damages need gets the others only, and a
// file too small for the summary's damage (or empty) does without it.
func damagedCopies(t *testing.T, src string, strict bool) map[string]string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatalf("the shared recordings are needed: %v", err)
	}
	n := int64(len(data))
	edits := map[string]func(d []byte) []byte{
		"intact":        func(d []byte) []byte { return d },
		"cut":           func(d []byte) []byte { return d[:n*3/5] },
		"byte at 40%":   func(d []byte) []byte { d[n*2/5] ^= 0xff; return d },
		"summary bytes": func(d []byte) []byte { d[n-120] ^= 0x21; d[n-300] ^= 0x04; return d },
	}
	if !strict && n < 400 {
		delete(edits, "summary bytes")
	}
	if !strict && n == 0 {
		delete(edits, "byte at 40%")
	}
	if strings.HasSuffix(src, ".bag") {
		err := ros1Damages(src, edits)
		if err != nil && strict {
			t.Fatalf("%s: %v", src, err)
		}
	}
	dir := t.TempDir()
	out := map[string]string{}
	for name, edit := range edits {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+filepath.Ext(src))
		if err := os.WriteFile(p, edit(append([]byte(nil), data...)), 0o644); err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	return out
}

// ros1Damages adds to edits the damages of a ROS 1 bag's own records: a
// byte flipped in the middle chunk's data, an index entry's time and
// offset after it, its chunk info's count. It adds none to a bag without
// chunks and index data.
func ros1Damages(src string, edits map[string]func(d []byte) []byte) error {
	b, err := ros1.Open(src)
	if err != nil {
		return err
	}
	defer b.Close()
	if len(b.ChunkInfos) == 0 {
		return errors.New("no chunk infos")
	}
	ci := b.ChunkInfos[len(b.ChunkInfos)/2]
	ch, err := b.ChunkHeader(ci)
	if err != nil {
		return err
	}
	idx, err := b.ChunkIndex(ci)
	if err != nil {
		return err
	}
	if len(idx) == 0 || len(idx[0].Entries) == 0 {
		return errors.New("no index entries")
	}
	x := idx[len(idx)-1]
	k := int64(len(x.Entries) / 2)
	edits["chunk byte flipped"] = func(d []byte) []byte { d[ch.DataOffset+int64(ch.DataLen)/3] ^= 0x5a; return d }
	edits["index entry time"] = func(d []byte) []byte { d[x.DataOffset+12*k+4] ^= 0x10; return d }
	edits["index entry offset"] = func(d []byte) []byte { d[x.DataOffset+12*k+8] ^= 0x02; return d }
	edits["chunk info count"] = func(d []byte) []byte { d[ci.DataOffset+4] ^= 0x01; return d }
	return nil
}

// onePassEvery: without -long, TestOnePassSaysWhatTheDoctorSays runs one
// in so many of each recording's damaged copies (onePassDamages, in the
// order of their names, the sample shifted by one for each recording, so
// that the two ROS 1 bags keep complementary halves and every kind of
// damage is still compared): the whole test was 252 s of model/cli's
// sequential tests under -race at load 17 (20 copies, 14 command runs
// each). BAGSCOPE_SAMPLE=K picks another fixed sample; go test -long
// (make test-long) runs every copy.
const onePassEvery = 2

// TestOnePassSaysWhatTheDoctorSays runs the commands that say what a
// recording lost after reading it (cat, verify --json, plot, diff, fix) on damaged copies of shared ROS 1 bags and of
// a multi-chunk MCAP file, once with the read vouching for the doctor
// after it (oneReadPass) and once with the doctor reading the recording
// again itself, as before: their loss lines, --json and exit statuses must
// be the same, so the one pass never says less than the doctor did.
func TestOnePassSaysWhatTheDoctorSays(t *testing.T) {
	rb := func(p string) string { return filepath.Join(sharedBags, p) }
	tilt := rb("facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	chunked := filepath.Join(t.TempDir(), "tilt_laser_chunked.mcap")
	src, err := bag.OpenFile(tilt)
	if err != nil {
		t.Fatalf("the shared recordings are needed: %v", err)
	}
	f, err := os.Create(chunked)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcap.Write(f, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 64 << 10}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src.Close()
	sources := []struct {
		path  string
		field string // for plot
	}{
		{tilt, "/imu_data.linear_acceleration.x"},
		{rb("embarktrucks__embag/@7695f345/test/test.bag"), "/base_pose_ground_truth.pose.pose.position.x"},
		{chunked, "/imu_data.linear_acceleration.x"},
	}
	defer func() { oneReadPass = true }()
	sweeptest.Note(t, onePassEvery, "each recording's damaged copies (every kind of damage is kept for one of the ROS 1 bags)")
	differ := 0
	for si, s := range sources {
		copies := onePassDamages(t, s.path)
		for i, damage := range slices.Sorted(maps.Keys(copies)) {
			// Shifted by the source: the two ROS 1 bags keep the
			// other half of the damages each.
			if !sweeptest.Keep(i+si, onePassEvery) {
				continue
			}
			p := copies[damage]
			t.Run(filepath.Base(s.path)+"/"+damage, func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "fixed"+filepath.Ext(p))
				cmds := [][]string{
					{"cat", p},
					{"verify", "--json", p},
					{"plot", p, s.field, "--stats"},
					{"diff", s.path, p},
					{"fix", p, out},
					{"check", p},
					{"check", "--json", p},
				}
				for _, args := range cmds {
					var got [2]struct {
						stdout, stderr string
						code           int
					}
					for i, one := range []bool{false, true} {
						oneReadPass = one
						os.Remove(out)
						g := &got[i]
						g.stdout, g.stderr, g.code = run(args...)
						if args[0] == "cat" && !strings.Contains(args[1], "json") {
							g.stdout = "" // the messages: the same read either way
						}
					}
					if got[0] != got[1] {
						t.Errorf("%v: with the doctor reading again, exit %d, stderr\n%s\nstdout %.2000s\nin one pass, exit %d, stderr\n%s\nstdout %.2000s",
							args, got[0].code, got[0].stderr, got[0].stdout, got[1].code, got[1].stderr, got[1].stdout)
					}
					if got[0].code != 0 {
						differ++
					}
				}
			})
		}
	}
	if differ == 0 {
		t.Fatal("no damaged copy made any command report a loss")
	}
}

// TestCheckInOnePassSaysWhatTheSurveySays runs check and check --json on
// every shared MCAP file and a multi-chunk one, whole and damaged
// (onePassDamages), once with the doctor's decoding pass standing for the
// read that says what the recording lost (oneReadPass: bag.SurveyVisited,
// when the doctor found nothing wrong) and once reading the recording
// again for it, as before: findings, loss lines, --json and exit statuses
// must be the same. The intact files must take the one pass.
func TestCheckInOnePassSaysWhatTheSurveySays(t *testing.T) {
	var paths []string
	filepath.WalkDir(sharedBags, func(p string, d os.DirEntry, err error) error {
		// onePassDamages edits bytes 300 from the end.
		if info, ierr := os.Stat(p); err == nil && ierr == nil && !d.IsDir() && filepath.Ext(p) == ".mcap" && info.Size() > 400 {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Fatalf("the shared recordings are needed: no .mcap under %s", sharedBags)
	}
	src, err := bag.OpenFile(filepath.Join(sharedBags, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag"))
	if err != nil {
		t.Fatalf("the shared recordings are needed: %v", err)
	}
	chunked := filepath.Join(t.TempDir(), "tilt_laser_chunked.mcap")
	f, err := os.Create(chunked)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcap.Write(f, src, mcap.WriteOptions{Compression: "lz4", ChunkSize: 32 << 10}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src.Close()
	paths = append(paths, chunked)
	defer func() { oneReadPass = true }()
	spared0 := checkReadsSpared.Load()
	intact, lost := 0, 0
	for _, p := range paths {
		for damage, dp := range onePassDamages(t, p) {
			for _, args := range [][]string{{"check", dp}, {"check", "--json", dp}} {
				got := bothPasses(t, p+", "+damage, args)
				if got[0].code != 0 {
					lost++
				}
			}
			if damage == "intact" {
				intact++
			}
		}
	}
	if spared := checkReadsSpared.Load() - spared0; spared < int64(intact) {
		// Each intact file's two checks may take the one pass; every
		// file the doctor finds sound must.
		t.Logf("%d of %d checks of intact files took the one pass", spared, 2*intact)
	}
	if checkReadsSpared.Load() == spared0 {
		t.Error("no check took the one pass")
	}
	if lost == 0 {
		t.Error("no damaged copy made check report anything")
	}
}

// checkRun is one run of a command: its output and exit status.
type checkRun struct {
	stdout, stderr string
	code           int
}

// bothPasses runs args twice, reading the recording again for the survey
// (oneReadPass false) and with the doctor's pass standing for it (true),
// and fails the test, naming what, when the two runs differ. It returns
// both runs, in that order.
func bothPasses(t *testing.T, what string, args []string) [2]checkRun {
	t.Helper()
	var got [2]checkRun
	for i, one := range []bool{false, true} {
		oneReadPass = one
		g := &got[i]
		g.stdout, g.stderr, g.code = run(args...)
	}
	if got[0] != got[1] {
		t.Errorf("%s: %v: reading again, exit %d, stderr\n%s\nstdout %.3000s\nin one pass, exit %d, stderr\n%s\nstdout %.3000s",
			what, args[:len(args)-1], got[0].code, got[0].stderr, got[0].stdout, got[1].code, got[1].stderr, got[1].stdout)
	}
	return got
}
