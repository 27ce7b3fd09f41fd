package rosmsg

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
)

// TestDecodeScratch: decoding with a reused Scratch gives the tree and the
// error Decode gives, for every golden ROS 1 message and every real CDR
// message of testdata (whole and cut short, which fails part way),
// decoded one after another through one Scratch so that every tree is
// built in the memory of the ones before.
func TestDecodeScratch(t *testing.T) {
	type sample struct {
		name string
		p    *Plan
		data []byte
	}
	var samples []sample
	for _, l := range golden(t) {
		p, err := Compile(l.Type, l.FullText)
		if err != nil {
			continue
		}
		data, _ := hex.DecodeString(l.Hex)
		samples = append(samples, sample{l.Type + " " + l.Case, p, data})
	}
	for _, file := range []string{"testdata/rosbags_rs_cdr.jsonl", "testdata/mcap_cdr_messages.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r struct{ Type, Encoding, Text, Data string }
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.Text != "" {
				texts[r.Type] = r.Text
			}
			data, _ := base64.StdEncoding.DecodeString(r.Data)
			samples = append(samples, sample{r.Type, mustSchema(t, r.Encoding, r.Type, texts[r.Type]), data})
		}
	}
	var s Scratch
	nodes := 0
	for _, cut := range []bool{false, true} {
		for i, sm := range samples {
			data := sm.data
			if cut {
				data = data[:len(data)*2/3]
			}
			want, wantErr := sm.p.Decode(data)
			got, gotErr := sm.p.DecodeScratch(data, &s)
			// Printed, not reflect.DeepEqual: NaN values are equal here.
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) || !reflect.DeepEqual(gotErr, wantErr) {
				t.Fatalf("%d %s (cut %v): DecodeScratch gives %+v, %v; Decode %+v, %v", i, sm.name, cut, got, gotErr, want, wantErr)
			}
			nodes += s.used
		}
	}
	if len(samples) < 100 || nodes == 0 {
		t.Fatalf("%d samples, %d nodes from the scratch: the test decodes too little", len(samples), nodes)
	}
	t.Logf("%d messages, %d nodes taken from the scratch", 2*len(samples), nodes)
}
