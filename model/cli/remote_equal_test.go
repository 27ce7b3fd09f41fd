package cli

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestRemoteCommandsEqualLocal: find, plot, export, filter, sql and diff on the
// URLs of one recording of each format and layout (nginx and S3) do what
// they do on the local file, write only where they are told, and leave the
// served folder as it was (issue 25).
func TestRemoteCommandsEqualLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nginx and versitygw and runs five commands on six recordings three times")
	}
	srv := startServers(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("BAGSCOPE_SQL", builtSQL(t))
	before := tree(t, srv.root)
	work := t.TempDir()
	asked := map[string]bool{}
	out := func(name string) string {
		asked[name] = true
		return filepath.Join(work, name)
	}
	n := 0
	for _, rel := range someRemote {
		local := filepath.Join(sharedBags, filepath.FromSlash(rel))
		topic, field := numericField(t, local)
		if topic == "" {
			t.Fatalf("%s: no topic in cat --json", rel)
		}
		for _, u := range srv.urls(rel) {
			n++
			flags := append([]string{"--allow-remote-scan"}, u[1:]...)
			// same runs c with FILE as the local path and as the URL and
			// compares exit status and output, the paths made alike.
			same := func(t *testing.T, c []string) (string, string) {
				t.Helper()
				with := func(file string) []string {
					var args []string
					for _, a := range c {
						args = append(args, strings.ReplaceAll(a, "FILE", file))
					}
					return args
				}
				wantOut, wantErr, wantCode := run(with(local)...)
				gotOut, gotErr, code := run(append(with(u[0]), flags...)...)
				if code != wantCode {
					t.Fatalf("%q: exit %d, local %d\nstderr: %s\nlocal stderr: %s", with(u[0]), code, wantCode, gotErr, wantErr)
				}
				g, w := unlike(gotOut, u[0]), unlike(wantOut, local)
				if g != w {
					t.Fatalf("%q: output differs:\nremote:\n%s\nlocal:\n%s", with(u[0]), clipText(gotOut), clipText(wantOut))
				}
				return gotOut, wantOut
			}
			id := strings.ReplaceAll(rel+" "+u[0][:strings.Index(u[0], ":")], "/", "|")
			t.Run(id, func(t *testing.T) {
				t.Run("find", func(t *testing.T) {
					got, _ := same(t, []string{"find", "FILE", "@t >= 0", "--json"})
					if got == "" && !strings.Contains(rel, "truncated") {
						t.Errorf("find found nothing, so compared nothing")
					}
					if field != "" {
						same(t, []string{"find", "FILE", topic + "." + field + " >= 0 || " + topic + "." + field + " < 0", "--json"})
					}
				})
				t.Run("plot", func(t *testing.T) {
					if field == "" {
						t.Skipf("%s has no numeric field in its first messages", rel)
					}
					got, _ := same(t, []string{"plot", "FILE", topic + "." + field, "--stats"})
					if got == "" {
						t.Errorf("plot --stats printed nothing")
					}
				})
				t.Run("export", func(t *testing.T) {
					l, r := out("export-local-"+strconv.Itoa(n)), out("export-remote-"+strconv.Itoa(n))
					wantOut, _, wantCode := run("export", local, l, "--format", "csv")
					gotOut, stderr, code := run(append([]string{"export", u[0], r, "--format", "csv"}, flags...)...)
					if code != wantCode {
						t.Fatalf("export: exit %d, local %d: %s", code, wantCode, stderr)
					}
					if strings.ReplaceAll(unlike(gotOut, u[0]), r, "OUT") != strings.ReplaceAll(unlike(wantOut, local), l, "OUT") {
						t.Fatalf("export printed otherwise:\nremote:\n%s\nlocal:\n%s", clipText(gotOut), clipText(wantOut))
					}
					want, got := writtenFiles(t, l), writtenFiles(t, r)
					if len(want) == 0 && wantCode == 0 {
						t.Fatalf("the local export wrote nothing under %s", l)
					}
					if len(got) != len(want) {
						t.Fatalf("export of the URL wrote %d files, of the local file %d", len(got), len(want))
					}
					for name, w := range want {
						if got[name] != w {
							t.Fatalf("export of the URL wrote %s otherwise than of the local file (%d bytes, local %d)", name, len(got[name]), len(w))
						}
					}
				})
				t.Run("filter", func(t *testing.T) {
					l, r := out("filter-local-"+strconv.Itoa(n)+".mcap"), out("filter-remote-"+strconv.Itoa(n)+".mcap")
					_, _, wantCode := run("filter", local, l, "--topics", topic)
					_, stderr, code := run(append([]string{"filter", u[0], r, "--topics", topic}, flags...)...)
					if code != wantCode {
						t.Fatalf("filter: exit %d, local %d: %s", code, wantCode, stderr)
					}
					want, _, _ := run("cat", "--json", l)
					got, _, _ := run("cat", "--json", r)
					if want == "" || got != want {
						t.Fatalf("the filtered copy of the URL reads otherwise than of the local file:\nremote:\n%s\nlocal:\n%s", clipText(got), clipText(want))
					}
				})
				t.Run("sql", func(t *testing.T) {
					got, _ := same(t, []string{"sql", "--csv", "SELECT count(*) AS n, min(log_time) AS first, max(log_time) AS last FROM messages('FILE', '" + topic + "')"})
					if !strings.HasPrefix(got, "n,first,last\n") {
						t.Errorf("sql printed no table: %q", got)
					}
				})
				t.Run("diff", func(t *testing.T) {
					wantOut, _, wantCode := run("diff", local, local)
					gotOut, stderr, code := run(append([]string{"diff", u[0], local}, flags...)...)
					if code != wantCode {
						t.Fatalf("diff URL LOCAL: exit %d, diff LOCAL LOCAL %d: %s", code, wantCode, stderr)
					}
					if unlike(unlike(gotOut, u[0]), local) != unlike(wantOut, local) {
						t.Fatalf("diff URL LOCAL:\n%s\ndiff LOCAL LOCAL:\n%s", clipText(gotOut), clipText(wantOut))
					}
					if !strings.Contains(rel, "truncated") && code != 0 {
						t.Fatalf("diff of a recording with its URL reports a difference (exit %d):\n%s%s", code, gotOut, stderr)
					}
				})
			})
		}
	}
	if after := tree(t, srv.root); after != before {
		t.Errorf("the commands changed the folder nginx serves:\n%s", treeDiff(before, after))
	}
	entries, _ := os.ReadDir(work)
	for _, e := range entries {
		if !asked[e.Name()] {
			t.Errorf("a command wrote %s, which no command was told to write", e.Name())
		}
	}
}

// writtenFiles reads every file under root, by its path below root.
func writtenFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatalf("reading %s: %v", p, err)
			}
			rel, _ := filepath.Rel(root, p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

// numericField picks, from the first messages of a recording, a topic and
// a field of it (not in an array) that holds a number; field is "" when
// none of the messages read has one (topic is then the first topic).
func numericField(t *testing.T, path string) (topic, field string) {
	t.Helper()
	stdout, stderr, _ := run("cat", "--json", "-n", "200", path)
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var m struct {
			Topic string         `json:"topic"`
			Msg   map[string]any `json:"msg"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("cat --json %s: %v\n%s", path, err, stderr)
		}
		if topic == "" {
			topic = m.Topic
		}
		if f := firstNumber(m.Msg, ""); f != "" {
			return m.Topic, f
		}
	}
	return topic, ""
}

func firstNumber(m map[string]any, prefix string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := m[k].(type) {
		case float64:
			return prefix + k
		case map[string]any:
			if f := firstNumber(v, prefix+k+"."); f != "" {
				return f
			}
		}
	}
	return ""
}
