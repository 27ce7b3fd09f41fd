package marks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	lib "github.com/foxglove/mcap/go/mcap"
)

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestBookmarksSidecar: bookmarks live in a file beside the recording,
// read back as saved, and the recording is never written; a recording in
// a read-only folder keeps them in the user's configuration folder.
func TestBookmarksSidecar(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	rec := filepath.Join(dir, "robot.bag")
	src, _ := os.ReadFile("../../testdata/robot.bag")
	os.WriteFile(rec, src, 0o644)
	before := sum(t, rec)
	b, err := Load(rec)
	if err != nil || len(b.List) != 0 || b.Path != rec+SidecarSuffix {
		t.Fatalf("Load = %+v, %v", b, err)
	}
	t2 := bag.Time{Sec: 1700000005, NSec: 5}
	t1 := bag.Time{Sec: 1700000001, NSec: 999999999}
	if err := b.Add(Bookmark{Time: t2, Name: "wheel slip", Note: "left wheel, \"again\"\nsee /odom", Topic: "/odom"}); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(Bookmark{Time: t1}); err != nil {
		t.Fatal(err)
	}
	again, err := Load(rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.List) != 2 || again.List[0].Time != t1 || again.List[1].Time != t2 || again.List[1].Note != "left wheel, \"again\"\nsee /odom" ||
		!strings.HasPrefix(again.List[0].Name, "bookmark at 1700000001.999999999") || again.List[1].Created.IsZero() {
		t.Fatalf("read back %+v", again.List)
	}
	if err := again.Update(1, "slip", "fixed"); err != nil {
		t.Fatal(err)
	}
	if err := again.Remove(0); err != nil {
		t.Fatal(err)
	}
	third, _ := Load(rec)
	if len(third.List) != 1 || third.List[0].Name != "slip" || third.List[0].Note != "fixed" {
		t.Fatalf("after update and remove: %+v", third.List)
	}
	if sum(t, rec) != before {
		t.Fatal("the recording was written")
	}
	var csv bytes.Buffer
	if err := WriteBookmarksCSV(&csv, again.List, bag.Time{Sec: 1700000000}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(csv.String(), "name,note,topic,log_time,log_time_ns,seconds,created\nslip,fixed,/odom,1700000005.000000005,1700000005000000005,5.000000005,") {
		t.Errorf("CSV:\n%s", csv.String())
	}

	// A read-only folder: the bookmarks go to the configuration folder.
	ro := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(ro, 0o755)
	rec2 := filepath.Join(ro, "x.bag")
	os.WriteFile(rec2, src, 0o644)
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	if os.Getuid() == 0 {
		// Root writes in a read-only folder: a folder that is gone
		// stands for one bagscope may not write in.
		rec2 = filepath.Join(ro, "gone", "x.bag")
	}
	b2, _ := Load(rec2)
	if err := b2.Add(Bookmark{Time: t1, Name: "x"}); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(b2.Path, ro) {
		t.Fatalf("saved in the read-only folder: %s", b2.Path)
	}
	b3, _ := Load(rec2)
	if len(b3.List) != 1 || b3.Path != b2.Path {
		t.Fatalf("fallback read back %+v from %s", b3.List, b3.Path)
	}
}

// TestBookmarksOfURL: a recording at a URL keeps its bookmarks in the
// configuration folder (nothing is written beside a remote recording,
// nor in the working folder), keyed by the URL as shown without what
// presigns it: the same URL signed again reads them back, the file holds
// no secret, and another URL or version has its own.
func TestBookmarksOfURL(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Chdir(t.TempDir())
	const secret, secret2 = "c2VjcmV0LXNpZ25hdHVyZQ", "YW5vdGhlci1zaWduYXR1cmU"
	url := "https://user:pw@store.example/fleet/run%2042.mcap?X-Amz-Signature=" + secret + "&X-Amz-SignedHeaders=host"
	b, err := Load(url)
	if err != nil || len(b.List) != 0 || !strings.HasPrefix(b.Path, filepath.Join(cfg, "bagscope", "bookmarks")+string(filepath.Separator)) {
		t.Fatalf("Load = %+v, %v", b, err)
	}
	at := bag.Time{Sec: 1700000003, NSec: 30}
	if err := b.Add(Bookmark{Time: at, Name: "dock"}); err != nil {
		t.Fatal(err)
	}
	if cwd, _ := os.ReadDir("."); len(cwd) != 0 {
		t.Errorf("the working folder holds %v", cwd)
	}
	data, err := os.ReadFile(b.Path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || strings.Contains(b.Path, secret) || strings.Contains(string(data), "pw@") {
		t.Errorf("the bookmarks file %s holds a secret:\n%s", b.Path, data)
	}
	// Signed again: another signature, date, lifetime and key id, the
	// parameters in another order.
	again, err := Load("https://user:pw@store.example/fleet/run%2042.mcap?X-Amz-SignedHeaders=host&X-Amz-Date=20261129T101500Z&X-Amz-Expires=600&X-Amz-Credential=AKIA2%2F20261129&X-Amz-Signature=" + secret2)
	if err != nil || len(again.List) != 1 || again.List[0].Time != at || again.List[0].Name != "dock" || again.Path != b.Path {
		t.Fatalf("signed again: %+v from %s, %v", again.List, again.Path, err)
	}
	// A query that names another object is another recording's.
	if v, _ := Load("https://store.example/fleet/run%2042.mcap?versionId=7"); v.Path == b.Path {
		t.Errorf("another version shares the bookmarks file %s", v.Path)
	}
	other, err := Load("https://store.example/fleet/run%2043.mcap")
	if err != nil || len(other.List) != 0 || other.Path == b.Path {
		t.Fatalf("another URL: %+v from %s, %v", other.List, other.Path, err)
	}
}

const eventDef = "time start_time\ntime end_time\nfoxglove_msgs/KeyValuePair[] metadata\n" +
	"================================================================================\nMSG: foxglove_msgs/KeyValuePair\nstring key\nstring value"

// TestReadEvents reads foxglove_msgs/Event messages of a ROS 1 bag and
// foxglove.Event JSON messages of an MCAP.
func TestReadEvents(t *testing.T) {
	dir := t.TempDir()
	// ROS 1.
	plan, err := rosmsg.Compile("foxglove_msgs/Event", eventDef)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "events.bag")
	f, _ := os.Create(path)
	w, _ := ros1.NewWriter(f, ros1.WriterOptions{})
	c := &ros1.Connection{ID: 0, Topic: "/events", Type: plan.Type, MD5Sum: plan.MD5, MessageDefinition: eventDef}
	for _, kv := range [][2]string{{"topic", "/events"}, {"type", plan.Type}, {"md5sum", plan.MD5}, {"message_definition", eventDef}} {
		c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
	}
	w.AddConnection(c)
	str := func(b []byte, s string) []byte {
		return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
	}
	for k := 0; k < 3; k++ {
		var d []byte
		d = binary.LittleEndian.AppendUint32(d, uint32(1700000000+k))
		d = binary.LittleEndian.AppendUint32(d, 0)
		d = binary.LittleEndian.AppendUint32(d, uint32(1700000000+k))
		d = binary.LittleEndian.AppendUint32(d, 500000000)
		d = binary.LittleEndian.AppendUint32(d, 2)
		d = str(str(d, "label"), []string{"start", "fault", "stop"}[k])
		d = str(str(d, "severity"), "high")
		w.WriteMessage(0, ros1.Time{Sec: uint32(1700000000 + k), NSec: 1000}, d)
	}
	w.Close()
	f.Close()
	s, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	evs, dropped, err := ReadEvents(context.Background(), s)
	s.Close()
	if err != nil || dropped != 0 || len(evs) != 3 {
		t.Fatalf("%d events, %d dropped, %v", len(evs), dropped, err)
	}
	if e := evs[1]; e.Label != "fault" || e.Start.Sec != 1700000001 || e.End.NSec != 500000000 || len(e.Metadata) != 2 || e.Metadata[1] != [2]string{"severity", "high"} {
		t.Errorf("event %+v", e)
	}

	// MCAP, foxglove.Event in JSON.
	var buf bytes.Buffer
	mw, err := lib.NewWriter(&buf, &lib.WriterOptions{Chunked: true})
	if err != nil {
		t.Fatal(err)
	}
	mw.WriteHeader(&lib.Header{Profile: ""})
	mw.WriteSchema(&lib.Schema{ID: 1, Name: "foxglove.Event", Encoding: "jsonschema", Data: []byte("{}")})
	mw.WriteChannel(&lib.Channel{ID: 1, SchemaID: 1, Topic: "/ev", MessageEncoding: "json"})
	mw.WriteMessage(&lib.Message{ChannelID: 1, LogTime: 1700000002e9, PublishTime: 1700000002e9,
		Data: []byte(`{"start_time": {"sec": 1700000002, "nsec": 5}, "end_time": {"sec": 1700000003, "nsec": 0}, "metadata": [{"key": "name", "value": "docked"}]}`)})
	mw.WriteMessage(&lib.Message{ChannelID: 1, LogTime: 1700000003e9, PublishTime: 1700000003e9, Data: []byte(`not json`)})
	mw.Close()
	mpath := filepath.Join(dir, "events.mcap")
	os.WriteFile(mpath, buf.Bytes(), 0o644)
	s, err = model.OpenStorage(mpath)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := EventTopics(s); len(got) != 1 || got[0] != "/ev" {
		t.Errorf("event topics %v", got)
	}
	evs, _, err = ReadEvents(context.Background(), s)
	if err != nil || len(evs) != 1 || evs[0].Label != "docked" || evs[0].Start.NSec != 5 || evs[0].End.Sec != 1700000003 {
		t.Fatalf("events %+v, %v", evs, err)
	}
	var csv bytes.Buffer
	WriteEventsCSV(&csv, evs, bag.Time{Sec: 1700000000})
	if want := "/ev,docked,1700000002.000000005,1700000002000000005,1700000003.000000000,1700000003000000000,2.000000005,1700000002000000000,name=docked\n"; !strings.HasSuffix(csv.String(), want) {
		t.Errorf("CSV:\n%s", csv.String())
	}
}
