package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

const (
	sharedBags = "../../../shared/bags"
	testdata   = "../../testdata"
	refPython  = oracletest.Python
)

// requireRef skips when the reference rosbag is missing, except in CI.
func requireRef(t testing.TB) {
	t.Helper()
	oracletest.RequireRef(t)
}

// The -long flag (bag/sweeptest) makes the sweeps over the shared
// recordings read every one of them (make test-long); without it they read
// a fixed sample (sampleShared).

// sampleEvery is how sparse the sample of shared recordings is without
// -long: one in so many, in path order.
const sampleEvery = 4

// damagedName matches the names of shared recordings that are damaged on
// purpose: the sample always keeps them.
var damagedName = regexp.MustCompile(`(?i)trunc|unindex|empty|corrupt|broken|bad|cut|active|invalid|crash|damag`)

// sampleShared returns paths (sorted) itself with -long. Without it, it
// keeps the project's own fixtures, every shared recording whose name says
// it is damaged, and one in sampleEvery of the others: the same sample on
// every run, so a failure repeats, and every format the shared folder has
// is in it (the sample is taken per extension).
func sampleShared(paths []string) []string {
	if sweeptest.Long() {
		return paths
	}
	var out []string
	seen := map[string]int{}
	for _, p := range paths {
		if !strings.HasPrefix(p, sharedBags) || damagedName.MatchString(filepath.Base(p)) {
			out = append(out, p)
			continue
		}
		ext := filepath.Ext(p)
		if seen[ext]%sampleEvery == 0 {
			out = append(out, p)
		}
		seen[ext]++
	}
	return out
}

// sampleMaxBytes: without -long, allBags leaves out of its sample the
// shared bags (not damaged ones) whose chunks hold more than this
// uncompressed. matlab_rosbag's example.bag is 41 KB of bz2 holding a 4 MB
// OccupancyGrid: as a JSON array of 4M numbers, compared under -race, it
// was 47 s of TestCatJSONMatchesReference's 60. make test-long reads them.
const sampleMaxBytes = 2 << 20

// uncompressedSize is the size of a bag's chunks uncompressed, by their
// headers (0 when it does not open indexed).
func uncompressedSize(p string) int64 {
	b, err := ros1.Open(p)
	if err != nil {
		return 0
	}
	defer b.Close()
	var n int64
	for _, ci := range b.ChunkInfos {
		if c, err := b.ChunkHeader(ci); err == nil {
			n += int64(c.Size)
		}
	}
	return n
}

// allBags lists the shared bags (a sample of them without -long; see
// sampleShared and sampleMaxBytes) and the project's fixtures.
func allBags(t testing.TB) []string {
	t.Helper()
	if _, err := os.Stat(sharedBags); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bags missing in CI: %v", err)
		}
		t.Skipf("skipping: %s not found", sharedBags)
	}
	var out []string
	for _, root := range []string{sharedBags, testdata} {
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".bag") {
				out = append(out, p)
			}
			return nil
		})
	}
	sort.Strings(out)
	out = sampleShared(out)
	if sweeptest.Long() {
		return out
	}
	return slices.DeleteFunc(out, func(p string) bool {
		return strings.HasPrefix(p, sharedBags) && !damagedName.MatchString(filepath.Base(p)) && uncompressedSize(p) > sampleMaxBytes
	})
}

// run runs a command in-process and returns stdout, stderr and the status.
func run(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func name(p string) string {
	return strings.TrimPrefix(strings.TrimPrefix(p, sharedBags+"/"), "../../")
}
