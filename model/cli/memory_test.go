package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag/sweeptest"
)

// maxCommandRSS is the peak resident memory every headless command stays
// within, whatever the size of the recording (issue 29).
const maxCommandRSS = 64 << 20

// tinyMessages is how many messages the recordings of
// TestHeadlessCommandsMemory hold: a million in make test, four with -long.
func tinyMessages() int {
	if sweeptest.Long() {
		return 4 << 20
	}
	return 1 << 20
}

// TestHeadlessCommandsMemory runs every headless command of the front
// binary (export and catalog in bagscope-tables beside it, which the front
// executes for them) on recordings of a
// million (with -long four million) tiny messages on one topic, and checks
// each child's peak resident memory (rusage, through testdata/peakrss) is at most 64 MiB: nothing a
// command keeps may grow with the messages. The children run on two cores
// (GOMAXPROCS=2), the machine of issue 29, whatever the test's machine:
// the read-ahead of chunks grows with the cores (see BENCHMARKS.md).
// Without -long it runs a sample: check, plot --stats and a find that
// every message matches on the MCAP, export to Parquet and CSV and catalog
// of it, verify and fix on the MCAP of 4 MiB lz4 chunks, and fix of a ROS 1
// bag to bz2 chunks.
func TestHeadlessCommandsMemory(t *testing.T) {
	dir := t.TempDir()
	bin, meter, gen := filepath.Join(dir, "bagscope"), filepath.Join(dir, "peakrss"), filepath.Join(dir, "tinyrec")
	// The four builds at once (the front and bagscope-tables as make
	// build makes them, never with -race: a race binary's memory is not
	// the product's).
	builds := map[string][]string{
		bin:                                   {"-tags", "bagscope_front", "./bagscope"},
		filepath.Join(dir, "bagscope-tables"): {"-tags", "bagscope_front,bagscope_tables", "./bagscope-tables"},
		meter:                                 {"../../testdata/peakrss"},
		gen:                                   {"../../testdata/tinyrec"},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []string
	for out, args := range builds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := goBuild(append([]string{"-o", out}, args...)...).CombinedOutput(); err != nil {
				mu.Lock()
				failed = append(failed, fmt.Sprintf("go build %s: %v\n%s", args[len(args)-1], err, b))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Fatal(strings.Join(failed, "\n"))
	}
	n := tinyMessages()
	// The recordings, written by tinyrec (built without -race: under it
	// the test process took ~70 s to write them, tinyrec ~2 s).
	files := map[string]string{".mcap": "mcap", "-4MiB-lz4.mcap": "mcap-4mib-lz4", ".bag": "bag"}
	for ext, format := range files {
		path := filepath.Join(dir, "tiny"+ext)
		dst := filepath.Join(dir, "out"+filepath.Ext(ext))
		n := n
		if ext != ".mcap" && !sweeptest.Long() {
			// Fifteen chunks (the bag: 13): more than the read-ahead
			// holds (what grew was per chunk, not per message).
			n /= 4
		}
		if b, err := exec.Command(gen, "-format", format, "-n", strconv.Itoa(n), "-o", path).CombinedOutput(); err != nil {
			t.Fatalf("tinyrec -format %s: %v\n%s", format, err, b)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d messages, %.1f MB", path, n, float64(st.Size())/1e6)
		tables := filepath.Join(dir, "tables")
		commands := [][]string{
			{"check", path},
			{"plot", path, "/tiny.x", "--stats"},
			// Every message a hit: more than find holds to sort.
			{"find", path, "@t >= 0", "--max-hits", "8000000"},
			// The table writers: Parquet's row groups, bounded in bytes,
			// and CSV's; catalog's index and interval statistics.
			{"export", "--force", path, tables},
			{"export", "--force", "--format", "csv", path, tables},
			{"catalog", path, "-o", filepath.Join(dir, "catalog")},
		}
		if ext == "-4MiB-lz4.mcap" && !sweeptest.Long() {
			// The large chunks: the commands that read in time order and
			// write (the read-ahead and the writer's buffers).
			commands = [][]string{
				{"verify", path},
				{"fix", "--force", path, dst},
			}
		}
		// The ROS 1 writer's bz2 chunks: each worker's encoder holds
		// 20 bytes a byte of its block (main 17ed955: a new level-9
		// encoder a chunk, fix to bz2 at 70.8 MiB; now 56.4).
		bz2 := []string{"fix", "--force", "--compression", "bz2", path, dst}
		if ext == ".bag" && !sweeptest.Long() {
			commands = [][]string{bz2}
		}
		if sweeptest.Long() {
			commands = append(commands,
				[]string{"info", path},
				[]string{"check", "--quick", path},
				[]string{"verify", path},
				[]string{"cat", path},
				[]string{"find", path, "/tiny.x > 124.8"},
				[]string{"plot", path, "/tiny.x", "--csv", filepath.Join(dir, "p.csv")},
				[]string{"fix", "--force", path, dst},
				[]string{"filter", "--force", path, dst, "--topics", "/tiny"},
			)
			if ext == ".bag" {
				commands = append(commands, bz2)
			}
		}
		for _, args := range commands {
			name := args[0]
			if args[0] == "export" && slices.Contains(args, "csv") {
				name = "export csv"
			}
			t.Run(ext+" "+name, func(t *testing.T) {
				// Measured by peakrss (see there), stdout thrown away.
				cmd := exec.Command(meter, append([]string{bin}, args...)...)
				cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %v\n%s", args, err, stderr.String())
				}
				var kib int64
				var cpu float64
				if _, err := fmt.Sscan(string(out), &kib, &cpu); err != nil {
					t.Fatalf("peakrss printed %q: %v", out, err)
				}
				rss := kib << 10
				t.Logf("%v: peak RSS %.1f MiB, CPU %.2f s", args[:len(args)-1], float64(rss)/(1<<20), cpu)
				if rss > maxCommandRSS {
					t.Errorf("%v: peak RSS %.1f MiB, want at most %d MiB", args, float64(rss)/(1<<20), maxCommandRSS>>20)
				}
			})
		}
		// The recording read as written: every message, the stamps
		// going back said (so the check read the stamps).
		out, err := exec.Command(bin, "check", path).CombinedOutput()
		want := fmt.Sprintf("%d messages have a header.stamp earlier than the message received before them", n/100_000)
		if !strings.Contains(string(out), want) {
			t.Errorf("check %s: %v, does not say %q:\n%s", path, err, want, out)
		}
	}
}
