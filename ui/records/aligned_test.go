package records

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestRecordsOfAddedRecording: in a window of two recordings the Records
// tab lists B's records with their own times (the file's bytes) and,
// beside each time field, that time on the window's timeline: its own
// plus B's offset. B's first message (read alone, at its own time) shows
// at that time plus the offset; A's records have no such rows.
func TestRecordsOfAddedRecording(t *testing.T) {
	const shift = 123_456_789_012 // B's offset: +123.456789012 s
	for _, tc := range []struct {
		name, b string
		// inner: the kind of the chunk's record that has the time (ROS
		// 1's message), "" where the chunk's own fields have it (MCAP).
		inner string
	}{
		{"ROS 1", uitest.Testdata(t, "robot.bag"), "message data"},
		{"MCAP", topicsMCAP, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			test.NewTempApp(t)
			a := openListed(t, uitest.Testdata(t, "robot.bag"))
			b := openListed(t, tc.b)
			d, err := model.Combine([]model.Member{{Doc: a}, {Doc: b, Prefix: "B:", Offset: shift}})
			if err != nil {
				t.Fatal(err)
			}
			p, w := newRecordsTest(t, d)
			set := p.level().set
			// checkRows checks the selected record's rows: each time field
			// followed by its time on the timeline, own + shift, in B only.
			checkRows := func(inB bool) (aligned []string) {
				t.Helper()
				for i, f := range p.fields {
					own, isTime := fieldTime(f)
					if !isTime {
						continue
					}
					if !inB {
						if i+1 < len(p.fields) && p.fields[i+1].Name == OnTimeline {
							t.Errorf("A's %s record shows %q", p.rec.Kind, p.fields[i+1].Name)
						}
						continue
					}
					if i+1 >= len(p.fields) || p.fields[i+1].Name != OnTimeline {
						t.Fatalf("B's %s: %s has no time on the timeline after it: %+v", p.rec.Kind, f.Name, p.fields)
					}
					v := p.fields[i+1].Value
					if want := bag.TimeFromNanos(own+shift).String() + " ("; !strings.HasPrefix(v, want) || !strings.HasSuffix(v, "B's own +123.457 s") {
						t.Errorf("B's %s %s = %q; on the timeline %q, want %s… B's own +123.457 s", p.rec.Kind, f.Name, f.Value, v, want)
					}
					aligned = append(aligned, v)
				}
				return aligned
			}
			firstB := -1
			for i := range set.Len() {
				_, _, inB := bag.RecordShift(p.lister, set.Offset(i))
				p.list.Select(i)
				checkRows(inB)
				if inB && firstB < 0 && set.Record(i).Kind == "chunk" {
					firstB = i
				}
			}
			if firstB < 0 {
				t.Fatal("no chunk of B listed")
			}
			p.list.Select(firstB)
			var got []string
			if tc.inner != "" {
				test.Tap(p.openBtn)
				p.list.Select(rowOf(p, tc.inner))
				if p.rec == nil || p.rec.Kind != tc.inner {
					t.Fatalf("no %s record in B's first chunk", tc.inner)
				}
			}
			got = checkRows(true)
			if len(got) == 0 {
				t.Fatalf("B's first %s shows no time on the timeline: %+v", p.rec.Kind, p.fields)
			}
			// The first time shown is B's first message's (the chunk's
			// start, or its first message record).
			if want := bag.TimeFromNanos(b.Summary.Start.Nanos() + shift).String(); !strings.HasPrefix(got[0], want+" ") {
				t.Errorf("B's first time on the timeline %q, want B's first message %s + offset = %s", got[0], b.Summary.Start, want)
			}
			if s := uitest.Shown(w); !strings.Contains(s, ">"+OnTimeline+"<") {
				t.Errorf("the tab does not show the times on the timeline:\n%.3000s", s)
			}
		})
	}
}
