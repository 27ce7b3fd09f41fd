package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// statsKeys are the keys `info --json` adds to each topic (its rate and
// timing statistics), which the reference's `rosbag info` has not.
var statsKeys = []string{"frequency", "interval_min", "interval_median", "interval_max", "jitter", "gap_count", "gaps", "active_start", "active_end", "active_span"}

// stripStatsKeys removes statsKeys from each topic of an `info --json`
// object, leaving the keys ref_info.py compares.
func stripStatsKeys(info map[string]any) {
	topics, _ := info["topics"].([]any)
	for _, t := range topics {
		if m, ok := t.(map[string]any); ok {
			for _, k := range statsKeys {
				delete(m, k)
			}
		}
	}
}

// refFreqBag is one bag's line of testdata/ref_freq.py.
type refFreqBag struct {
	Path   string `json:"path"`
	Error  string `json:"error"`
	Topics map[string]struct {
		Frequency *float64 `json:"frequency"`
		Info      *string  `json:"info"`
		Unsorted  bool     `json:"unsorted"`
		GapCount  []any    `json:"gaps"`
	} `json:"topics"`
}

// TestInfoFreqMatchesReference compares, on every ROS 1 bag the reference
// reads, each topic's rate in `info --json` with the reference's own
// computation (bit for bit), and in `info --freq` with what
// `rosbag info --freq` prints (testdata/ref_freq.py).
func TestInfoFreqMatchesReference(t *testing.T) {
	requireRef(t)
	bags := allBags(t)
	out, err := exec.Command(refPython, append([]string{testdata + "/ref_freq.py"}, bags...)...).Output()
	if err != nil {
		t.Fatalf("ref_freq.py: %v", err)
	}
	refs := map[string]*refFreqBag{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var r refFreqBag
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		refs[r.Path] = &r
	}
	rates := 0
	for _, p := range bags {
		ref := refs[p]
		if ref == nil || ref.Error != "" {
			continue
		}
		t.Run(name(p), func(t *testing.T) {
			js, stderr, code := run("info", "--json", "--freq", p)
			if code != 0 {
				t.Fatalf("info --json: exit %d: %s", code, stderr)
			}
			var got struct {
				Topics []struct {
					Topic     string   `json:"topic"`
					Frequency *float64 `json:"frequency"`
					GapCount  int      `json:"gap_count"`
				} `json:"topics"`
			}
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
			text, stderr, code := run("info", "--freq", p)
			if code != 0 {
				t.Fatalf("info --freq: exit %d: %s", code, stderr)
			}
			for _, g := range got.Topics {
				want, ok := ref.Topics[g.Topic]
				if !ok {
					t.Errorf("%s: not a topic of the reference", g.Topic)
					continue
				}
				switch {
				case (g.Frequency == nil) != (want.Frequency == nil):
					t.Errorf("%s: frequency %v, reference %v", g.Topic, g.Frequency, want.Frequency)
				case g.Frequency != nil && *g.Frequency != *want.Frequency:
					t.Errorf("%s: frequency %v, reference %v", g.Topic, *g.Frequency, *want.Frequency)
				case g.Frequency != nil:
					rates++
				}
				if g.GapCount != len(want.GapCount) {
					t.Errorf("%s: %d gaps, reference %d", g.Topic, g.GapCount, len(want.GapCount))
				}
				line := regexp.MustCompile(`(?m)^(?:topics:)?\s+` + regexp.QuoteMeta(g.Topic) + `\s+\d+ msgs?(?: @ +(\S+ \S+))?\s+:`).FindStringSubmatch(text)
				if line == nil {
					t.Errorf("%s: no topic line in info --freq:\n%s", g.Topic, text)
					continue
				}
				if want.Unsorted {
					continue // the reference's rate of unsorted entries is not one (see ref_freq.py)
				}
				if wantInfo := ""; want.Info != nil && line[1] != *want.Info || want.Info == nil && line[1] != wantInfo {
					t.Errorf("%s: info --freq shows %q, rosbag info --freq %v", g.Topic, line[1], strOrNil(want.Info))
				}
			}
		})
	}
	if rates == 0 {
		t.Fatal("no rate compared")
	}
}

func strOrNil(s *string) string {
	if s == nil {
		return "no rate"
	}
	return *s
}

// TestInfoFreqText checks `info --freq` against the real `rosbag info
// --freq` on one bag, and its extra lines.
func TestInfoFreqText(t *testing.T) {
	requireRef(t)
	p := sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag"
	ref, err := exec.Command("/usr/bin/rosbag", "info", "--freq", p).Output()
	if err != nil {
		t.Fatalf("rosbag info --freq: %v", err)
	}
	out, stderr, code := run("info", "--freq", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, rate := range []string{"@ 50.0 Hz", "@ 43.5 Hz"} {
		if !strings.Contains(string(ref), rate) || !strings.Contains(out, rate) {
			t.Errorf("%q: in rosbag info --freq %v, in ours %v", rate, strings.Contains(string(ref), rate), strings.Contains(out, rate))
		}
	}
	for _, want := range []string{
		"intervals:    /imu/data                        min 15 ms, median 20 ms, max 25 ms, jitter 532 µs, active +0.000s .. +61.201s (61.201 s), 0 gaps > 3× median",
		"/jackal_velocity_controller/odom min 0 s, median 23 ms, max 36 ms",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if plain, _, _ := run("info", p); strings.Contains(plain, " Hz") || strings.Contains(plain, "intervals:") {
		t.Errorf("info without --freq shows rates:\n%s", plain)
	}

	out, _, _ = run("info", "--freq", sharedBags+"/cruise-automation__rosbag.js/fixtures/example.bag")
	for _, want := range []string{"/tf_static                 1 msg            : tf2_msgs/TFMessage", "1 message: no interval", "14 gaps > 3× median",
		"gaps:         /rosout               +0.004s .. +0.201s (197 ms)", "/tf                   ... 1338 more"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestInfoFreqMCAP checks the rates of an MCAP recording: each topic has
// one in the text and in the JSON.
func TestInfoFreqMCAP(t *testing.T) {
	p := sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap"
	allBags(t) // skips (fails in CI) without the shared bags
	out, stderr, code := run("info", "--freq", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, " | Rate: "); n < 2 {
		t.Errorf("%d rates in:\n%s", n, out)
	}
	js, _, _ := run("info", "--json", "--freq", p)
	var got struct {
		Topics []map[string]any `json:"topics"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	for _, tp := range got.Topics {
		if f, ok := tp["frequency"].(float64); !ok || f <= 0 {
			t.Errorf("%v: frequency %v", tp["topic"], tp["frequency"])
		}
	}
}
