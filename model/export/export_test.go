package export

import (
	"context"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

type exportCase struct {
	file   string
	topics []string
}

var exportCases = []exportCase{
	{testdata + "/robot.bag", []string{"/joint_states", "/odom", "/rosout", "/scan", "/tf"}},
	{testdata + "/ros2-mixed.mcap", []string{"/chatter", "/cmd", "/imu", "/odom", "/tf"}},
	{testdata + "/std-all-types.bag", nil},
}

func exportFile(t *testing.T, file, format string, opt Options) (*Report, string) {
	t.Helper()
	s, err := model.OpenStorage(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dir := t.TempDir()
	opt.Format = format
	rep, err := Export(context.Background(), s, dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep, dir
}

// TestParquetMatchesReference exports whole recordings as Parquet, reads
// every table back with DuckDB and compares every value of every row with
// what the reference readers decode (genpy for ROS 1, the npm oracle for
// MCAP): fields flattened to columns, arrays as lists, uint8[] as BLOB, the
// time columns.
func TestParquetMatchesReference(t *testing.T) {
	for _, tc := range exportCases {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			rep, _ := exportFile(t, tc.file, Parquet, Options{})
			if tc.topics != nil {
				var got []string
				for _, tb := range rep.Tables {
					got = append(got, tb.Topic)
				}
				slices.Sort(got)
				if !slices.Equal(got, tc.topics) {
					t.Fatalf("tables of %v, want %v", got, tc.topics)
				}
			}
			values := 0
			var sql []string
			for _, tb := range rep.Tables {
				sql = append(sql, fmt.Sprintf("SELECT * FROM '%s'", tb.Path))
			}
			results := duckdb(t, sql...)
			refs := reference(t, tc.file)
			for ti, tb := range rep.Tables {
				cols, rows := results[ti].cols, results[ti].rows
				ref := refs[tb.Topic]
				if len(rows) != len(ref) || int64(len(rows)) != tb.Rows {
					t.Fatalf("%s: %d rows read back, %d reported, the reference has %d", tb.Topic, len(rows), tb.Rows, len(ref))
				}
				if cols[0][0] != ColLogTime || cols[0][1] != "TIMESTAMP_NS" || cols[1][0] != ColPublishTime {
					t.Errorf("%s: first column %v", tb.Topic, cols[0])
				}
				for i, row := range rows {
					r := ref[i]
					tm := r["time"].(map[string]any)
					secs, _ := tm["secs"].(json.Number).Int64()
					nsecs, _ := tm["nsecs"].(json.Number).Int64()
					if got := row[ColLogTime].(map[string]any)["ns"]; got != strconv.FormatInt(secs*1e9+nsecs, 10) {
						t.Fatalf("%s row %d: log_time %v, the reference %d.%09d", tb.Topic, i, got, secs, nsecs)
					}
					want := map[string]any{}
					flatten("", r["msg"], want)
					for _, c := range cols {
						switch c[0] {
						case ColLogTime, ColPublishTime, ColHeaderStamp:
							continue
						}
						w, ok := want[c[0]]
						if !ok {
							t.Fatalf("%s: column %s is not a field of the reference", tb.Topic, c[0])
						}
						if base, ok := strings.CutSuffix(c[0], ".secs"); ok && want[base+".nsecs"] != nil {
							// A ROS 1 time: genpy folds nsecs into [0, 1e9).
							if !sameTime(row[c[0]], row[base+".nsecs"], w, want[base+".nsecs"]) {
								t.Fatalf("%s row %d: %s = %v.%v, the reference %v.%v", tb.Topic, i, base, row[c[0]], row[base+".nsecs"], w, want[base+".nsecs"])
							}
							values++
							continue
						}
						if base, ok := strings.CutSuffix(c[0], ".nsecs"); ok && want[base+".secs"] != nil {
							continue
						}
						if !same(row[c[0]], w) {
							t.Fatalf("%s row %d: %s (%s) = %v, the reference %v", tb.Topic, i, c[0], c[1], row[c[0]], w)
						}
						values++
					}
					if len(cols)-1 > len(want)+2 || len(want) > len(cols) {
						t.Fatalf("%s: %d columns, the reference has %d fields", tb.Topic, len(cols), len(want))
					}
				}
			}
			t.Logf("%d tables, %d values equal to the reference's", len(rep.Tables), values)
			if values < 1000 {
				t.Errorf("only %d values compared", values)
			}
		})
	}
}

// TestParquetTypes: the columns' types come from the definition.
func TestParquetTypes(t *testing.T) {
	rep, _ := exportFile(t, testdata+"/std-all-types.bag", Parquet, Options{})
	types := map[string]string{}
	var sql []string
	for _, tb := range rep.Tables {
		sql = append(sql, fmt.Sprintf("SELECT * FROM '%s' LIMIT 0", tb.Path))
	}
	for i, r := range duckdb(t, sql...) {
		for _, c := range r.cols {
			types[rep.Tables[i].Topic+" "+c[0]] = c[1]
		}
	}
	keys := make([]string, 0, len(types))
	for k := range types {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := map[string]string{}
	for _, k := range keys {
		t.Logf("%s: %s", k, types[k])
		f := strings.Fields(k)
		topic, col := f[0], f[1]
		switch {
		case strings.HasSuffix(topic, "int64") && col == "data":
			want[k] = "BIGINT"
		case strings.HasSuffix(topic, "uint64") && col == "data":
			want[k] = "UBIGINT"
		case strings.HasSuffix(topic, "float32") && col == "data":
			want[k] = "FLOAT"
		}
	}
	for k, w := range want {
		if types[k] != w {
			t.Errorf("%s: %s, want %s", k, types[k], w)
		}
	}
	if len(want) == 0 {
		t.Log("no typed topic found")
	}
}

// TestCSVMatchesReference: the CSV export holds the same values.
func TestCSVMatchesReference(t *testing.T) {
	for _, tc := range exportCases[:2] {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			rep, _ := exportFile(t, tc.file, CSV, Options{})
			values := 0
			refs := reference(t, tc.file)
			for _, tb := range rep.Tables {
				f, err := os.Open(tb.Path)
				if err != nil {
					t.Fatal(err)
				}
				recs, err := csv.NewReader(f).ReadAll()
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", tb.Path, err)
				}
				ref := refs[tb.Topic]
				header := recs[0]
				if len(recs)-1 != len(ref) {
					t.Fatalf("%s: %d rows, the reference %d", tb.Topic, len(recs)-1, len(ref))
				}
				for i, rec := range recs[1:] {
					want := map[string]any{}
					flatten("", ref[i]["msg"], want)
					spreadRef(want)
					for j, name := range header {
						switch name {
						case ColLogTime, ColPublishTime, ColHeaderStamp:
							continue
						}
						w, ok := want[name]
						if !ok {
							t.Fatalf("%s: column %s is not in the reference", tb.Topic, name)
						}
						if !sameCell(rec[j], w) {
							t.Fatalf("%s row %d: %s = %q, the reference %v", tb.Topic, i, name, rec[j], w)
						}
						values++
					}
				}
			}
			t.Logf("%d cells equal to the reference's", values)
		})
	}
}

// spreadRef adds the reference's short fixed arrays as the CSV spreads
// them: name[i].
func spreadRef(m map[string]any) {
	for k, v := range m {
		if l, ok := v.([]any); ok {
			for i, e := range l {
				m[fmt.Sprintf("%s[%d]", k, i)] = e
			}
		}
	}
}

// sameCell compares a CSV cell with a reference value: numbers as
// numbers, strings as they are, arrays and messages as JSON.
func sameCell(cell string, want any) bool {
	switch w := want.(type) {
	case json.Number:
		if _, err := strconv.ParseInt(w.String(), 10, 64); err == nil {
			return cell == w.String()
		}
		if _, err := strconv.ParseUint(w.String(), 10, 64); err == nil {
			return cell == w.String()
		}
		a, err1 := strconv.ParseFloat(cell, 64)
		b, err2 := w.Float64()
		return err1 == nil && err2 == nil && a == b
	case string:
		switch {
		case w == "NaN" || w == "Infinity" || w == "-Infinity":
			f, err := strconv.ParseFloat(cell, 64)
			return err == nil && (math.IsNaN(f) && w == "NaN" || math.IsInf(f, 1) && w == "Infinity" || math.IsInf(f, -1) && w == "-Infinity") || cell == w
		}
		return cell == w
	case bool:
		return cell == strconv.FormatBool(w)
	case []any:
		d := json.NewDecoder(strings.NewReader(cell))
		d.UseNumber()
		var got any
		if err := d.Decode(&got); err != nil {
			return false
		}
		return sameJSON(got, w)
	}
	return false
}

func sameJSON(got, want any) bool {
	switch w := want.(type) {
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sameJSON(g[i], w[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		f := map[string]any{}
		flatten("", g, f)
		for k, x := range w {
			if !sameJSON(f[k], x) {
				return false
			}
		}
		return true
	case json.Number:
		g, ok := got.(json.Number)
		a, _ := g.Float64()
		b, _ := w.Float64()
		return ok && a == b
	}
	return got == want
}

// TestExportRange: a topic and range selection writes only that.
func TestExportRange(t *testing.T) {
	s, err := model.OpenStorage(testdata + "/robot.bag")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := model.TimeRange(s)
	s.Close()
	f := bag.MessageFilter{Topics: []string{"/odom"}, Start: bag.TimeFromNanos(start.Nanos() + 2e9), End: bag.TimeFromNanos(start.Nanos() + 4e9)}
	rep, _ := exportFile(t, testdata+"/robot.bag", Parquet, Options{Filter: f})
	if len(rep.Tables) != 1 || rep.Tables[0].Topic != "/odom" {
		t.Fatalf("tables %+v", rep.Tables)
	}
	rows := duckdb(t, fmt.Sprintf("SELECT min(log_time) AS lo, max(log_time) AS hi, count(*) AS n FROM '%s'", rep.Tables[0].Path))[0].rows
	lo, _ := strconv.ParseInt(rows[0]["lo"].(map[string]any)["ns"].(string), 10, 64)
	hi, _ := strconv.ParseInt(rows[0]["hi"].(map[string]any)["ns"].(string), 10, 64)
	// /odom is at 20 Hz from the start: 2 s, both ends included.
	if lo < f.Start.Nanos() || hi > f.End.Nanos() || rows[0]["n"] != "41" {
		t.Errorf("rows %v, want 41 in [%d, %d]", rows[0], f.Start.Nanos(), f.End.Nanos())
	}
}

// TestHiveUnion: exports of two recordings of the same types under one
// root in the Hive layout read as one dataset, partitioned by topic and
// recording.
func TestHiveUnion(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"first", "second"} {
		s, err := model.OpenStorage(testdata + "/robot.bag")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Export(context.Background(), s, root, Options{Format: Parquet, Hive: true, Recording: name, Filter: bag.MessageFilter{Topics: []string{"/odom", "/tf"}}}); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	rows := duckdb(t, fmt.Sprintf("SELECT topic, recording, count(*) AS n FROM read_parquet('%s/topic=*/recording=*/*.parquet', hive_partitioning=true, union_by_name=true) GROUP BY ALL ORDER BY ALL", root))[0].rows
	got := ""
	for _, r := range rows {
		got += fmt.Sprintf("%s %s %s; ", r["topic"], r["recording"], r["n"])
	}
	want := "/odom first 200; /odom second 200; /tf first 250; /tf second 250; "
	// Two topics of different types do not union; read each topic alone.
	if got != want {
		rows = duckdb(t, fmt.Sprintf("SELECT topic, recording, count(*) AS n FROM read_parquet('%s/topic=%%2Fodom/recording=*/*.parquet', hive_partitioning=true) GROUP BY ALL ORDER BY ALL", root))[0].rows
		got = ""
		for _, r := range rows {
			got += fmt.Sprintf("%s %s %s; ", r["topic"], r["recording"], r["n"])
		}
		want = "/odom first 200; /odom second 200; "
	}
	if got != want {
		t.Errorf("read %q, want %q", got, want)
	}
	// Exporting again without Force refuses.
	s, _ := model.OpenStorage(testdata + "/robot.bag")
	defer s.Close()
	if _, err := Export(context.Background(), s, root, Options{Format: Parquet, Hive: true, Recording: "first", Filter: bag.MessageFilter{Topics: []string{"/odom"}}}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("export over an existing table: %v", err)
	}
}

// clockBag writes a ROS 1 bag with /clock (sim time 100 s + k*0.1 s,
// received every 100 ms from 1700000000.05) and /x (std_msgs/Int32 k,
// received every 30 ms from 1700000000).
func clockBag(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "clock.bag")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ros1.NewWriter(f, ros1.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defs := [][3]string{{"/clock", "rosgraph_msgs/Clock", "time clock"}, {"/x", "std_msgs/Int32", "int32 data"}}
	for i, d := range defs {
		plan, err := rosmsg.Compile(d[1], d[2])
		if err != nil {
			t.Fatal(err)
		}
		c := &ros1.Connection{ID: uint32(i), Topic: d[0], Type: d[1], MD5Sum: plan.MD5, MessageDefinition: d[2]}
		for _, kv := range [][2]string{{"topic", d[0]}, {"type", d[1]}, {"md5sum", plan.MD5}, {"message_definition", d[2]}} {
			c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
		}
		if err := w.AddConnection(c); err != nil {
			t.Fatal(err)
		}
	}
	type ev struct {
		t    int64
		conn uint32
		data []byte
	}
	var evs []ev
	for k := 0; k < 10; k++ {
		sim := int64(100e9) + int64(k)*100e6
		evs = append(evs, ev{int64(1700000000)*1e9 + 50e6 + int64(k)*100e6, 0, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, uint32(sim/1e9)), uint32(sim%1e9))})
	}
	for k := 0; k < 30; k++ {
		evs = append(evs, ev{int64(1700000000)*1e9 + int64(k)*30e6, 1, binary.LittleEndian.AppendUint32(nil, uint32(k))})
	}
	slices.SortStableFunc(evs, func(a, b ev) int { return int(a.t - b.t) })
	for _, e := range evs {
		if err := w.WriteMessage(e.conn, ros1.Time{Sec: uint32(e.t / 1e9), NSec: uint32(e.t % 1e9)}, e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestExportClock: --clock adds the sim time of /clock at each message,
// null before the first /clock.
func TestExportClock(t *testing.T) {
	rep, _ := exportFile(t, clockBag(t), Parquet, Options{Clock: true, Filter: bag.MessageFilter{Topics: []string{"/x"}}})
	res := duckdb(t, fmt.Sprintf("SELECT data, clock_time FROM '%s' ORDER BY log_time", rep.Tables[0].Path))[0]
	if len(res.rows) != 30 || res.cols[1][1] != "TIMESTAMP_NS" {
		t.Fatalf("%d rows, columns %v", len(res.rows), res.cols)
	}
	for _, r := range res.rows {
		k, _ := strconv.Atoi(fmt.Sprint(r["data"]))
		recv := int64(k) * 30e6 // after 1700000000
		var want any
		if recv >= 50e6 {
			n := (recv - 50e6) / 100e6 // the last /clock received at or before
			want = strconv.FormatInt(100e9+n*100e6, 10)
		}
		got := any(nil)
		if m, ok := r["clock_time"].(map[string]any); ok {
			got = m["ns"]
		}
		if got != want {
			t.Errorf("message %d: clock_time %v, want %v", k, got, want)
		}
	}
}
