package sqlquery

import (
	"strings"
	"testing"
)

func TestFindCalls(t *testing.T) {
	tests := []struct {
		q     string
		calls []string // PATH|TOPIC
		err   string
	}{
		{"SELECT 1", nil, ""},
		{"SELECT * FROM messages('x.bag', '/imu')", []string{"x.bag|/imu"}, ""},
		{"select * from MESSAGES ( 'a b.mcap' ,'/t' ) m join messages('it''s.bag','/u') n using (log_time)", []string{"a b.mcap|/t", "it's.bag|/u"}, ""},
		{"SELECT 'messages(''x'', ''y'')', \"messages\" FROM t -- messages('c', 'd')\n", nil, ""},
		{"SELECT /* messages('a','b') */ s.messages FROM s", nil, ""},
		{"SELECT * FROM messages(path, '/imu')", nil, "quoted strings"},
		{"SELECT * FROM messages('x.bag')", nil, "2 arguments"},
		{"SELECT * FROM messages('x.bag', '/a', '/b')", nil, "2 arguments"},
	}
	for _, tc := range tests {
		calls, err := FindCalls(tc.q)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v; want one saying %q", tc.q, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.q, err)
			continue
		}
		var got []string
		for _, c := range calls {
			got = append(got, c.Path+"|"+c.Topic)
		}
		if strings.Join(got, ",") != strings.Join(tc.calls, ",") {
			t.Errorf("%q: calls %v; want %v", tc.q, got, tc.calls)
		}
		re := Rewrite(tc.q, calls, func(c Call) string { return "T" })
		if strings.Count(re, "T") < len(calls) || (len(calls) > 0 && strings.Contains(strings.ToLower(re), "messages('")) {
			t.Errorf("%q rewritten as %q", tc.q, re)
		}
	}
}
