package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bagscope/bagscope/bag/ros1"
)

const ros1Testdata = "../../bag/ros1/testdata"

// offsetLine matches a stderr line that names a byte offset.
var offsetLine = regexp.MustCompile(`offset \d+`)

// countJSONLines checks that every line of s is JSON and counts them.
func countJSONLines(t *testing.T, s string) int { return len(jsonLines(t, s)) }

// damagedHeaderCopy breaks the header length of one message record in an
// uncompressed chunk of none-multichunk.bag.
func damagedHeaderCopy(t *testing.T) string {
	t.Helper()
	src := testdata + "/none-multichunk.bag"
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ci := b.ChunkInfos[3]
	idx, err := b.ChunkIndex(ci)
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := b.ChunkHeader(ci)
	data, _ := os.ReadFile(src)
	at := ch.DataOffset + int64(idx[0].Entries[len(idx[0].Entries)-1].Offset)
	copy(data[at:], []byte{0xff, 0xff, 0xff, 0x7f})
	p := filepath.Join(t.TempDir(), "damaged-header.bag")
	os.WriteFile(p, data, 0o644)
	return p
}

// cutCopy writes the first n bytes of src.
func cutCopy(t *testing.T, src string, n int) string {
	t.Helper()
	data, _ := os.ReadFile(src)
	p := filepath.Join(t.TempDir(), "cut.bag")
	os.WriteFile(p, data[:n], 0o644)
	return p
}

// TestLossIsNeverSilent runs cat, cat --json, verify, verify --json and
// plot on damaged and cut bags: each exits 1 and says on stderr what was
// lost, with offsets; cat reads every message but the lost ones; the JSON
// outputs stay valid. The bag of three bz2 bombs is checked the same way
// by TestBombCommandsMemory (checkLossSaid), which runs these commands on
// it anyway: each run costs ~14 s of bz2 under -race.
func TestLossIsNeverSilent(t *testing.T) {
	cases := map[string]struct {
		path string
		full string // the undamaged bag
		lost int    // messages lost, -1: some
		plot bool   // /imu loses messages too
	}{
		"bz2 damaged chunk":    {damagedCopy(t, testdata+"/bz2-multichunk.bag"), testdata + "/bz2-multichunk.bag", -1, false},
		"lz4 damaged chunk":    {damagedCopy(t, testdata+"/lz4-multichunk.bag"), testdata + "/lz4-multichunk.bag", -1, false},
		"none damaged header":  {damagedHeaderCopy(t), testdata + "/none-multichunk.bag", 1, false},
		"none cut in a chunk":  {cutCopy(t, testdata+"/none-multichunk.bag", 70000), testdata + "/none-multichunk.bag", -1, true},
		"bz2 cut in the index": {cutCopy(t, testdata+"/bz2-multichunk.bag", 71000), testdata + "/bz2-multichunk.bag", 0, false},
		"lz4 cut":              {cutCopy(t, testdata+"/lz4-multichunk.bag", 40000), testdata + "/lz4-multichunk.bag", -1, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := run("cat", "--json", tc.path)
			if code != 1 || !strings.Contains(stderr, "lost") || !offsetLine.MatchString(stderr) {
				t.Fatalf("cat --json: exit %d, stderr %q; want 1 and the loss with offsets", code, stderr)
			}
			got := countJSONLines(t, out)
			if tc.full != "" {
				full, _, code := run("cat", "--json", tc.full)
				if code != 0 {
					t.Fatalf("cat of the undamaged bag: exit %d", code)
				}
				want := strings.Count(full, "\n")
				if tc.lost >= 0 && got != want-tc.lost || tc.lost < 0 && (got >= want || got == 0) {
					t.Errorf("cat printed %d of %d messages, want %d lost", got, want, tc.lost)
				}
			}
			for _, args := range [][]string{{"cat"}, {"verify"}, {"verify", "--json"}} {
				stdout, stderr, code := run(append(args, tc.path)...)
				checkLossSaid(t, args, stdout, stderr, code)
			}
			if tc.plot {
				_, stderr, code := run("plot", tc.path, "/imu.linear_acceleration.x", "--stats")
				if code != 1 || !offsetLine.MatchString(stderr) {
					t.Errorf("plot: exit %d, stderr %q", code, stderr)
				}
			}
		})
	}
}

// TestCatAndFixSalvageTheSame repairs damaged and cut bags and checks that
// the copy holds exactly what cat reads of the input, in the same order.
func TestCatAndFixSalvageTheSame(t *testing.T) {
	for name, in := range map[string]string{
		"bz2 damaged chunk":   damagedCopy(t, testdata+"/bz2-multichunk.bag"),
		"lz4 damaged chunk":   damagedCopy(t, testdata+"/lz4-multichunk.bag"),
		"none damaged header": damagedHeaderCopy(t),
		"none cut":            cutCopy(t, testdata+"/none-multichunk.bag", 70000),
		"lz4 cut":             cutCopy(t, testdata+"/lz4-multichunk.bag", 40000),
		"len ffffffff":        ros1Testdata + "/len-ffffffff-none.bag",
	} {
		t.Run(name, func(t *testing.T) {
			// A repaired copy holds the messages that can be trusted.
			want, _, _ := run("cat", "--json", "--no-suspect", in)
			out := filepath.Join(t.TempDir(), "fixed.bag")
			stdout, stderr, code := run("fix", in, out)
			if code != 0 && code != 3 {
				t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
			}
			if code == 3 && !offsetLine.MatchString(stderr) {
				t.Errorf("fix lost something and does not say where on stderr: %q", stderr)
			}
			got, _, catCode := run("cat", "--json", out)
			if catCode != 0 {
				t.Errorf("cat of the repaired copy: exit %d", catCode)
			}
			if got != want {
				t.Errorf("fix kept %d messages, cat reads %d", strings.Count(got, "\n"), strings.Count(want, "\n"))
			}
		})
	}
}

// TestChunkLenFFFFFFFFCommands: a chunk whose data length field reads
// 0xffffffff, contents intact, loses nothing: check warns, cat prints all
// five messages, fix keeps them.
func TestChunkLenFFFFFFFFCommands(t *testing.T) {
	in := ros1Testdata + "/len-ffffffff-none.bag"
	stdout, _, code := run("check", in)
	if code != 0 || !strings.Contains(stdout, "warning") || !strings.Contains(stdout, "data length") {
		t.Errorf("check: exit %d\n%s", code, stdout)
	}
	stdout, stderr, code := run("cat", "--json", in)
	if code != 0 || countJSONLines(t, stdout) != 5 {
		t.Errorf("cat: exit %d, %d lines\n%s", code, strings.Count(stdout, "\n"), stderr)
	}
	out := filepath.Join(t.TempDir(), "fixed.bag")
	stdout, _, code = run("fix", in, out)
	if code != 0 || !strings.Contains(stdout, "5 messages") {
		t.Errorf("fix: exit %d\n%s", code, stdout)
	}
}

// TestCheckDecodesMessages breaks a message's string length in an
// uncompressed chunk, keeping the records intact: check finds it with its
// offset, --quick does not look.
func TestCheckDecodesMessages(t *testing.T) {
	src := testdata + "/none-multichunk.bag"
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	var at int64 = -1
	var chunkPos int64
	it := b.Messages(ros1.MessageFilter{Topics: []string{"/chatter"}})
	for it.Next() {
		m := it.Message()
		ch, _ := b.ChunkAt(m.ChunkPos)
		at, chunkPos = ch.DataOffset+int64(m.DataOffset), m.ChunkPos
		break
	}
	it.Close()
	b.Close()
	if at < 0 {
		t.Fatal("no /chatter message")
	}
	data, _ := os.ReadFile(src)
	copy(data[at:], []byte{0, 0, 0, 0x80}) // std_msgs/String: its length, 2^31
	p := filepath.Join(t.TempDir(), "bad-string.bag")
	os.WriteFile(p, data, 0o644)
	stdout, _, code := run("check", "--json", p)
	var rep checkJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || code != 1 {
		t.Fatalf("check --json: exit %d, %v\n%s", code, err, stdout)
	}
	found := false
	for _, f := range rep.Findings {
		found = found || f.Severity == "error" && f.Offset == chunkPos && strings.Contains(f.Message, "does not decode")
	}
	if !found {
		t.Errorf("no error for the undecodable message in the chunk at %d: %s", chunkPos, stdout)
	}
	if stdout, _, code := run("check", "--quick", p); code != 0 || strings.Contains(stdout, "does not decode") {
		t.Errorf("check --quick: exit %d\n%s", code, stdout)
	}
	if _, _, code := run("check", src); code != 0 {
		t.Errorf("check of the undamaged bag: exit %d", code)
	}
}

// TestJSONForNonBags: every --json output is JSON, even for a file that
// is not a recording, and names the error with an offset.
func TestJSONForNonBags(t *testing.T) {
	for _, args := range [][]string{{"check", "--json"}, {"verify", "--json"}, {"info", "--json"}} {
		stdout, stderr, code := run(append(args, "helpers_test.go")...)
		var obj map[string]any
		if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
			t.Errorf("%s: not JSON (%v): %q", args[0], err, stdout)
			continue
		}
		if e, _ := obj["error"].(string); e == "" || !offsetLine.MatchString(e) || !offsetLine.MatchString(stderr) {
			t.Errorf("%s: error %q / stderr %q names no offset", args[0], obj["error"], stderr)
		}
		if args[0] == "check" {
			fs, _ := obj["findings"].([]any)
			if code != 2 || len(fs) != 1 {
				t.Errorf("check --json: exit %d, findings %v", code, fs)
			}
		} else if code != 2 {
			t.Errorf("%s --json: exit %d, want 2 (not a recording)", args[0], code)
		}
	}
}

// TestEmptyRepairIsAValidBag: a repair that keeps no message still writes
// an indexed bag the reference opens and checks.
func TestEmptyRepairIsAValidBag(t *testing.T) {
	t.Parallel() // fix's bomb run is ~14 s of bz2 under -race; shares nothing
	requireRef(t)
	for name, in := range map[string]string{
		"bomb":      ros1Testdata + "/bomb-bz2.bag",
		"cut early": cutCopy(t, testdata+"/bz2-multichunk.bag", 4200),
		"empty":     testdata + "/empty.bag",
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "fixed.bag")
			stdout, stderr, code := run("fix", in, out)
			if _, err := os.Stat(out); err != nil {
				t.Fatalf("fix wrote nothing: exit %d\n%s%s", code, stdout, stderr)
			}
			if !strings.Contains(stdout, "0 messages") {
				t.Errorf("fix does not say it kept nothing:\n%s", stdout)
			}
			for _, args := range [][]string{{"info", out}, {"check", out}} {
				b, err := exec.Command("/usr/bin/rosbag", args...).CombinedOutput()
				if err != nil || strings.Contains(string(b), "ERROR") || strings.Contains(string(b), "Exception") {
					t.Fatalf("rosbag %s: %v\n%s", args[0], err, b)
				}
			}
		})
	}
}

// TestBombCommandsMemory runs check, verify and cat on the bag of three
// bz2 chunks that each inflate to 1 GiB, in a child process with 8
// workers: each reports the chunks and the heap stays within a few
// hundred MB (it reached 6-8 GB).
func TestBombCommandsMemory(t *testing.T) {
	if os.Getenv("BAGSCOPE_BOMB_CHILD") == "1" {
		bombCommandsChild(t)
		return
	}
	// The child measures its own heap: this waits for it beside the other
	// parallel tests.
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBombCommandsMemory$", "-test.v")
	cmd.Env = append(os.Environ(), "BAGSCOPE_BOMB_CHILD=1", "GOMAXPROCS=8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "peak") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// checkLossSaid checks what TestLossIsNeverSilent asks of cat, cat
// --json, verify and verify --json (args, without the file) on a damaged
// bag, given their output and exit status: exit 1, the loss said on
// stderr with offsets (verify: every stderr line names one, and stdout
// says "lost"), verify --json's loss with its ranges.
func checkLossSaid(t *testing.T, args []string, stdout, stderr string, code int) {
	t.Helper()
	switch strings.Join(args, " ") {
	case "cat --json":
		if code != 1 || !strings.Contains(stderr, "lost") || !offsetLine.MatchString(stderr) {
			t.Errorf("cat --json: exit %d, stderr %q; want 1 and the loss with offsets", code, stderr)
		}
		countJSONLines(t, stdout) // every line JSON
	case "cat":
		if code != 1 || !offsetLine.MatchString(stderr) {
			t.Errorf("cat: exit %d, stderr %q", code, stderr)
		}
	case "verify":
		if code != 1 || !strings.Contains(stdout, "lost") || !offsetLine.MatchString(stderr) {
			t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
		}
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if !offsetLine.MatchString(l) && !strings.Contains(l, "read by scanning") {
				t.Errorf("verify: a stderr line names no offset: %s", l)
			}
		}
	case "verify --json":
		var v verifyJSON
		if err := json.Unmarshal([]byte(stdout), &v); err != nil || code != 1 || v.OK || len(v.Lost.Ranges) == 0 {
			t.Errorf("verify --json: exit %d, %v: %s", code, err, stdout)
		}
	}
}

func bombCommandsChild(t *testing.T) {
	debug.SetMemoryLimit(256 << 20)
	const limit = 320 << 20
	in := ros1Testdata + "/bomb-bz2.bag"
	for _, args := range [][]string{{"check", in}, {"verify", in}, {"verify", "--json", in}, {"cat", in}, {"cat", "--json", in}} {
		runtime.GC()
		var peak atomic.Uint64
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				peak.Store(max(peak.Load(), ms.HeapInuse))
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		stdout, stderr, code := run(args...)
		close(stop)
		<-done
		t.Logf("%s: peak heap in use %d MB", strings.Join(args[:len(args)-1], " "), peak.Load()>>20)
		if peak.Load() > limit {
			t.Errorf("%v: peak heap %d MB, want under %d MB", args, peak.Load()>>20, limit>>20)
		}
		if code != 1 || !strings.Contains(stdout+stderr, "bomb") {
			t.Errorf("%v: exit %d, no bomb named\n%s%s", args, code, stdout, stderr)
		}
		// The loss is said as on every damaged bag (TestLossIsNeverSilent).
		checkLossSaid(t, args[:len(args)-1], stdout, stderr, code)
	}
}

// TestFixStoppedBySignal starts the real binary on a bag large enough to
// take a while, stops it with SIGINT and SIGTERM while it writes, and
// checks no temporary file is left beside the output.
func TestFixStoppedBySignal(t *testing.T) {
	dir := t.TempDir()
	bin := builtBagscope(t)
	in := filepath.Join(dir, "big.bag")
	writeBigBag(t, in, 48<<20)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			outDir := t.TempDir()
			out := filepath.Join(outDir, "fixed.bag")
			cmd := exec.Command(bin, "fix", "--compression", "bz2", in, out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for the temporary file to appear and grow, or for fix
			// to end without one: the state, not a time (a loaded machine
			// may take long to start it).
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			for {
				tmps, _ := filepath.Glob(filepath.Join(outDir, ".*.tmp"))
				if len(tmps) > 0 {
					if st, err := os.Stat(tmps[0]); err == nil && st.Size() > 0 {
						break
					}
				}
				select {
				case err := <-done:
					t.Fatalf("fix ended (%v) and no temporary file was seen: %s", err, stderr.String())
				case <-time.After(5 * time.Millisecond):
				}
			}
			cmd.Process.Signal(sig)
			err := <-done
			ee, _ := err.(*exec.ExitError)
			if ee == nil || ee.ExitCode() == 0 {
				t.Fatalf("fix finished (%v) before the signal; make the input larger", err)
			}
			if left, _ := filepath.Glob(filepath.Join(outDir, "*")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			if left, _ := filepath.Glob(filepath.Join(outDir, ".*")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

// writeBigBag writes an uncompressed bag of about size bytes of
// incompressible-ish messages with the bagscope writer.
func writeBigBag(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ros1.NewWriter(f, ros1.WriterOptions{Compression: ros1.CompressionNone, ChunkThreshold: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	conn := &ros1.Connection{ID: 0, Topic: "/data", Type: "std_msgs/String", MD5Sum: "992ce8a1687cec8c8bd883ec73ca41d1", MessageDefinition: "string data\n"}
	conn.Fields = []ros1.Field{{Name: "topic", Value: []byte(conn.Topic)}, {Name: "type", Value: []byte(conn.Type)},
		{Name: "md5sum", Value: []byte(conn.MD5Sum)}, {Name: "message_definition", Value: []byte(conn.MessageDefinition)}}
	if err := w.AddConnection(conn); err != nil {
		t.Fatal(err)
	}
	msg := make([]byte, 4+64<<10)
	x := uint32(1)
	for i := 0; i*len(msg) < size; i++ {
		for j := 4; j < len(msg); j++ {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			msg[j] = 'a' + byte(x%26)
		}
		msg[0], msg[1], msg[2], msg[3] = byte(len(msg)-4), byte((len(msg)-4)>>8), 0, 0
		if err := w.WriteMessage(0, ros1.Time{Sec: 1700000000 + uint32(i)}, msg); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
