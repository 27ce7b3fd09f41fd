package cli

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// ros1OnePassEvery: without -long, TestCheckROS1InOnePass checks one in so
// many of each bag's damaged copies (every intact bag is checked), with
// check --json only (-long: check too): the whole sweep is ~1,650 check
// runs, 83 s without -race at load 23; one in 6 with both was 534 s under
// -race at load 25.
const ros1OnePassEvery = 8

// TestCheckROS1InOnePass runs check and check --json on every shared ROS 1
// bag and on damaged copies of each (damagedCopies: cut, a byte flipped,
// bytes of the index section, and, where the bag has chunks and index
// data, a chunk's byte, an index entry's time and offset, a chunk info's
// count), once with the doctor's pass standing for the stamps' and the
// survey's reads (oneReadPass: model.CheckStorage hands the stamps their
// messages, bag.SurveyVisited takes the doctor's counts) and once with
// each reading the bag again, as before: findings, loss lines, --json and
// exit statuses must be the same. Intact bags must take the one pass, and
// the messages check says it read must be python3-rosbag's count. Without
// -long, a sample (ros1OnePassEvery).
func TestCheckROS1InOnePass(t *testing.T) {
	var paths []string
	filepath.WalkDir(sharedBags, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".bag" {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) < 20 {
		t.Fatalf("the shared recordings are needed: %d .bag files under %s", len(paths), sharedBags)
	}
	oracletest.RequireRef(t)
	ref := pythonCounts(t, paths)
	defer func() { oneReadPass = true }()
	sweeptest.Note(t, ros1OnePassEvery, "each bag's damaged copies (every intact bag is checked)")
	spared0 := checkReadsSpared.Load()
	intact, compared, lost := 0, 0, 0
	for pi, p := range paths {
		copies := damagedCopies(t, p, false)
		for i, damage := range slices.Sorted(maps.Keys(copies)) {
			if damage != "intact" && !sweeptest.Keep(i+pi, ros1OnePassEvery) {
				continue
			}
			dp := copies[damage]
			cmds := [][]string{{"check", "--json", dp}}
			if sweeptest.Long() {
				cmds = append(cmds, []string{"check", dp})
			}
			for _, args := range cmds {
				got := bothPasses(t, name(p)+", "+damage, args)
				if got[0].code != 0 {
					lost++
				}
				if damage != "intact" || args[1] != "--json" || got[1].code == checkUnreadable {
					continue
				}
				intact++
				var c checkJSON
				if err := json.Unmarshal([]byte(got[1].stdout), &c); err != nil {
					t.Errorf("%s: check --json: %v", name(p), err)
					continue
				}
				if want, ok := ref[p]; ok && c.Errors == 0 {
					compared++
					if c.Lost.Read != want {
						t.Errorf("%s: check read %d messages, rosbag counts %d", name(p), c.Lost.Read, want)
					}
				}
			}
		}
	}
	spared := checkReadsSpared.Load() - spared0
	t.Logf("%d intact bags, %d compared with rosbag's counts; %d checks took the one pass; %d checks of damaged copies said something was lost", intact, compared, spared, lost)
	// A few shared bags have something the doctor warns of (so they are
	// read again); most take the one pass.
	if spared < int64(intact)*3/4 {
		t.Errorf("%d checks of %d intact bags took the one pass", spared, intact)
	}
	if compared < 20 {
		t.Errorf("only %d bags compared with rosbag's counts", compared)
	}
	if lost == 0 {
		t.Error("no damaged copy made check report anything")
	}
}

// pythonCounts returns python3-rosbag's message count of each bag it
// opens, by path (one process for all).
func pythonCounts(t *testing.T, paths []string) map[string]uint64 {
	t.Helper()
	const prog = `import sys, rosbag
for p in sys.argv[1:]:
    try:
        with rosbag.Bag(p) as b:
            print(b.get_message_count())
    except Exception:
        print(-1)
`
	out, err := exec.Command(refPython, append([]string{"-c", prog}, paths...)...).Output()
	if err != nil {
		t.Fatalf("rosbag: %v", err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(paths) {
		t.Fatalf("rosbag printed %d counts for %d bags", len(lines), len(paths))
	}
	ref := map[string]uint64{}
	for i, l := range lines {
		if n, err := strconv.ParseInt(l, 10, 64); err == nil && n >= 0 {
			ref[paths[i]] = uint64(n)
		}
	}
	return ref
}
